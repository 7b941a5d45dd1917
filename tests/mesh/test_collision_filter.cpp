// The collision filter (collision_filter.hpp): group ids, never-colliding
// group pairs, per-group-pair stiffness scales and a vertex-pair predicate,
// checked against an independent reference filter in every consumer of the
// pair rules (broad phases, Collisions::build, step size, collision hits,
// minimum distance, has_intersections) and in the barrier's derivatives.

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collision_hits.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/mesh/collision_filter.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <finite_differences.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <set>
#include <utility>
#include <vector>

using namespace ipc;

namespace {

/// Vertices, edges, faces and group ids of a small scene, built body by body.
struct FilterScene {
    Eigen::MatrixXd V;
    Eigen::MatrixXi E = Eigen::MatrixXi(0, 2);
    Eigen::MatrixXi F = Eigen::MatrixXi(0, 3);
    std::vector<int> groups;

    int add_vertex(const Eigen::RowVectorXd& x, int group)
    {
        Eigen::MatrixXd W(V.rows() + 1, x.size());
        if (V.rows() > 0) {
            W.topRows(V.rows()) = V;
        }
        W.row(V.rows()) = x;
        V = W;
        groups.push_back(group);
        return int(V.rows() - 1);
    }
    void add_edge(int a, int b)
    {
        E.conservativeResize(E.rows() + 1, 2);
        E.row(E.rows() - 1) << a, b;
    }
    void add_face(int a, int b, int c)
    {
        F.conservativeResize(F.rows() + 1, 3);
        F.row(F.rows() - 1) << a, b, c;
    }

    /// An n x n grid sheet (3D) of side `size` at height z, corner (x0, y0),
    /// vertices jittered in the plane by up to `jitter`.
    void sheet(int n, double x0, double y0, double z, double size, int group, std::mt19937& rng, double jitter = 0.0,
               double tilt = 0.0)
    {
        std::uniform_real_distribution<double> u(-jitter, jitter);
        const int first = int(V.rows());
        for (int j = 0; j < n; ++j) {
            for (int i = 0; i < n; ++i) {
                const double x = x0 + size * i / (n - 1) + u(rng), y = y0 + size * j / (n - 1) + u(rng);
                add_vertex(Eigen::RowVector3d(x, y, z + tilt * (x - x0)), group);
            }
        }
        for (int j = 0; j + 1 < n; ++j) {
            for (int i = 0; i + 1 < n; ++i) {
                const int a = first + j * n + i;
                add_face(a, a + 1, a + n + 1);
                add_face(a, a + n + 1, a + n);
            }
        }
    }

    CollisionMesh mesh() const { return CollisionMesh(V, E, F); }
    Eigen::VectorXi group_vector() const { return Eigen::Map<const Eigen::VectorXi>(groups.data(), Index(groups.size())); }
};

/// The filter rules written out independently of CollisionFilter.
struct ReferenceFilter {
    std::vector<int> groups;
    std::set<std::pair<int, int>> disabled;
    std::function<bool(Index, Index)> predicate;

    bool vertices(int a, int b) const
    {
        const int ga = groups[size_t(a)], gb = groups[size_t(b)];
        if (disabled.count({ std::min(ga, gb), std::max(ga, gb) })) {
            return false;
        }
        return !predicate || predicate(std::min(a, b), std::max(a, b));
    }
    bool any(const std::vector<int>& first, const std::vector<int>& second) const
    {
        for (const int a : first) {
            for (const int b : second) {
                if (vertices(a, b)) {
                    return true;
                }
            }
        }
        return false;
    }

