// Dense ids for distinct values, found again by hash: the program's table of interned key texts
// and the collector's numbering of key texts and key bytes share it.
//
//   TextIds ids;
//   const std::uint32_t id = ids.id_of("src/a.cc");   // 1, then 2, ... in order of first use
//   ids.texts()[id - 1];                              // "src/a.cc"
//
// The values live in the caller's vector, numbered from 1; the index holds only 32 bits of
// each value's hash and its id, 8 bytes a slot and at most half full. It never copies a value
// and frees its memory in one piece, where a node-based map of strings allocated a node and a
// second copy of each text (a third of the collector's instructions with keys recorded).
#pragma once

#include <bit>
#include <cstdint>
#include <qprof/detail/key_compare.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qprof::detail {

class IdIndex {
  public:
    // The id whose value `is_it(id)` accepts among those added with this hash, or 0.
    template <typename IsIt>
    std::uint32_t find(std::uint64_t hash, IsIt&& is_it) const {
        if (slots_.empty()) {
            return 0;
        }
        const auto bits = static_cast<std::uint32_t>(hash >> 32);
        for (std::size_t i = first_slot(bits);; i = (i + 1) & mask()) {
            const Slot slot = slots_[i];
            if (slot.id == 0) {
                return 0;
            }
            if (slot.hash_bits == bits && is_it(slot.id)) {
                return slot.id;
            }
        }
    }

    // The id find() gives, else the id `add_value()` gives the new value, added to the index.
    template <typename IsIt, typename AddValue>
    std::uint32_t find_or_add(std::uint64_t hash, IsIt&& is_it, AddValue&& add_value) {
        if (const std::uint32_t found = find(hash, is_it)) {
            return found;
        }
        const std::uint32_t id = add_value();
        add(hash, id);
        return id;
    }

    // Adds an id not in the index yet (ids are never 0).
    void add(std::uint64_t hash, std::uint32_t id) {
        if (2 * (size_ + 1) > slots_.size()) {
            grow();
        }
        place(Slot{static_cast<std::uint32_t>(hash >> 32), id});
        ++size_;
    }

  private:
    struct Slot {
        std::uint32_t hash_bits = 0;  // the hash's high half
        std::uint32_t id = 0;         // 0: empty
    };

    std::size_t mask() const { return slots_.size() - 1; }
    // Fibonacci hashing of the kept bits, so that a rehash needs no value.
    std::size_t first_slot(std::uint32_t bits) const {
        return static_cast<std::size_t>((std::uint64_t{bits} * 0x9E3779B97F4A7C15ull) >> shift_);
    }
    void place(Slot slot) {
        std::size_t i = first_slot(slot.hash_bits);
        while (slots_[i].id != 0) {
            i = (i + 1) & mask();
        }
        slots_[i] = slot;
    }
    void grow() {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
        shift_ = 64 - std::countr_zero(slots_.size());
        for (const Slot& slot : old) {
            if (slot.id != 0) {
                place(slot);
            }
        }
    }

    std::vector<Slot> slots_;  // a power of two
    int shift_ = 64;
    std::size_t size_ = 0;
};

// Each distinct text once, numbered from 1 in order of first use.
class TextIds {
  public:
    std::uint32_t id_of(std::string text) {
        return find_or_keep(text, [&] { return std::move(text); });
    }

    // The same for chars seen in place: copied only when new.
    std::uint32_t id_of_chars(std::string_view chars) {
        return find_or_keep(chars, [chars] { return std::string{chars}; });
    }

    // By id - 1.
    std::vector<std::string>& texts() { return texts_; }
    const std::vector<std::string>& texts() const { return texts_; }

  private:
    // The id of `chars`; `kept()` makes the text kept when they are new.
    template <typename Kept>
    std::uint32_t find_or_keep(std::string_view chars, Kept&& kept) {
        return index_.find_or_add(
            hash_chars(chars.data(), chars.size()),
            [&](std::uint32_t id) { return texts_[id - 1] == chars; },
            [&] {
                texts_.push_back(kept());
                return static_cast<std::uint32_t>(texts_.size());
            });
    }

    IdIndex index_;
    std::vector<std::string> texts_;
};

}  // namespace qprof::detail
