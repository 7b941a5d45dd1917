// Drop-in CCD: the smallest program showing how to put the library's additive
// CCD (ACCD) into a simulator that already has its own collision handling.
//
// Many simulators call one continuous-collision function per primitive pair
// with the common shape
//
//     bool ccd(x0 at t = 0 ..., x0 at t = 1 ..., double& toi,
//              double min_distance, double tmax);
//
// (true: the primitives may come within min_distance before tmax, and toi is
// a time at which they are still apart). Every CCD method of this library
// has exactly that shape (see ipc/ccd/ccd_method.hpp), so swapping one in
// means changing one name: below, the `ccd` reference in main() chooses
// between ACCD and the interval-inclusion method (InclusionCCD).
//
// Usage:
//     drop_in_ccd                      a cube and particles fall on a ground,
//                                      ACCD handling the collisions
//     drop_in_ccd --method inclusion   the same with InclusionCCD
//     drop_in_ccd --queries DIR [--max-queries N]
//                                      both methods on the CCD benchmark's
//                                      query files under DIR (folders
//                                      .../edge-edge/*.csv and
//                                      .../vertex-face/*.csv): false negatives
//                                      (must be 0) and timings
// The exit status is 0 on success, 1 when a vertex ends up below the ground
// or ACCD misses a collision of the queries, 2 on a usage error.

#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/inclusion_ccd.hpp>
#include <ipc/io/ccd_queries.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using Eigen::Vector3d;

// ---------------------------------------------------------------------------
// Step 1. The simulator's CCD interface: two function types with the common
// drop-in shape (positions at t = 0, then at t = 1, toi, min_distance, tmax).

using PointTriangleCCD = bool (*)(const Vector3d& p_t0, const Vector3d& a_t0, const Vector3d& b_t0,
                                  const Vector3d& c_t0, const Vector3d& p_t1, const Vector3d& a_t1,
                                  const Vector3d& b_t1, const Vector3d& c_t1, double& toi, double min_distance,
                                  double tmax);
using EdgeEdgeCCD = bool (*)(const Vector3d& ea0_t0, const Vector3d& ea1_t0, const Vector3d& eb0_t0,
                             const Vector3d& eb1_t0, const Vector3d& ea0_t1, const Vector3d& ea1_t1,
                             const Vector3d& eb0_t1, const Vector3d& eb1_t1, double& toi, double min_distance,
                             double tmax);

/// The CCD a simulator calls: one function per primitive-pair kind.
struct CCDFunctions {
    const char* name;
    PointTriangleCCD point_triangle;
    EdgeEdgeCCD edge_edge;
};

// ---------------------------------------------------------------------------
// Step 2. Adapters from the library's CCD classes to those function types.
// They only forward: the library's methods already have the shape.

template <typename Method> const Method& method_instance()
{
    static const Method method; // default settings; construct once
    return method;
}

template <typename Method>
bool point_triangle(const Vector3d& p_t0, const Vector3d& a_t0, const Vector3d& b_t0, const Vector3d& c_t0,
                    const Vector3d& p_t1, const Vector3d& a_t1, const Vector3d& b_t1, const Vector3d& c_t1,
                    double& toi, double min_distance, double tmax)
{
    return method_instance<Method>().point_triangle_ccd(p_t0, a_t0, b_t0, c_t0, p_t1, a_t1, b_t1, c_t1, toi,
                                                        min_distance, tmax);
}

template <typename Method>
bool edge_edge(const Vector3d& ea0_t0, const Vector3d& ea1_t0, const Vector3d& eb0_t0, const Vector3d& eb1_t0,
               const Vector3d& ea0_t1, const Vector3d& ea1_t1, const Vector3d& eb0_t1, const Vector3d& eb1_t1,
               double& toi, double min_distance, double tmax)
{
    return method_instance<Method>().edge_edge_ccd(ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1,
                                                   toi, min_distance, tmax);
}

/// ACCD (ipc::AdditiveCCD) and interval-inclusion CCD (ipc::InclusionCCD),
/// side by side: the same interface, one name apart.
const CCDFunctions accd { "ACCD", point_triangle<ipc::AdditiveCCD>, edge_edge<ipc::AdditiveCCD> };
const CCDFunctions inclusion { "InclusionCCD", point_triangle<ipc::InclusionCCD>, edge_edge<ipc::InclusionCCD> };