    /// The candidates this filter admits, in the same order.
    Candidates apply(const Candidates& all, const CollisionMesh& mesh) const
    {
        const Eigen::MatrixXi& E = mesh.edges();
        const Eigen::MatrixXi& F = mesh.faces();
        const auto edge = [&](Index e) { return std::vector<int> { E(e, 0), E(e, 1) }; };
        Candidates out;
        for (const auto& c : all.face_vertex) {
            if (any({ F(c.face, 0), F(c.face, 1), F(c.face, 2) }, { int(c.vertex) })) {
                out.face_vertex.push_back(c);
            }
        }
        for (const auto& c : all.edge_edge) {
            if (any(edge(c.edge0), edge(c.edge1))) {
                out.edge_edge.push_back(c);
            }
        }
        for (const auto& c : all.edge_vertex) {
            if (any(edge(c.edge), { int(c.vertex) })) {
                out.edge_vertex.push_back(c);
            }
        }
        for (const auto& c : all.vertex_vertex) {
            if (vertices(int(c.v0), int(c.v1))) {
                out.vertex_vertex.push_back(c);
            }
        }
        return out;
    }
};

template <typename Stencil> bool same_stencils(const std::vector<Stencil>& a, const std::vector<Stencil>& b)
{
    if (a.size() != b.size()) {
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].vertices != b[i].vertices || a[i].offset != b[i].offset || a[i].weight != b[i].weight) {
            return false;
        }
    }
    return true;
}

bool same_collisions(const Collisions& a, const Collisions& b)
{
    return same_stencils(a.vertex_vertex, b.vertex_vertex) && same_stencils(a.edge_vertex, b.edge_vertex)
        && same_stencils(a.edge_edge, b.edge_edge) && same_stencils(a.face_vertex, b.face_vertex);
}

/// A vector of group ids.
Eigen::VectorXi ids(std::initializer_list<int> values)
{
    Eigen::VectorXi v(Index(values.size()));
    std::copy(values.begin(), values.end(), v.data());
    return v;
}

const BroadPhaseMethod all_methods[] = { BroadPhaseMethod::brute_force, BroadPhaseMethod::sweep_and_prune,
                                         BroadPhaseMethod::spatial_hash, BroadPhaseMethod::bvh };

/// A random scene: two jittered sheets, a rod and a few particles (3D), with
/// some vertices moved to other groups so that primitives mix groups.
FilterScene random_scene(std::mt19937& rng, int num_groups)
{
    std::uniform_real_distribution<double> u(0.0, 1.0);
    FilterScene s;
    s.sheet(3, 0.0, 0.0, 0.0, 1.0, 0, rng, 0.08);
    s.sheet(3, 0.2 * u(rng), 0.2 * u(rng), 0.12, 0.9, 1 % num_groups, rng, 0.08, 0.1);
    const int r0 = s.add_vertex(Eigen::RowVector3d(0.1, 0.5 * u(rng), 0.06), 2 % num_groups);
    const int r1 = s.add_vertex(Eigen::RowVector3d(0.5, 0.3 + 0.4 * u(rng), 0.07), 2 % num_groups);
    const int r2 = s.add_vertex(Eigen::RowVector3d(0.9, 0.5 * u(rng), 0.05), 2 % num_groups);
    s.add_edge(r0, r1);
    s.add_edge(r1, r2);
    for (int k = 0; k < 3; ++k) {
        s.add_vertex(Eigen::RowVector3d(u(rng), u(rng), 0.02 + 0.1 * u(rng)), (3 + k) % num_groups);
    }
    for (int& g : s.groups) {
        if (u(rng) < 0.2) {
            g = int(u(rng) * num_groups) % num_groups;
        }
    }
    return s;
}

} // namespace

