#pragma once
/// @file
/// A constraint set that persists across Newton iterations and time steps,
/// keyed by canonical pair id, with the per-constraint state of an
/// augmented-Lagrangian contact solver (Zheng et al. 2025, Algorithms 2-3):
/// a multiplier lambda and a decay weight gamma. New pairs enter with
/// lambda = 0 and gamma = 1; a solver decays the weight of constraints that
/// stay slack and erases them once it falls below a threshold.

#include <ipc/collisions/pair_id.hpp>
#include <ipc/core/error.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ipc {

/// One persistent constraint.
struct PersistentConstraint {
    /// The pair this constraint acts on (its identity across steps).
    PairId pair;
    double lambda = 0; ///< multiplier estimate (>= 0)
    double gamma = 1;  ///< decay weight in (0, 1]
};

/// Constraints sorted by pair id, unique.
class PersistentConstraintSet {
public:
    /// The constraints, sorted by pair id (mutable state, fixed ids).
    const std::vector<PersistentConstraint>& constraints() const { return constraints_; }
    /// The constraints, writable: change lambda and gamma, never the pairs or their order.
    std::vector<PersistentConstraint>& constraints() { return constraints_; }

    /// Number of constraints.
    std::size_t size() const { return constraints_.size(); }
    /// True when there is no constraint.
    bool empty() const { return constraints_.empty(); }
    /// Removes every constraint.
    void clear() { constraints_.clear(); }

    /// The pair ids, sorted.
    std::vector<PairId> pairs() const
    {
        std::vector<PairId> ids;
        ids.reserve(constraints_.size());
        for (const PersistentConstraint& c : constraints_) {
            ids.push_back(c.pair);
        }
        return ids;
    }

    /// True when pair is in the set.
    bool contains(const PairId& pair) const { return find(pair) != nullptr; }

    /// The constraint of pair, or nullptr.
    const PersistentConstraint* find(const PairId& pair) const
    {
        const auto it = lower_bound(pair);
        return it != constraints_.end() && it->pair == pair ? &*it : nullptr;
    }

    /// Merges pairs into the set: each pair not yet held enters with
    /// lambda = 0 and gamma = 1; held pairs keep their state; duplicates in
    /// `pairs` count once. Returns the number of pairs added.
    std::size_t insert(std::vector<PairId> pairs)
    {
        std::sort(pairs.begin(), pairs.end());
        pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
        std::vector<PersistentConstraint> merged;
        merged.reserve(constraints_.size() + pairs.size());
        std::size_t added = 0;
        auto held = constraints_.begin();
        for (const PairId& pair : pairs) {
            while (held != constraints_.end() && held->pair < pair) {
                merged.push_back(*held++);
            }
            if (held != constraints_.end() && held->pair == pair) {
                merged.push_back(*held++);
            } else {
                merged.push_back({ pair, 0.0, 1.0 });
                ++added;
            }
        }
        merged.insert(merged.end(), held, constraints_.end());
        constraints_ = std::move(merged);
        return added;
    }

    /// Erases the constraints whose gamma is below threshold (default 0.01,
    /// about 44 consecutive decays by 0.9). Returns the number erased.
    std::size_t erase_decayed(double threshold = 0.01)
    {
        require(std::isfinite(threshold) && threshold >= 0,
                "PersistentConstraintSet::erase_decayed: threshold must be finite and non-negative, got ", threshold);
        const std::size_t before = constraints_.size();
        constraints_.erase(std::remove_if(constraints_.begin(), constraints_.end(),
                                          [&](const PersistentConstraint& c) { return c.gamma < threshold; }),
                           constraints_.end());
        return before - constraints_.size();
    }

private:
    std::vector<PersistentConstraint>::const_iterator lower_bound(const PairId& pair) const
    {
        return std::lower_bound(constraints_.begin(), constraints_.end(), pair,
                                [](const PersistentConstraint& c, const PairId& p) { return c.pair < p; });
    }

    std::vector<PersistentConstraint> constraints_;
};

/// The augmented-Lagrangian update of one constraint after a primal solve
/// (Zheng et al. 2025, Algorithm 2 with its decay branches in the order of
/// the paper's text and Appendix A): with the linearised constraint value c
/// and the penalty mu, the slack is s = max(0, c - lambda / mu). Binding
/// (s = 0): lambda <- lambda - mu c (>= 0 there), gamma <- 1. Slack (s > 0):
/// lambda <- 0, gamma <- decay * gamma. Returns true when binding.
inline bool update_multiplier(PersistentConstraint& constraint, double c, double mu, double decay = 0.9)
{
    require(std::isfinite(mu) && mu > 0, "update_multiplier: mu must be finite and positive, got ", mu);
    require(std::isfinite(decay) && decay >= 0 && decay <= 1, "update_multiplier: decay must be in [0, 1], got ",
            decay);
    const double slack = std::max(0.0, c - constraint.lambda / mu);
    if (slack == 0) {
        constraint.lambda = std::max(0.0, constraint.lambda - mu * c);
        constraint.gamma = 1;
        return true;
    }
    constraint.lambda = 0;
    constraint.gamma *= decay;
    return false;
}

} // namespace ipc
