// The collision-free step size: safety checked with long double distances
// over every admissible pair along the clipped motion, sharpness against the
// analytic first contact, offsets, determinism, validation.

#include "contact_scenes.hpp"

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>

#include <catch2/catch.hpp>

#include <limits>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

namespace {

using Vector3L = Eigen::Matrix<long double, 3, 1>;

Vector3L at(const Eigen::MatrixXd& V0, const Eigen::MatrixXd& V1, long double t, ipc::Index i)
{
    Vector3L p;
    for (int d = 0; d < 3; ++d) {
        p[d] = (long double)V0(i, d) + t * ((long double)V1(i, d) - (long double)V0(i, d));
    }
    return p;
}

// Smallest (d - xi) over every admissible pair at time t (long double).
long double smallest_gap(const ipc::CollisionMesh& mesh, const Eigen::MatrixXd& V0, const Eigen::MatrixXd& V1,
                         long double t, double min_distance)
{
    using std::sqrt;
    const Eigen::MatrixXi& E = mesh.edges();
    const Eigen::MatrixXi& F = mesh.faces();
    long double gap = std::numeric_limits<long double>::infinity();
    const auto update = [&](long double d2, double xi) { gap = std::min(gap, sqrt(d2) - (long double)(xi + min_distance)); };
    for (ipc::Index a = 0; a < mesh.num_vertices(); ++a) {
        for (ipc::Index b = a + 1; b < mesh.num_vertices(); ++b) {
            if (mesh.can_collide_vertex_vertex(a, b)) {
                update(ipc::point_point_distance_squared(at(V0, V1, t, a), at(V0, V1, t, b)),
                       mesh.vertex_vertex_offset(a, b));
            }
        }
    }
    for (ipc::Index e = 0; e < mesh.num_edges(); ++e) {
        for (ipc::Index v = 0; v < mesh.num_vertices(); ++v) {
            if (mesh.can_collide_edge_vertex(e, v)) {
                update(ipc::point_edge_distance_squared(at(V0, V1, t, v), at(V0, V1, t, E(e, 0)), at(V0, V1, t, E(e, 1))),
                       mesh.edge_vertex_offset(e, v));
            }
        }
    }
    for (ipc::Index ea = 0; ea < mesh.num_edges(); ++ea) {
        for (ipc::Index eb = ea + 1; eb < mesh.num_edges(); ++eb) {
            if (mesh.can_collide_edge_edge(ea, eb)) {
                update(ipc::edge_edge_distance_squared(at(V0, V1, t, E(ea, 0)), at(V0, V1, t, E(ea, 1)),
                                                       at(V0, V1, t, E(eb, 0)), at(V0, V1, t, E(eb, 1))),
                       mesh.edge_edge_offset(ea, eb));
            }
        }
    }
    for (ipc::Index f = 0; f < mesh.num_faces(); ++f) {
        for (ipc::Index v = 0; v < mesh.num_vertices(); ++v) {
            if (mesh.can_collide_face_vertex(f, v)) {
                update(ipc::point_triangle_distance_squared(at(V0, V1, t, v), at(V0, V1, t, F(f, 0)),
                                                            at(V0, V1, t, F(f, 1)), at(V0, V1, t, F(f, 2))),
                       mesh.face_vertex_offset(f, v));
            }
        }
    }
    return gap;
}

// Random end positions: every vertex moves by up to `amount` per axis.
using ipc::test::random_motion;

} // namespace

TEST_CASE("Step size keeps every pair outside its offset (long double check)", "[step_size]")
{
    int clipped = 0;
    for (const double radius : { 0.0, 0.004 }) {
        const auto scenes = ipc::test::mixed_scenes(radius, radius > 0);
        for (std::size_t s = 0; s < scenes.size(); ++s) {
            for (unsigned seed = 0; seed < 2; ++seed) {
                INFO("radius " << radius << " scene " << s << " seed " << seed);
                const ipc::CollisionMesh& mesh = scenes[s].mesh;
                const Eigen::MatrixXd& V0 = scenes[s].V;
                const Eigen::MatrixXd V1 = random_motion(V0, 0.08, 100 * unsigned(s) + seed);
                const double min_distance = seed % 2 ? 0.002 : 0.0;
                REQUIRE(smallest_gap(mesh, V0, V1, 0, min_distance) > 0);
                const double alpha = ipc::collision_free_step_size(mesh, V0, V1, min_distance);
                REQUIRE(alpha >= 0);
                REQUIRE(alpha <= 1);
                clipped += alpha < 1;
                // Safe over the whole clipped interval, sampled densely.
                for (int k = 1; k <= 4; ++k) {
                    const long double t = (long double)alpha * k / 4;
                    CHECK(smallest_gap(mesh, V0, V1, t, min_distance) > 0);
                }
                // Every candidate source (bvh vs brute force) gives the same step.
                const ipc::Candidates all = ipc::swept_candidates(mesh, V0, V1, min_distance, ipc::BroadPhaseMethod::brute_force);
                CHECK(ipc::collision_free_step_size(all, mesh, V0, V1, min_distance) == alpha);
            }
        }
    }
    CHECK(clipped > 4); // the motions are large enough to need clipping
}