TEST_CASE("Collision filter: every broad phase, the active set and the step size match a reference filter",
          "[filter]")
{
    std::mt19937 rng(2024);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    int scenes_with_removals = 0;
    for (int trial = 0; trial < 8; ++trial) {
        const int num_groups = 2 + trial % 3;
        const FilterScene scene = random_scene(rng, num_groups);
        const CollisionMesh plain = scene.mesh();
        CollisionMesh filtered = plain;
        filtered.set_collision_groups(scene.group_vector());
        ReferenceFilter reference;
        reference.groups = scene.groups;
        for (int a = 0; a < num_groups; ++a) {
            for (int b = a; b < num_groups; ++b) {
                if (u(rng) < 0.4) {
                    filtered.disable_collisions(b, a); // either order
                    reference.disabled.insert({ a, b });
                }
            }
        }
        if (trial % 2 == 1) {
            const auto predicate = [](Index a, Index b) { return (3 * a + 5 * b) % 7 != 0; };
            filtered.set_can_collide(predicate);
            reference.predicate = predicate;
        }
        CHECK(filtered.has_collision_filter() == (!reference.disabled.empty() || bool(reference.predicate)));

        const double dhat = 0.15;
        Eigen::MatrixXd V1 = scene.V;
        for (Index v = 0; v < V1.rows(); ++v) {
            V1.row(v) += 0.3 * Eigen::RowVector3d(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5);
        }
        const Candidates all_static = static_candidates(plain, scene.V, dhat, BroadPhaseMethod::brute_force);
        const Candidates expected_static = reference.apply(all_static, plain);
        const Candidates all_swept = swept_candidates(plain, scene.V, V1, 0.0, BroadPhaseMethod::brute_force);
        const Candidates expected_swept = reference.apply(all_swept, plain);
        scenes_with_removals += int(expected_static.size() < all_static.size());
        for (const BroadPhaseMethod method : all_methods) {
            INFO("trial " << trial << ", method " << to_string(method));
            CHECK(static_candidates(filtered, scene.V, dhat, method) == expected_static);
            CHECK(swept_candidates(filtered, scene.V, V1, 0.0, method) == expected_swept);
            // The step size over the whole mesh (the BVH path filters its
            // unsorted keys) equals the step over the reference candidates.
            CHECK(collision_free_step_size(filtered, scene.V, V1, 0.0, method)
                  == collision_free_step_size(expected_swept, plain, scene.V, V1));
        }

        // The active set: the unfiltered build of the reference candidates.
        Collisions expected, from_mesh, from_all_candidates;
        expected.build(expected_static, plain, scene.V, dhat);
        from_mesh.build(filtered, scene.V, dhat);
        from_all_candidates.build(all_static, filtered, scene.V, dhat); // the filter also applies to given candidates
        CHECK(same_collisions(from_mesh, expected));
        CHECK(same_collisions(from_all_candidates, expected));
    }
    CHECK(scenes_with_removals >= 4); // the filter did remove pairs in most scenes
}

TEST_CASE("Collision filter: a folded sheet with its self-contact off keeps its contacts with another body",
          "[filter]")
{
    // A 6 x 6 sheet folded along x = 0.5 so that its right half lies 0.02
    // above its left half, and a small square (group 1) between the layers.
    std::mt19937 rng(5);
    FilterScene s;
    const int n = 6;
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
            const double x = double(i) / (n - 1), y = double(j) / (n - 1);
            const double folded_x = x <= 0.5 ? x : 1.0 - x;
            const double z = x <= 0.5 ? 0.0 : 0.02 * (x - 0.5) / 0.1;
            s.add_vertex(Eigen::RowVector3d(folded_x + 0.01 * y, y, std::min(z, 0.02)), 0);
        }
    }
    for (int j = 0; j + 1 < n; ++j) {
        for (int i = 0; i + 1 < n; ++i) {
            const int a = j * n + i;
            s.add_face(a, a + 1, a + n + 1);
            s.add_face(a, a + n + 1, a + n);
        }
    }
    s.sheet(2, 0.1, 0.3, 0.01, 0.2, 1, rng);
    const CollisionMesh plain = s.mesh();
    CollisionMesh filtered = plain;
    filtered.set_collision_groups(s.group_vector());
    filtered.disable_collisions(0, 0);
    CHECK_FALSE(filtered.groups_can_collide(0, 0));
    CHECK(filtered.groups_can_collide(0, 1));

    const double dhat = 0.03;
    Collisions all, kept;
    all.build(plain, s.V, dhat);
    kept.build(filtered, s.V, dhat);
    // Stencils made of sheet vertices only: present without the filter,
    // absent with it; every stencil touching the square is kept as it was.
    const auto touches_square = [&](const auto& c) {
        return std::any_of(c.vertices.begin(), c.vertices.end(), [&](Index v) { return s.groups[size_t(v)] == 1; });
    };
    const auto split = [&](const auto& list, auto& self, auto& other) {
        for (const auto& c : list) {
            (touches_square(c) ? other : self).push_back(c);
        }
    };
    Collisions all_self, all_other, kept_self, kept_other;
    split(all.vertex_vertex, all_self.vertex_vertex, all_other.vertex_vertex);
    split(all.edge_vertex, all_self.edge_vertex, all_other.edge_vertex);
    split(all.edge_edge, all_self.edge_edge, all_other.edge_edge);
    split(all.face_vertex, all_self.face_vertex, all_other.face_vertex);
    split(kept.vertex_vertex, kept_self.vertex_vertex, kept_other.vertex_vertex);
    split(kept.edge_vertex, kept_self.edge_vertex, kept_other.edge_vertex);
    split(kept.edge_edge, kept_self.edge_edge, kept_other.edge_edge);
    split(kept.face_vertex, kept_self.face_vertex, kept_other.face_vertex);
    CHECK(all_self.face_vertex.size() > 0); // the fold is in contact with itself
    CHECK(all_other.size() > 0);
    CHECK(kept_self.empty());
    CHECK(same_collisions(kept_other, all_other));

    // No sheet-only pair in any candidate list either.
    const Candidates candidates = static_candidates(filtered, s.V, dhat);
    for (const auto& c : candidates.face_vertex) {
        const Eigen::MatrixXi& F = filtered.faces();
        CHECK((s.groups[size_t(c.vertex)] == 1 || s.groups[size_t(F(c.face, 0))] == 1));
    }
    for (const auto& c : candidates.edge_edge) {
        const Eigen::MatrixXi& E = filtered.edges();
        CHECK((s.groups[size_t(E(c.edge0, 0))] == 1) != (s.groups[size_t(E(c.edge1, 0))] == 1));
    }
    CHECK(candidates.size() > 0);
}

