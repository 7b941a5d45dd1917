#pragma once
/// @file
/// CollisionFilter: who may touch whom, and how stiffly. A CollisionMesh
/// holds one (CollisionMesh::set_collision_groups, disable_collisions,
/// set_stiffness_scale, set_can_collide) and consults it in its can_collide_*
/// admissibility functions, so every consumer of the pair rules honours it:
/// every broad-phase method, Collisions::build, collision_free_step_size,
/// collision_hits, minimum_distance, step_start_state and has_intersections.
///
/// Rules
/// - Every vertex carries a group id (a body id, >= 0; one entry per row of
///   the mesh's vertex matrix, colliding or not). Without groups every vertex
///   is in one group.
/// - Two groups may collide unless disable_collisions(a, b) was called for
///   them (a == b turns the self-contact of group a off). Symmetric.
/// - Vertex pair (a, b) may collide when their groups may collide AND the
///   user predicate (set_can_collide; none by default) returns true.
/// - A primitive pair (point-triangle, edge-edge, point-edge, point-point;
///   in has_intersections also edge-triangle and, in 2D, edge-edge) is
///   admissible when at least one (vertex of the first primitive, vertex of
///   the second) pair may collide (the "any" rule). A triangle whose
///   vertices lie in bodies 1 and 2 therefore still meets a vertex of body 1
///   when body 1 may touch body 2, even with body 1's self-contact off.
/// - Stiffness scale: every pair of groups carries a scale s > 0 (default
///   1). The scale of a primitive pair is the largest scale over its vertex
///   pairs that may collide. Collisions::build multiplies each source pair's
///   scale into the weight of the stencil it lands in (a point-edge or
///   point-point stencil merged from several source pairs gets the sum of
///   their scales), so every potential that reads the weight (the barrier,
///   the lagged friction's normal force, normal adhesion) is scaled, and the
///   energy stays continuous when a pair changes distance region.
///
/// Cost: with no pair rule and no predicate the filter is inactive
/// (active() is false) and the admissibility functions skip it entirely
/// (group ids alone cost nothing). With rules, a primitive pair costs at
/// most 12 table look-ups (a dense table up to dense_group_limit groups, a
/// hash map above).
///
/// Thread safety: queries are const and may run concurrently; the predicate
/// is called from several threads at once and must be a pure function of its
/// arguments. Setters are not thread safe.

#include <ipc/core/error.hpp>
#include <ipc/core/hash.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Core>

#include <tsl/robin_map.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace ipc {

/// Group ids, never-colliding group pairs, per-group-pair stiffness scales
/// and an optional vertex-pair predicate; see the file comment. Usually
/// reached through CollisionMesh, which validates the vertex count.
class CollisionFilter {
public:
    /// Vertex-pair predicate: true when vertices a and b (a < b, rows of the
    /// vertex matrix) may collide.
    using Predicate = std::function<bool(Index, Index)>;

    /// Up to this many groups the pair rules live in a dense table
    /// (8 G^2 bytes); above it in a hash map.
    static constexpr int dense_group_limit = 256;
    /// Group ids must be below this bound.
    static constexpr int max_group_id = (1 << 24) - 1;

    /// True when the filter can rule a pair out or scale it: some pair rule
    /// (disabled pair or scale other than 1) or a predicate is set. An
    /// inactive filter admits every pair with scale 1.
    bool active() const { return !rules_.empty() || bool(predicate_); }
    /// True when some group pair has a stiffness scale other than 1.
    bool has_stiffness_scales() const { return num_scaled_ > 0; }

    // ---------------------------------------------------------------- groups

    /// Sets the group id of every vertex (num_vertices entries, ids in
    /// [0, max_group_id]); the number of groups becomes the largest id + 1.
    /// Clears every pair rule set before (disabled pairs and scales); the
    /// predicate is kept. who names the caller in messages.
    /// Throws ipc::invalid_argument for a wrong size (naming both sizes) or
    /// an id out of range (naming the vertex and the id).
    void set_groups(const Eigen::Ref<const Eigen::VectorXi>& group_of_vertex, Index num_vertices,
                    const char* who = "CollisionFilter::set_groups")
    {
        require(group_of_vertex.size() == num_vertices, who, ": group_of_vertex has ", group_of_vertex.size(),
                " entries but the mesh has ", num_vertices, " vertices");
        int largest = -1;
        for (Index v = 0; v < group_of_vertex.size(); ++v) {
            const int g = group_of_vertex[v];
            require(g >= 0 && g <= max_group_id, who, ": group_of_vertex[", v, "] (vertex ", v, ") is ", g,
                    " but group ids must be in [0, ", max_group_id, "]");
            largest = std::max(largest, g);
        }
        groups_ = group_of_vertex;
        num_groups_ = largest + 1;
        clear_rules();
    }

