#include "huffman.hpp"

#include <algorithm>
#include <numeric>

namespace qprof::detail {

namespace {

// The depth of each symbol in a Huffman tree over `weights` (all of them non-zero).
std::vector<int> tree_depths(const std::vector<std::uint64_t>& weights) {
    const std::size_t leaves = weights.size();
    std::vector<std::size_t> order(leaves);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return weights[a] < weights[b]; });
    // Two queues: leaves by weight, then internal nodes, which are made in weight order.
    std::vector<std::uint64_t> weight(weights);
    std::vector<std::size_t> parent(2 * leaves - 1, 0);
    std::size_t next_leaf = 0;
    std::size_t next_inner = leaves;
    auto lightest = [&]() {
        if (next_leaf < leaves &&
            (next_inner >= weight.size() || weight[order[next_leaf]] <= weight[next_inner])) {
            return order[next_leaf++];
        }
        return next_inner++;
    };
    while (weight.size() < 2 * leaves - 1) {
        const std::size_t a = lightest();
        const std::size_t b = lightest();
        parent[a] = parent[b] = weight.size();
        weight.push_back(weight[a] + weight[b]);
    }
    // Parents are made after their children: walk down from the root.
    std::vector<int> depth(2 * leaves - 1, 0);
    for (std::size_t node = 2 * leaves - 1; node-- > 0;) {
        if (node + 1 < 2 * leaves - 1) {
            depth[node] = depth[parent[node]] + 1;
        }
    }
    depth.resize(leaves);
    return depth;
}

void assign_codes(HuffmanCode& code) {
    std::vector<std::uint16_t> count_of_length(16, 0);
    for (const std::uint8_t length : code.lengths) {
        ++count_of_length[length];
    }
    count_of_length[0] = 0;
    std::vector<std::uint16_t> next(16, 0);
    for (int bits = 1, value = 0; bits < 16; ++bits) {
        value = (value + count_of_length[bits - 1]) << 1;
        next[bits] = static_cast<std::uint16_t>(value);
    }
    code.codes.assign(code.lengths.size(), 0);
    for (std::size_t symbol = 0; symbol < code.lengths.size(); ++symbol) {
        const int length = code.lengths[symbol];
        if (length == 0) {
            continue;
        }
        std::uint32_t value = next[length]++;
        std::uint16_t reversed = 0;
        for (int bit = 0; bit < length; ++bit, value >>= 1) {
            reversed = static_cast<std::uint16_t>(reversed << 1 | (value & 1));
        }
        code.codes[symbol] = reversed;
    }
}

HuffmanCode fixed_code(std::size_t symbols, int (*length_of)(std::size_t)) {
    HuffmanCode code;
    for (std::size_t symbol = 0; symbol < symbols; ++symbol) {
        code.lengths.push_back(static_cast<std::uint8_t>(length_of(symbol)));
    }
    assign_codes(code);
    return code;
}

}  // namespace

std::uint64_t HuffmanCode::cost(std::span<const std::uint32_t> counts) const {
    std::uint64_t bits = 0;
    for (std::size_t symbol = 0; symbol < counts.size(); ++symbol) {
        bits += std::uint64_t{counts[symbol]} * lengths[symbol];
    }
    return bits;
}

HuffmanCode huffman_code(std::span<const std::uint32_t> counts, int max_length) {
    std::vector<std::uint64_t> count(counts.begin(), counts.end());
    // A code needs two symbols to be complete: lend unused ones a count.
    auto used_count = std::count_if(count.begin(), count.end(), [](auto c) { return c > 0; });
    for (std::size_t symbol = 0; used_count < 2 && symbol < count.size(); ++symbol) {
        if (count[symbol] == 0) {
            count[symbol] = 1;
            ++used_count;
        }
    }
    std::vector<std::size_t> used;
    std::vector<std::uint64_t> weights;
    for (std::size_t symbol = 0; symbol < count.size(); ++symbol) {
        if (count[symbol] > 0) {
            used.push_back(symbol);
            weights.push_back(count[symbol]);
        }
    }
    std::vector<int> depth = tree_depths(weights);
    while (*std::max_element(depth.begin(), depth.end()) > max_length) {
        for (std::uint64_t& weight : weights) {
            weight = (weight + 1) / 2;
        }
        depth = tree_depths(weights);
    }
    HuffmanCode code;
    code.lengths.assign(counts.size(), 0);
    for (std::size_t i = 0; i < used.size(); ++i) {
        code.lengths[used[i]] = static_cast<std::uint8_t>(depth[i]);
    }
    assign_codes(code);
    return code;
}

const HuffmanCode& fixed_literal_code() {
    static const HuffmanCode code = fixed_code(288, [](std::size_t symbol) {
        return symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8;
    });
    return code;
}

const HuffmanCode& fixed_distance_code() {
    static const HuffmanCode code = fixed_code(30, [](std::size_t) { return 5; });
    return code;
}

}  // namespace qprof::detail
