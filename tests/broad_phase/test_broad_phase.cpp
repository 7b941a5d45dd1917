#include "scenes.hpp"

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <mutex>
#include <numeric>
#include <random>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

using namespace ipc;
using ipc::test::Scene;

namespace {

const BroadPhaseMethod all_methods[] = { BroadPhaseMethod::brute_force, BroadPhaseMethod::sweep_and_prune,
                                         BroadPhaseMethod::spatial_hash, BroadPhaseMethod::bvh };

void set_threads(int threads)
{
#if IPC_HAS_OPENMP
    omp_set_num_threads(threads);
#else
    (void)threads;
#endif
}

Eigen::Vector3d point3(const Eigen::MatrixXd& V, Eigen::Index v)
{
    Eigen::Vector3d x = Eigen::Vector3d::Zero();
    x.head(V.cols()) = V.row(v).transpose();
    return x;
}

bool shares_vertex(const std::vector<int>& a, const std::vector<int>& b)
{
    for (const int x : a) {
        if (std::find(b.begin(), b.end(), x) != b.end()) {
            return true;
        }
    }
    return false;
}

/// Pair kinds written out from the documented rules, independently of the
/// mesh's can_collide_* functions.
struct Primitive {
    std::vector<int> vertices;
    double radius;
};

std::vector<Primitive> primitives_of(const CollisionMesh& mesh, int kind) // 0 vertex, 1 edge, 2 face
{
    std::vector<Primitive> result;
    const Eigen::VectorXd& r = mesh.vertex_radii();
    if (kind == 0) {
        for (Index v = 0; v < mesh.num_vertices(); ++v) {
            result.push_back({ { int(v) }, r[v] });
        }
    } else if (kind == 1) {
        for (Index e = 0; e < mesh.num_edges(); ++e) {
            const int a = mesh.edges()(e, 0), b = mesh.edges()(e, 1);
            result.push_back({ { a, b }, std::max(r[a], r[b]) });
        }
    } else {
        for (Index f = 0; f < mesh.num_faces(); ++f) {
            const int a = mesh.faces()(f, 0), b = mesh.faces()(f, 1), c = mesh.faces()(f, 2);
            result.push_back({ { a, b, c }, std::max({ r[a], r[b], r[c] }) });
        }
    }
    return result;
}

/// Calls visit(kind, first, second) for every admissible pair; kind 0 VV,
/// 1 EV (edge, vertex), 2 EE, 3 FV (face, vertex).
void for_each_admissible_pair(const CollisionMesh& mesh, const std::function<void(int, Index, Index)>& visit)
{
    const auto vertices = primitives_of(mesh, 0), edges = primitives_of(mesh, 1), faces = primitives_of(mesh, 2);
    for (size_t a = 0; a < vertices.size(); ++a) {
        for (size_t b = a + 1; b < vertices.size(); ++b) {
            if (mesh.is_particle(Index(a)) && mesh.is_particle(Index(b))) {
                visit(0, Index(a), Index(b));
            }
        }
    }
    for (size_t e = 0; e < edges.size(); ++e) {
        for (size_t v = 0; v < vertices.size(); ++v) {
            const bool roles = mesh.dim() == 2 ? mesh.is_collision_vertex(Index(v))
                                               : mesh.is_rod_edge(Index(e)) && mesh.is_collision_vertex(Index(v))
                    && !mesh.is_on_face(Index(v));
            if (roles && !shares_vertex(edges[e].vertices, vertices[v].vertices)) {
                visit(1, Index(e), Index(v));
            }
        }
    }
    if (mesh.dim() == 3) {
        for (size_t a = 0; a < edges.size(); ++a) {
            for (size_t b = a + 1; b < edges.size(); ++b) {
                if (!shares_vertex(edges[a].vertices, edges[b].vertices)) {
                    visit(2, Index(a), Index(b));
                }
            }
        }
        for (size_t f = 0; f < faces.size(); ++f) {
            for (size_t v = 0; v < vertices.size(); ++v) {
                if (mesh.is_collision_vertex(Index(v)) && !shares_vertex(faces[f].vertices, vertices[v].vertices)) {
                    visit(3, Index(f), Index(v));
                }
            }
        }
    }
}

const std::vector<int>& pair_vertices(const CollisionMesh& mesh, int kind, int side, Index i)
{
    static thread_local std::vector<int> scratch;
    scratch.clear();
    const bool is_vertex = kind == 0 || side == 1 ? true : false;
    if (is_vertex && !(kind == 2)) {
        scratch.push_back(int(i));
    } else if (kind == 3 && side == 0) {
        for (int k = 0; k < 3; ++k) {
            scratch.push_back(mesh.faces()(i, k));
        }
    } else {
        for (int k = 0; k < 2; ++k) {
            scratch.push_back(mesh.edges()(i, k));
        }
    }
    return scratch;
}

double primitive_radius(const CollisionMesh& mesh, int kind, int side, Index i)
{
    double r = 0;
    for (const int v : pair_vertices(mesh, kind, side, i)) {
        r = std::max(r, mesh.vertex_radii()[v]);
    }
    return r;
}

/// Distance between the two primitives of a pair at positions V.
double pair_distance(const CollisionMesh& mesh, const Eigen::MatrixXd& V, int kind, Index a, Index b)
{
    const Eigen::MatrixXi& E = mesh.edges();
    const Eigen::MatrixXi& F = mesh.faces();
    const auto x = [&](Index v) { return point3(V, v); };
    switch (kind) {
    case 0:
        return std::sqrt(point_point_distance_squared(x(a), x(b)));
    case 1:
        return std::sqrt(point_edge_distance_squared(x(b), x(E(a, 0)), x(E(a, 1))));
    case 2:
        return std::sqrt(edge_edge_distance_squared(x(E(a, 0)), x(E(a, 1)), x(E(b, 0)), x(E(b, 1))));
    default:
        return std::sqrt(point_triangle_distance_squared(x(b), x(F(a, 0)), x(F(a, 1)), x(F(a, 2))));
    }
}

/// Reference candidates: every admissible pair whose boxes over the given
/// position sets, inflated by radius + distance/2, overlap.
Candidates reference_candidates(const CollisionMesh& mesh, const std::vector<const Eigen::MatrixXd*>& positions,
                                double distance)
{
    const auto box = [&](int kind, int side, Index i, Eigen::Vector3d& lo, Eigen::Vector3d& hi) {
        lo.setConstant(1e300);
        hi.setConstant(-1e300);
        for (const Eigen::MatrixXd* V : positions) {
            for (const int v : pair_vertices(mesh, kind, side, i)) {
                lo = lo.cwiseMin(point3(*V, v));
                hi = hi.cwiseMax(point3(*V, v));
            }
        }
        const double inflation = primitive_radius(mesh, kind, side, i) + 0.5 * distance;
        lo.array() -= inflation;
        hi.array() += inflation;
    };
    Candidates result;
    for_each_admissible_pair(mesh, [&](int kind, Index a, Index b) {
        Eigen::Vector3d lo_a, hi_a, lo_b, hi_b;
        box(kind, 0, a, lo_a, hi_a);
        box(kind, 1, b, lo_b, hi_b);
        if ((lo_a.array() > hi_b.array()).any() || (lo_b.array() > hi_a.array()).any()) {
            return;
        }
        switch (kind) {
        case 0: result.vertex_vertex.push_back({ a, b }); break;
        case 1: result.edge_vertex.push_back({ a, b }); break;
        case 2: result.edge_edge.push_back({ a, b }); break;
        default: result.face_vertex.push_back({ a, b }); break;
        }
    });
    return result; // already in sorted order by construction
}

bool contains(const Candidates& c, int kind, Index a, Index b)
{
    switch (kind) {
    case 0: return std::binary_search(c.vertex_vertex.begin(), c.vertex_vertex.end(), VertexVertexCandidate { a, b });
    case 1: return std::binary_search(c.edge_vertex.begin(), c.edge_vertex.end(), EdgeVertexCandidate { a, b });
    case 2: return std::binary_search(c.edge_edge.begin(), c.edge_edge.end(), EdgeEdgeCandidate { a, b });
    default: return std::binary_search(c.face_vertex.begin(), c.face_vertex.end(), FaceVertexCandidate { a, b });
    }
}

template <typename T> bool sorted_unique(const std::vector<T>& v)
{
    for (size_t i = 1; i < v.size(); ++i) {
        if (!(v[i - 1] < v[i])) {
            return false;
        }
    }
    return true;
}

} // namespace