namespace {

/// Barrier energy, gradient and Hessian of a mesh at V with the set built there.
struct BarrierValues {
    Collisions collisions;
    double energy = 0;
    Eigen::VectorXd gradient;
    Eigen::MatrixXd hessian;
};

BarrierValues barrier_values(const CollisionMesh& mesh, const Eigen::MatrixXd& V, double dhat, double kappa)
{
    BarrierValues out;
    out.collisions.build(mesh, V, dhat);
    const BarrierPotential<> barrier(dhat, kappa);
    out.energy = barrier(out.collisions, mesh, V);
    out.gradient = barrier.gradient(out.collisions, mesh, V);
    out.hessian = Eigen::MatrixXd(barrier.hessian(out.collisions, mesh, V));
    return out;
}

/// FD checks of the mesh-level gradient and Hessian with the set held fixed.
void check_barrier_derivatives(const CollisionMesh& mesh, const Eigen::MatrixXd& V, double dhat)
{
    const BarrierPotential<> barrier(dhat, 2.0);
    Collisions collisions;
    collisions.build(mesh, V, dhat);
    REQUIRE(collisions.size() > 0);
    const Index n = V.rows(), d = V.cols();
    const auto unflatten = [&](const Eigen::VectorXd& x) {
        Eigen::MatrixXd W(n, d);
        for (Index v = 0; v < n; ++v) {
            W.row(v) = x.segment(d * v, d).transpose();
        }
        return W;
    };
    Eigen::VectorXd x(n * d);
    for (Index v = 0; v < n; ++v) {
        x.segment(d * v, d) = V.row(v).transpose();
    }
    const Eigen::VectorXd g = barrier.gradient(collisions, mesh, V);
    const Eigen::VectorXd fd_g = test::fd_gradient(
        [&](const Eigen::VectorXd& y) { return barrier(collisions, mesh, unflatten(y)); }, x, 1e-7);
    CHECK(test::fd_close(g, fd_g, 1e-5));
    const Eigen::MatrixXd H = Eigen::MatrixXd(barrier.hessian(collisions, mesh, V));
    const Eigen::MatrixXd fd_H = test::fd_jacobian(
        [&](const Eigen::VectorXd& y) { return Eigen::VectorXd(barrier.gradient(collisions, mesh, unflatten(y))); }, x,
        1e-7);
    CHECK(test::fd_close(H, fd_H, 1e-5));
}

} // namespace

