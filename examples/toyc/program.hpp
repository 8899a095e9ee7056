// The synthetic program toyc compiles: items grouped in modules, generated from a fixed
// seed so that every run asks the same queries in the same order.
#pragma once

#include <cstdint>
#include <vector>

#include "def_id.hpp"

namespace toyc {

enum class ItemKind : std::uint8_t { function, structure, trait };

struct Item {
    ItemKind kind;
    std::uint32_t module;
    std::uint32_t generic_params;
    // Items named by the signature. The first is usually the next item of the same module,
    // which is what makes type_of chains as deep as a module is long.
    std::vector<DefId> signature;
    std::vector<DefId> bounds;   // traits named in where-clauses
    std::vector<DefId> callees;  // items the body uses; empty unless a function
};

struct Module {
    std::uint32_t first;  // index of its first item
    std::uint32_t count;
};

struct Program {
    std::vector<Item> items;
    std::vector<Module> modules;
    std::uint32_t std_items = 0;  // size of the "std" crate the program depends on

    const Item& item(DefId id) const { return items[id.index]; }
    bool is_function(std::uint32_t index) const { return items[index].kind == ItemKind::function; }
};

Program generate_program(std::uint32_t item_count, std::uint64_t seed);

}  // namespace toyc