TEST_CASE("Reference candidates are sorted (sanity of the test helper)", "[broad_phase]")
{
    for (const Scene& scene : ipc::test::all_scenes()) {
        const CollisionMesh mesh = scene.mesh();
        const Candidates c = reference_candidates(mesh, { &scene.V0 }, 0.1);
        CHECK(sorted_unique(c.vertex_vertex));
        CHECK(sorted_unique(c.edge_vertex));
        CHECK(sorted_unique(c.edge_edge));
        CHECK(sorted_unique(c.face_vertex));
    }
}

TEST_CASE("Static candidates: every method and thread count matches the reference", "[broad_phase]")
{
    const double dhat = 0.1;
    for (const Scene& scene : ipc::test::all_scenes()) {
        CAPTURE(scene.name);
        const CollisionMesh mesh = scene.mesh();
        const Candidates reference = reference_candidates(mesh, { &scene.V0 }, dhat);
        REQUIRE(!reference.empty());
        for (const BroadPhaseMethod method : all_methods) {
            for (const int threads : { 1, 4 }) {
                CAPTURE(to_string(method), threads);
                set_threads(threads);
                const Candidates c = static_candidates(mesh, scene.V0, dhat, method);
                CHECK(c == reference);
            }
        }
        set_threads(4);
    }
}

