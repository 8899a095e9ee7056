#include "json.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <tuple>
#include <utility>

namespace qprof::test::json {

namespace {

constexpr std::size_t kMaxDepth = 512;
// Room for the members of a typical object (a trace event has seven or eight): moving members
// as the vector grew took a fifth of toyc_reports_test's time under ThreadSanitizer.
constexpr std::size_t kMembersReserved = 8;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

void append_utf8(std::string& out, std::uint32_t code) {
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xc0 | code >> 6);
        out += static_cast<char>(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
        out += static_cast<char>(0xe0 | code >> 12);
        out += static_cast<char>(0x80 | (code >> 6 & 0x3f));
        out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | code >> 18);
        out += static_cast<char>(0x80 | (code >> 12 & 0x3f));
        out += static_cast<char>(0x80 | (code >> 6 & 0x3f));
        out += static_cast<char>(0x80 | (code & 0x3f));
    }
}

class Parser {
  public:
    Parser(std::string_view text, std::string_view streamed, const ElementHandler* element)
        : text_(text), streamed_(streamed), element_(element) {}

    Value document() {
        Value value = this->value(0);
        skip_space();
        if (pos_ != text_.size()) {
            fail("the end of the document");
        }
        return value;
    }

  private:
    [[noreturn]] void fail(const std::string& expected) const {
        throw ParseError("expected " + expected, pos_);
    }

