#pragma once
/// @file
/// Bounding volume hierarchy over a set of boxes: primitives sorted along a
/// Morton (Z-order) curve of their centres, then grouped into a balanced
/// binary tree with up to four primitives per leaf. Building is O(n) after a
/// radix sort; a box query visits O(log n + k) nodes for k hits.

#include <ipc/broad_phase/aabb.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/types.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace ipc {

/// A static BVH over boxes (rebuild it when the boxes change).
class BVH {
public:
    /// An empty hierarchy (queries find nothing).
    BVH() = default;

    /// Builds over boxes[ids[i]] for every i; queries report ids. ids must
    /// be valid indices into boxes (not checked).
    BVH(const std::vector<AABB>& boxes, const std::vector<Index>& ids) { build(boxes, ids); }

    /// Builds over every box; queries report box indices.
    explicit BVH(const std::vector<AABB>& boxes)
    {
        std::vector<Index> ids(boxes.size());
        for (size_t i = 0; i < ids.size(); ++i) {
            ids[i] = Index(i);
        }
        build(boxes, ids);
    }

    /// (Re)builds the hierarchy over boxes[ids[i]].
    void build(const std::vector<AABB>& boxes, const std::vector<Index>& ids);

    /// Calls visit(id) once for every stored box that overlaps query (closed
    /// boxes), in no particular order. Allocation-free.
    template <typename Visit> void query(const AABB& query, Visit&& visit) const
    {
        if (nodes_.empty()) {
            return;
        }
        std::int32_t stack[96];
        int top = 0;
        std::int32_t current = 0;
        for (;;) {
            const Node& node = nodes_[size_t(current)];
            if (node.overlaps(query)) {
                if (node.right < 0) {
                    const std::int32_t begin = node.leaf >> 3;
                    const std::int32_t end = begin + (node.leaf & 7);
                    for (std::int32_t k = begin; k < end; ++k) {
                        if (ipc::overlaps(sorted_boxes_[size_t(k)], query)) {
                            visit(sorted_ids_[size_t(k)]);
                        }
                    }
                } else {
                    stack[top++] = node.right;
                    current = current + 1;
                    continue;
                }
            }
            if (top == 0) {
                return;
            }
            current = stack[--top];
        }
    }


    /// Calls emit(thread, a, b) for every unordered pair {a, b} of stored
    /// boxes that overlap, each pair once (a != b, in no particular order),
    /// by a simultaneous descent of the tree against itself, in parallel.
    /// thread is in [0, max_threads()); emit must be safe to call
    /// concurrently for distinct thread values.
    template <typename Emit> void self_overlaps(Emit&& emit) const { pair_overlaps(*this, true, emit); }

    /// Calls emit(thread, a, b) for every a stored here and b stored in other
    /// whose boxes overlap, each pair once, in parallel (see self_overlaps).
    template <typename Emit> void overlaps_with(const BVH& other, Emit&& emit) const
    {
        pair_overlaps(other, false, emit);
    }

    /// Number of stored boxes.
    size_t size() const { return sorted_ids_.size(); }

private:
    /// 32-byte node: single-precision bounds rounded outward (so the test
    /// against a double query box is conservative; leaves then test the
    /// exact double boxes), the right child (left is the next node), or -1
    /// and the leaf's first primitive and count packed as (first << 3) | count.
    struct Node {
        float lower[3];
        float upper[3];
        std::int32_t right = -1;
        std::int32_t leaf = 0;

        bool overlaps(const AABB& box) const
        {
            return lower[0] <= box.upper[0] && box.lower[0] <= upper[0] //
                && lower[1] <= box.upper[1] && box.lower[1] <= upper[1] //
                && lower[2] <= box.upper[2] && box.lower[2] <= upper[2];
        }

        void set_box(const AABB& box)
        {
            for (size_t d = 0; d < 3; ++d) {
                float low = static_cast<float>(box.lower[d]);
                if (double(low) > box.lower[d]) {
                    low = detail::next_down(low);
                }
                float high = static_cast<float>(box.upper[d]);
                if (double(high) < box.upper[d]) {
                    high = detail::next_up(high);
                }
                lower[d] = low;
                upper[d] = high;
            }
        }
    };
    static constexpr std::int32_t leaf_size = 4;

    struct Task {
        std::int32_t a, b; ///< node here, node in the other tree
        bool self;         ///< all pairs inside subtree a (b unused)
    };