    /// Removes the groups and every pair rule (the predicate is kept).
    void clear_groups()
    {
        groups_.resize(0);
        num_groups_ = 0;
        clear_rules();
    }

    /// True when group ids were set.
    bool has_groups() const { return groups_.size() > 0; }
    /// Number of groups (largest id + 1; 0 without groups).
    int num_groups() const { return num_groups_; }
    /// Group id of every vertex (empty without groups).
    const Eigen::VectorXi& groups() const { return groups_; }

    // ------------------------------------------------------------ pair rules

    /// Groups a and b (either order; a == b: self-contact of a) never
    /// collide. Throws ipc::invalid_argument for an id outside
    /// [0, num_groups()) (naming the argument and the value).
    void disable_collisions(int group_a, int group_b)
    {
        check_group(group_a, "disable_collisions", "group_a");
        check_group(group_b, "disable_collisions", "group_b");
        Rule rule = find_rule(group_a, group_b);
        rule.disabled = true;
        store_rule(group_a, group_b, rule);
    }

    /// Groups a and b collide again (the default; their scale is kept).
    /// Throws as disable_collisions.
    void enable_collisions(int group_a, int group_b)
    {
        check_group(group_a, "enable_collisions", "group_a");
        check_group(group_b, "enable_collisions", "group_b");
        Rule rule = find_rule(group_a, group_b);
        rule.disabled = false;
        store_rule(group_a, group_b, rule);
    }

    /// True when groups a and b may collide. Throws as disable_collisions.
    bool groups_can_collide(int group_a, int group_b) const
    {
        check_group(group_a, "groups_can_collide", "group_a");
        check_group(group_b, "groups_can_collide", "group_b");
        return !find_rule(group_a, group_b).disabled;
    }

    /// Multiplies the barrier (the stencil weight, see the file comment) of
    /// pairs between groups a and b (either order) by scale (> 0, finite,
    /// dimensionless; 1 restores the default). Throws ipc::invalid_argument
    /// for an id outside [0, num_groups()) or a bad scale (naming the value).
    void set_stiffness_scale(int group_a, int group_b, double scale)
    {
        check_group(group_a, "set_stiffness_scale", "group_a");
        check_group(group_b, "set_stiffness_scale", "group_b");
        require(std::isfinite(scale) && scale > 0, "CollisionMesh::set_stiffness_scale: scale must be finite and positive, got ",
                scale, " (groups ", group_a, ", ", group_b, ")");
        Rule rule = find_rule(group_a, group_b);
        rule.scale = scale;
        store_rule(group_a, group_b, rule);
    }

    /// Stiffness scale of groups a and b (1 by default, also when they may
    /// not collide). Throws as disable_collisions.
    double stiffness_scale(int group_a, int group_b) const
    {
        check_group(group_a, "stiffness_scale", "group_a");
        check_group(group_b, "stiffness_scale", "group_b");
        return find_rule(group_a, group_b).scale;
    }

    /// Sets the vertex-pair predicate (combined with the groups by AND; see
    /// the file comment); an empty function removes it. It is called with
    /// a < b, from several threads at once, and must be pure and cheap (it
    /// runs for every candidate pair of every broad phase).
    void set_can_collide(Predicate predicate) { predicate_ = std::move(predicate); }
    /// The predicate (empty when none).
    const Predicate& can_collide_predicate() const { return predicate_; }
    /// True when a predicate is set.
    bool has_predicate() const { return bool(predicate_); }

    // ------------------------------------------------------------ hot queries
    // Vertex indices are not range checked (inner loops); they must be rows
    // of the vertex matrix the groups were set for.

