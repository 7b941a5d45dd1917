#pragma once
/// @file
/// Brute-force box index: a query tests every stored box. O(n) per query;
/// meant as the reference the other broad phases are tested against.

#include <ipc/broad_phase/aabb.hpp>
#include <ipc/core/types.hpp>

#include <vector>

namespace ipc {

/// Stores boxes and answers box queries by testing all of them.
class BruteForce {
public:
    /// An empty index (queries find nothing).
    BruteForce() = default;

    /// Stores boxes[ids[i]] for every i; queries report ids. ids must index
    /// boxes (not checked).
    BruteForce(const std::vector<AABB>& boxes, const std::vector<Index>& ids) { build(boxes, ids); }

    /// (Re)builds; see the constructor.
    void build(const std::vector<AABB>& boxes, const std::vector<Index>& ids)
    {
        ids_ = ids;
        boxes_.resize(ids.size());
        for (size_t i = 0; i < ids.size(); ++i) {
            boxes_[i] = boxes[size_t(ids[i])];
        }
    }

    /// Calls visit(id) for every stored box that overlaps query (closed
    /// boxes), in storage order. Allocation-free.
    template <typename Visit> void query(const AABB& query, Visit&& visit) const
    {
        for (size_t i = 0; i < boxes_.size(); ++i) {
            if (overlaps(boxes_[i], query)) {
                visit(ids_[i]);
            }
        }
    }

    /// Number of stored boxes.
    size_t size() const { return ids_.size(); }

private:
    std::vector<AABB> boxes_;
    std::vector<Index> ids_;
};

} // namespace ipc