TEST_CASE("Step size of a sheet falling onto another matches the first contact", "[step_size]")
{
    for (const double radius : { 0.0, 0.01 }) {
        INFO("radius " << radius);
        Eigen::MatrixXd V0(0, 3);
        Eigen::MatrixXi E(0, 2), F(0, 3);
        ipc::test::add_sheet(V0, F, 6, 6, 1.0, 0.0, 0.0);
        const ipc::Index bottom = V0.rows();
        ipc::test::add_sheet(V0, F, 5, 5, 0.8, 0.1, 0.0, { 0.1, 0.1 });
        const ipc::CollisionMesh mesh(V0, E, F, Eigen::VectorXd::Constant(V0.rows(), radius));
        Eigen::MatrixXd V1 = V0;
        V1.bottomRows(V0.rows() - bottom).col(2).array() -= 0.2; // passes through the bottom sheet
        // First contact (distance = xi = 2 r) when the gap 0.1 closes to 2 r.
        const double first_contact = (0.1 - 2 * radius) / 0.2;
        const double alpha = ipc::collision_free_step_size(mesh, V0, V1);
        CHECK(alpha <= first_contact);
        // ACCD stops within its conservative margin: the remaining gap is at
        // most a (1 - s) fraction of the initial gap (s = 0.9), with slack.
        CHECK(alpha >= 0.8 * first_contact);
    }
}

TEST_CASE("Step size edge cases", "[step_size]")
{
    const auto scene = ipc::test::mixed_scenes().front();
    SECTION("no motion")
    {
        CHECK(ipc::collision_free_step_size(scene.mesh, scene.V, scene.V) == 1.0);
    }
    SECTION("rigid translation")
    {
        Eigen::MatrixXd V1 = scene.V;
        V1.col(0).array() += 3.0;
        CHECK(ipc::collision_free_step_size(scene.mesh, scene.V, V1) == 1.0);
    }
    SECTION("a pair already inside min_distance gives zero")
    {
        CHECK(ipc::collision_free_step_size(scene.mesh, scene.V, random_motion(scene.V, 0.01, 3), 0.5) == 0.0);
    }
    SECTION("other CCD methods plug in")
    {
        const Eigen::MatrixXd V1 = random_motion(scene.V, 0.08, 7);
        const double alpha = ipc::collision_free_step_size(scene.mesh, scene.V, V1, 0.0, ipc::BroadPhaseMethod::bvh,
                                                           ipc::AdditiveCCD(1000, 0.5));
        CHECK(alpha >= 0);
        CHECK(alpha <= ipc::collision_free_step_size(scene.mesh, scene.V, V1));
        CHECK(smallest_gap(scene.mesh, scene.V, V1, alpha, 0) > 0);
    }
    SECTION("validation")
    {
        Eigen::MatrixXd bad = scene.V;
        bad(0, 0) = std::numeric_limits<double>::infinity();
        CHECK_THROWS_AS(ipc::collision_free_step_size(scene.mesh, scene.V, bad), ipc::invalid_argument);
        CHECK_THROWS_AS(ipc::collision_free_step_size(scene.mesh, bad, scene.V), ipc::invalid_argument);
        CHECK_THROWS_AS(ipc::collision_free_step_size(scene.mesh, scene.V, scene.V, -1.0), ipc::invalid_argument);
        CHECK_THROWS_AS(ipc::collision_free_step_size(scene.mesh, scene.V, scene.V.topRows(4)), ipc::invalid_argument);
        ipc::Candidates out_of_range;
        out_of_range.edge_edge.push_back({ 0, scene.mesh.num_edges() });
        CHECK_THROWS_AS(ipc::collision_free_step_size(out_of_range, scene.mesh, scene.V, scene.V),
                        ipc::invalid_argument);
    }
}

TEST_CASE("Step size is identical for 1 and many threads", "[step_size][threads]")
{
    Eigen::MatrixXd V0(0, 3);
    Eigen::MatrixXi E(0, 2), F(0, 3);
    ipc::test::add_sheet(V0, F, 30, 30, 1.0, 0.0, 0.01);
    ipc::test::add_sheet(V0, F, 30, 30, 1.0, 0.03, 0.01, { 0.013, 0.006 });
    const ipc::CollisionMesh mesh(V0, E, F);
    const Eigen::MatrixXd V1 = random_motion(V0, 0.03, 11);
    const ipc::Candidates candidates = ipc::swept_candidates(mesh, V0, V1);
    REQUIRE(candidates.size() > 4 * 4096);
#if IPC_HAS_OPENMP
    const int saved = omp_get_max_threads();
    omp_set_num_threads(1);
#endif
    const double serial = ipc::collision_free_step_size(candidates, mesh, V0, V1);
#if IPC_HAS_OPENMP
    omp_set_num_threads(4);
#endif
    const double parallel = ipc::collision_free_step_size(candidates, mesh, V0, V1);
#if IPC_HAS_OPENMP
    omp_set_num_threads(saved);
#endif
    CHECK(serial < 1);
    CHECK(serial == parallel);
}
