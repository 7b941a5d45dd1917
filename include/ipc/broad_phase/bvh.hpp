#pragma once
/// @file
/// Bounding volume hierarchy over a set of boxes: primitives sorted along a
/// Morton (Z-order) curve of their centres, then grouped into a balanced
/// binary tree with up to eight primitives per leaf. Building is O(n) after a
/// radix sort, and all of it but the tree's topology runs in parallel; a box
/// query visits O(log n + k) nodes for k hits.
///
/// Nodes are 32 bytes with single-precision bounds rounded outward; each leaf
/// also keeps its primitives' boxes packed in single precision (one array per
/// bound and coordinate, eight slots), so that a leaf pair is tested in a
/// few vector instructions before the exact double-precision test of the
/// survivors. Eight rather than four primitives per leaf halves the nodes a
/// pair descent visits, which costs more than the wider leaf tests. Pair descents (tree against tree, or a tree against itself)
/// run in parallel over dynamically scheduled subtree pairs.

#include <ipc/broad_phase/aabb.hpp>
#include <ipc/broad_phase/radix_sort.hpp>
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

    /// Refits the hierarchy to new boxes of the primitives it was built
    /// over: the tree keeps its shape and its ids (those of the last build)
    /// and takes boxes[id] for each, with the bounds that follow. Costs about
    /// a third of a build (no Morton codes, sort or topology). boxes must cover
    /// every id of the last build (not checked).
    ///
    /// As primitives move relative to each other, the kept shape groups
    /// them less well and pair descents slow down. So a sample of the leaves
    /// (one in eight) is measured first: when their boxes' volume, relative
    /// to their primitives' volume, has grown by more than max_growth (>= 1)
    /// since the build, the tree is left as it is and false returned (the
    /// caller should rebuild). Queries give the same results either way.
    bool refit(const std::vector<AABB>& boxes, double max_growth = default_refit_growth);

    /// Growth of the sampled leaf-to-primitive volume ratio (see refit) past
    /// which refit declines: 10 %. On the cloth stack, the edge-edge descent
    /// slows down about as much as this ratio grows, and a refit saves about
    /// a fifth of that descent's time.
    static constexpr double default_refit_growth = 1.1;

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
                    const std::int32_t begin = node.leaf >> 4;
                    const std::int32_t end = begin + (node.leaf & 15);
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
    template <typename Emit> void self_overlaps(Emit&& emit) const
    {
        auto visit = [&](int thread, std::int32_t a_begin, std::int32_t a_end, std::int32_t b_begin,
                         std::int32_t b_end) { box_pairs(*this, a_begin, a_end, b_begin, b_end, thread, emit); };
        pair_overlaps(*this, true, visit);
    }

    /// Calls emit(thread, a, b) for every a stored here and b stored in other
    /// whose boxes overlap, each pair once, in parallel (see self_overlaps).
    template <typename Emit> void overlaps_with(const BVH& other, Emit&& emit) const
    {
        auto visit = [&](int thread, std::int32_t a_begin, std::int32_t a_end, std::int32_t b_begin,
                         std::int32_t b_end) { box_pairs(other, a_begin, a_end, b_begin, b_end, thread, emit); };
        pair_overlaps(other, false, visit);
    }

    /// Number of stored boxes.
    size_t size() const { return count_; }

    /// Most primitives in one leaf (a multiple of 4, at most 8: the packed
    /// leaf-pair test fills one 64-bit mask).
    static constexpr std::int32_t leaf_size = 8;

    /// Single-precision boxes of one leaf's primitives, one array per bound
    /// and coordinate, rounded outward (so a test on them never misses an
    /// overlap of the double boxes); unused slots hold empty boxes (lower
    /// +inf, upper -inf) that overlap nothing.
    struct LeafBoxes {
        /// lower[c][i]: smallest coordinate c (x, y, z) of slot i's box (metres).
        float lower[3][leaf_size];
        /// upper[c][i]: largest coordinate c of slot i's box (metres).
        float upper[3][leaf_size];
    };

    /// Stored boxes in tree order: leaf k holds slots [leaf_size k,
    /// leaf_size k + count); the other slots are padding (never reported).
    const std::vector<AABB>& sorted_boxes() const { return sorted_boxes_; }

    /// Ids of the stored boxes in tree order (padding slots hold -1).
    const std::vector<Index>& sorted_ids() const { return sorted_ids_; }

    /// Packed single-precision boxes of leaf k (slots leaf_size k onward).
    const std::vector<LeafBoxes>& leaf_boxes() const { return leaf_boxes_; }

    /// Low-level pair descent: calls visit(thread, a_begin, a_end, b_begin,
    /// b_end) for every pair of leaves (a here, b in other) whose node boxes
    /// overlap, where [a_begin, a_end) and [b_begin, b_end) are ranges of
    /// sorted_boxes(). With self (other must be *this) each unordered pair of
    /// distinct leaves is visited once and every leaf once with itself
    /// (a_begin == b_begin); the visitor then tests only j > i inside such a
    /// leaf. Parallel (dynamic schedule); thread is in [0, max_threads()).
    template <typename Visit> void visit_leaf_pairs(const BVH& other, bool self, Visit&& visit) const
    {
        pair_overlaps(other, self, visit);
    }

