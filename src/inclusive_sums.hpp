// Per provider, the self and the inclusive sum of one amount each node carries (a duration, or
// memory), computed from one thread's nodes as they complete in post-order, without the tree
// (TotalsAccumulator, totals.hpp, holds one per amount).
//
//   InclusiveSums<std::uint64_t> time;
//   const std::uint64_t self = time.add(provider, depth, duration);   // node by node
//   time.sums(provider).total;                                        // once they are all in
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace qprof::detail {

// Per provider, the self and the inclusive sum of one amount each node carries (a duration, or
// memory), from the nodes in the order TreeBuilder sees them: a node at depth d adopts every
// pending node deeper than d. Pending siblings are merged into one group per depth, holding
// what their parent needs: the sum of their amounts (for its self) and where their subtrees
// started. Amounts add modulo 2^64: values read from a file must not make a sum undefined.
//
// A provider re-entered inside itself counts once in its total. In post-order a node's
// subtree is the run of nodes since the subtree started, so when a node of provider p
// arrives, p's total becomes its value at that start plus the node's amount: what the
// p-nodes inside added is replaced by their outermost p-ancestor. To recall p's total at the
// start of any pending group, each provider keeps the changes that were the first after some
// pending group started -- at most one per pending group.
template <typename Amount>
class InclusiveSums {
  public:
    struct Sums {
        Amount total{};
        Amount self{};
    };

    // Returns the node's self: its amount less its children's. Inline for the common case, a
    // provider not re-entered inside the node; the rest out of line.
    Amount add(std::uint32_t provider, std::uint32_t depth, Amount amount) {
        make_room(provider);
        const std::uint64_t serial = ++serial_;
        const Adopted children = adopt_children(depth, serial, amount);
        Slot& slot = slots_[provider];
        const Amount self = amount - children.amount;
        slot.sums.self = slot.sums.self + self;
        if (slot.last < children.start) [[likely]] {  // no change of its own inside the node
            if (!(amount == Amount{})) {              // otherwise the total stays
                change_total(slot, serial, slot.sums.total + amount);
            }
        } else {
            set_reentered_total(slot, children.start, serial, amount);
        }
        return self;
    }

    // A node of no provider these sums count (a query when they count waits): it changes no
    // sum, but adopts the pending groups deeper than it, so that its subtree's nodes are not
    // taken for a later node's. One that adopts nothing needs no group: nothing can tell it
    // from its siblings.
    void add_other(std::uint32_t depth) {
        if (!adopts_nothing(depth)) [[unlikely]] {
            adopt_children(depth, ++serial_, Amount{});
        }
    }

    // Whether add_other(depth) would change nothing: no pending group deeper than `depth`.
    bool adopts_nothing(std::uint32_t depth) const {
        return groups_.empty() || groups_.back().depth <= depth;
    }

    // add(provider, depth, Amount{}) for a node that adds nothing (a hit). One that adopts
    // nothing changes no sum: it joins the pending group at its depth, which needs no serial
    // (serials are only ever compared), or starts one.
    void add_nothing(std::uint32_t provider, std::uint32_t depth) {
        make_room(provider);
        if (!add_nothing_in_line(depth)) [[unlikely]] {
            add_out_of_line(provider, depth);  // it adopts the deeper groups (a damaged stream)
        }
    }

    // add_nothing for a provider already given to add() or add_nothing(), when it adopts
    // nothing; returns false, having changed nothing, when it would adopt pending groups.
    // It joins the pending group at its depth, changing nothing, when top_depth_is(depth).
    bool add_nothing_in_line(std::uint32_t depth) {
        if (groups_.empty() || groups_.back().depth < depth) {
            groups_.push_back(Group{depth, ++serial_, Amount{}});
            return true;
        }
        return top_depth_is(depth);
    }

    // Whether the deepest pending group is at `depth`.
    bool top_depth_is(std::uint32_t depth) const {
        return !groups_.empty() && groups_.back().depth == depth;
    }
    // Makes the provider's slot, as add() would.
    void reserve_slot(std::uint32_t provider) { make_room(provider); }

    // Provider slots given to add() or add_nothing(): slots() of them, and each one's sums.
    std::size_t slots() const { return slots_.size(); }
    const Sums& sums(std::size_t slot) const { return slots_[slot].sums; }

    // Entries held for pending nodes: at most (the most depths pending at once) x
    // (providers + 1).
    std::size_t pending_entries() const {
        std::size_t entries = groups_.size();
        for (const Slot& slot : slots_) {
            entries += slot.kept.size();
        }
        return entries;
    }

  private:
    // Completed nodes at one depth waiting for their parent.
    struct Group {
        std::uint32_t depth;
        std::uint64_t start;  // serial of the first node of the first subtree
        Amount amount;        // the nodes' amounts summed
    };
    struct Adopted {
        std::uint64_t start;  // serial of the first node of the adopting node's subtree
        Amount amount;        // its children's amounts summed
    };
    // A provider's total before a change, kept while a group that started before the change
    // and after the previous one is pending.
    struct Change {
        std::uint64_t serial;  // the node that made the change
        Amount before;
        std::uint32_t group;        // the lowest such group when the change was made
        std::uint64_t group_start;  // its start, to tell it from a later group in its place
    };
    // One provider's sums and changes, together: one bounds check and one address per node.
    struct Slot {
        Sums sums;
        std::uint64_t last = 0;  // serial of the last change
        std::vector<Change> kept;
    };

    void make_room(std::uint32_t provider) {
        if (provider >= slot_count_) [[unlikely]] {
            grow(provider);
        }
    }
    // Out of line, so that the paths taken for each hit stay small enough to inline.
    [[gnu::noinline]] void grow(std::uint32_t provider) {
        slots_.resize(std::size_t{provider} + 1);
        slot_count_ = provider + 1;
    }
    [[gnu::noinline]] void add_out_of_line(std::uint32_t provider, std::uint32_t depth) {
        add(provider, depth, Amount{});
    }

    // Takes the pending groups deeper than the node (its children), then leaves the node
    // pending at its depth.
    Adopted adopt_children(std::uint32_t depth, std::uint64_t serial, const Amount& amount) {
        Adopted children{serial, Amount{}};
        while (!groups_.empty() && groups_.back().depth > depth) {
            children.start = groups_.back().start;
            children.amount = children.amount + groups_.back().amount;
            groups_.pop_back();
        }
        if (!groups_.empty() && groups_.back().depth == depth) {
            groups_.back().amount = groups_.back().amount + amount;
        } else {
            groups_.push_back(Group{depth, children.start, amount});
        }
        return children;
    }

    // A node whose subtree changed its provider's total (a provider re-entered inside
    // itself): the total becomes its value when the subtree started plus the node's amount,
    // so that what the nodes inside added is replaced by their outermost ancestor's.
    [[gnu::noinline]] void set_reentered_total(Slot& slot, std::uint64_t subtree_start,
                                               std::uint64_t serial, const Amount& amount) {
        const Amount total = total_at(slot, subtree_start) + amount;
        if (!(total == slot.sums.total)) {
            change_total(slot, serial, total);
        }
    }

    // The node `serial` changes the provider's total to `total`: the total before is kept when
    // a pending group that started since the last change will need it.
    void change_total(Slot& slot, std::uint64_t serial, const Amount& total) {
        if (groups_.back().start > slot.last) {
            keep(slot, serial, slot.sums.total);
        }
        slot.last = serial;
        slot.sums.total = total;
    }

    // The provider's total when the subtree starting at `start` began, some change having been
    // made since. The changes kept after the first one since then were for groups that
    // subtree's root has just adopted.
    static Amount total_at(Slot& slot, std::uint64_t start) {
        std::vector<Change>& kept = slot.kept;
        while (kept.size() >= 2 && kept[kept.size() - 2].serial >= start) {
            kept.pop_back();
        }
        assert(!kept.empty() && kept.back().serial >= start);
        return kept.back().before;
    }

    [[gnu::noinline]] void keep(Slot& slot, std::uint64_t serial, const Amount before) {
        std::vector<Change>& kept = slot.kept;
        while (!kept.empty() && !still_needed(kept.back())) {
            kept.pop_back();  // its groups were adopted: so were those of any later change
        }
        // The lowest group that started after the last change. Starts grow up the stack, and
        // the group sought is most often the top one or just below: searched from the top.
        std::size_t index = groups_.size() - 1;
        while (index > 0 && groups_[index - 1].start > slot.last) {
            --index;
        }
        kept.push_back(
            Change{serial, before, static_cast<std::uint32_t>(index), groups_[index].start});
    }

    // A start is a node's serial: a group pushed later in the same place has another, while
    // the group that took in the groups above it keeps the start of the lowest, still needed.
    bool still_needed(const Change& change) const {
        return change.group < groups_.size() && groups_[change.group].start == change.group_start;
    }

    std::uint64_t serial_ = 0;
    std::vector<Group> groups_;     // by increasing depth, as the builder's pending nodes
    std::vector<Slot> slots_;       // by provider slot
    std::uint32_t slot_count_ = 0;  // slots_.size(), kept apart: no division to compare with
};

}  // namespace qprof::detail
