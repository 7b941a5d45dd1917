// Tutorial 02: ACCD as a drop-in CCD in a host simulator's loop.
//
// Many simulators already have their own collision handling, built around
// one continuous-collision function per primitive pair with the common shape
//
//     bool ccd(positions at t = 0 ..., positions at t = 1 ...,
//              double& toi, double min_distance, double tmax);
//
// (true: the primitives may come within min_distance before tmax, and toi is
// a time at which they are still apart). Every CCD method of this library has
// exactly that shape (the concept is written down in <ipc/ccd/ccd_method.hpp>),
// so swapping additive CCD (ACCD, <ipc/ccd/additive_ccd.hpp>) into such a host
// means changing one name. Nothing else of the library is needed.
//
// The host here: a cube and a few particles that only translate fall under
// gravity onto a ground square and bounce. Each accepted step is verified by
// an exact check (no vertex at or below the ground), so a missed contact
// fails the run.
//
// Usage:
//     tutorial_02_drop_in_ccd                      the scene with ACCD
//     tutorial_02_drop_in_ccd --method inclusion   the same with InclusionCCD
//     tutorial_02_drop_in_ccd --queries DIR [--max-queries N]
//         both methods on the CCD benchmark's query files under DIR
//         (.../edge-edge/*.csv and .../vertex-face/*.csv, Wang et al. 2021
//         format): false negatives (must be 0 for ACCD) and timings.
// Exit status: 0 on success, 1 when a check fails, 2 on a usage error.

#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/inclusion_ccd.hpp>
#include <ipc/io/ccd_queries.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using Eigen::Vector3d;

// ---------------------------------------------------------------------------
// Step 1. The host's CCD interface: plain function pointers of the drop-in
// shape (positions at t = 0, then at t = 1, toi, min_distance, tmax). This is
// what the host's collision code calls; it knows nothing about the library.

using PointTriangleCCD = bool (*)(const Vector3d& p_t0, const Vector3d& a_t0, const Vector3d& b_t0,
                                  const Vector3d& c_t0, const Vector3d& p_t1, const Vector3d& a_t1,
                                  const Vector3d& b_t1, const Vector3d& c_t1, double& toi, double min_distance,
                                  double tmax);
using EdgeEdgeCCD = bool (*)(const Vector3d& ea0_t0, const Vector3d& ea1_t0, const Vector3d& eb0_t0,
                             const Vector3d& eb1_t0, const Vector3d& ea0_t1, const Vector3d& ea1_t1,
                             const Vector3d& eb0_t1, const Vector3d& eb1_t1, double& toi, double min_distance,
                             double tmax);

struct CCDFunctions {
    const char* name;
    PointTriangleCCD point_triangle;
    EdgeEdgeCCD edge_edge;
};

// ---------------------------------------------------------------------------
// Step 2. Adapters from a library CCD class to those pointers. They only
// forward: ipc::AdditiveCCD and ipc::InclusionCCD already have the shape,
// with the same argument order.

template <typename Method>
bool point_triangle(const Vector3d& p_t0, const Vector3d& a_t0, const Vector3d& b_t0, const Vector3d& c_t0,
                    const Vector3d& p_t1, const Vector3d& a_t1, const Vector3d& b_t1, const Vector3d& c_t1,
                    double& toi, double min_distance, double tmax)
{
    static const Method method; // default settings, constructed once
    return method.point_triangle_ccd(p_t0, a_t0, b_t0, c_t0, p_t1, a_t1, b_t1, c_t1, toi, min_distance, tmax);
}

template <typename Method>
bool edge_edge(const Vector3d& ea0_t0, const Vector3d& ea1_t0, const Vector3d& eb0_t0, const Vector3d& eb1_t0,
               const Vector3d& ea0_t1, const Vector3d& ea1_t1, const Vector3d& eb0_t1, const Vector3d& eb1_t1,
               double& toi, double min_distance, double tmax)
{
    static const Method method;
    return method.edge_edge_ccd(ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, toi, min_distance,
                                tmax);
}

// The two methods side by side: one name apart.
const CCDFunctions accd { "ACCD", point_triangle<ipc::AdditiveCCD>, edge_edge<ipc::AdditiveCCD> };
const CCDFunctions inclusion { "InclusionCCD", point_triangle<ipc::InclusionCCD>, edge_edge<ipc::InclusionCCD> };