TEST_CASE("Static candidates at coordinates whose span overflows match brute force", "[broad_phase]")
{
    // Found by tests/fuzz (fuzz_collision_mesh): with positions near +-1e308
    // the span of the boxes overflows, the spatial hash falls back to unit
    // cells, and it multiplied three spans of 2^21 cells in 64-bit integers
    // (overflow) and dropped the boxes beyond its grid (a missed pair).
    Eigen::MatrixXd rest(4, 3), V(4, 3);
    rest << 0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 0;
    V << -1e308, -1e308, -1e308, 1e308, 1e308, 1e308, 1e308, -1e308, 1e308, 0, 0, 0;
    Eigen::MatrixXi E(1, 2);
    E << 0, 1;
    const CollisionMesh mesh(rest, E, Eigen::MatrixXi(0, 3));
    const Candidates reference = static_candidates(mesh, V, 0.1, BroadPhaseMethod::brute_force);
    REQUIRE(reference.edge_vertex.size() == 2);
    for (const BroadPhaseMethod method : all_methods) {
        CAPTURE(to_string(method));
        CHECK(static_candidates(mesh, V, 0.1, method) == reference);
    }
}

TEST_CASE("BVH memory kept between calls: meshes of every kind in turn, large then small, and after release",
          "[broad_phase]")
{
    // The BVH reuses its trees and buffers from call to call on a thread:
    // queries on scenes of different kinds and sizes, interleaved, must
    // each still match the reference, and so must a query after the memory
    // is released.
    const double dhat = 0.1;
    const std::vector<Scene> scenes = ipc::test::all_scenes();
    std::vector<Candidates> references;
    for (const Scene& scene : scenes) {
        references.push_back(reference_candidates(scene.mesh(), { &scene.V0 }, dhat));
    }
    for (const int threads : { 1, 4 }) {
        set_threads(threads);
        for (int round = 0; round < 2; ++round) {
            for (size_t k = 0; k < scenes.size(); ++k) {
                // Forward in the first round, backward in the second.
                const size_t i = round == 0 ? k : scenes.size() - 1 - k;
                CAPTURE(scenes[i].name, threads, round);
                CHECK(static_candidates(scenes[i].mesh(), scenes[i].V0, dhat) == references[i]);
            }
        }
        release_broad_phase_memory();
        CHECK(static_candidates(scenes.front().mesh(), scenes.front().V0, dhat) == references.front());
    }
    set_threads(4);
}