    /// 0 when groups a and b (ids in [0, num_groups()), not checked) may not
    /// collide, else their stiffness scale. The predicate is not consulted.
    double group_pair_rule(int a, int b) const
    {
        if (rules_.empty()) {
            return 1.0;
        }
        if (!dense_.empty()) {
            return dense_[std::size_t(a) * std::size_t(num_groups_) + std::size_t(b)];
        }
        if (!has_rule_[std::size_t(a)] || !has_rule_[std::size_t(b)]) {
            return 1.0;
        }
        const auto found = rules_.find(detail::unordered_pair_key(a, b));
        return found == rules_.end() ? 1.0 : found->second.value();
    }

    /// 0 when vertices a and b may not collide, else the stiffness scale of
    /// their groups.
    double vertex_pair_rule(Index a, Index b) const
    {
        double rule = 1.0;
        if (!rules_.empty()) {
            rule = group_pair_rule(groups_[a], groups_[b]);
        }
        if (rule != 0.0 && predicate_ && !predicate_(std::min(a, b), std::max(a, b))) {
            rule = 0.0;
        }
        return rule;
    }

    /// True when vertices a and b may collide.
    bool vertices_can_collide(Index a, Index b) const { return vertex_pair_rule(a, b) != 0.0; }

    /// True when the primitive with vertices `first` may collide with the
    /// primitive with vertices `second` (some vertex pair may; "any" rule).
    template <typename T, std::size_t A, std::size_t B>
    bool allows(const std::array<T, A>& first, const std::array<T, B>& second) const
    {
        if (!active()) {
            return true;
        }
        for (const T a : first) {
            for (const T b : second) {
                if (vertex_pair_rule(Index(a), Index(b)) != 0.0) {
                    return true;
                }
            }
        }
        return false;
    }

    /// Stiffness scale of a primitive pair: the largest over its vertex pairs
    /// that may collide; 0 when none may (the pair is not admissible).
    template <typename T, std::size_t A, std::size_t B>
    double pair_scale(const std::array<T, A>& first, const std::array<T, B>& second) const
    {
        if (!active()) {
            return 1.0;
        }
        double scale = 0.0;
        for (const T a : first) {
            for (const T b : second) {
                scale = std::max(scale, vertex_pair_rule(Index(a), Index(b)));
            }
        }
        return scale;
    }

private:
    /// What one group pair carries (the default is no rule).
    struct Rule {
        double scale = 1.0;
        bool disabled = false;
        bool is_default() const { return scale == 1.0 && !disabled; }
        double value() const { return disabled ? 0.0 : scale; }
    };

    void check_group(int group, const char* function, const char* argument) const
    {
        require(group >= 0 && group < num_groups_, "CollisionMesh::", function, ": ", argument, " is ", group,
                " but the group ids are in [0, ", num_groups_, ")",
                num_groups_ == 0 ? " (set_collision_groups was not called)" : "");
    }

    Rule find_rule(int a, int b) const
    {
        const auto found = rules_.find(detail::unordered_pair_key(a, b));
        return found == rules_.end() ? Rule() : found->second;
    }

    void store_rule(int a, int b, const Rule& rule)
    {
        const Rule old = find_rule(a, b);
        num_scaled_ += int(rule.scale != 1.0) - int(old.scale != 1.0);
        if (rule.is_default()) {
            rules_.erase(detail::unordered_pair_key(a, b));
        } else {
            rules_[detail::unordered_pair_key(a, b)] = rule;
        }
        const std::size_t g = std::size_t(num_groups_);
        if (num_groups_ <= dense_group_limit) {
            if (dense_.empty()) {
                dense_.assign(g * g, 1.0);
            }
            dense_[std::size_t(a) * g + std::size_t(b)] = rule.value();
            dense_[std::size_t(b) * g + std::size_t(a)] = rule.value();
        } else {
            if (has_rule_.empty()) {
                has_rule_.assign(g, 0);
            }
            has_rule_[std::size_t(a)] = 1;
            has_rule_[std::size_t(b)] = 1;
        }
    }

    void clear_rules()
    {
        rules_.clear();
        dense_.clear();
        has_rule_.clear();
        num_scaled_ = 0;
    }

    Eigen::VectorXi groups_;
    int num_groups_ = 0;
    int num_scaled_ = 0;
    tsl::robin_map<std::uint64_t, Rule, detail::MixedHash> rules_; // non-default rules, key (min, max)
    std::vector<double> dense_;                 // num_groups^2 rule values, when num_groups <= dense_group_limit
    std::vector<unsigned char> has_rule_;       // per group: some rule mentions it (hash-map mode)
    Predicate predicate_;
};

} // namespace ipc