TEST_CASE("Collision filter: stiffness scales multiply the barrier and its derivatives", "[filter]")
{
    std::mt19937 rng(11);
    const double dhat = 0.1, kappa = 3.0;

    SECTION("3D, one scaled group pair: scale times the unscaled values")
    {
        FilterScene s;
        s.sheet(3, 0.0, 0.0, 0.0, 1.0, 0, rng, 0.05);
        s.sheet(3, 0.13, 0.21, 0.05, 0.8, 1, rng, 0.05, 0.02);
        const CollisionMesh plain = s.mesh();
        CollisionMesh scaled = plain;
        scaled.set_collision_groups(s.group_vector());
        scaled.set_stiffness_scale(1, 0, 3.5);
        CHECK(scaled.stiffness_scale(0, 1) == 3.5);
        CHECK(scaled.stiffness_scale(0, 0) == 1.0);
        const BarrierValues a = barrier_values(plain, s.V, dhat, kappa);
        const BarrierValues b = barrier_values(scaled, s.V, dhat, kappa);
        REQUIRE(a.collisions.size() > 0);
        REQUIRE(a.collisions.face_vertex.size() + a.collisions.edge_edge.size() > 0);
        REQUIRE(a.collisions.vertex_vertex.size() + a.collisions.edge_vertex.size() > 0);
        REQUIRE(a.collisions.size() == b.collisions.size());
        for (size_t i = 0; i < a.collisions.edge_vertex.size(); ++i) {
            CHECK(b.collisions.edge_vertex[i].weight == 3.5 * a.collisions.edge_vertex[i].weight);
        }
        for (size_t i = 0; i < a.collisions.face_vertex.size(); ++i) {
            CHECK(b.collisions.face_vertex[i].weight == 3.5);
        }
        CHECK(b.energy == Approx(3.5 * a.energy).epsilon(1e-14));
        CHECK(test::fd_close(b.gradient, 3.5 * a.gradient, 1e-14));
        CHECK(test::fd_close(b.hessian, 3.5 * a.hessian, 1e-14));
        // Scale 1 again: bit-identical to no filter.
        scaled.set_stiffness_scale(0, 1, 1.0);
        CHECK_FALSE(scaled.has_collision_filter());
        CHECK(barrier_values(scaled, s.V, dhat, kappa).energy == a.energy);
    }

    SECTION("3D, mixed scales and mixed-group primitives: finite differences")
    {
        FilterScene s;
        s.sheet(2, 0.0, 0.0, 0.0, 1.0, 0, rng, 0.05);
        s.sheet(2, 0.1, 0.15, 0.06, 0.8, 1, rng, 0.05, 0.03);
        s.groups[3] = 2; // a face of the lower sheet mixes groups 0 and 2
        const int r0 = s.add_vertex(Eigen::RowVector3d(0.05, 0.4, 0.03), 2);
        const int r1 = s.add_vertex(Eigen::RowVector3d(0.95, 0.6, 0.032), 2);
        s.add_edge(r0, r1);
        s.add_vertex(Eigen::RowVector3d(0.5, 0.45, 0.025), 1); // a particle
        const CollisionMesh plain = s.mesh();
        CollisionMesh scaled = plain;
        scaled.set_collision_groups(s.group_vector());
        scaled.set_stiffness_scale(0, 1, 2.0);
        scaled.set_stiffness_scale(1, 2, 0.5);
        scaled.set_stiffness_scale(0, 2, 4.0);
        scaled.set_stiffness_scale(2, 2, 3.0);
        CHECK(scaled.collision_filter().has_stiffness_scales());
        const BarrierValues a = barrier_values(plain, s.V, dhat, kappa);
        const BarrierValues b = barrier_values(scaled, s.V, dhat, kappa);
        REQUIRE(a.collisions.size() == b.collisions.size());
        CHECK(b.energy != Approx(a.energy));
        // A mixed pair takes the largest scale over its vertex group pairs.
        std::vector<double> weights;
        for (const auto& c : b.collisions.face_vertex) {
            weights.push_back(c.weight);
        }
        for (const auto& c : b.collisions.edge_edge) {
            weights.push_back(c.weight);
        }
        CHECK(std::count(weights.begin(), weights.end(), 4.0) > 0);
        check_barrier_derivatives(scaled, s.V, dhat);
        // Scale rule of one stencil: face (0, 1, 3) (groups 0, 0, 2) against
        // the particle (group 1): max(s01 = 2, s12 = 0.5) = 2.
        const Eigen::MatrixXi& F = scaled.faces();
        for (Index f = 0; f < scaled.num_faces(); ++f) {
            std::array<int, 3> face = { { F(f, 0), F(f, 1), F(f, 2) } };
            std::sort(face.begin(), face.end());
            if (face == std::array<int, 3> { { 0, 1, 3 } }) {
                CHECK(scaled.face_vertex_stiffness_scale(f, 10) == 2.0);
            }
        }
    }

    SECTION("2D: point-edge pairs scale alike and pass finite differences")
    {
        FilterScene s;
        for (int k = 0; k < 3; ++k) {
            s.add_vertex(Eigen::RowVector2d(0.5 * k, 0.01 * k), 0);
        }
        for (int k = 0; k < 3; ++k) {
            s.add_vertex(Eigen::RowVector2d(0.2 + 0.5 * k, 0.05 + 0.005 * k), 1);
        }
        s.add_edge(0, 1);
        s.add_edge(1, 2);
        s.add_edge(3, 4);
        s.add_edge(4, 5);
        const CollisionMesh plain = s.mesh();
        REQUIRE(plain.dim() == 2);
        CollisionMesh scaled = plain;
        scaled.set_collision_groups(s.group_vector());
        scaled.set_stiffness_scale(0, 1, 2.5);
        const BarrierValues a = barrier_values(plain, s.V, dhat, kappa);
        const BarrierValues b = barrier_values(scaled, s.V, dhat, kappa);
        REQUIRE(a.collisions.size() > 0);
        CHECK(b.energy == Approx(2.5 * a.energy).epsilon(1e-14));
        CHECK(test::fd_close(b.gradient, 2.5 * a.gradient, 1e-14));
        CHECK(test::fd_close(b.hessian, 2.5 * a.hessian, 1e-14));

        // A third polyline with other scales, mixed into one edge.
        const int c0 = s.add_vertex(Eigen::RowVector2d(0.1, 0.09), 2);
        const int c1 = s.add_vertex(Eigen::RowVector2d(0.8, 0.1), 2);
        s.add_edge(c0, c1);
        s.groups[5] = 2;
        CollisionMesh mixed = s.mesh();
        mixed.set_collision_groups(s.group_vector());
        mixed.set_stiffness_scale(0, 1, 2.5);
        mixed.set_stiffness_scale(1, 2, 0.25);
        mixed.set_stiffness_scale(2, 2, 6.0);
        check_barrier_derivatives(mixed, s.V, dhat);

        // Disabled: no pair between the two lower polylines.
        CollisionMesh off = plain;
        off.set_collision_groups(ids({ 0, 0, 0, 1, 1, 1 }));
        off.disable_collisions(0, 1);
        Collisions none;
        none.build(off, s.V.topRows(6), dhat);
        CHECK(none.empty());
    }
}