    template <typename Emit> void pair_overlaps(const BVH& other, bool self, Emit& emit) const
    {
        if (nodes_.empty() || other.nodes_.empty()) {
            return;
        }
        // Expand the top of the descent into enough independent tasks.
        std::vector<Task> tasks { Task { 0, 0, self } };
        const size_t wanted = 64 * size_t(max_threads());
        for (int round = 0; round < 24 && tasks.size() < wanted; ++round) {
            std::vector<Task> next;
            bool expanded = false;
            for (const Task& task : tasks) {
                const Node& na = nodes_[size_t(task.a)];
                if (task.self) {
                    if (na.right < 0) {
                        next.push_back(task);
                    } else {
                        next.push_back({ task.a + 1, 0, true });
                        next.push_back({ na.right, 0, true });
                        next.push_back({ task.a + 1, na.right, false });
                        expanded = true;
                    }
                    continue;
                }
                const Node& nb = other.nodes_[size_t(task.b)];
                if (!nodes_overlap(na, nb)) {
                    continue;
                }
                if (na.right < 0 && nb.right < 0) {
                    next.push_back(task);
                } else if (descend_second(na, nb)) {
                    next.push_back({ task.a, task.b + 1, false });
                    next.push_back({ task.a, nb.right, false });
                    expanded = true;
                } else {
                    next.push_back({ task.a + 1, task.b, false });
                    next.push_back({ na.right, task.b, false });
                    expanded = true;
                }
            }
            tasks.swap(next);
            if (!expanded) {
                break;
            }
        }
        // Tasks differ widely in size: hand them out dynamically (the caller
        // orders the results, so the split does not affect them).
        const std::ptrdiff_t num_tasks = std::ptrdiff_t(tasks.size());
#if IPC_HAS_OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
        for (std::ptrdiff_t t = 0; t < num_tasks; ++t) {
            const int thread = thread_index();
            const Task& task = tasks[size_t(t)];
            if (task.self) {
                self_descent(task.a, thread, emit);
            } else {
                cross_descent(other, task.a, task.b, thread, emit);
            }
        }
    }

    template <typename Emit> void self_descent(std::int32_t n, int thread, Emit& emit) const
    {
        const Node& node = nodes_[size_t(n)];
        if (node.right < 0) {
            const std::int32_t begin = node.leaf >> 3, end = begin + (node.leaf & 7);
            for (std::int32_t i = begin; i < end; ++i) {
                for (std::int32_t j = i + 1; j < end; ++j) {
                    if (ipc::overlaps(sorted_boxes_[size_t(i)], sorted_boxes_[size_t(j)])) {
                        emit(thread, sorted_ids_[size_t(i)], sorted_ids_[size_t(j)]);
                    }
                }
            }
            return;
        }
        self_descent(n + 1, thread, emit);
        self_descent(node.right, thread, emit);
        cross_descent(*this, n + 1, node.right, thread, emit);
    }

    /// All overlapping pairs (x in subtree a here, y in subtree b of other).
    /// Iterative with an explicit stack; a child pair is pushed only when
    /// its nodes overlap, so every popped pair is known to overlap.
    template <typename Emit>
    void cross_descent(const BVH& other, std::int32_t a, std::int32_t b, int thread, Emit& emit) const
    {
        if (!nodes_overlap(nodes_[size_t(a)], other.nodes_[size_t(b)])) {
            return;
        }
        constexpr int capacity = 256;
        std::int32_t stack_a[capacity], stack_b[capacity];
        int top = 0;
        for (;;) {
            const Node& na = nodes_[size_t(a)];
            const Node& nb = other.nodes_[size_t(b)];
            if (na.right < 0 && nb.right < 0) {
                leaf_pairs(other, na, nb, thread, emit);
            } else {
                // Open one node; keep the children that overlap the other.
                const bool open_b = descend_second(na, nb);
                const Node& fixed = open_b ? na : nb;
                const std::int32_t first = open_b ? b + 1 : a + 1;
                const std::int32_t second = open_b ? nb.right : na.right;
                const std::vector<Node>& opened = open_b ? other.nodes_ : nodes_;
                const bool keep_first = nodes_overlap(fixed, opened[size_t(first)]);
                const bool keep_second = nodes_overlap(fixed, opened[size_t(second)]);
                if (top + 2 > capacity) {
                    // Deeper than any balanced tree gets; finish by recursion.
                    if (keep_first) {
                        cross_descent(other, open_b ? a : first, open_b ? first : b, thread, emit);
                    }
                    if (keep_second) {
                        cross_descent(other, open_b ? a : second, open_b ? second : b, thread, emit);
                    }
                } else if (keep_first && keep_second) {
                    stack_a[top] = open_b ? a : second;
                    stack_b[top] = open_b ? second : b;
                    ++top;
                    if (open_b) {
                        b = first;
                    } else {
                        a = first;
                    }
                    continue;
                } else if (keep_first || keep_second) {
                    const std::int32_t child = keep_first ? first : second;
                    if (open_b) {
                        b = child;
                    } else {
                        a = child;
                    }
                    continue;
                }
            }
            if (top == 0) {
                return;
            }
            --top;
            a = stack_a[top];
            b = stack_b[top];
        }
    }

