// A small JSON reader for tests: the whole text to a tree of values, or a large document with
// the elements of one array handed over one at a time instead of kept.
//
//   const json::Value doc = json::parse(R"({"events":[{"ts":1.5}]})");
//   double ts = doc["events"][0]["ts"].number;   // doc["events"][0]["ts"].text == "1.5"
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace qprof::test::json {

enum class Kind { null, boolean, number, string, array, object };

struct Member;

struct Value {
    Kind kind = Kind::null;
    bool boolean = false;
    double number = 0;
    std::string text;  // a string's content, or a number as written
    std::vector<Value> items;
    std::vector<Member> members;  // in document order

    // The member named `name`, or nullptr.
    const Value* find(std::string_view name) const;
    // The member named `name`; throws std::out_of_range when there is none.
    const Value& operator[](std::string_view name) const;
    const Value& operator[](std::size_t index) const { return items.at(index); }
};

// A struct, not std::pair: clang 14 (clang-tidy) rejects Value's vector of pairs of Value, as
// pair's conditionally explicit constructor asks about Value before Value is complete.
struct Member {
    std::string name;
    Value value;
};

// Bad input: what was expected and the byte offset where it was not found.
class ParseError : public std::runtime_error {
  public:
    ParseError(const std::string& what, std::size_t offset);
    std::size_t offset() const { return offset_; }

  private:
    std::size_t offset_;
};

Value parse(std::string_view text);

// Parses `text`, whose top level must be an object, but hands each element of its member
// `array` to `element` and leaves that array empty: for documents too large for the tree.
using ElementHandler = std::function<void(const Value&)>;
Value parse(std::string_view text, std::string_view array, const ElementHandler& element);

}  // namespace qprof::test::json