TEST_CASE("Static candidates contain every pair closer than xi + dhat and no excluded pair", "[broad_phase]")
{
    const double dhat = 0.05;
    for (const Scene& scene : ipc::test::all_scenes()) {
        CAPTURE(scene.name);
        const CollisionMesh mesh = scene.mesh();
        const Candidates c = static_candidates(mesh, scene.V0, dhat);
        size_t close = 0;
        size_t admissible_found = 0;
        for_each_admissible_pair(mesh, [&](int kind, Index a, Index b) {
            const double xi = primitive_radius(mesh, kind, 0, a) + primitive_radius(mesh, kind, 1, b);
            if (pair_distance(mesh, scene.V0, kind, a, b) < xi + dhat) {
                ++close;
                CHECK(contains(c, kind, a, b));
            }
            admissible_found += contains(c, kind, a, b) ? 1 : 0;
        });
        CHECK(close > 0);
        // Every candidate is one of the admissible pairs (none excluded).
        CHECK(admissible_found == c.size());
        for (const auto& p : c.edge_edge) {
            CHECK(mesh.can_collide_edge_edge(p.edge0, p.edge1));
        }
        for (const auto& p : c.face_vertex) {
            CHECK(mesh.can_collide_face_vertex(p.face, p.vertex));
        }
    }
}

TEST_CASE("Swept candidates match the reference and contain every pair that comes close", "[broad_phase]")
{
    const double min_distance = 0.01;
    for (const Scene& scene : ipc::test::all_scenes()) {
        CAPTURE(scene.name);
        const CollisionMesh mesh = scene.mesh();
        const Candidates reference = reference_candidates(mesh, { &scene.V0, &scene.V1 }, min_distance);
        Candidates c;
        for (const BroadPhaseMethod method : all_methods) {
            for (const int threads : { 1, 3 }) {
                CAPTURE(to_string(method), threads);
                set_threads(threads);
                c = swept_candidates(mesh, scene.V0, scene.V1, min_distance, method);
                CHECK(c == reference);
            }
        }
        set_threads(4);
        // Dense sampling of the linear trajectories.
        size_t close = 0;
        for_each_admissible_pair(mesh, [&](int kind, Index a, Index b) {
            const double xi = primitive_radius(mesh, kind, 0, a) + primitive_radius(mesh, kind, 1, b);
            for (int k = 0; k <= 32; ++k) {
                const double t = k / 32.0;
                const Eigen::MatrixXd Vt = (1 - t) * scene.V0 + t * scene.V1;
                if (pair_distance(mesh, Vt, kind, a, b) < xi + min_distance) {
                    ++close;
                    CHECK(contains(c, kind, a, b));
                    break;
                }
            }
        });
        CHECK(close > 0);
    }
}

TEST_CASE("Offsets enlarge candidate sets exactly as they should", "[broad_phase]")
{
    // Two parallel rods 0.15 apart in y; a particle 0.15 above a triangle.
    Eigen::MatrixXd V(8, 3);
    V << 0, 0, 0, /**/ 1, 0, 0, /**/ 0, 0.15, 0, /**/ 1, 0.15, 0, // rods
        3, 0, 0, /**/ 4, 0, 0, /**/ 3, 1, 0,                      // triangle
        3.2, 0.2, 0.15;                                           // particle
    Eigen::MatrixXi E(2, 2), F(1, 3);
    E << 0, 1, 2, 3;
    F << 4, 5, 6;
    const double dhat = 0.1;
    for (const BroadPhaseMethod method : all_methods) {
        CAPTURE(to_string(method));
        const CollisionMesh thin(V, E, F);
        const Candidates without = static_candidates(thin, V, dhat, method);
        CHECK(without.edge_edge.empty());
        CHECK(without.edge_vertex.empty());
        CHECK(without.face_vertex.empty());

        // xi = 0.06: 0.1 < 0.15 < 0.16 = dhat + xi.
        const CollisionMesh thick(V, E, F, Eigen::VectorXd::Constant(8, 0.03));
        const Candidates with = static_candidates(thick, V, dhat, method);
        CHECK(with.edge_edge == std::vector<EdgeEdgeCandidate> { { 0, 1 } });
        CHECK(with.edge_vertex
              == std::vector<EdgeVertexCandidate> { { 0, 2 }, { 0, 3 }, { 1, 0 }, { 1, 1 } });
        CHECK(with.face_vertex == std::vector<FaceVertexCandidate> { { 0, 7 } });

        // Radius on one side only still counts: xi = 0.06 from a single rod.
        Eigen::VectorXd one_sided = Eigen::VectorXd::Zero(8);
        one_sided.segment(2, 2).setConstant(0.06);
        one_sided[7] = 0.06;
        const CollisionMesh half(V, E, F, one_sided);
        const Candidates half_candidates = static_candidates(half, V, dhat, method);
        CHECK(half_candidates.edge_edge.size() == 1);
        CHECK(half_candidates.face_vertex.size() == 1);

        // Too small an offset keeps the pair out: xi = 0.04 < 0.05 needed.
        const CollisionMesh small(V, E, F, Eigen::VectorXd::Constant(8, 0.02));
        CHECK(static_candidates(small, V, dhat, method).empty());
    }
}

