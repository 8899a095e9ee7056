// Compile-time facts about key types for <qprof/key.hpp>: their unqualified names, and
// whether Boost.PFR can reflect them. Include <qprof/key.hpp> rather than this file.
//
//   static_assert(qprof::detail::type_name<toyc::DefId>() == "DefId");
//   static_assert(qprof::detail::Reflectable<toyc::DefId>);
#pragma once

#include <algorithm>
#include <array>
#include <boost/pfr/core.hpp>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

namespace qprof::detail {

// ---- Type names -------------------------------------------------------------------------

template <typename T>
constexpr std::string_view function_signature() {
    return __PRETTY_FUNCTION__;
}

// g++ writes "... [with T = toyc::DefId; std::string_view = ...]", clang++ "... [T = toyc::DefId]".
template <typename T>
constexpr std::string_view qualified_type_name() {
    constexpr std::string_view signature = function_signature<T>();
    constexpr std::size_t begin = signature.find("T = ") + 4;
    constexpr std::size_t semicolon = signature.find(';', begin);
    constexpr std::size_t end = semicolon != signature.npos ? semicolon : signature.rfind(']');
    return signature.substr(begin, end - begin);
}

template <std::size_t Capacity>
struct ShortName {
    std::array<char, Capacity> chars{};
    std::size_t size = 0;
};

// Drops namespaces, enclosing classes and functions at every nesting level, so that
// "toyc::Pair<toyc::DefId>" reads "Pair<DefId>" as in the user's code. Brackets keep
// "{anonymous}::" (g++) and "(anonymous namespace)::" (clang++) one name, dropped too.
template <std::size_t Capacity>
constexpr ShortName<Capacity> strip_qualifiers(std::string_view name) {
    ShortName<Capacity> result;
    std::array<std::size_t, 16> name_start{};  // where the current name began, per level
    std::size_t level = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name.substr(i, 2) == "::") {
            result.size = name_start[level];
            ++i;
            continue;
        }
        const char c = name[i];
        result.chars[result.size++] = c;
        if (c == '<' || c == '(' || c == '[' || c == '{') {
            level = std::min(level + 1, name_start.size() - 1);
            name_start[level] = result.size;
        } else if (c == '>' || c == ')' || c == ']' || c == '}') {
            level = level > 0 ? level - 1 : 0;
        } else if (c == ',' || c == ' ') {
            name_start[level] = result.size;
        }
    }
    return result;
}

template <typename T>
struct TypeName {
    static constexpr std::string_view qualified = qualified_type_name<T>();
    static constexpr auto short_name = strip_qualifiers<qualified.size()>(qualified);
};

// The unqualified name of T, e.g. "DefId" for toyc::DefId, computed at compile time.
template <typename T>
constexpr std::string_view type_name() {
    return {TypeName<T>::short_name.chars.data(), TypeName<T>::short_name.size};
}

// ---- Aggregates that Boost.PFR can reflect ----------------------------------------------
// PFR stops the build on an aggregate with a base class or a C array member, and hands out
// bit-fields as references to temporaries that are gone when read. Such types are recognised
// here first, by brace-initialising them with probes as PFR does to count fields.

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wmissing-field-initializers"
#pragma clang diagnostic ignored "-Wmissing-braces"
#pragma clang diagnostic ignored "-Wundefined-internal"
#pragma clang diagnostic ignored "-Wundefined-inline"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif

// Probes that convert to any field type: by reference for a copyable aggregate, as PFR's do.
struct AnyLvalue {
    template <typename U>
    operator U&() const&& noexcept;
};
struct AnyRvalue {
    template <typename U>
    operator U() const&& noexcept;
};
template <typename T, std::size_t>
using AnyField = std::conditional_t<std::is_copy_constructible_v<T>, AnyLvalue, AnyRvalue>;

// Converts only to a base class of T.
template <typename T>
struct AnyBase {
    template <typename U>
    requires(std::is_base_of_v<U, T> && !std::is_same_v<U, T>) operator U&() const&& noexcept;
};

// T{field, ..., {field, ...}, field, ...}: Before probes, a braced list of Inside, then After.
template <typename T, std::size_t... Before, std::size_t... Inside, std::size_t... After>
constexpr bool initializes(std::index_sequence<Before...>, std::index_sequence<Inside...>,
                           std::index_sequence<After...>) {
    return requires {
        T{AnyField<T, Before>{}..., {AnyField<T, Inside>{}...}, AnyField<T, After>{}...};
    };
}

template <typename T, std::size_t... I>
constexpr bool initializes(std::index_sequence<I...>) {
    return requires { T{AnyField<T, I>{}...}; };
}

template <typename T, std::size_t... I>
constexpr bool initializes_base_first(std::index_sequence<I...>) {
    return requires { T{AnyBase<T>{}, AnyField<T, I>{}...}; };
}

inline constexpr std::size_t kMaxReflectedFields = 64;
inline constexpr std::size_t kTooManyFields = static_cast<std::size_t>(-1);