// ---------------------------------------------------------------------------
// Step 3. A plain explicit simulator with its own collision handling: rigid
// bodies that only translate (a cube and a few particles) fall under gravity
// onto a static ground made of two triangles. Each time step moves every
// body with its velocity; the CCD finds the earliest time at which a body
// would come within min_distance of the ground; the body stops there and
// bounces (its vertical velocity reversed and damped).

struct Body {
    std::vector<Vector3d> vertices;           // world positions (m)
    std::vector<std::array<int, 2>> edges;    // for edge-edge CCD (empty: a particle)
    Vector3d velocity = Vector3d::Zero();     // (m/s)
};

struct Ground {
    std::array<Vector3d, 4> corners;
    std::array<std::array<int, 3>, 2> triangles { { { 0, 1, 2 }, { 0, 2, 3 } } };
    std::array<std::array<int, 2>, 5> edges { { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 }, { 0, 2 } } };
};

Body make_cube(const Vector3d& corner, double size)
{
    Body cube;
    for (int i = 0; i < 8; ++i) {
        cube.vertices.push_back(corner + size * Vector3d(i & 1, (i >> 1) & 1, (i >> 2) & 1));
    }
    for (int i = 0; i < 8; ++i) {
        for (int axis = 0; axis < 3; ++axis) {
            const int j = i | (1 << axis);
            if (j != i) {
                cube.edges.push_back({ i, j });
            }
        }
    }
    return cube;
}

/// Earliest time of impact in [0, 1] of `body` moving by `displacement`
/// against the ground, using the simulator's CCD functions; 1 when no hit.
double earliest_impact(const CCDFunctions& ccd, const Body& body, const Vector3d& displacement,
                       const Ground& ground, double min_distance, long& queries)
{
    double earliest = 1;
    double toi = 1;
    // Every vertex against every ground triangle (the ground does not move:
    // its positions at t = 0 and t = 1 are the same).
    for (const Vector3d& x0 : body.vertices) {
        const Vector3d x1 = x0 + displacement;
        for (const auto& t : ground.triangles) {
            const Vector3d &a = ground.corners[t[0]], &b = ground.corners[t[1]], &c = ground.corners[t[2]];
            ++queries;
            if (ccd.point_triangle(x0, a, b, c, x1, a, b, c, toi, min_distance, earliest)) {
                earliest = std::min(earliest, toi);
            }
        }
    }
    // Every body edge against every ground edge.
    for (const auto& e : body.edges) {
        const Vector3d &a0 = body.vertices[e[0]], &a1 = body.vertices[e[1]];
        for (const auto& g : ground.edges) {
            const Vector3d &b0 = ground.corners[g[0]], &b1 = ground.corners[g[1]];
            ++queries;
            if (ccd.edge_edge(a0, a1, b0, b1, a0 + displacement, a1 + displacement, b0, b1, toi, min_distance,
                              earliest)) {
                earliest = std::min(earliest, toi);
            }
        }
    }
    return earliest;
}