TEST_CASE("Broad phase validates its input", "[broad_phase]")
{
    const Scene scene = ipc::test::all_scenes()[1];
    const CollisionMesh mesh = scene.mesh();
    CHECK_THROWS_AS(static_candidates(mesh, scene.V0, -1.0), invalid_argument);
    CHECK_THROWS_WITH(static_candidates(mesh, scene.V0, std::nan("")), Catch::Contains("dhat"));
    CHECK_THROWS_WITH(static_candidates(mesh, scene.V0.topRows(3), 0.1), Catch::Contains("rows"));
    Eigen::MatrixXd bad = scene.V0;
    bad(4, 1) = std::numeric_limits<double>::infinity();
    CHECK_THROWS_WITH(static_candidates(mesh, bad, 0.1), Catch::Contains("vertex 4"));
    CHECK_THROWS_WITH(swept_candidates(mesh, scene.V0, bad, 0.0), Catch::Contains("end positions"));
    CHECK_THROWS_AS(swept_candidates(mesh, scene.V0, scene.V1, -0.5), invalid_argument);
    PrimitiveBoxes boxes = static_boxes(mesh, scene.V0, 0.1);
    boxes.edges.pop_back();
    CHECK_THROWS_WITH(candidates_from_boxes(mesh, boxes), Catch::Contains("edge boxes"));
}

TEST_CASE("Index structures answer box queries like brute force", "[broad_phase]")
{
    // Boxes of very different sizes, including one huge box (a ground plane).
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<AABB> boxes(400);
    for (AABB& box : boxes) {
        for (size_t d = 0; d < 3; ++d) {
            box.lower[d] = u(rng);
            box.upper[d] = box.lower[d] + 0.05 * u(rng) * u(rng);
        }
    }
    boxes[17].lower = { { -10, -10, -0.1 } };
    boxes[17].upper = { { 10, 10, 0.1 } };
    std::vector<Index> ids;
    for (Index i = 0; i < Index(boxes.size()); i += 2) {
        ids.push_back(i);
    }
    ids.push_back(17);
    const BruteForce brute(boxes, ids);
    const BVH bvh(boxes, ids);
    const SpatialHash hash(boxes, ids);
    for (size_t q = 0; q < boxes.size(); ++q) {
        std::vector<Index> expected, from_bvh, from_hash;
        brute.query(boxes[q], [&](Index id) { expected.push_back(id); });
        bvh.query(boxes[q], [&](Index id) { from_bvh.push_back(id); });
        hash.query(boxes[q], [&](Index id) { from_hash.push_back(id); });
        std::sort(expected.begin(), expected.end());
        std::sort(from_bvh.begin(), from_bvh.end());
        std::sort(from_hash.begin(), from_hash.end());
        CHECK(from_bvh == expected);
        CHECK(from_hash == expected);
    }
    // Simultaneous descents: the tree against itself and against another.
    std::vector<std::pair<Index, Index>> expected_self, expected_cross, found_self, found_cross;
    std::vector<Index> odd_ids;
    for (Index i = 1; i < Index(boxes.size()); i += 2) {
        odd_ids.push_back(i);
    }
    for (size_t i = 0; i < ids.size(); ++i) {
        for (size_t j = i + 1; j < ids.size(); ++j) {
            if (overlaps(boxes[size_t(ids[i])], boxes[size_t(ids[j])])) {
                expected_self.emplace_back(std::min(ids[i], ids[j]), std::max(ids[i], ids[j]));
            }
        }
        for (const Index j : odd_ids) {
            if (overlaps(boxes[size_t(ids[i])], boxes[size_t(j)])) {
                expected_cross.emplace_back(ids[i], j);
            }
        }
    }
    const BVH odd_bvh(boxes, odd_ids);
    std::mutex mutex;
    bvh.self_overlaps([&](int, Index a, Index b) {
        const std::lock_guard<std::mutex> lock(mutex);
        found_self.emplace_back(std::min(a, b), std::max(a, b));
    });
    bvh.overlaps_with(odd_bvh, [&](int, Index a, Index b) {
        const std::lock_guard<std::mutex> lock(mutex);
        found_cross.emplace_back(a, b);
    });
    for (auto* list : { &expected_self, &expected_cross, &found_self, &found_cross }) {
        std::sort(list->begin(), list->end());
    }
    CHECK(!expected_self.empty());
    CHECK(!expected_cross.empty());
    CHECK(found_self == expected_self);
    CHECK(found_cross == expected_cross);

    // A query covering everything, and one far away.
    AABB all;
    all.lower = { { -100, -100, -100 } };
    all.upper = { { 100, 100, 100 } };
    size_t count = 0;
    hash.query(all, [&](Index) { ++count; });
    CHECK(count == ids.size());
    AABB far;
    far.lower = { { 50, 50, 50 } };
    far.upper = { { 51, 51, 51 } };
    count = 0;
    bvh.query(far, [&](Index) { ++count; });
    hash.query(far, [&](Index) { ++count; });
    CHECK(count == 0);
}