// The largest N for which T{probe_1, ..., probe_N} compiles. A member without a default
// constructor makes smaller N fail too, hence the search upwards past failures.
template <typename T, std::size_t N = 0, bool found = false>
constexpr std::size_t count_initializers() {
    if constexpr (N > kMaxReflectedFields) {
        return kTooManyFields;
    } else if constexpr (initializes<T>(std::make_index_sequence<N>{})) {
        return count_initializers<T, N + 1, true>();
    } else if constexpr (found) {
        return N - 1;
    } else {
        return count_initializers<T, N + 1, false>();
    }
}

template <typename T, std::size_t K, std::size_t Inside, std::size_t After>
constexpr bool braces_fit() {
    return initializes<T>(std::make_index_sequence<K>{}, std::make_index_sequence<Inside>{},
                          std::make_index_sequence<After>{});
}

template <typename T, std::size_t K, std::size_t... After>
constexpr bool braces_fit_fewer_after(std::index_sequence<After...>) {
    return ((braces_fit<T, K, 0, After>() || braces_fit<T, K, 1, After>()) || ...);
}

template <typename T, std::size_t N, std::size_t K, std::size_t... J>
constexpr bool braces_take_several(std::index_sequence<J...>) {
    return (braces_fit<T, K, J + 2, N - K - J - 2>() || ...);
}

// Whether initialiser K of N starts a field. Brace elision spreads a C array member over several
// initialisers; a braced list at the first of them takes the whole array, so it fits only with
// fewer initialisers behind it. A field that takes no braced list at all (a class without a
// default constructor and with several converting ones) is a field of its own.
template <typename T, std::size_t N, std::size_t K>
constexpr bool starts_field() {
    if constexpr (braces_fit<T, K, 0, N - 1 - K>() || braces_fit<T, K, 1, N - 1 - K>()) {
        return true;
    } else {
        return !braces_fit_fewer_after<T, K>(std::make_index_sequence<N - 1 - K>{}) &&
               !braces_take_several<T, N, K>(std::make_index_sequence<N - 1 - K>{});
    }
}

template <typename T, std::size_t N, std::size_t... K>
constexpr bool one_initializer_per_field(std::index_sequence<K...>) {
    return (starts_field<T, N, K>() && ...);
}

#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

// Whether members of these types, in this order, make an object of this size and alignment.
template <typename... Field>
constexpr bool is_layout_of(std::size_t size, std::size_t align) {
    std::size_t end = 0;
    std::size_t max_align = 1;
    ((end = (end + alignof(Field) - 1) / alignof(Field) * alignof(Field) + sizeof(Field),
      max_align = std::max(max_align, alignof(Field))),
     ...);
    const std::size_t padded = (end + max_align - 1) / max_align * max_align;
    return sizeof...(Field) == 0 || (padded == size && max_align == align);
}

// Bit-fields share storage units and reference members take a pointer's room: either way T is
// not laid out as members of the field types PFR reports.
template <typename T, std::size_t... I>
constexpr bool laid_out_as_fields(std::index_sequence<I...>) {
    using boost::pfr::tuple_element_t;
    return is_layout_of<std::remove_cvref_t<tuple_element_t<I, const T>>...>(sizeof(T), alignof(T));
}

template <typename Field>
constexpr bool reads_as_zero(const Field& field) {
    if constexpr (std::is_scalar_v<Field>) {
        return field == Field{};
    } else {
        return true;
    }
}

template <typename T, std::size_t... I>
constexpr bool fields_read_as_zero(std::index_sequence<I...>) {
    T value{};
    const T& view = value;
    return (reads_as_zero(boost::pfr::get<I>(view)) && ...);
}

template <typename T>
constexpr bool constructs() {
    T value{};
    static_cast<void>(value);  // what matters is whether this is a constant expression
    return true;
}

template <typename T>
concept ValueInitializable = requires {
    T{};
};

template <typename T>
concept ConstantConstructible = requires {
    typename std::bool_constant<constructs<T>()>;
};

template <typename T>
concept ConstantReadable = requires {
    typename std::bool_constant<fields_read_as_zero<T>(
        std::make_index_sequence<boost::pfr::tuple_size_v<T>>{})>;
};

// Constant evaluation refuses to read a temporary after its end, which is what reading a
// bit-field through PFR does. (Only for aggregates that can be built at compile time.)
template <typename T>
concept DanglingFields = ValueInitializable<T> && ConstantConstructible<T> && !ConstantReadable<T>;

template <typename T>
constexpr bool reflectable() {
    constexpr std::size_t count = count_initializers<T>();
    if constexpr (count == kTooManyFields) {
        return false;
    } else if constexpr (count == 0) {
        return true;
    } else if constexpr (initializes_base_first<T>(std::make_index_sequence<count - 1>{})) {
        return false;
    } else if constexpr (!one_initializer_per_field<T, count>(std::make_index_sequence<count>{})) {
        return false;
    } else if constexpr (!laid_out_as_fields<T>(std::make_index_sequence<count>{})) {
        return false;
    } else {
        return !DanglingFields<T>;
    }
}

// Aggregates that boost::pfr::for_each_field, get and structure_tie take.
template <typename T>
concept Reflectable = std::is_class_v<T> && std::is_aggregate_v<T> && reflectable<T>();

}  // namespace qprof::detail
