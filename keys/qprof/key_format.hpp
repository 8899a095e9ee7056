// The formatting half of <qprof/key.hpp>: how a query key becomes the text shown in reports.
// Include <qprof/key.hpp> rather than this file.
//
//   qprof::key_text(DefId{0, 42});                        // "DefId{0, 42}", no user code
//   qprof::key_text(std::pair{1, std::string{"main"}});   // "(1, main)"
//
// The first rule that applies wins:
//   1. a qprof::KeyFormatter<Key> specialisation;
//   2. strings (std::string, std::string_view, const char*, char arrays) as themselves;
//   3. bool as true/false, char as the character, other numbers in decimal (floating point in
//      the shortest form that reads back as the same value);
//   4. types with an operator<< for std::ostream, through it;
//   5. enums without one as their underlying integer;
//   6. pair and tuple as (a, b), optional as its value or none, ranges as [a, b, c], cut after
//      16 elements;
//   7. aggregates that Boost.PFR can reflect as TypeName{field, field}, fields by these rules;
//   8. anything else as TypeName{?}: an unprintable key must never break the build.
#pragma once

#include <qprof/detail/require_cxx20.hpp>
#if QPROF_DETAIL_CXX20

#include <algorithm>
#include <array>
#include <boost/pfr/core.hpp>
#include <charconv>
#include <cstddef>
#include <locale>
#include <optional>
#include <ostream>
#include <qprof/detail/key_reflection.hpp>
#include <ranges>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace qprof {

// Customisation point for a key type qprof cannot print by itself. Specialise it before the
// key's first use with qprof, in every translation unit that uses it:
//
//   template <> struct qprof::KeyFormatter<Span> {
//       static void format(std::string& out, const Span& span) { ... }   // appends to out
//   };
//
// Left undefined so that a specialisation can be detected; Enable allows partial
// specialisations constrained with std::enable_if_t.
template <typename Key, typename Enable = void>
struct KeyFormatter;

// Appends the text of `key` to `out`.
template <typename Key>
void format_key(std::string& out, const Key& key);

// The text of `key`, as reports show it.
template <typename Key>
std::string key_text(const Key& key);

}  // namespace qprof

namespace qprof::detail {

// ---- Kinds of keys ----------------------------------------------------------------------

template <typename T, template <typename...> typename Template>
inline constexpr bool is_specialization_of = false;
template <typename... Args, template <typename...> typename Template>
inline constexpr bool is_specialization_of<Template<Args...>, Template> = true;

template <typename Key>
concept HasKeyFormatter = requires(std::string& out, const Key& key) {
    KeyFormatter<Key>::format(out, key);
};

template <typename T>
concept CharArray =
    std::is_array_v<T> && std::is_same_v<char, std::remove_cv_t<std::remove_extent_t<T>>>;

template <typename T>
concept StringLike = CharArray<T> ||
    (std::is_convertible_v<const T&, std::string_view> && !std::is_null_pointer_v<T>);

// Binds to std::ostream& only through a conversion, so that neither std::ostream's members
// nor its templates take it: only an operator<< written for std::ostream does.
struct OstreamRef {
    operator std::ostream&() const;
};

template <typename T>
concept HasOwnOutputOperator = requires(const T& value) {
    OstreamRef{} << value;
};

template <typename T>
concept HasOutputOperator = requires(std::ostream& out, const T& value) {
    out << value;
};

// An operator<< written for T, or else any operator<< unless it would take T through an
// implicit conversion to bool or a number: an unscoped enum, a lambda or a class with
// `operator int()` would print as a number or as 1. An array would print as its address.
template <typename T>
concept Streamable = !std::is_array_v<T> &&
                     (HasOwnOutputOperator<T> || std::is_null_pointer_v<T> ||
                      (std::is_pointer_v<T> && !std::is_function_v<std::remove_pointer_t<T>>) ||
                      (!std::is_convertible_v<const T&, bool> && HasOutputOperator<T>));

template <typename T>
concept TupleLike = is_specialization_of<T, std::pair> || is_specialization_of<T, std::tuple>;

template <typename T>
concept Optional = is_specialization_of<T, std::optional>;

// Not a range when iterating yields the type itself (std::filesystem::path): that never ends.
template <typename T>
concept Range = std::ranges::range<const T> &&
    !std::is_same_v<std::remove_cvref_t<std::ranges::range_reference_t<const T>>, T>;

// ---- Formatting, one function per kind --------------------------------------------------

// Appends items separated by ", ".
class ListWriter {
  public:
    explicit ListWriter(std::string& out) : out_(out) {}

    template <typename Item>
    void operator()(const Item& item) {
        if (!first_) out_ += ", ";
        first_ = false;
        format_key(out_, item);
    }

  private:
    std::string& out_;
    bool first_ = true;
};

template <typename Key>
void format_string(std::string& out, const Key& key) {
    if constexpr (CharArray<Key>) {
        out.append(std::begin(key), std::find(std::begin(key), std::end(key), '\0'));
    } else if constexpr (std::is_pointer_v<Key>) {
        out += key != nullptr ? std::string_view{key} : std::string_view{"nullptr"};
    } else {
        out += std::string_view{key};
    }
}

template <typename Number>
void append_chars(std::string& out, Number number) {
    char buffer[128];
    const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof buffer, number);
    out.append(buffer, result.ptr);
}

