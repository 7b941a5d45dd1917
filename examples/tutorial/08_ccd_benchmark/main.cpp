// Tutorial 08: benchmark your own CCD method against ours.
//
// You have a continuous collision detection (CCD) method and want to know how
// it compares with ACCD: does it ever miss a collision (false negative), how
// often does it cry wolf (false positive), how fast is it? This walk-through
//   1. writes two small CCD methods that meet the library's CCD concept,
//   2. scores them and ACCD with ipc::benchmark_ccd,
//   3. prints the report as a table and checks what it shows.
//
// Queries: with the environment variable IPC_CCD_QUERIES naming a folder of
// the benchmark of Wang et al. 2021 (SET/edge-edge/data_*.csv and
// SET/vertex-face/data_*.csv), the first 20 queries of each set; otherwise a
// few built-in queries whose answers are known exactly.

#include <ipc/benchmark/ccd_benchmark.hpp> // benchmark_ccd, load_ccd_query_sets, the report
#include <ipc/ccd/additive_ccd.hpp>        // ACCD, the method to beat
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using Eigen::Vector3d;

// ---------------------------------------------------------------------------
// Step 1: a CCD method is any class with four const member functions of the
// "drop-in" shape (see ipc/ccd/ccd_method.hpp): positions at t = 0, then at
// t = 1, then `double& toi, double min_distance, double tmax`; it returns true
// when the primitives may come within min_distance before tmax.
//
// Ours looks at the distance at a few equally spaced times. With
// `lipschitz_margin` off it is the obvious idea, and it misses fast crossings
// between two samples. With it on, it reports a hit whenever the distance at a
// sample minus the most it can shrink before the next sample (the largest
// relative vertex speed times half the spacing) is within min_distance: never
// a miss, but many false alarms.
struct SampledCCD {
    int samples = 5;
    bool lipschitz_margin = false;

    // Runs the test on `n` vertices x0[i] -> x1[i]; `distance` measures the
    // stencil at given positions; `first` vertices belong to the first primitive.
    template <std::size_t N, typename Distance>
    bool query(const std::array<Vector3d, N>& x0, const std::array<Vector3d, N>& x1, std::size_t first,
               Distance distance, double& toi, double xi, double tmax) const
    {
        double speed = 0; // largest relative speed of a vertex pair
        for (std::size_t a = 0; a < first; ++a) {
            for (std::size_t b = first; b < N; ++b) {
                speed = std::max(speed, ((x1[a] - x0[a]) - (x1[b] - x0[b])).norm());
            }
        }
        const double spacing = tmax / (samples - 1);
        const double margin = lipschitz_margin ? speed * spacing / 2 : 0.0;
        for (int k = 0; k < samples; ++k) {
            const double t = k * spacing;
            std::array<Vector3d, N> x;
            for (std::size_t i = 0; i < N; ++i) {
                x[i] = x0[i] + t * (x1[i] - x0[i]);
            }
            if (distance(x) - margin <= xi) {
                toi = std::max(0.0, t - spacing); // the previous sample: still apart
                return true;
            }
        }
        toi = tmax;
        return false;
    }

