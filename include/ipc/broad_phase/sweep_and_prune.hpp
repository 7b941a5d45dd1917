#pragma once
/// @file
/// Sweep and prune: boxes sorted by their lower bound along the axis where
/// the box centres spread most; a pair can overlap only if one box starts
/// inside the other's interval on that axis, so each box scans forward over
/// the boxes that start within it. Each overlapping pair is found exactly
/// once, whatever the sizes of the boxes (a large box costs a scan over what
/// it covers, not over everything).

#include <ipc/broad_phase/aabb.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/types.hpp>

#include <algorithm>
#include <utility>
#include <vector>

namespace ipc {
namespace detail {

    /// Boxes of one set sorted by their lower bound along an axis.
    struct SortedBoxes {
        std::vector<double> lower;  ///< lower bound along the axis, ascending
        std::vector<AABB> boxes;    ///< boxes in the same order
        std::vector<Index> ids;     ///< ids in the same order
    };

    inline SortedBoxes sort_along_axis(const std::vector<AABB>& boxes, const std::vector<Index>& ids, size_t axis)
    {
        std::vector<std::pair<double, Index>> order(ids.size());
        for (size_t i = 0; i < ids.size(); ++i) {
            order[i] = { boxes[size_t(ids[i])].lower[axis], Index(i) };
        }
        std::sort(order.begin(), order.end());
        SortedBoxes sorted;
        sorted.lower.resize(ids.size());
        sorted.boxes.resize(ids.size());
        sorted.ids.resize(ids.size());
        for (size_t i = 0; i < order.size(); ++i) {
            const Index id = ids[size_t(order[i].second)];
            sorted.lower[i] = order[i].first;
            sorted.boxes[i] = boxes[size_t(id)];
            sorted.ids[i] = id;
        }
        return sorted;
    }

    /// Axis along which the centres of the boxes of both sets spread most.
    inline size_t sweep_axis(
        const std::vector<AABB>& boxes_a, const std::vector<Index>& ids_a,
        const std::vector<AABB>& boxes_b, const std::vector<Index>& ids_b)
    {
        double sum[3] = { 0, 0, 0 }, sum_sq[3] = { 0, 0, 0 };
        double count = 0;
        const auto accumulate = [&](const std::vector<AABB>& boxes, const std::vector<Index>& ids) {
            for (const Index id : ids) {
                const AABB& box = boxes[size_t(id)];
                for (size_t d = 0; d < 3; ++d) {
                    const double c = 0.5 * (box.lower[d] + box.upper[d]);
                    sum[d] += c;
                    sum_sq[d] += c * c;
                }
                count += 1;
            }
        };
        accumulate(boxes_a, ids_a);
        accumulate(boxes_b, ids_b);
        size_t best = 0;
        double best_variance = -1.0;
        for (size_t d = 0; d < 3; ++d) {
            const double mean = count > 0 ? sum[d] / count : 0.0;
            const double variance = count > 0 ? sum_sq[d] / count - mean * mean : 0.0;
            if (variance > best_variance) {
                best_variance = variance;
                best = d;
            }
        }
        return best;
    }

    /// Calls emit(block, a, b) for every pair (a from set A, b from set B)
    /// whose boxes overlap, each pair once. With self = true the two sets
    /// must be the same and each unordered pair {a, b}, a != b, is emitted
    /// once as (min, max). block is in [0, num_blocks) and identifies the
    /// parallel work unit that found the pair (emit must be safe to call
    /// concurrently for distinct blocks).
    template <typename Emit>
    void sweep_and_prune(
        const std::vector<AABB>& boxes_a, const std::vector<Index>& ids_a,
        const std::vector<AABB>& boxes_b, const std::vector<Index>& ids_b,
        bool self, std::ptrdiff_t num_blocks, Emit&& emit)
    {
        const size_t axis = sweep_axis(boxes_a, ids_a, boxes_b, ids_b);
        const SortedBoxes a = sort_along_axis(boxes_a, ids_a, axis);
        if (self) {
            const std::ptrdiff_t n = std::ptrdiff_t(a.ids.size());
            parallel_for(0, num_blocks, [&](std::ptrdiff_t block) {
                const std::ptrdiff_t begin = n * block / num_blocks, end = n * (block + 1) / num_blocks;
                for (std::ptrdiff_t i = begin; i < end; ++i) {
                    const AABB& box = a.boxes[size_t(i)];
                    const double upper = box.upper[axis];
                    for (size_t j = size_t(i) + 1; j < a.ids.size() && a.lower[j] <= upper; ++j) {
                        if (overlaps(box, a.boxes[j])) {
                            const Index x = a.ids[size_t(i)], y = a.ids[j];
                            emit(block, std::min(x, y), std::max(x, y));
                        }
                    }
                }
            });
            return;
        }
        const SortedBoxes b = sort_along_axis(boxes_b, ids_b, axis);
        const std::ptrdiff_t na = std::ptrdiff_t(a.ids.size()), nb = std::ptrdiff_t(b.ids.size());
        parallel_for(0, num_blocks, [&](std::ptrdiff_t block) {
            // Boxes of B that start inside a box of A (lower_a <= lower_b).
            for (std::ptrdiff_t i = na * block / num_blocks; i < na * (block + 1) / num_blocks; ++i) {
                const AABB& box = a.boxes[size_t(i)];
                const double upper = box.upper[axis];
                size_t j = size_t(std::lower_bound(b.lower.begin(), b.lower.end(), a.lower[size_t(i)]) - b.lower.begin());
                for (; j < b.ids.size() && b.lower[j] <= upper; ++j) {
                    if (overlaps(box, b.boxes[j])) {
                        emit(block, a.ids[size_t(i)], b.ids[j]);
                    }
                }
            }
            // Boxes of A that start strictly inside a box of B.
            for (std::ptrdiff_t j = nb * block / num_blocks; j < nb * (block + 1) / num_blocks; ++j) {
                const AABB& box = b.boxes[size_t(j)];
                const double upper = box.upper[axis];
                size_t i = size_t(std::upper_bound(a.lower.begin(), a.lower.end(), b.lower[size_t(j)]) - a.lower.begin());
                for (; i < a.ids.size() && a.lower[i] <= upper; ++i) {
                    if (overlaps(box, a.boxes[i])) {
                        emit(block, a.ids[i], b.ids[size_t(j)]);
                    }
                }
            }
        });
    }

} // namespace detail
} // namespace ipc