    /// Emits the overlapping primitive pairs of two leaves.
    template <typename Emit>
    void leaf_pairs(const BVH& other, const Node& na, const Node& nb, int thread, Emit& emit) const
    {
        const std::int32_t a_begin = na.leaf >> 3, a_end = a_begin + (na.leaf & 7);
        const std::int32_t b_begin = nb.leaf >> 3, b_end = b_begin + (nb.leaf & 7);
        for (std::int32_t i = a_begin; i < a_end; ++i) {
            const AABB& box = sorted_boxes_[size_t(i)];
            for (std::int32_t j = b_begin; j < b_end; ++j) {
                const AABB& against = other.sorted_boxes_[size_t(j)];
                // Non-short-circuit tests: one branch per pair, not six.
                const int hit = int(box.lower[0] <= against.upper[0]) & int(against.lower[0] <= box.upper[0])
                    & int(box.lower[1] <= against.upper[1]) & int(against.lower[1] <= box.upper[1])
                    & int(box.lower[2] <= against.upper[2]) & int(against.lower[2] <= box.upper[2]);
                if (hit) {
                    emit(thread, sorted_ids_[size_t(i)], other.sorted_ids_[size_t(j)]);
                }
            }
        }
    }

    static bool nodes_overlap(const Node& a, const Node& b)
    {
        return (int(a.lower[0] <= b.upper[0]) & int(b.lower[0] <= a.upper[0]) //
                & int(a.lower[1] <= b.upper[1]) & int(b.lower[1] <= a.upper[1]) //
                & int(a.lower[2] <= b.upper[2]) & int(b.lower[2] <= a.upper[2]))
            != 0;
    }

    /// Which node of a pair to open: the inner one, else the larger one.
    static bool descend_second(const Node& a, const Node& b)
    {
        if (a.right < 0) {
            return true;
        }
        if (b.right < 0) {
            return false;
        }
        const float size_a = (a.upper[0] - a.lower[0]) + (a.upper[1] - a.lower[1]) + (a.upper[2] - a.lower[2]);
        const float size_b = (b.upper[0] - b.lower[0]) + (b.upper[1] - b.lower[1]) + (b.upper[2] - b.lower[2]);
        return size_b > size_a;
    }

    std::int32_t build_node(std::int32_t begin, std::int32_t end);

    std::vector<Node> nodes_;
    std::vector<AABB> sorted_boxes_;
    std::vector<Index> sorted_ids_;
    std::vector<std::uint32_t> codes_; ///< Morton codes in sorted order (build only)
    std::vector<AABB> boxes_;          ///< double bounds of finished subtrees (build only)
};

namespace detail {

    /// Spreads the low 10 bits of x so that bit i lands at bit 3i.
    inline std::uint32_t spread_bits_3d(std::uint32_t x)
    {
        x &= 0x3ffu;
        x = (x | (x << 16)) & 0x030000ffu;
        x = (x | (x << 8)) & 0x0300f00fu;
        x = (x | (x << 4)) & 0x030c30c3u;
        x = (x | (x << 2)) & 0x09249249u;
        return x;
    }

    /// Stable LSD radix sort of 64-bit keys on their upper 32 bits.
    inline void radix_sort_upper_32(std::vector<std::uint64_t>& keys)
    {
        std::vector<std::uint64_t> buffer(keys.size());
        for (int pass = 0; pass < 4; ++pass) {
            const int shift = 32 + 8 * pass;
            size_t counts[257] = {};
            for (const std::uint64_t key : keys) {
                ++counts[((key >> shift) & 0xffu) + 1];
            }
            for (int b = 0; b < 256; ++b) {
                counts[b + 1] += counts[b];
            }
            for (const std::uint64_t key : keys) {
                buffer[counts[(key >> shift) & 0xffu]++] = key;
            }
            keys.swap(buffer);
        }
    }

