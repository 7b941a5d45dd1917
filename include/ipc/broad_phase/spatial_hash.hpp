#pragma once
/// @file
/// Spatial hash: a uniform grid of cubic cells stored sparsely in a robin-hood
/// hash map (tsl::robin_map), each occupied cell listing the boxes that touch
/// it. A box query walks the cells its box touches; a pair found in several
/// cells is reported only from the first shared cell, so no deduplication is
/// needed. Boxes spanning very many cells (a ground plane among small
/// triangles) are kept aside and tested directly.

#include <ipc/broad_phase/aabb.hpp>
#include <ipc/core/hash.hpp>
#include <ipc/core/types.hpp>

#include <tsl/robin_map.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace ipc {

/// A static spatial hash over boxes (rebuild it when the boxes change).
class SpatialHash {
public:
    /// An empty hash (queries find nothing).
    SpatialHash() = default;

    /// Builds over boxes[ids[i]] for every i with cubic cells of edge
    /// cell_size (metres); cell_size <= 0 picks the mean largest extent of
    /// the boxes. Queries report ids. ids must index boxes (not checked).
    SpatialHash(const std::vector<AABB>& boxes, const std::vector<Index>& ids, double cell_size = 0.0)
    {
        build(boxes, ids, cell_size);
    }

    /// (Re)builds; see the constructor.
    void build(const std::vector<AABB>& boxes, const std::vector<Index>& ids, double cell_size = 0.0);

    /// Calls visit(id) once for every stored box that overlaps query (closed
    /// boxes), in no particular order. Allocation-free.
    template <typename Visit> void query(const AABB& query, Visit&& visit) const
    {
        for (const std::int32_t local : large_) {
            if (overlaps(boxes_[size_t(local)], query)) {
                visit(ids_[size_t(local)]);
            }
        }
        if (map_.empty()) {
            return;
        }
        std::array<std::int64_t, 3> low, high;
        for (size_t d = 0; d < 3; ++d) {
            // Clamped into the grid like the stored boxes (see build()).
            low[d] = std::min(max_cell_[d], std::max<std::int64_t>(0, cell_of(query.lower[d], d)));
            high[d] = std::min<std::int64_t>(max_cell_[d], cell_of(query.upper[d], d));
            if (low[d] > high[d]) {
                return;
            }
        }
        // A query box wider than the stored set: scan the boxes directly.
        // (In double: three spans of 2^21 cells overflow a 64-bit product.)
        const double cells
            = double(high[0] - low[0] + 1) * double(high[1] - low[1] + 1) * double(high[2] - low[2] + 1);
        if (cells > double(boxes_.size())) {
            for (size_t local = 0; local < boxes_.size(); ++local) {
                if (!is_large_[local] && overlaps(boxes_[local], query)) {
                    visit(ids_[local]);
                }
            }
            return;
        }
        for (std::int64_t x = low[0]; x <= high[0]; ++x) {
            for (std::int64_t y = low[1]; y <= high[1]; ++y) {
                for (std::int64_t z = low[2]; z <= high[2]; ++z) {
                    const auto found = map_.find(key(x, y, z));
                    if (found == map_.end()) {
                        continue;
                    }
                    const std::uint32_t slot = found->second;
                    for (std::uint32_t k = slot_begin_[slot]; k < slot_begin_[slot + 1]; ++k) {
                        const std::int32_t local = entries_[k];
                        const std::array<std::int32_t, 3>& first = first_cell_[size_t(local)];
                        // Report from the first cell the two cell ranges share.
                        if (x != std::max<std::int64_t>(first[0], low[0])
                            || y != std::max<std::int64_t>(first[1], low[1])
                            || z != std::max<std::int64_t>(first[2], low[2])) {
                            continue;
                        }
                        if (overlaps(boxes_[size_t(local)], query)) {
                            visit(ids_[size_t(local)]);
                        }
                    }
                }
            }
        }
    }

    /// Edge length of the cells (metres).
    double cell_size() const { return cell_size_; }

    /// Number of stored boxes.
    size_t size() const { return ids_.size(); }

private:
    /// A box touching more cells than this is tested directly.
    static constexpr std::int64_t max_cells_per_box = 64;
    /// Cell coordinates use 21 bits per axis.
    static constexpr std::int64_t max_cells_per_axis = (std::int64_t(1) << 21) - 1;

    std::int64_t cell_of(double x, size_t d) const
    {
        const double c = std::floor((x - origin_[d]) * inverse_cell_size_);
        // Clamp before converting so huge or far-away coordinates stay defined.
        return std::int64_t(std::min(double(max_cells_per_axis + 1), std::max(-1.0, c)));
    }

    static std::uint64_t key(std::int64_t x, std::int64_t y, std::int64_t z)
    {
        return (std::uint64_t(x) << 42) | (std::uint64_t(y) << 21) | std::uint64_t(z);
    }