TEST_CASE("Collision filter: bodies that may not collide pass through each other", "[filter]")
{
    std::mt19937 rng(3);
    FilterScene s;
    s.sheet(3, 0.0, 0.0, 0.0, 1.0, 0, rng);
    s.sheet(3, 0.1, 0.15, 0.3, 0.7, 1, rng);
    const CollisionMesh plain = s.mesh();
    CollisionMesh filtered = plain;
    filtered.set_collision_groups(s.group_vector());
    filtered.disable_collisions(0, 1);

    // The upper sheet moves down through the lower one.
    Eigen::MatrixXd V1 = s.V;
    for (Index v = 9; v < 18; ++v) {
        V1(v, 2) -= 0.6;
    }
    for (const BroadPhaseMethod method : all_methods) {
        INFO(to_string(method));
        CHECK(collision_free_step_size(plain, s.V, V1, 0.0, method) < 0.6);
        CHECK(collision_free_step_size(filtered, s.V, V1, 0.0, method) == 1.0);
        CHECK_FALSE(collision_hits(plain, s.V, V1, 0.0, method).empty());
        CHECK(collision_hits(filtered, s.V, V1, 0.0, method).empty());
    }
    // The upper sheet 0.05 above the lower one: the smallest admissible gap
    // is that within the sheets, as with the upper sheet far away.
    Eigen::MatrixXd near = s.V, far = s.V;
    near.bottomRows(9).col(2).array() = 0.05;
    far.bottomRows(9).col(2).array() += 100.0;
    CHECK(minimum_distance(plain, near) == Approx(0.05));
    CHECK(minimum_distance(plain, far) > 0.2);
    for (const BroadPhaseMethod method : all_methods) {
        CHECK(minimum_distance(filtered, near, method) == minimum_distance(plain, far, method));
    }

    // Tilted through the lower sheet: an intersection unless the pair is off.
    Eigen::MatrixXd crossing = s.V;
    for (Index v = 9; v < 18; ++v) {
        crossing(v, 2) = -0.2 + 0.5 * (crossing(v, 0) - 0.1);
    }
    CHECK(has_intersections(plain, crossing));
    CHECK_FALSE(has_intersections(filtered, crossing));
    CHECK_FALSE(step_start_state(plain, crossing).valid());
    CHECK(step_start_state(filtered, crossing).valid());
    filtered.enable_collisions(1, 0);
    CHECK(has_intersections(filtered, crossing));
    // The self-contact of the upper sheet off alone does not hide the crossing.
    filtered.disable_collisions(1, 1);
    CHECK(has_intersections(filtered, crossing));

    // 2D: two crossing segments.
    Eigen::MatrixXd V2(4, 2);
    V2 << 0, 0, 1, 1, 0, 1, 1, 0;
    Eigen::MatrixXi E2(2, 2);
    E2 << 0, 1, 2, 3;
    CollisionMesh planar(V2, E2, Eigen::MatrixXi(0, 3));
    CHECK(has_intersections(planar, V2));
    planar.set_collision_groups(Eigen::Vector4i(0, 0, 1, 1));
    planar.disable_collisions(0, 1);
    CHECK_FALSE(has_intersections(planar, V2));
    // The predicate alone can do the same.
    planar.clear_collision_filter();
    planar.set_can_collide([](Index a, Index b) { return (a < 2) == (b < 2); });
    CHECK_FALSE(has_intersections(planar, V2));
}