private:
    /// 32-byte node: single-precision bounds rounded outward (so the test
    /// against a double query box is conservative; leaves then test the
    /// exact double boxes), the right child (left is the next node), or -1
    /// and the leaf's first primitive and count packed as (first << 4) | count.
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

        /// Bounds of the union of a and b (exact: rounding outward commutes
        /// with min and max, so this equals rounding the union's double box).
        void set_union(const Node& a, const Node& b)
        {
            for (size_t d = 0; d < 3; ++d) {
                lower[d] = std::min(a.lower[d], b.lower[d]);
                upper[d] = std::max(a.upper[d], b.upper[d]);
            }
        }
    };
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
            const std::int32_t begin = node.leaf >> 4, end = begin + (node.leaf & 15);
            emit(thread, begin, end, begin, end);
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
                const std::int32_t a_begin = na.leaf >> 4, b_begin = nb.leaf >> 4;
                emit(thread, a_begin, a_begin + (na.leaf & 15), b_begin, b_begin + (nb.leaf & 15));
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

    /// Emits the overlapping box pairs of two leaf ranges (j > i when the
    /// ranges are the same leaf of a self descent).
    template <typename Emit>
    void box_pairs(const BVH& other, std::int32_t a_begin, std::int32_t a_end, std::int32_t b_begin,
                   std::int32_t b_end, int thread, Emit& emit) const
    {
        const bool same = &other == this && a_begin == b_begin;
        for (std::int32_t i = a_begin; i < a_end; ++i) {
            const AABB& box = sorted_boxes_[size_t(i)];
            for (std::int32_t j = same ? i + 1 : b_begin; j < b_end; ++j) {
                if (ipc::overlaps(box, other.sorted_boxes_[size_t(j)])) {
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

    /// A leaf whose slots the build has still to fill: its node and the
    /// sorted position of its first primitive.
    struct PendingLeaf {
        std::int32_t node, begin;
    };

    /// Appends the nodes of the subtree over sorted positions [begin, end)
    /// in depth-first order (left child right after its parent) with their
    /// links but no bounds, and its leaves, in order, to leaves. Returns the
    /// subtree's root.
    std::int32_t build_topology(const std::vector<std::uint64_t>& keys, std::int32_t begin, std::int32_t end,
                                std::vector<PendingLeaf>& leaves);

    /// Calls body(k) for every leaf k < num_leaves, in parallel blocks.
    template <typename Body> static void for_each_leaf(size_t num_leaves, Body&& body)
    {
        const std::ptrdiff_t blocks = detail::work_blocks(std::ptrdiff_t(num_leaves) / 16);
        parallel_for(0, blocks, [&](std::ptrdiff_t b) {
            const size_t last = num_leaves * size_t(b + 1) / size_t(blocks);
            for (size_t k = num_leaves * size_t(b) / size_t(blocks); k < last; ++k) {
                body(k);
            }
        });
    }

    /// Fills every leaf's slots and packed boxes from boxes[sorted_ids_],
    /// then all node bounds.
    void fit(const std::vector<AABB>& boxes);

    /// Over every eighth leaf, the summed volume of the leaf's box over that
    /// of its primitives' boxes at boxes[sorted_ids_], with every extent
    /// padded by volume_padding_ (so that flat and 2D input still measure).
    double sampled_volume_ratio(const std::vector<AABB>& boxes) const;

    std::vector<Node> nodes_;
    std::vector<AABB> sorted_boxes_;
    std::vector<Index> sorted_ids_;
    std::vector<LeafBoxes> leaf_boxes_;
    std::vector<std::int32_t> leaf_nodes_; ///< node of each leaf
    size_t count_ = 0;
    double built_volume_ratio_ = 0.0; ///< sampled_volume_ratio at the last build
    std::array<double, 3> volume_padding_ { { 1.0, 1.0, 1.0 } }; ///< per axis, fixed at the build
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

} // namespace detail

inline void BVH::build(const std::vector<AABB>& boxes, const std::vector<Index>& ids)
{
    // The slot arrays are overwritten in full below: resized, not cleared,
    // so a rebuild of similar size does not write them twice.
    nodes_.clear();
    const size_t n = ids.size();
    count_ = n;
    built_volume_ratio_ = 0.0;
    if (n == 0) {
        sorted_boxes_.clear();
        sorted_ids_.clear();
        leaf_boxes_.clear();
        leaf_nodes_.clear();
        return;
    }
    require(n < (size_t(1) << 25), "BVH: too many boxes (", n, ")");
    const std::ptrdiff_t blocks = detail::work_blocks(std::ptrdiff_t(n) / 16);
    const auto block_begin = [&](std::ptrdiff_t b) { return n * size_t(b) / size_t(blocks); };
    const auto centre = [&](size_t i, size_t d) {
        const AABB& box = boxes[size_t(ids[i])];
        return 0.5 * (box.lower[d] + box.upper[d]);
    };

    // Morton codes of the box centres on a 1024^3 grid over their bounds.
    constexpr double infinity = std::numeric_limits<double>::infinity();
    std::vector<AABB> block_bounds(static_cast<size_t>(blocks));
    parallel_for(0, blocks, [&](std::ptrdiff_t b) {
        AABB& bounds = block_bounds[size_t(b)];
        bounds.lower.fill(infinity);
        bounds.upper.fill(-infinity);
        for (size_t i = block_begin(b); i < block_begin(b + 1); ++i) {
            for (size_t d = 0; d < 3; ++d) {
                bounds.lower[d] = std::min(bounds.lower[d], centre(i, d));
                bounds.upper[d] = std::max(bounds.upper[d], centre(i, d));
            }
        }
    });
    std::array<double, 3> low, scale;
    for (size_t d = 0; d < 3; ++d) {
        double lowest = infinity, highest = -infinity;
        for (const AABB& bounds : block_bounds) {
            lowest = std::min(lowest, bounds.lower[d]);
            highest = std::max(highest, bounds.upper[d]);
        }
        const double extent = highest - lowest;
        low[d] = lowest;
        scale[d] = extent > 0.0 && std::isfinite(extent) ? 1023.0 / extent : 0.0;
    }
    // key = Morton code << 32 | position in ids; sorting on the code alone
    // (stable) orders equal codes by position.
    std::vector<std::uint64_t> keys(n);
    parallel_for(0, blocks, [&](std::ptrdiff_t b) {
        for (size_t i = block_begin(b); i < block_begin(b + 1); ++i) {
            std::uint32_t code = 0;
            for (size_t d = 0; d < 3; ++d) {
                const double cell = std::min(1023.0, std::max(0.0, (centre(i, d) - low[d]) * scale[d]));
                code |= detail::spread_bits_3d(std::uint32_t(cell)) << d;
            }
            keys[i] = (std::uint64_t(code) << 32) | std::uint64_t(i);
        }
    });
    detail::radix_sort_keys(keys, 30, 32);

    // Topology (sequential, no bounds), then each slot's id, then the boxes.
    nodes_.reserve(n);
    std::vector<PendingLeaf> leaves;
    leaves.reserve(n / 2 + 1);
    build_topology(keys, 0, std::int32_t(n), leaves);
    const size_t num_leaves = leaves.size();
    sorted_ids_.resize(num_leaves * leaf_size);
    leaf_nodes_.resize(num_leaves);
    for_each_leaf(num_leaves, [&](size_t k) {
        leaf_nodes_[k] = leaves[k].node;
        const std::int32_t count = nodes_[size_t(leaves[k].node)].leaf & 15;
        for (std::int32_t j = 0; j < leaf_size; ++j) {
            sorted_ids_[k * leaf_size + size_t(j)]
                = j < count ? ids[size_t(keys[size_t(leaves[k].begin + j)] & 0xffffffffu)] : Index(-1);
        }
    });
    fit(boxes);
    // A ten-thousandth of the whole extent on each axis (1 on a flat one).
    for (size_t d = 0; d < 3; ++d) {
        const double extent = double(nodes_[0].upper[d]) - double(nodes_[0].lower[d]);
        volume_padding_[d] = extent > 0.0 && std::isfinite(extent) ? 1e-4 * extent : 1.0;
    }
    built_volume_ratio_ = sampled_volume_ratio(boxes);
}

inline bool BVH::refit(const std::vector<AABB>& boxes, double max_growth)
{
    require(max_growth >= 1.0, "BVH::refit: max_growth must be at least 1, got ", max_growth);
    if (nodes_.empty()) {
        return true;
    }
    // NaN (non-finite boxes) compares false: decline, and let the build
    // handle them.
    if (!(sampled_volume_ratio(boxes) <= max_growth * built_volume_ratio_)) {
        return false;
    }
    fit(boxes);
    return true;
}

inline double BVH::sampled_volume_ratio(const std::vector<AABB>& boxes) const
{
    constexpr size_t stride = 8;
    const size_t num_leaves = leaf_nodes_.size();
    const size_t samples = (num_leaves + stride - 1) / stride;
    // Fixed blocks, so that the sums do not depend on the thread count.
    constexpr size_t block_samples = 64;
    const std::ptrdiff_t blocks = std::ptrdiff_t((samples + block_samples - 1) / block_samples);
    std::vector<std::array<double, 2>> sums(static_cast<size_t>(blocks));
    parallel_for(0, blocks, [&](std::ptrdiff_t b) {
        double leaf_volume = 0.0, primitive_volume = 0.0;
        for (size_t s = size_t(b) * block_samples, end = std::min(samples, s + block_samples); s < end; ++s) {
            const size_t k = s * stride;
            const std::int32_t count = nodes_[size_t(leaf_nodes_[k])].leaf & 15;
            AABB leaf;
            leaf.lower.fill(std::numeric_limits<double>::infinity());
            leaf.upper.fill(-std::numeric_limits<double>::infinity());
            for (std::int32_t j = 0; j < count; ++j) {
                const AABB& box = boxes[size_t(sorted_ids_[k * leaf_size + size_t(j)])];
                double volume = 1.0;
                for (size_t d = 0; d < 3; ++d) {
                    leaf.lower[d] = std::min(leaf.lower[d], box.lower[d]);
                    leaf.upper[d] = std::max(leaf.upper[d], box.upper[d]);
                    volume *= box.upper[d] - box.lower[d] + volume_padding_[d];
                }
                primitive_volume += volume;
            }
            double volume = 1.0;
            for (size_t d = 0; d < 3; ++d) {
                volume *= leaf.upper[d] - leaf.lower[d] + volume_padding_[d];
            }
            leaf_volume += volume;
        }
        sums[size_t(b)] = { { leaf_volume, primitive_volume } };
    });
    double leaf_volume = 0.0, primitive_volume = 0.0;
    for (const auto& sum : sums) {
        leaf_volume += sum[0];
        primitive_volume += sum[1];
    }
    return leaf_volume / primitive_volume;
}

inline void BVH::fit(const std::vector<AABB>& boxes)
{
    const size_t num_leaves = leaf_nodes_.size();
    sorted_boxes_.resize(num_leaves * leaf_size);
    leaf_boxes_.resize(num_leaves);
    for_each_leaf(num_leaves, [&](size_t k) {
#if defined(__GNUC__) || defined(__clang__)
        // The boxes are gathered in Morton order, far apart in memory:
        // fetch those of a few leaves ahead.
        if (k + 8 < num_leaves) {
            for (size_t j = 0; j < size_t(leaf_size); ++j) {
                const Index ahead = sorted_ids_[(k + 8) * leaf_size + j];
                if (ahead >= 0) {
                    const AABB* box = &boxes[size_t(ahead)];
                    __builtin_prefetch(box);
                    __builtin_prefetch(reinterpret_cast<const char*>(box) + sizeof(AABB) - 1);
                }
            }
        }
#endif
        Node& node = nodes_[size_t(leaf_nodes_[k])];
        const std::int32_t count = node.leaf & 15;
        LeafBoxes& packed = leaf_boxes_[k];
        for (std::int32_t j = 0; j < leaf_size; ++j) {
            const size_t slot = k * leaf_size + size_t(j);
            if (j < count) {
                const AABB& primitive = boxes[size_t(sorted_ids_[slot])];
                sorted_boxes_[slot] = primitive;
                for (size_t d = 0; d < 3; ++d) {
                    packed.lower[d][j] = detail::round_down_to_float(primitive.lower[d]);
                    packed.upper[d][j] = detail::round_up_to_float(primitive.upper[d]);
                }
            } else {
                sorted_boxes_[slot] = AABB();
                for (size_t d = 0; d < 3; ++d) {
                    packed.lower[d][j] = std::numeric_limits<float>::infinity();
                    packed.upper[d][j] = -std::numeric_limits<float>::infinity();
                }
            }
        }
        // Leaf bounds: the union of its (outward-rounded) primitives.
        for (size_t d = 0; d < 3; ++d) {
            node.lower[d] = *std::min_element(packed.lower[d], packed.lower[d] + count);
            node.upper[d] = *std::max_element(packed.upper[d], packed.upper[d] + count);
        }
    });
    // Inner bounds bottom-up: children come after their parent.
    for (size_t i = nodes_.size(); i-- > 0;) {
        Node& node = nodes_[i];
        if (node.right >= 0) {
            node.set_union(nodes_[i + 1], nodes_[size_t(node.right)]);
        }
    }
}

inline std::int32_t BVH::build_topology(const std::vector<std::uint64_t>& keys, std::int32_t begin,
                                        std::int32_t end, std::vector<PendingLeaf>& leaves)
{
    const std::int32_t index = std::int32_t(nodes_.size());
    nodes_.emplace_back();
    if (end - begin <= leaf_size) {
        nodes_[size_t(index)].leaf = (std::int32_t(leaves.size() * leaf_size) << 4) | (end - begin);
        leaves.push_back({ index, begin });
        return index;
    }
    // Split where the highest bit in which the range's first and last Morton
    // codes differ flips, so each child is a block of the Z-order grid; equal
    // codes split in the middle.
    std::int32_t middle = begin + (end - begin) / 2;
    const std::uint64_t first_code = keys[size_t(begin)] >> 32, last_code = keys[size_t(end - 1)] >> 32;
    if (first_code != last_code) {
        std::uint64_t bit = std::uint64_t(1) << 31;
        while (!((first_code ^ last_code) & bit)) {
            bit >>= 1;
        }
        bit <<= 32;
        middle = std::int32_t(std::partition_point(keys.begin() + begin, keys.begin() + end,
                                                   [bit](std::uint64_t key) { return !(key & bit); })
                              - keys.begin());
    }
    build_topology(keys, begin, middle, leaves);
    const std::int32_t right = build_topology(keys, middle, end, leaves);
    nodes_[size_t(index)].right = right;
    return index;
}

} // namespace ipc