template <typename Integer>
void format_integer(std::string& out, Integer integer) {
    if constexpr (std::is_signed_v<Integer>) {
        append_chars(out, static_cast<long long>(integer));
    } else {
        append_chars(out, static_cast<unsigned long long>(integer));
    }
}

template <typename Number>
void format_number(std::string& out, Number number) {
    if constexpr (std::is_same_v<Number, bool>) {
        out += number ? "true" : "false";
    } else if constexpr (std::is_same_v<Number, char>) {
        out += number;
    } else if constexpr (std::is_floating_point_v<Number>) {
        append_chars(out, number);  // the shortest form that reads back as the same value
    } else {
        format_integer(out, number);  // also std::uint8_t: a number, not a character
    }
}

template <typename Key>
void format_streamed(std::string& out, const Key& key) {
    std::ostringstream stream;
    stream.imbue(std::locale::classic());  // no digit grouping from the user's global locale
    stream << key;
    out += stream.view();
}

template <typename Tuple>
void format_tuple(std::string& out, const Tuple& tuple) {
    out += '(';
    ListWriter list{out};
    std::apply([&list](const auto&... element) { (list(element), ...); }, tuple);
    out += ')';
}

template <typename Optional>
void format_optional(std::string& out, const Optional& optional) {
    if (optional.has_value()) {
        format_key(out, *optional);
    } else {
        out += "none";
    }
}

template <typename Range>
void format_range(std::string& out, const Range& range) {
    constexpr std::size_t kMaxElements = 16;
    out += '[';
    ListWriter list{out};
    std::size_t count = 0;
    for (const auto& element : range) {
        if (count++ == kMaxElements) {
            out += ", \xE2\x80\xA6";  // U+2026 HORIZONTAL ELLIPSIS in UTF-8
            break;
        }
        list(element);
    }
    out += ']';
}

template <typename Aggregate>
void format_aggregate(std::string& out, const Aggregate& aggregate) {
    out += type_name<Aggregate>();
    out += '{';
    ListWriter list{out};
    boost::pfr::for_each_field(aggregate, list);
    out += '}';
}

// Whether format_key makes the text of a Key with qprof's code alone: no KeyFormatter, no
// operator<< and no conversion to a string that the program wrote, for the key or any of its
// parts. The key caches format such a key while they hold their lock (qprof/detail/key_cache.hpp),
// which they never do for a key whose text may run the program's code. The rules are
// format_key's, in its order; a string other than std::string, a range and a class that
// Boost.PFR cannot see into are not such keys (none is kept by the caches).
template <typename Key>
constexpr bool formats_without_user_code() {
    if constexpr (HasKeyFormatter<Key>) {
        return false;
    } else if constexpr (StringLike<Key>) {
        return std::is_same_v<Key, std::string>;  // another may convert by the program's code
    } else if constexpr (std::is_arithmetic_v<Key>) {
        return true;
    } else if constexpr (Streamable<Key>) {
        return false;
    } else if constexpr (std::is_enum_v<Key>) {
        return true;
    } else if constexpr (TupleLike<Key>) {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (formats_without_user_code<std::tuple_element_t<I, Key>>() && ...);
        }
        (std::make_index_sequence<std::tuple_size_v<Key>>{});
    } else if constexpr (Optional<Key>) {
        return formats_without_user_code<typename Key::value_type>();
    } else if constexpr (Reflectable<Key> && !Range<Key>) {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (formats_without_user_code<boost::pfr::tuple_element_t<I, Key>>() && ...);
        }
        (std::make_index_sequence<boost::pfr::tuple_size_v<Key>>{});
    } else {
        return false;
    }
}

}  // namespace qprof::detail

namespace qprof {

template <typename Key>
void format_key(std::string& out, const Key& key) {
    if constexpr (detail::HasKeyFormatter<Key>) {
        KeyFormatter<Key>::format(out, key);
    } else if constexpr (detail::StringLike<Key>) {
        detail::format_string(out, key);
    } else if constexpr (std::is_arithmetic_v<Key>) {
        detail::format_number(out, key);
    } else if constexpr (detail::Streamable<Key>) {
        detail::format_streamed(out, key);
    } else if constexpr (std::is_enum_v<Key>) {
        detail::format_integer(out, static_cast<std::underlying_type_t<Key>>(key));
    } else if constexpr (detail::TupleLike<Key>) {
        detail::format_tuple(out, key);
    } else if constexpr (detail::Optional<Key>) {
        detail::format_optional(out, key);
    } else if constexpr (detail::Range<Key>) {
        detail::format_range(out, key);
    } else if constexpr (detail::Reflectable<Key>) {
        detail::format_aggregate(out, key);
    } else {
        out += detail::type_name<Key>();
        out += "{?}";
    }
}

template <typename Key>
std::string key_text(const Key& key) {
    std::string text;
    format_key(text, key);
    return text;
}

}  // namespace qprof

#endif  // QPROF_DETAIL_CXX20