TEST_CASE("Collision filter: groups alone are free, copies carry the filter, resets", "[filter]")
{
    // A tetrahedron with an interior vertex: groups cover every vertex row.
    Eigen::MatrixXd V(5, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0.2, 0.2, 0.2;
    Eigen::MatrixXi T(4, 4);
    T << 0, 1, 2, 4, 0, 1, 4, 3, 0, 4, 2, 3, 4, 1, 2, 3;
    CollisionMesh mesh = CollisionMesh::from_tetrahedra(V, T);
    REQUIRE_FALSE(mesh.is_collision_vertex(4));
    mesh.set_collision_groups(ids({ 0, 0, 1, 1, 3 }));
    CHECK(mesh.num_collision_groups() == 4);
    CHECK_FALSE(mesh.has_collision_filter()); // no rule yet: the fast path
    mesh.disable_collisions(0, 1);
    CHECK(mesh.has_collision_filter());
    const CollisionMesh copy = mesh;
    CHECK_FALSE(copy.groups_can_collide(1, 0));
    mesh.enable_collisions(0, 1);
    CHECK_FALSE(mesh.has_collision_filter());
    CHECK_FALSE(copy.groups_can_collide(0, 1));
    mesh.set_stiffness_scale(2, 3, 5.0);
    mesh.disable_collisions(2, 3);
    mesh.enable_collisions(2, 3);
    CHECK(mesh.stiffness_scale(3, 2) == 5.0); // enabling keeps the scale
    mesh.set_collision_groups(ids({ 0, 0, 1, 1, 1 }));
    CHECK(mesh.num_collision_groups() == 2);
    CHECK_FALSE(mesh.has_collision_filter()); // new groups clear the rules
    mesh.set_can_collide([](Index, Index) { return false; });
    CHECK(mesh.has_collision_filter());
    CHECK(static_candidates(mesh, V, 1.0).empty());
    mesh.set_can_collide(nullptr);
    CHECK_FALSE(mesh.has_collision_filter());

    // Many groups: the hash-map storage answers as the dense table does.
    CollisionFilter big;
    Eigen::VectorXi groups(1000);
    for (int v = 0; v < 1000; ++v) {
        groups[v] = v;
    }
    big.set_groups(groups, 1000);
    big.disable_collisions(10, 700);
    big.set_stiffness_scale(700, 700, 2.0);
    CHECK_FALSE(big.vertices_can_collide(700, 10));
    CHECK(big.vertices_can_collide(10, 11));
    CHECK(big.vertex_pair_rule(700, 700) == 2.0);
    CHECK(big.pair_scale(std::array<int, 2> { { 10, 700 } }, std::array<int, 1> { { 700 } }) == 2.0);
    CHECK_FALSE(big.allows(std::array<int, 1> { { 10 } }, std::array<int, 1> { { 700 } }));
}

TEST_CASE("Collision filter: bad input", "[filter]")
{
    FilterScene s;
    std::mt19937 rng(1);
    s.sheet(2, 0, 0, 0, 1, 0, rng);
    CollisionMesh mesh = s.mesh();
    CHECK_THROWS_AS(mesh.disable_collisions(0, 0), invalid_argument); // no groups yet
    CHECK_THROWS_WITH(mesh.set_collision_groups(Eigen::Vector3i(0, 1, 0)),
                      Catch::Contains("set_collision_groups") && Catch::Contains("3 entries")
                          && Catch::Contains("4 vertices"));
    CHECK_THROWS_AS(mesh.set_collision_groups(Eigen::Vector4i(0, 1, -2, 0)), invalid_argument);
    CHECK_THROWS_WITH(mesh.set_collision_groups(Eigen::Vector4i(0, 1, -2, 0)),
                      Catch::Contains("vertex 2") && Catch::Contains("-2"));
    CHECK_THROWS_AS(mesh.set_collision_groups(Eigen::Vector4i(0, 1, 1 << 25, 0)), invalid_argument);
    mesh.set_collision_groups(Eigen::Vector4i(0, 1, 1, 0));
    CHECK_THROWS_WITH(mesh.disable_collisions(0, 2),
                      Catch::Contains("disable_collisions") && Catch::Contains("group_b is 2"));
    CHECK_THROWS_WITH(mesh.enable_collisions(-1, 0), Catch::Contains("enable_collisions") && Catch::Contains("-1"));
    CHECK_THROWS_AS(mesh.set_stiffness_scale(5, 0, 1.0), invalid_argument);
    CHECK_THROWS_AS(mesh.stiffness_scale(0, 7), invalid_argument);
    CHECK_THROWS_AS(mesh.groups_can_collide(0, 2), invalid_argument);
    CHECK_THROWS_WITH(mesh.set_stiffness_scale(0, 1, 0.0), Catch::Contains("set_stiffness_scale") && Catch::Contains("0"));
    CHECK_THROWS_WITH(mesh.set_stiffness_scale(0, 1, -2.0), Catch::Contains("-2"));
    CHECK_THROWS_AS(mesh.set_stiffness_scale(0, 1, std::nan("")), invalid_argument);
    CHECK_THROWS_AS(mesh.set_stiffness_scale(0, 1, std::numeric_limits<double>::infinity()), invalid_argument);
    CHECK(mesh.stiffness_scale(0, 1) == 1.0); // failed calls change nothing
    CHECK_FALSE(mesh.has_collision_filter());
}