    /// Smallest box containing a and b.
    inline AABB merged(const AABB& a, const AABB& b)
    {
        AABB box;
        for (size_t d = 0; d < 3; ++d) {
            box.lower[d] = std::min(a.lower[d], b.lower[d]);
            box.upper[d] = std::max(a.upper[d], b.upper[d]);
        }
        return box;
    }

} // namespace detail

inline void BVH::build(const std::vector<AABB>& boxes, const std::vector<Index>& ids)
{
    nodes_.clear();
    sorted_boxes_.clear();
    sorted_ids_.clear();
    const size_t n = ids.size();
    if (n == 0) {
        return;
    }
    // Morton codes of the box centres on a 1024^3 grid over their bounds.
    std::array<double, 3> low, high;
    low.fill(std::numeric_limits<double>::infinity());
    high.fill(-std::numeric_limits<double>::infinity());
    for (const Index id : ids) {
        const AABB& box = boxes[size_t(id)];
        for (size_t d = 0; d < 3; ++d) {
            const double centre = 0.5 * (box.lower[d] + box.upper[d]);
            low[d] = std::min(low[d], centre);
            high[d] = std::max(high[d], centre);
        }
    }
    std::array<double, 3> scale;
    for (size_t d = 0; d < 3; ++d) {
        const double extent = high[d] - low[d];
        scale[d] = extent > 0.0 && std::isfinite(extent) ? 1023.0 / extent : 0.0;
    }
    std::vector<std::uint64_t> keys(n);
    for (size_t i = 0; i < n; ++i) {
        const AABB& box = boxes[size_t(ids[i])];
        std::uint32_t code = 0;
        for (size_t d = 0; d < 3; ++d) {
            const double centre = 0.5 * (box.lower[d] + box.upper[d]);
            const double cell = std::min(1023.0, std::max(0.0, (centre - low[d]) * scale[d]));
            code |= detail::spread_bits_3d(std::uint32_t(cell)) << d;
        }
        keys[i] = (std::uint64_t(code) << 32) | std::uint64_t(i);
    }
    detail::radix_sort_upper_32(keys);

    sorted_boxes_.resize(n);
    sorted_ids_.resize(n);
    codes_.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const size_t local = size_t(keys[i] & 0xffffffffu);
        codes_[i] = std::uint32_t(keys[i] >> 32);
        sorted_ids_[i] = ids[local];
        sorted_boxes_[i] = boxes[size_t(ids[local])];
    }
    nodes_.reserve(2 * n);
    require(n < (size_t(1) << 28), "BVH: too many boxes (", n, ")");
    build_node(0, std::int32_t(n));
    std::vector<std::uint32_t>().swap(codes_);
    std::vector<AABB>().swap(boxes_);
}

inline std::int32_t BVH::build_node(std::int32_t begin, std::int32_t end)
{
    const std::int32_t index = std::int32_t(nodes_.size());
    nodes_.emplace_back();
    if (end - begin <= leaf_size) {
        AABB box = sorted_boxes_[size_t(begin)];
        for (std::int32_t k = begin + 1; k < end; ++k) {
            box = detail::merged(box, sorted_boxes_[size_t(k)]);
        }
        Node& node = nodes_[size_t(index)];
        node.set_box(box);
        node.leaf = (begin << 3) | (end - begin);
        boxes_.push_back(box);
        return index;
    }
    // Split where the highest bit in which the range's first and last Morton
    // codes differ flips, so each child is a block of the Z-order grid; equal
    // codes split in the middle.
    std::int32_t middle = begin + (end - begin) / 2;
    const std::uint32_t first_code = codes_[size_t(begin)], last_code = codes_[size_t(end - 1)];
    if (first_code != last_code) {
        std::uint32_t bit = 1u << 31;
        while (!((first_code ^ last_code) & bit)) {
            bit >>= 1;
        }
        middle = std::int32_t(std::partition_point(codes_.begin() + begin, codes_.begin() + end,
                                                   [bit](std::uint32_t code) { return !(code & bit); })
                              - codes_.begin());
    }
    // boxes_ is a stack: each call leaves its subtree's exact box on top.
    build_node(begin, middle);
    const std::int32_t right = build_node(middle, end);
    const AABB right_box = boxes_.back();
    boxes_.pop_back();
    const AABB box = detail::merged(boxes_.back(), right_box);
    boxes_.back() = box;
    Node& node = nodes_[size_t(index)];
    node.set_box(box);
    node.right = right;
    return index;
}

} // namespace ipc