namespace {

/// Every pair {a, b} of ids (a < b) whose boxes overlap, by the tree's self
/// descent, sorted.
std::vector<std::pair<Index, Index>> bvh_self_pairs(const BVH& bvh)
{
    std::vector<std::pair<Index, Index>> pairs;
    std::mutex mutex;
    bvh.self_overlaps([&](int, Index a, Index b) {
        const std::lock_guard<std::mutex> lock(mutex);
        pairs.emplace_back(std::min(a, b), std::max(a, b));
    });
    std::sort(pairs.begin(), pairs.end());
    return pairs;
}

std::vector<std::pair<Index, Index>> brute_self_pairs(const std::vector<AABB>& boxes)
{
    std::vector<std::pair<Index, Index>> pairs;
    for (size_t i = 0; i < boxes.size(); ++i) {
        for (size_t j = i + 1; j < boxes.size(); ++j) {
            if (overlaps(boxes[i], boxes[j])) {
                pairs.emplace_back(Index(i), Index(j));
            }
        }
    }
    return pairs;
}

/// Two stacked n x n grids of triangles, 0.02 apart, in the unit square.
CollisionMesh stacked_grids(int n, Eigen::MatrixXd& V, Eigen::MatrixXi& F)
{
    V.resize(2 * n * n, 3);
    F.resize(2 * 2 * (n - 1) * (n - 1), 3);
    Index f = 0;
    for (int sheet = 0; sheet < 2; ++sheet) {
        const int base = sheet * n * n;
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                V.row(base + i * n + j) << double(i) / (n - 1), double(j) / (n - 1), 0.02 * sheet;
            }
        }
        for (int i = 0; i + 1 < n; ++i) {
            for (int j = 0; j + 1 < n; ++j) {
                const int v = base + i * n + j;
                F.row(f++) << v, v + n, v + 1;
                F.row(f++) << v + 1, v + n, v + n + 1;
            }
        }
    }
    return CollisionMesh(V, Eigen::MatrixXi(0, 2), F);
}

} // namespace