    bool point_point_ccd(const Vector3d& p0, const Vector3d& q0, const Vector3d& p1, const Vector3d& q1,
                         double& toi, double xi = 0, double tmax = 1) const
    {
        auto d = [](const auto& x) { return std::sqrt(ipc::point_point_distance_squared(x[0], x[1])); };
        return query<2>({ p0, q0 }, { p1, q1 }, 1, d, toi, xi, tmax);
    }
    bool point_edge_ccd(const Vector3d& p0, const Vector3d& a0, const Vector3d& b0, const Vector3d& p1,
                        const Vector3d& a1, const Vector3d& b1, double& toi, double xi = 0, double tmax = 1) const
    {
        auto d = [](const auto& x) { return std::sqrt(ipc::point_edge_distance_squared(x[0], x[1], x[2])); };
        return query<3>({ p0, a0, b0 }, { p1, a1, b1 }, 1, d, toi, xi, tmax);
    }
    bool point_triangle_ccd(const Vector3d& p0, const Vector3d& a0, const Vector3d& b0, const Vector3d& c0,
                            const Vector3d& p1, const Vector3d& a1, const Vector3d& b1, const Vector3d& c1,
                            double& toi, double xi = 0, double tmax = 1) const
    {
        auto d = [](const auto& x) {
            return std::sqrt(ipc::point_triangle_distance_squared(x[0], x[1], x[2], x[3]));
        };
        return query<4>({ p0, a0, b0, c0 }, { p1, a1, b1, c1 }, 1, d, toi, xi, tmax);
    }
    bool edge_edge_ccd(const Vector3d& a0, const Vector3d& b0, const Vector3d& c0, const Vector3d& d0,
                       const Vector3d& a1, const Vector3d& b1, const Vector3d& c1, const Vector3d& d1, double& toi,
                       double xi = 0, double tmax = 1) const
    {
        auto d = [](const auto& x) { return std::sqrt(ipc::edge_edge_distance_squared(x[0], x[1], x[2], x[3])); };
        return query<4>({ a0, b0, c0, d0 }, { a1, b1, c1, d1 }, 2, d, toi, xi, tmax);
    }
};

// The compiler checks the concept for us (C++20: `ipc::CCDMethod<SampledCCD>`).
static_assert(ipc::is_ccd_method_v<SampledCCD>, "SampledCCD must meet the CCD concept");

// ---------------------------------------------------------------------------
// Built-in queries with exact answers. A query holds 8 positions: the stencil
// at t = 0, then at t = 1 (vertex-face: vertex, triangle; edge-edge: edge a,
// edge b), and its ground truth (do the primitives touch for some t in [0, 1]).
constexpr int crossings = 8, near_misses = 4;

std::vector<ipc::CCDQuerySet> built_in_sets()
{
    ipc::CCDQuerySet vf { "built-in", ipc::CCDQueryType::vertex_face, {} };
    ipc::CCDQuerySet ee { "built-in", ipc::CCDQueryType::edge_edge, {} };
    const Vector3d A(0, 0, 0), B(1, 0, 0), C(0, 1, 0);   // the triangle, at rest
    const Vector3d E0(-1, 0, 0), E1(1, 0, 0);           // edge a, at rest
    for (int k = 0; k < crossings; ++k) {
        // Through the plane z = 0 at tc = (2k + 1) / 16, between the samples
        // t = 0, 1/4, 1/2, 3/4, 1 of SampledCCD: a collision, ground truth 1.
        const double tc = (2 * k + 1) / 16.0, z0 = 2 * tc, z1 = 2 * (tc - 1);
        vf.queries.push_back({ { Vector3d(0.25, 0.25, z0), A, B, C, Vector3d(0.25, 0.25, z1), A, B, C }, true });
        ee.queries.push_back({ { E0, E1, Vector3d(0, -1, z0), Vector3d(0, 1, z0),
                                 E0, E1, Vector3d(0, -1, z1), Vector3d(0, 1, z1) }, true });
    }
    for (int k = 0; k < near_misses; ++k) {
        // Sweeping sideways at height h = 0.15 + k / 50 over the triangle (and
        // over edge a): never closer than 0.15, ground truth 0.
        const double h = 0.15 + k / 50.0;
        vf.queries.push_back({ { Vector3d(-1, 0.2, h), A, B, C, Vector3d(1, 0.2, h), A, B, C }, false });
        ee.queries.push_back({ { E0, E1, Vector3d(-1, -1, h), Vector3d(-1, 1, h),
                                 E0, E1, Vector3d(1, -1, h), Vector3d(1, 1, h) }, false });
    }
    return { ee, vf };
}