    void skip_space() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                       text_[pos_] == '\r' || text_[pos_] == '\t')) {
            ++pos_;
        }
    }

    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

    void expect(char c) {
        skip_space();
        if (peek() != c) {
            fail(std::string("'") + c + "'");
        }
        ++pos_;
    }

    // After skipping space: true and past `c` when it is next.
    bool accept(char c) {
        skip_space();
        if (peek() != c) {
            return false;
        }
        ++pos_;
        return true;
    }

    Value value(std::size_t depth) {
        if (depth > kMaxDepth) {
            fail("at most " + std::to_string(kMaxDepth) + " levels of nesting");
        }
        skip_space();
        Value value;
        switch (peek()) {
            case '{':
                object(value, depth);
                break;
            case '[':
                ++pos_;
                value.kind = Kind::array;
                array(depth, [&](Value&& item) { value.items.push_back(std::move(item)); });
                break;
            case '"':
                value.kind = Kind::string;
                value.text = string();
                break;
            default:
                scalar(value);
        }
        return value;
    }

    void object(Value& value, std::size_t depth) {
        ++pos_;
        value.kind = Kind::object;
        if (accept('}')) {
            return;
        }
        value.members.reserve(kMembersReserved);
        do {
            skip_space();
            if (peek() != '"') {
                fail("a member name");
            }
            std::string name = string();
            expect(':');
            if (depth == 0 && element_ != nullptr && name == streamed_ && accept('[')) {
                array(depth + 1, [&](Value&& item) { (*element_)(item); });
                value.members.push_back(Member{std::move(name), Value{}});
                value.members.back().value.kind = Kind::array;
            } else {
                value.members.push_back(Member{std::move(name), this->value(depth + 1)});
            }
        } while (accept(','));
        expect('}');
    }

    // The elements of an array whose '[' was read.
    template <typename Sink>
    void array(std::size_t depth, Sink&& sink) {
        if (accept(']')) {
            return;
        }
        do {
            sink(value(depth + 1));
        } while (accept(','));
        expect(']');
    }

    void scalar(Value& value) {
        if (peek() == '-' || is_digit(peek())) {  // the common case, without three compares
            number(value);
            return;
        }
        for (const auto& [word, kind, truth] : {std::tuple{"null", Kind::null, false},
                                                {"true", Kind::boolean, true},
                                                {"false", Kind::boolean, false}}) {
            if (text_.substr(pos_).starts_with(word)) {
                pos_ += std::string_view(word).size();
                value.kind = kind;
                value.boolean = truth;
                return;
            }
        }
        number(value);
    }

    // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    void number(Value& value) {
        const std::size_t start = pos_;
        pos_ += peek() == '-';
        if (!is_digit(peek())) {
            fail("a value");
        }
        if (peek() == '0') {
            ++pos_;
        } else {
            digits();
        }
        if (peek() == '.') {
            ++pos_;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            ++pos_;
            pos_ += peek() == '+' || peek() == '-';
            digits();
        }
        value.kind = Kind::number;
        value.text = std::string(text_.substr(start, pos_ - start));
        std::from_chars(value.text.data(), value.text.data() + value.text.size(), value.number);
    }

    void digits() {
        if (!is_digit(peek())) {
            fail("a digit");
        }
        while (is_digit(peek())) {
            ++pos_;
        }
    }

    // A string whose opening quote is next.
    std::string string() {
        ++pos_;
        std::string out;
        for (;;) {
            // A run of plain characters at once: appended one by one, each was an instrumented
            // call under ThreadSanitizer, which parses toyc's large trace (toyc_reports_test).
            const std::size_t plain = plain_run();
            out.append(text_.substr(pos_, plain));
            pos_ += plain;
            const char c = peek();
            if (pos_ >= text_.size()) {
                fail("'\"' to end the string");
            }
            if (static_cast<unsigned char>(c) < 0x20) {
                fail("no control character in a string (escape it)");
            }
            ++pos_;
            if (c == '"') {
                return out;
            }
            if (c == '\\') {
                escape(out);
            } else {
                out += c;
            }
        }
    }

    // How many characters from pos_ on need no care: no quote, backslash or control character.
    std::size_t plain_run() const {
        std::size_t end = pos_;
        while (end < text_.size() && text_[end] != '"' && text_[end] != '\\' &&
               static_cast<unsigned char>(text_[end]) >= 0x20) {
            ++end;
        }
        return end - pos_;
    }

    void escape(std::string& out) {
        const char c = peek();
        ++pos_;
        switch (c) {
            case '"':
            case '\\':
            case '/':
                out += c;
                return;
            case 'b':
                out += '\b';
                return;
            case 'f':
                out += '\f';
                return;
            case 'n':
                out += '\n';
                return;
            case 'r':
                out += '\r';
                return;
            case 't':
                out += '\t';
                return;
            case 'u':
                append_utf8(out, code_point());
                return;
        }
        --pos_;
        fail("an escape: one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX");
    }

    // After "\u": four hex digits, and a second "\uXXXX" when they begin a surrogate pair.
    std::uint32_t code_point() {
        const std::uint32_t code = hex4();
        if (code < 0xd800 || code > 0xdfff) {
            return code;
        }
        if (code > 0xdbff || !text_.substr(pos_).starts_with("\\u")) {
            fail("a surrogate pair");
        }
        pos_ += 2;
        const std::uint32_t low = hex4();
        if (low < 0xdc00 || low > 0xdfff) {
            fail("a low surrogate");
        }
        return 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
    }

    std::uint32_t hex4() {
        std::uint32_t code = 0;
        const char* begin = text_.data() + pos_;
        const char* end = text_.data() + std::min(pos_ + 4, text_.size());
        const auto result = std::from_chars(begin, end, code, 16);
        if (result.ptr != begin + 4) {
            fail("four hex digits");
        }
        pos_ += 4;
        return code;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    std::string_view streamed_;
    const ElementHandler* element_;
};

}  // namespace

const Value* Value::find(std::string_view name) const {
    for (const auto& [member, value] : members) {
        if (member == name) {
            return &value;
        }
    }
    return nullptr;
}

const Value& Value::operator[](std::string_view name) const {
    const Value* value = find(name);
    if (value == nullptr) {
        throw std::out_of_range("no member named '" + std::string(name) + "'");
    }
    return *value;
}

ParseError::ParseError(const std::string& what, std::size_t offset)
    : std::runtime_error("JSON: " + what + " at byte " + std::to_string(offset)), offset_(offset) {}

Value parse(std::string_view text) { return Parser{text, {}, nullptr}.document(); }

Value parse(std::string_view text, std::string_view array, const ElementHandler& element) {
    return Parser{text, array, &element}.document();
}

}  // namespace qprof::test::json