TEST_CASE("BVH refit: small motions refit, large ones decline; queries are exact either way", "[broad_phase][bvh]")
{
    std::mt19937 rng(23);
    std::uniform_real_distribution<double> u(0, 1);
    // 3,000 small boxes on a thin slab (many leaves, flat like cloth).
    std::vector<AABB> boxes(3000);
    for (AABB& box : boxes) {
        for (size_t d = 0; d < 3; ++d) {
            box.lower[d] = d == 2 ? 0.01 * u(rng) : u(rng);
            box.upper[d] = box.lower[d] + 0.02 * u(rng);
        }
    }
    const auto moved = [&](const std::vector<AABB>& from, double step) {
        std::vector<AABB> to = from;
        for (AABB& box : to) {
            for (size_t d = 0; d < 3; ++d) {
                const double shift = step * (2 * u(rng) - 1);
                box.lower[d] += shift;
                box.upper[d] += shift;
            }
        }
        return to;
    };
    BVH bvh(boxes);
    REQUIRE(bvh_self_pairs(bvh) == brute_self_pairs(boxes));

    // A motion far below the boxes' size keeps the tree: refitted, exact.
    const std::vector<AABB> nudged = moved(boxes, 1e-4);
    CHECK(bvh.refit(nudged));
    CHECK(bvh_self_pairs(bvh) == brute_self_pairs(nudged));
    for (size_t q = 0; q < nudged.size(); q += 97) {
        std::vector<Index> found;
        bvh.query(nudged[q], [&](Index id) { found.push_back(id); });
        std::sort(found.begin(), found.end());
        std::vector<Index> expected;
        for (size_t i = 0; i < nudged.size(); ++i) {
            if (overlaps(nudged[i], nudged[q])) {
                expected.push_back(Index(i));
            }
        }
        CHECK(found == expected);
    }

    // Boxes dealt to other primitives: the kept grouping is useless, so
    // refit declines and leaves the tree fitted to the nudged boxes.
    std::vector<AABB> shuffled = nudged;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    CHECK_FALSE(bvh.refit(shuffled));
    CHECK(bvh_self_pairs(bvh) == brute_self_pairs(nudged));
    // Forced, the refit of a poor tree is still exact; a rebuild too.
    CHECK(bvh.refit(shuffled, std::numeric_limits<double>::max()));
    CHECK(bvh_self_pairs(bvh) == brute_self_pairs(shuffled));
    bvh.build(shuffled, detail::iota_ids(Index(shuffled.size())));
    CHECK(bvh_self_pairs(bvh) == brute_self_pairs(shuffled));

    CHECK_THROWS_AS(bvh.refit(boxes, 0.5), invalid_argument);
    BVH empty;
    CHECK(empty.refit(boxes));
}

TEST_CASE("BVH trees kept across queries on one mesh: static and swept, small and large motions, match brute force",
          "[broad_phase][bvh]")
{
    // Two stacked 30 x 30 grids: 1,800 vertices, 5,162 edges (more first
    // ids than one bucket of the sorted keys holds). Each query refits the
    // trees of its kind when the mesh is the same and the motion small, and
    // rebuilds them otherwise; the candidates must not tell the difference.
    Eigen::MatrixXd V0;
    Eigen::MatrixXi F;
    const CollisionMesh mesh = stacked_grids(30, V0, F);
    std::mt19937 rng(29);
    std::normal_distribution<double> noise(0.0, 1.0);
    const auto jittered = [&](const Eigen::MatrixXd& V, double size) {
        Eigen::MatrixXd result = V;
        for (Index i = 0; i < result.size(); ++i) {
            result.data()[i] += size * noise(rng);
        }
        return result;
    };
    Eigen::MatrixXd folded = V0; // the top sheet swung down through the bottom one
    for (Index v = V0.rows() / 2; v < V0.rows(); ++v) {
        folded(v, 2) = -0.3 * V0(v, 0);
    }
    const std::vector<Eigen::MatrixXd> path
        = { V0, jittered(V0, 1e-5), jittered(V0, 1e-4), jittered(V0, 0.01), folded, V0, jittered(V0, 1e-5) };
    const double dhat = 0.03;
    for (const int threads : { 1, 3 }) {
        set_threads(threads);
        release_broad_phase_memory();
        for (size_t k = 0; k < path.size(); ++k) {
            CAPTURE(threads, k);
            const Candidates expected = static_candidates(mesh, path[k], dhat, BroadPhaseMethod::brute_force);
            CHECK(static_candidates(mesh, path[k], dhat) == expected);
            if (k > 0) {
                const Candidates swept = swept_candidates(mesh, path[k - 1], path[k], 0.001, BroadPhaseMethod::brute_force);
                CHECK(swept_candidates(mesh, path[k - 1], path[k], 0.001) == swept);
                CHECK(collision_free_step_size(mesh, path[k - 1], path[k], 0.001)
                      == collision_free_step_size(swept, mesh, path[k - 1], path[k], 0.001));
            }
        }
    }
    set_threads(4);
}