    double cell_size_ = 1.0;
    double inverse_cell_size_ = 1.0;
    std::array<double, 3> origin_ { { 0.0, 0.0, 0.0 } };
    std::array<std::int64_t, 3> max_cell_ { { 0, 0, 0 } };
    std::vector<AABB> boxes_;
    std::vector<Index> ids_;
    std::vector<std::array<std::int32_t, 3>> first_cell_;
    std::vector<std::int32_t> large_;
    std::vector<unsigned char> is_large_;
    tsl::robin_map<std::uint64_t, std::uint32_t, detail::MixedHash> map_;
    std::vector<std::uint32_t> slot_begin_;
    std::vector<std::int32_t> entries_;
};

inline void SpatialHash::build(const std::vector<AABB>& boxes, const std::vector<Index>& ids, double cell_size)
{
    boxes_.resize(ids.size());
    ids_ = ids;
    first_cell_.assign(ids.size(), { { 0, 0, 0 } });
    large_.clear();
    map_.clear();
    slot_begin_.clear();
    entries_.clear();
    if (ids.empty()) {
        return;
    }
    double extent_sum = 0.0;
    std::array<double, 3> low, high;
    low.fill(std::numeric_limits<double>::infinity());
    high.fill(-std::numeric_limits<double>::infinity());
    for (size_t i = 0; i < ids.size(); ++i) {
        const AABB& box = boxes[size_t(ids[i])];
        boxes_[i] = box;
        double largest = 0.0;
        for (size_t d = 0; d < 3; ++d) {
            largest = std::max(largest, box.upper[d] - box.lower[d]);
            low[d] = std::min(low[d], box.lower[d]);
            high[d] = std::max(high[d], box.upper[d]);
        }
        extent_sum += largest;
    }
    if (!(cell_size > 0.0) || !std::isfinite(cell_size)) {
        cell_size = extent_sum / double(ids.size());
    }
    // Keep the grid within 21 bits per axis.
    double span = 0.0;
    for (size_t d = 0; d < 3; ++d) {
        span = std::max(span, high[d] - low[d]);
    }
    cell_size = std::max(cell_size, span / double(max_cells_per_axis - 1));
    if (!(cell_size > 0.0) || !std::isfinite(cell_size)) {
        cell_size = 1.0;
    }
    cell_size_ = cell_size;
    inverse_cell_size_ = 1.0 / cell_size;
    origin_ = low;
    for (size_t d = 0; d < 3; ++d) {
        max_cell_[d] = std::min(max_cells_per_axis, cell_of(high[d], d));
    }

    // First pass: count the boxes of each occupied cell.
    std::vector<std::uint32_t> counts;
    const auto for_each_cell = [&](size_t i, auto&& body) {
        const AABB& box = boxes_[i];
        std::array<std::int64_t, 3> a, b;
        for (size_t d = 0; d < 3; ++d) {
            a[d] = std::min(max_cell_[d], std::max<std::int64_t>(0, cell_of(box.lower[d], d)));
            b[d] = std::min(max_cell_[d], cell_of(box.upper[d], d));
        }
        for (std::int64_t x = a[0]; x <= b[0]; ++x) {
            for (std::int64_t y = a[1]; y <= b[1]; ++y) {
                for (std::int64_t z = a[2]; z <= b[2]; ++z) {
                    body(key(x, y, z));
                }
            }
        }
    };
    std::vector<unsigned char>& is_large = is_large_;
    is_large.assign(ids.size(), 0);
    for (size_t i = 0; i < ids.size(); ++i) {
        const AABB& box = boxes_[i];
        std::int64_t cells = 1;
        for (size_t d = 0; d < 3; ++d) {
            // A box beyond the grid (coordinates whose span overflows, so
            // that the grid falls back to unit cells) goes into the last
            // cell instead of none.
            const std::int64_t a = std::min(max_cell_[d], std::max<std::int64_t>(0, cell_of(box.lower[d], d)));
            const std::int64_t b = std::min(max_cell_[d], cell_of(box.upper[d], d));
            first_cell_[i][d] = std::int32_t(a);
            // Saturated: only "more than max_cells_per_box" matters, and three
            // spans of 2^21 cells would overflow the product.
            cells = std::min(cells * std::max<std::int64_t>(1, b - a + 1), max_cells_per_box + 1);
        }
        if (cells > max_cells_per_box) {
            is_large[i] = 1;
            large_.push_back(std::int32_t(i));
            continue;
        }
        for_each_cell(i, [&](std::uint64_t cell) {
            const auto inserted = map_.emplace(cell, std::uint32_t(counts.size()));
            if (inserted.second) {
                counts.push_back(1);
            } else {
                ++counts[inserted.first->second];
            }
        });
    }
    // Second pass: fill the cell lists in order of box index.
    slot_begin_.assign(counts.size() + 1, 0);
    for (size_t s = 0; s < counts.size(); ++s) {
        slot_begin_[s + 1] = slot_begin_[s] + counts[s];
    }
    entries_.resize(slot_begin_.back());
    std::vector<std::uint32_t> fill(slot_begin_.begin(), slot_begin_.end() - 1);
    for (size_t i = 0; i < ids.size(); ++i) {
        if (is_large[i]) {
            continue;
        }
        for_each_cell(i, [&](std::uint64_t cell) {
            entries_[fill[map_.find(cell)->second]++] = std::int32_t(i);
        });
    }
}

} // namespace ipc