int simulate(const CCDFunctions& ccd)
{
    Ground ground;
    ground.corners = { Vector3d(-5, -5, 0), Vector3d(5, -5, 0), Vector3d(5, 5, 0), Vector3d(-5, 5, 0) };
    std::vector<Body> bodies;
    bodies.push_back(make_cube(Vector3d(-0.25, -0.25, 1.0), 0.5));
    for (int i = 0; i < 4; ++i) {
        Body particle;
        particle.vertices.push_back(Vector3d(-2.0 + i, 1.5, 0.5 + 0.4 * i));
        particle.velocity = Vector3d(0.3, 0, -2.0 * i); // some thrown down fast
        bodies.push_back(particle);
    }

    const Vector3d gravity(0, 0, -9.81);
    const double dt = 0.01, restitution = 0.5, min_distance = 1e-3;
    const int steps = 300;
    long queries = 0, impacts = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int step = 0; step < steps; ++step) {
        for (Body& body : bodies) {
            // Explicit velocity update, then the tentative displacement.
            body.velocity += dt * gravity;
            const Vector3d displacement = dt * body.velocity;
            // Collision handling: move only as far as the CCD allows.
            const double toi = earliest_impact(ccd, body, displacement, ground, min_distance, queries);
            for (Vector3d& x : body.vertices) {
                x += toi * displacement;
            }
            if (toi < 1) {
                // Bounce off the ground: damp and reverse the normal velocity.
                ++impacts;
                body.velocity.z() = -restitution * body.velocity.z();
            }
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // Check: every vertex is still above the ground.
    double lowest = 1e30;
    for (const Body& body : bodies) {
        for (const Vector3d& x : body.vertices) {
            lowest = std::min(lowest, x.z());
        }
    }
    std::printf("%s: %d steps, %ld CCD queries, %ld impacts, %.3f s; lowest vertex at z = %.3g m\n", ccd.name,
                steps, queries, impacts, seconds, lowest);
    if (!(lowest > 0)) {
        std::printf("error: a vertex went through the ground\n");
        return 1;
    }
    return 0;
}

// ---------------------------------------------------------------------------
// Step 4. The same functions on the CCD benchmark's queries (Wang et al.
// 2021 format, ipc/io/ccd_queries.hpp): every query with ground truth
// "collides" must be reported (no false negative).

struct QueryStats {
    long queries = 0, false_negatives = 0, false_positives = 0;
    double seconds = 0;
};

void run_queries(const CCDFunctions& ccd, const std::vector<ipc::CCDQuery>& queries, bool edge_edge_file,
                 QueryStats& stats)
{
    const auto start = std::chrono::steady_clock::now();
    for (const ipc::CCDQuery& q : queries) {
        const auto& x = q.vertices;
        double toi = 1;
        const bool hit = edge_edge_file
            ? ccd.edge_edge(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], toi, 0.0, 1.0)
            : ccd.point_triangle(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], toi, 0.0, 1.0);
        ++stats.queries;
        stats.false_negatives += q.ground_truth && !hit;
        stats.false_positives += !q.ground_truth && hit;
    }
    stats.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int benchmark(const std::string& folder, long max_queries)
{
    namespace fs = std::filesystem;
    // Every .../edge-edge/*.csv and .../vertex-face/*.csv file, sorted.
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        const std::string kind = entry.path().parent_path().filename().string();
        if (entry.is_regular_file() && entry.path().extension() == ".csv"
            && (kind == "edge-edge" || kind == "vertex-face")) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::printf("error: no edge-edge/*.csv or vertex-face/*.csv files under %s\n", folder.c_str());
        return 2;
    }
    QueryStats accd_stats, inclusion_stats;
    long read = 0;
    for (const fs::path& file : files) {
        if (max_queries >= 0 && read >= max_queries) {
            break;
        }
        std::vector<ipc::CCDQuery> queries = ipc::read_ccd_queries(file.string());
        if (max_queries >= 0 && read + long(queries.size()) > max_queries) {
            queries.resize(std::size_t(max_queries - read));
        }
        read += long(queries.size());
        const bool edge_edge_file = file.parent_path().filename() == "edge-edge";
        run_queries(accd, queries, edge_edge_file, accd_stats);
        run_queries(inclusion, queries, edge_edge_file, inclusion_stats);
    }
    for (const auto* entry : { &accd_stats, &inclusion_stats }) {
        const CCDFunctions& ccd = entry == &accd_stats ? accd : inclusion;
        std::printf("%-13s %ld queries: %ld false negatives, %ld false positives, %.3f s (%.2f us/query)\n",
                    ccd.name, entry->queries, entry->false_negatives, entry->false_positives, entry->seconds,
                    entry->queries > 0 ? 1e6 * entry->seconds / double(entry->queries) : 0.0);
    }
    return accd_stats.false_negatives == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    // The one name to change: which CCD the simulator calls.
    const CCDFunctions* ccd = &accd;
    std::string queries;
    long max_queries = -1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--method" && i + 1 < argc) {
            const std::string name = argv[++i];
            if (name != "accd" && name != "inclusion") {
                std::fprintf(stderr, "drop_in_ccd: unknown method '%s' (accd or inclusion)\n", name.c_str());
                return 2;
            }
            ccd = name == "accd" ? &accd : &inclusion;
        } else if (arg == "--queries" && i + 1 < argc) {
            queries = argv[++i];
        } else if (arg == "--max-queries" && i + 1 < argc) {
            max_queries = std::atol(argv[++i]);
        } else {
            std::fprintf(stderr,
                         "usage: drop_in_ccd [--method accd|inclusion] [--queries DIR [--max-queries N]]\n");
            return 2;
        }
    }
    try {
        return queries.empty() ? simulate(*ccd) : benchmark(queries, max_queries);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "drop_in_ccd: %s\n", e.what());
        return 2;
    }
}