TEST_CASE("BVH trees are not reused across meshes with the same element counts", "[broad_phase][bvh]")
{
    // The same grids with their vertices numbered differently: every count
    // agrees, but the edges join other vertex ids, so trees kept from one
    // mesh (with its shared-vertex exclusions) must not serve the other.
    Eigen::MatrixXd V;
    Eigen::MatrixXi F;
    const CollisionMesh mesh = stacked_grids(12, V, F);
    std::vector<int> relabel(size_t(V.rows()));
    std::iota(relabel.begin(), relabel.end(), 0);
    std::shuffle(relabel.begin(), relabel.end(), std::mt19937(31));
    Eigen::MatrixXd V_relabelled(V.rows(), 3);
    Eigen::MatrixXi F_relabelled(F.rows(), 3);
    for (Index v = 0; v < V.rows(); ++v) {
        V_relabelled.row(relabel[size_t(v)]) = V.row(v);
    }
    for (Index f = 0; f < F.rows(); ++f) {
        for (int k = 0; k < 3; ++k) {
            F_relabelled(f, k) = relabel[size_t(F(f, k))];
        }
    }
    const CollisionMesh other(V_relabelled, Eigen::MatrixXi(0, 2), F_relabelled);
    REQUIRE(other.num_edges() == mesh.num_edges());
    CHECK(other.topology_id() != mesh.topology_id());
    const CollisionMesh copy = mesh;
    CHECK(copy.topology_id() == mesh.topology_id());
    const double dhat = 0.05;
    const Candidates expected = static_candidates(mesh, V, dhat, BroadPhaseMethod::brute_force);
    const Candidates expected_other = static_candidates(other, V_relabelled, dhat, BroadPhaseMethod::brute_force);
    for (int round = 0; round < 2; ++round) {
        CHECK(static_candidates(mesh, V, dhat) == expected);
        CHECK(static_candidates(other, V_relabelled, dhat) == expected_other);
        CHECK(static_candidates(copy, V, dhat) == expected);
    }
}

#include <ipc/collisions/minimum_distance.hpp>

TEST_CASE("minimum_distance matches brute force over all admissible pairs", "[broad_phase][minimum_distance]")
{
    for (const Scene& scene : ipc::test::all_scenes()) {
        CAPTURE(scene.name);
        const CollisionMesh mesh = scene.mesh();
        for (const Eigen::MatrixXd* V : { &scene.V0, &scene.V1 }) {
            double expected = std::numeric_limits<double>::infinity();
            for_each_admissible_pair(mesh, [&](int kind, Index a, Index b) {
                const double xi = primitive_radius(mesh, kind, 0, a) + primitive_radius(mesh, kind, 1, b);
                expected = std::min(expected, pair_distance(mesh, *V, kind, a, b) - xi);
            });
            for (const BroadPhaseMethod method : { BroadPhaseMethod::bvh, BroadPhaseMethod::sweep_and_prune }) {
                CHECK(minimum_distance(mesh, *V, method) == Approx(expected).margin(1e-12));
            }
        }
    }
    // Far-apart primitives need the growing search radius.
    Eigen::MatrixXd V(2, 3);
    V << 0, 0, 0, 1000, 0, 0;
    const CollisionMesh particles(V, Eigen::MatrixXi(), Eigen::MatrixXi(), Eigen::VectorXd::Constant(2, 0.5));
    CHECK(minimum_distance(particles, V) == Approx(999.0));
    // No admissible pair at all.
    Eigen::MatrixXd W(3, 3);
    W << 0, 0, 0, 1, 0, 0, 0, 1, 0;
    const CollisionMesh triangle(W, Eigen::MatrixXi(), (Eigen::MatrixXi(1, 3) << 0, 1, 2).finished());
    CHECK(std::isinf(minimum_distance(triangle, W)));
    CHECK_THROWS_AS(minimum_distance(triangle, W.topRows(2)), invalid_argument);
}