// ---------------------------------------------------------------------------
// Step 3. The host: bodies that only translate, a static ground square of two
// triangles at z = 0 spanning [-5, 5]^2, explicit time stepping. Each step
// moves a body by dt * velocity; the CCD finds the earliest time at which
// it would come within min_distance of the ground; the body stops there and
// bounces (vertical velocity reversed and damped).

struct Body {
    std::vector<Vector3d> vertices;        // world positions (m)
    std::vector<std::array<int, 2>> edges; // for edge-edge CCD (none for a particle)
    Vector3d velocity = Vector3d::Zero();  // (m/s)
};

const double ground_half_size = 5.0;
const std::array<Vector3d, 4> ground = { Vector3d(-5, -5, 0), Vector3d(5, -5, 0), Vector3d(5, 5, 0),
                                         Vector3d(-5, 5, 0) };
const std::array<std::array<int, 3>, 2> ground_triangles { { { 0, 1, 2 }, { 0, 2, 3 } } };
const std::array<std::array<int, 2>, 5> ground_edges { { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 }, { 0, 2 } } };

Body make_cube(const Vector3d& corner, double size)
{
    Body cube;
    for (int i = 0; i < 8; ++i) {
        cube.vertices.push_back(corner + size * Vector3d(i & 1, (i >> 1) & 1, (i >> 2) & 1));
    }
    for (int i = 0; i < 8; ++i) {
        for (int axis = 0; axis < 3; ++axis) {
            if (!(i & (1 << axis))) {
                cube.edges.push_back({ i, i | (1 << axis) });
            }
        }
    }
    return cube;
}