// Stops the tutorial with a message when a claim does not hold.
void expect(bool condition, const char* claim)
{
    if (!condition) {
        std::fprintf(stderr, "tutorial 08: expected %s\n", claim);
        std::exit(1);
    }
}

int main()
{
    // -----------------------------------------------------------------------
    // Step 2: the queries. load_ccd_query_sets reads a folder of the standard
    // benchmark (here the first 20 queries of each set); a CCDQuerySet can
    // just as well be filled in memory.
    const char* folder = std::getenv("IPC_CCD_QUERIES");
    const bool standard = folder != nullptr && folder[0] != '\0';
    const std::vector<ipc::CCDQuerySet> sets
        = standard ? ipc::load_ccd_query_sets(folder, 20) : built_in_sets();
    std::printf("queries: %s\n\n", standard ? "the first 20 of each standard set" : "built-in");

    for (const double xi : { 0.0, 1e-4 }) {
        // -------------------------------------------------------------------
        // Step 3: score. The options say which minimum separation to test;
        // the ground truth follows it: the files' own column (touching) for
        // xi = 0, else the long-double reference "within xi at some t".
        ipc::CCDBenchmarkOptions options;
        options.min_distance = xi;
        options.repeats = 2;         // timing rounds; a query's time is its fastest
        options.calls_per_batch = 2; // calls per timed batch (more: steadier times)

        SampledCCD naive;
        SampledCCD padded;
        padded.lipschitz_margin = true;
        // Each call returns a report; append() puts several methods in one table.
        ipc::CCDBenchmarkReport report = ipc::benchmark_ccd(naive, sets, options, "sampled");
        report.append(ipc::benchmark_ccd(padded, sets, options, "sampled+margin"));
        report.append(ipc::benchmark_ccd(ipc::AdditiveCCD(), sets, options, "accd"));

        // -------------------------------------------------------------------
        // Step 4: print. FN: misses; FP: false alarms; times in nanoseconds
        // per query; iterations only for methods with `_result` calls (ACCD),
        // "-" for ours.
        std::printf("min_distance = %g, ground truth: %s\n\n%s\n", xi, ipc::to_string(report.ground_truth),
                    ipc::ccd_benchmark_table(report).c_str());

        // Every row is data too: report.total(type, method) is the row of all
        // sets of one type; report.rows[i].false_negative_queries lists which
        // queries a method missed, to look at them one by one.
        long missed = 0, missed_padded = 0, missed_accd = 0, alarms_padded = 0, alarms_naive = 0;
        for (const ipc::CCDQueryType type : { ipc::CCDQueryType::edge_edge, ipc::CCDQueryType::vertex_face }) {
            missed += report.total(type, "sampled").false_negatives;
            alarms_naive += report.total(type, "sampled").false_positives;
            missed_padded += report.total(type, "sampled+margin").false_negatives;
            alarms_padded += report.total(type, "sampled+margin").false_positives;
            missed_accd += report.total(type, "accd").false_negatives;
        }
        // What the table shows: looking at a few times misses collisions;
        // the Lipschitz margin fixes that at the price of false alarms; ACCD
        // misses none.
        expect(missed_accd == 0, "ACCD to miss no collision");
        expect(missed_padded == 0, "the Lipschitz margin to miss no collision");
        expect(missed > 0, "the naive sampling to miss collisions");
        if (!standard) {
            // On the built-in queries every count is known exactly.
            expect(missed == 2 * crossings, "the naive sampling to miss every crossing");
            expect(alarms_naive == 0, "the naive sampling to raise no false alarm");
            expect(alarms_padded == 2 * near_misses, "the margin to flag every near miss");
            expect(report.false_positives() == alarms_padded, "ACCD to raise no false alarm");
            expect(report.undecided() == 0, "the reference to settle every query");
        }
    }
    std::printf("All claims of tutorial 08 hold.\n");
    return 0;
}