/// Earliest time of impact in [0, 1] of `body` moving by `displacement`
/// against the static ground (its positions at t = 0 and t = 1 coincide);
/// 1 when nothing is hit. Passing the earliest time so far as tmax lets a
/// query stop early.
double earliest_impact(const CCDFunctions& ccd, const Body& body, const Vector3d& displacement,
                       double min_distance, long& queries)
{
    double earliest = 1, toi = 1;
    for (const Vector3d& x0 : body.vertices) { // every vertex against every ground triangle
        for (const auto& t : ground_triangles) {
            const Vector3d &a = ground[t[0]], &b = ground[t[1]], &c = ground[t[2]];
            ++queries;
            if (ccd.point_triangle(x0, a, b, c, x0 + displacement, a, b, c, toi, min_distance, earliest)) {
                earliest = std::min(earliest, toi);
            }
        }
    }
    for (const auto& e : body.edges) { // every body edge against every ground edge
        const Vector3d &a0 = body.vertices[e[0]], &a1 = body.vertices[e[1]];
        for (const auto& g : ground_edges) {
            const Vector3d &b0 = ground[g[0]], &b1 = ground[g[1]];
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
    std::vector<Body> bodies { make_cube(Vector3d(-0.25, -0.25, 1.0), 0.5) };
    for (int i = 0; i < 4; ++i) { // particles, some thrown down fast
        Body particle;
        particle.vertices.push_back(Vector3d(-2.0 + i, 1.5, 0.5 + 0.4 * i));
        particle.velocity = Vector3d(0.3, 0, -2.0 * i);
        bodies.push_back(particle);
    }
    const Vector3d gravity(0, 0, -9.81);
    const double dt = 0.01, restitution = 0.5, min_distance = 1e-3;
    const int steps = 300;
    long queries = 0, impacts = 0, missed = 0;
    double lowest = 1e30;
    const auto start = std::chrono::steady_clock::now();
    for (int step = 0; step < steps; ++step) {
        for (Body& body : bodies) {
            body.velocity += dt * gravity; // explicit velocity update
            const Vector3d displacement = dt * body.velocity;
            // The host's collision handling: move only as far as the CCD allows.
            const double toi = earliest_impact(ccd, body, displacement, min_distance, queries);
            for (Vector3d& x : body.vertices) {
                x += toi * displacement;
            }
            if (toi < 1) {
                ++impacts;
                body.velocity.z() = -restitution * body.velocity.z();
            }
            // The exact check of the accepted step. Every vertex moved on a
            // straight line from above the ground (the previous check), and
            // the ground is the plane z = 0 over the square, so the step
            // reached the ground exactly when some vertex ended at z <= 0.
            // (A vertex leaving the square also counts as a failure: the
            // check would not cover it.) The edges of a translated cube
            // cannot cross a plane that all of its vertices stay above.
            for (const Vector3d& x : body.vertices) {
                lowest = std::min(lowest, x.z());
                const bool over_ground = std::abs(x.x()) < ground_half_size && std::abs(x.y()) < ground_half_size;
                if (!(x.z() > 0) || !over_ground) {
                    ++missed;
                }
            }
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s: %d steps, %ld CCD queries, %ld impacts, %.3f s; lowest vertex at z = %.3g m\n", ccd.name,
                steps, queries, impacts, seconds, lowest);
    if (missed > 0 || impacts == 0) {
        std::fprintf(stderr, "error: %ld missed contact(s) (a vertex at or below the ground), %ld impacts\n",
                     missed, impacts);
        return 1;
    }
    std::printf("%s: zero missed contacts in %ld impacts\n", ccd.name, impacts);
    return 0;
}

// ---------------------------------------------------------------------------
// Step 4 (optional). The same function pointers on the CCD benchmark's
// queries (<ipc/io/ccd_queries.hpp> reads them): every query whose ground
// truth is "collides" must be reported; a false negative is a missed contact.

int benchmark(const std::string& folder, long max_queries)
{
    namespace fs = std::filesystem;
    std::vector<fs::path> files; // every .../edge-edge/*.csv and .../vertex-face/*.csv, sorted
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        const std::string kind = entry.path().parent_path().filename().string();
        if (entry.is_regular_file() && entry.path().extension() == ".csv"
            && (kind == "edge-edge" || kind == "vertex-face")) {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "error: no edge-edge/*.csv or vertex-face/*.csv files under %s\n", folder.c_str());
        return 2;
    }
    const CCDFunctions* methods[2] = { &accd, &inclusion };
    long total = 0, false_negatives[2] = { 0, 0 }, false_positives[2] = { 0, 0 };
    double seconds[2] = { 0, 0 };
    for (const fs::path& file : files) {
        std::vector<ipc::CCDQuery> queries = ipc::read_ccd_queries(file.string());
        if (max_queries >= 0) {
            queries.resize(std::size_t(std::clamp(max_queries - total, 0L, long(queries.size()))));
        }
        total += long(queries.size());
        const bool edge_edge_file = file.parent_path().filename() == "edge-edge";
        for (int m = 0; m < 2; ++m) {
            const auto start = std::chrono::steady_clock::now();
            for (const ipc::CCDQuery& q : queries) {
                const auto& x = q.vertices; // t = 0 positions, then t = 1
                double toi = 1;
                const bool hit = edge_edge_file
                    ? methods[m]->edge_edge(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], toi, 0.0, 1.0)
                    : methods[m]->point_triangle(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], toi, 0.0, 1.0);
                false_negatives[m] += q.ground_truth && !hit;
                false_positives[m] += !q.ground_truth && hit;
            }
            seconds[m] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
    }
    for (int m = 0; m < 2; ++m) {
        std::printf("%-13s %ld queries: %ld false negatives, %ld false positives, %.3f s (%.2f us/query)\n",
                    methods[m]->name, total, false_negatives[m], false_positives[m], seconds[m],
                    total > 0 ? 1e6 * seconds[m] / double(total) : 0.0);
    }
    if (false_negatives[0] != 0) {
        std::fprintf(stderr, "error: ACCD missed %ld colliding queries\n", false_negatives[0]);
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const CCDFunctions* ccd = &accd; // the one name to change: which CCD the host calls
    std::string queries;
    long max_queries = -1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--method" && i + 1 < argc) {
            const std::string name = argv[++i];
            if (name != "accd" && name != "inclusion") {
                std::fprintf(stderr, "tutorial_02_drop_in_ccd: unknown method '%s' (accd or inclusion)\n",
                             name.c_str());
                return 2;
            }
            ccd = name == "accd" ? &accd : &inclusion;
        } else if (arg == "--queries" && i + 1 < argc) {
            queries = argv[++i];
        } else if (arg == "--max-queries" && i + 1 < argc) {
            max_queries = std::atol(argv[++i]);
        } else {
            std::fprintf(stderr, "usage: tutorial_02_drop_in_ccd [--method accd|inclusion] "
                                 "[--queries DIR [--max-queries N]]\n");
            return 2;
        }
    }
    try {
        return queries.empty() ? simulate(*ccd) : benchmark(queries, max_queries);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tutorial_02_drop_in_ccd: %s\n", e.what());
        return 2;
    }
}
