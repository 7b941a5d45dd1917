// The CCD benchmark API: the long-double reference on queries with known
// answers, and the scoring of a user-written CCD method (a naive sampled CCD
// that misses fast crossings) next to ACCD on constructed queries whose ground
// truth is exact.

#include <ipc/benchmark/ccd_benchmark.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/ccd_reference.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <catch2/catch.hpp>

#include "data_folders.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace ccd_benchmark_test {

using Eigen::Vector3d;

/// A deliberately naive CCD: looks at the distance at `samples` equally
/// spaced times only, so a fast crossing between two samples goes unseen.
/// Meets the CCD concept with the drop-in bool calls only.
struct SampledCCD {
    int samples = 4; // t = 0, 1/3, 2/3, 1

    template <typename Distance> bool sample(Distance distance, double& toi, double xi, double tmax) const
    {
        toi = tmax;
        for (int k = 0; k < samples; ++k) {
            const double t = tmax * double(k) / double(samples - 1);
            if (distance(t) <= xi) {
                toi = k == 0 ? 0.0 : tmax * double(k - 1) / double(samples - 1);
                return true;
            }
        }
        return false;
    }

    static Vector3d at(const Vector3d& x0, const Vector3d& x1, double t) { return x0 + t * (x1 - x0); }

    bool point_point_ccd(const Vector3d& p0, const Vector3d& q0, const Vector3d& p1, const Vector3d& q1,
                         double& toi, double xi = 0, double tmax = 1) const
    {
        return sample([&](double t) { return std::sqrt(ipc::point_point_distance_squared(at(p0, p1, t), at(q0, q1, t))); },
                      toi, xi, tmax);
    }

    bool point_edge_ccd(const Vector3d& p0, const Vector3d& a0, const Vector3d& b0, const Vector3d& p1,
                        const Vector3d& a1, const Vector3d& b1, double& toi, double xi = 0, double tmax = 1) const
    {
        return sample(
            [&](double t) {
                return std::sqrt(ipc::point_edge_distance_squared(at(p0, p1, t), at(a0, a1, t), at(b0, b1, t)));
            },
            toi, xi, tmax);
    }

    bool point_triangle_ccd(const Vector3d& p0, const Vector3d& a0, const Vector3d& b0, const Vector3d& c0,
                            const Vector3d& p1, const Vector3d& a1, const Vector3d& b1, const Vector3d& c1,
                            double& toi, double xi = 0, double tmax = 1) const
    {
        return sample(
            [&](double t) {
                return std::sqrt(ipc::point_triangle_distance_squared(at(p0, p1, t), at(a0, a1, t), at(b0, b1, t),
                                                                      at(c0, c1, t)));
            },
            toi, xi, tmax);
    }

    bool edge_edge_ccd(const Vector3d& a0, const Vector3d& b0, const Vector3d& c0, const Vector3d& d0,
                       const Vector3d& a1, const Vector3d& b1, const Vector3d& c1, const Vector3d& d1, double& toi,
                       double xi = 0, double tmax = 1) const
    {
        return sample(
            [&](double t) {
                return std::sqrt(ipc::edge_edge_distance_squared(at(a0, a1, t), at(b0, b1, t), at(c0, c1, t),
                                                                 at(d0, d1, t)));
            },
            toi, xi, tmax);
    }
};

/// The same method, also reporting iterations (samples looked at) through
/// the `_result` calls.
struct SampledCCDWithResult : SampledCCD {
    static constexpr const char* name = "sampled_with_result";

    ipc::CCDResult point_triangle_ccd_result(const Vector3d& p0, const Vector3d& a0, const Vector3d& b0,
                                             const Vector3d& c0, const Vector3d& p1, const Vector3d& a1,
                                             const Vector3d& b1, const Vector3d& c1, double xi = 0,
                                             double tmax = 1) const
    {
        ipc::CCDResult r;
        const bool hit = point_triangle_ccd(p0, a0, b0, c0, p1, a1, b1, c1, r.toi, xi, tmax);
        r.status = hit ? ipc::CCDStatus::hit : ipc::CCDStatus::no_hit;
        r.iterations = samples;
        return r;
    }

    ipc::CCDResult edge_edge_ccd_result(const Vector3d& a0, const Vector3d& b0, const Vector3d& c0,
                                        const Vector3d& d0, const Vector3d& a1, const Vector3d& b1,
                                        const Vector3d& c1, const Vector3d& d1, double xi = 0, double tmax = 1) const
    {
        ipc::CCDResult r;
        const bool hit = edge_edge_ccd(a0, b0, c0, d0, a1, b1, c1, d1, r.toi, xi, tmax);
        r.status = hit ? ipc::CCDStatus::hit : ipc::CCDStatus::no_hit;
        r.iterations = samples;
        return r;
    }
};

static_assert(ipc::is_ccd_method_v<SampledCCD>, "the naive method meets the CCD concept");
static_assert(ipc::is_ccd_method_v<SampledCCDWithResult>, "so does the one with _result calls");

/// Crossing times k / 16 (k odd): dyadic, so the reference samples them
/// exactly, and at least 1/48 away from the naive method's samples.
std::vector<double> crossing_times()
{
    std::vector<double> times;
    for (int k = 1; k < 16; k += 2) {
        times.push_back(k / 16.0);
    }
    return times;
}

/// Vertex-face queries against the triangle (0,0,0), (1,0,0), (0,1,0): first
/// a point crossing its interior at each crossing time (height 4 (tc - t),
/// so at least 1/12 away at the naive samples), then three points that
/// never come closer than 1/4.
ipc::CCDQuerySet vertex_face_set()
{
    ipc::CCDQuerySet set { "constructed", ipc::CCDQueryType::vertex_face, {} };
    const Vector3d a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
    for (const double tc : crossing_times()) {
        ipc::CCDQuery q;
        const double x = 0.125 + 0.25 * tc, y = 0.5 - 0.25 * tc; // inside the triangle
        q.vertices = { Vector3d(x, y, 4 * tc), a, b, c, Vector3d(x, y, 4 * (tc - 1)), a, b, c };
        q.ground_truth = true;
        set.queries.push_back(q);
    }
    auto add_negative = [&](const Vector3d& p0, const Vector3d& p1) {
        ipc::CCDQuery q;
        q.vertices = { p0, a, b, c, p1, a, b, c };
        q.ground_truth = false;
        set.queries.push_back(q);
    };
    add_negative(Vector3d(0.1, 0.1, 0.5), Vector3d(0.3, 0.2, 0.5)); // parallel, distance 0.5
    add_negative(Vector3d(0.2, 0.2, 0.25), Vector3d(0.2, 0.2, 2.0)); // moving away, 0.25 at t = 0
    add_negative(Vector3d(2.0, 2.0, 0.0), Vector3d(2.0, 2.0, -3.0)); // beside the triangle
    return set;
}

/// Edge-edge queries against the edge (-1,0,0)-(1,0,0): first an edge along y
/// crossing it at each crossing time, then three that stay at least 1/4 away.
ipc::CCDQuerySet edge_edge_set()
{
    ipc::CCDQuerySet set { "constructed", ipc::CCDQueryType::edge_edge, {} };
    const Vector3d a0(-1, 0, 0), a1(1, 0, 0);
    for (const double tc : crossing_times()) {
        ipc::CCDQuery q;
        const double x = 0.5 - tc;
        q.vertices = { a0, a1, Vector3d(x, -1, 4 * tc), Vector3d(x, 1, 4 * tc),
                       a0, a1, Vector3d(x, -1, 4 * (tc - 1)), Vector3d(x, 1, 4 * (tc - 1)) };
        q.ground_truth = true;
        set.queries.push_back(q);
    }
    auto add_negative = [&](const Vector3d& b0, const Vector3d& b1, const Vector3d& shift) {
        ipc::CCDQuery q;
        q.vertices = { a0, a1, b0, b1, a0, a1, Vector3d(b0 + shift), Vector3d(b1 + shift) };
        q.ground_truth = false;
        set.queries.push_back(q);
    };
    add_negative(Vector3d(0, -1, 0.5), Vector3d(0, 1, 0.5), Vector3d(0.5, 0, 0));   // parallel, 0.5
    add_negative(Vector3d(0, -1, 0.25), Vector3d(0, 1, 0.25), Vector3d(0, 0, 1.75)); // moving away
    add_negative(Vector3d(2, -1, 0.0), Vector3d(2, 1, 0.0), Vector3d(0, 0, -3));      // beyond a's end
    return set;
}

std::vector<ipc::CCDQuerySet> constructed_sets() { return { edge_edge_set(), vertex_face_set() }; }

/// Indices 0..7: the crossing queries of each constructed set.
std::vector<std::size_t> crossing_indices()
{
    std::vector<std::size_t> indices;
    for (std::size_t i = 0; i < crossing_times().size(); ++i) {
        indices.push_back(i);
    }
    return indices;
}

/// Writes the queries in the benchmark's CSV format (coordinates as
/// millionths, exact for the values used here).
void write_queries(const std::filesystem::path& path, const std::vector<ipc::CCDQuery>& queries)
{
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path);
    for (const ipc::CCDQuery& q : queries) {
        for (const Vector3d& v : q.vertices) {
            for (int k = 0; k < 3; ++k) {
                out << std::llround(v[k] * 1e6) << ",1000000,";
            }
            out << (q.ground_truth ? 1 : 0) << "\n";
        }
    }
}

} // namespace ccd_benchmark_test

TEST_CASE("CCD reference: known answers with and without a minimum distance", "[ccd][ccd_benchmark]")
{
    using Eigen::Vector3d;
    using ipc::CCDReferenceAnswer;
    const Vector3d o(0, 0, 0);

    SECTION("point-point: closest approach 0.5 at t = 0.5")
    {
        const Vector3d p0(-1, 0.5, 0), p1(1, 0.5, 0);
        const auto below = ipc::point_point_ccd_reference(p0, o, p1, o, 0.5 * (1 - 1e-9));
        CHECK(below.answer == CCDReferenceAnswer::negative);
        CHECK(std::isnan(below.time));
        const auto above = ipc::point_point_ccd_reference(p0, o, p1, o, 0.5 * (1 + 1e-9));
        CHECK(above.positive());
        CHECK(above.time == 0.5);
        CHECK(above.evaluations == 1);
        CHECK(ipc::point_point_ccd_reference(p0, o, p1, o).answer == CCDReferenceAnswer::negative);
    }
    SECTION("point-point: closest approach 0.5 at t = 0.25; undecided when evaluations run out")
    {
        const Vector3d p0(-1, 0.5, 0), p1(3, 0.5, 0);
        const auto negative = ipc::point_point_ccd_reference(p0, o, p1, o, 0.49);
        CHECK(negative.answer == CCDReferenceAnswer::negative);
        CHECK(negative.evaluations > 1);
        const auto positive = ipc::point_point_ccd_reference(p0, o, p1, o, 0.5);
        CHECK(positive.positive());
        CHECK(positive.time == 0.25);
        ipc::CCDReferenceOptions options;
        options.max_evaluations = 1;
        CHECK(ipc::point_point_ccd_reference(p0, o, p1, o, 0.49, options).answer == CCDReferenceAnswer::undecided);
        CHECK(ipc::to_string(CCDReferenceAnswer::undecided) == std::string("undecided"));
    }
    SECTION("point-edge: crossing at t = 0.5, and sliding along at distance 0.3")
    {
        const Vector3d e0(-1, 0, 0), e1(1, 0, 0);
        const auto crossing = ipc::point_edge_ccd_reference(Vector3d(0, 1, 0), e0, e1, Vector3d(0, -1, 0), e0, e1);
        CHECK(crossing.positive());
        CHECK(crossing.time == 0.5);
        const Vector3d p0(-2, 0.3, 0), p1(2, 0.3, 0);
        CHECK(ipc::point_edge_ccd_reference(p0, e0, e1, p1, e0, e1, 0.29).answer == CCDReferenceAnswer::negative);
        CHECK(ipc::point_edge_ccd_reference(p0, e0, e1, p1, e0, e1, 0.31).positive());
        CHECK(ipc::point_edge_ccd_reference(p0, e0, e1, p1, e0, e1).answer == CCDReferenceAnswer::negative);
    }
    SECTION("point-triangle: crossing at t = 0.5, and parallel at height 0.5")
    {
        const Vector3d a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
        const auto crossing = ipc::point_triangle_ccd_reference(Vector3d(0.2, 0.2, 1), a, b, c,
                                                                Vector3d(0.2, 0.2, -1), a, b, c);
        CHECK(crossing.positive());
        CHECK(crossing.time == 0.5);
        const Vector3d p0(0.1, 0.1, 0.5), p1(0.3, 0.2, 0.5);
        CHECK(ipc::point_triangle_ccd_reference(p0, a, b, c, p1, a, b, c, 0.49).answer
              == CCDReferenceAnswer::negative);
        CHECK(ipc::point_triangle_ccd_reference(p0, a, b, c, p1, a, b, c, 0.51).positive());
    }
    SECTION("edge-edge: closest approach 0.1 at t = 1 only")
    {
        const Vector3d a0(-1, 0, 0), a1(1, 0, 0);
        const Vector3d b0(0, -1, 1), b1(0, 1, 1), c0(0, -1, 0.1), c1(0, 1, 0.1);
        CHECK(ipc::edge_edge_ccd_reference(a0, a1, b0, b1, a0, a1, c0, c1, 0.0999).answer
              == CCDReferenceAnswer::negative);
        const auto touching = ipc::edge_edge_ccd_reference(a0, a1, b0, b1, a0, a1, c0, c1, 0.1001);
        CHECK(touching.positive());
        CHECK(touching.time > 0.9998);
        CHECK(touching.time <= 1.0);
    }
    SECTION("invalid input names the problem")
    {
        const Vector3d nan(std::numeric_limits<double>::quiet_NaN(), 0, 0);
        CHECK_THROWS_AS(ipc::point_point_ccd_reference(nan, o, o, o), ipc::invalid_argument);
        CHECK_THROWS_WITH(ipc::point_point_ccd_reference(o, o, o, o, -1.0),
                          Catch::Contains("point_point_ccd_reference") && Catch::Contains("min_distance"));
        ipc::CCDReferenceOptions options;
        options.min_interval = 0;
        CHECK_THROWS_AS(ipc::point_point_ccd_reference(o, o, o, o, 0.0, options), ipc::invalid_argument);
    }
}

TEST_CASE("CCD benchmark: constructed queries agree with the reference", "[ccd][ccd_benchmark]")
{
    using namespace ccd_benchmark_test;
    for (const ipc::CCDQuerySet& set : constructed_sets()) {
        for (const double xi : { 0.0, 0.05 }) {
            ipc::CCDBenchmarkOptions options;
            options.min_distance = xi;
            options.ground_truth = ipc::CCDGroundTruth::reference;
            for (const ipc::CCDQuery& q : set.queries) {
                const ipc::CCDReferenceAnswer truth = ipc::ccd_benchmark_truth(q, set.type, options);
                CHECK(truth == (q.ground_truth ? ipc::CCDReferenceAnswer::positive : ipc::CCDReferenceAnswer::negative));
            }
        }
    }
}

TEST_CASE("CCD benchmark: a naive sampled CCD misses crossings that ACCD catches", "[ccd][ccd_benchmark]")
{
    using namespace ccd_benchmark_test;
    const std::vector<ipc::CCDQuerySet> sets = constructed_sets();
    const long crossings = long(crossing_times().size()); // per set
    const long queries = crossings + 3;

    for (const double xi : { 0.0, 0.05 }) {
        CAPTURE(xi);
        ipc::CCDBenchmarkOptions options;
        options.min_distance = xi;
        options.time = false;
        const ipc::CCDBenchmarkReport naive = ipc::benchmark_ccd(SampledCCD(), sets, options, "sampled");
        CHECK(naive.ground_truth == (xi == 0 ? ipc::CCDGroundTruth::files : ipc::CCDGroundTruth::reference));
        REQUIRE(naive.rows.size() == 4); // two sets, then the "all" row of each type
        for (const ipc::CCDBenchmarkRow& row : naive.rows) {
            CAPTURE(row.set, ipc::to_string(row.type));
            CHECK(row.method == "sampled");
            CHECK(row.queries == queries);
            CHECK(row.false_negatives == crossings);
            CHECK(row.false_positives == 0);
            CHECK(row.undecided == 0);
            CHECK_FALSE(row.timed);
            CHECK_FALSE(row.has_iterations);
            CHECK(row.ns_max == 0);
            if (row.set != "all") {
                CHECK(row.false_negative_queries == crossing_indices());
            } else {
                CHECK(row.false_negative_queries.empty());
            }
        }
        CHECK(naive.rows[2].set == "all");
        CHECK(naive.rows[2].type == ipc::CCDQueryType::edge_edge);
        CHECK(naive.false_negatives() == 2 * crossings);
        CHECK(naive.queries() == 2 * queries);
        CHECK(&naive.total(ipc::CCDQueryType::vertex_face) == &naive.rows[3]);

        const ipc::CCDBenchmarkReport accd = ipc::benchmark_ccd(ipc::AdditiveCCD(), sets, options);
        for (const ipc::CCDBenchmarkRow& row : accd.rows) {
            CAPTURE(row.set, ipc::to_string(row.type));
            CHECK(row.method == "AdditiveCCD");
            CHECK(row.queries == queries);
            CHECK(row.false_negatives == 0);
            CHECK(row.false_positives == 0);
            CHECK(row.has_iterations);
            CHECK(row.iterations_max >= 1);
            CHECK(row.iterations_mean >= 1);
            CHECK(row.iterations_mean <= double(row.iterations_max));
        }

        // A user's method with _result calls reports its iterations.
        const ipc::CCDBenchmarkReport counted = ipc::benchmark_ccd(SampledCCDWithResult(), sets, options);
        for (const ipc::CCDBenchmarkRow& row : counted.rows) {
            CHECK(row.method == "sampled_with_result");
            CHECK(row.false_negatives == crossings);
            CHECK(row.has_iterations);
            CHECK(row.iterations_mean == 4.0);
            CHECK(row.iterations_max == 4);
        }

        // One table for several methods.
        ipc::CCDBenchmarkReport both = naive;
        both.append(accd);
        CHECK(both.rows.size() == 8);
        CHECK(both.total(ipc::CCDQueryType::edge_edge, "AdditiveCCD").false_negatives == 0);
        CHECK(both.total(ipc::CCDQueryType::edge_edge, "sampled").false_negatives == crossings);
        const std::string table = ipc::ccd_benchmark_table(both);
        CHECK_THAT(table, Catch::StartsWith("| method | set | type | queries | FN | FP |"));
        CHECK((table.find("undecided") != std::string::npos) == (xi > 0));
        CHECK_THAT(table, Catch::Contains("| sampled | constructed | edge-edge | 11 | 8 | 0 |"));
        CHECK_THAT(table, Catch::Contains(" - | - | - | - | - | - |")); // naive: no times, no iterations
        const std::string json = ipc::ccd_benchmark_json(both);
        CHECK_THAT(json, Catch::StartsWith(xi == 0 ? "{\"min_distance\": 0, \"results\": [\n"
                                                   : "{\"min_distance\": 0.05, \"results\": [\n"));
        CHECK_THAT(json, Catch::Contains("\"method\": \"sampled\", \"set\": \"all\", \"type\": \"vertex-face\", "
                                         "\"queries\": 11, \"false_negatives\": 8, \"false_positives\": 0, "
                                         "\"undecided\": 0, \"ns_mean\": null"));
        CHECK_THAT(json, Catch::EndsWith("]}\n"));
    }
}

TEST_CASE("CCD benchmark: timing, query cap and bad options", "[ccd][ccd_benchmark]")
{
    using namespace ccd_benchmark_test;
    const std::vector<ipc::CCDQuerySet> sets = constructed_sets();
    ipc::CCDBenchmarkOptions options;
    options.repeats = 2;
    options.calls_per_batch = 1;
    options.max_queries = 5;
    const ipc::CCDBenchmarkReport report = ipc::benchmark_ccd(ipc::AdditiveCCD(), sets, options, "accd");
    for (const ipc::CCDBenchmarkRow& row : report.rows) {
        CHECK(row.queries == 5);
        CHECK(row.false_negatives == 0);
        CHECK(row.timed);
        CHECK(row.ns_median >= 0);
        CHECK(row.ns_median <= row.ns_p99);
        CHECK(row.ns_p99 <= row.ns_max);
        CHECK(row.ns_max > 0);
        CHECK(row.ns_mean <= row.ns_max);
    }
    CHECK_THAT(ipc::ccd_benchmark_table(report), !Catch::Contains(" - |"));

    auto bad = [&](auto change) {
        ipc::CCDBenchmarkOptions o;
        change(o);
        return o;
    };
    CHECK_THROWS_AS(ipc::benchmark_ccd(ipc::AdditiveCCD(), sets, bad([](auto& o) { o.min_distance = -1; })),
                    ipc::invalid_argument);
    CHECK_THROWS_WITH(ipc::benchmark_ccd(ipc::AdditiveCCD(), sets, bad([](auto& o) {
                          o.min_distance = 1e-3;
                          o.ground_truth = ipc::CCDGroundTruth::files;
                      })),
                      Catch::Contains("min_distance"));
    CHECK_THROWS_AS(ipc::benchmark_ccd(ipc::AdditiveCCD(), sets, bad([](auto& o) { o.repeats = 0; })),
                    ipc::invalid_argument);
    std::vector<ipc::CCDQuerySet> named_all = sets;
    named_all[0].name = "all";
    CHECK_THROWS_AS(ipc::benchmark_ccd(ipc::AdditiveCCD(), named_all), ipc::invalid_argument);
    ipc::CCDBenchmarkReport other = report;
    other.min_distance = 1;
    CHECK_THROWS_AS(other.append(report), ipc::invalid_argument);
    CHECK_THROWS_AS(report.total(ipc::CCDQueryType::edge_edge, "nobody"), ipc::invalid_argument);
}

TEST_CASE("CCD benchmark: query sets from a folder", "[ccd][ccd_benchmark]")
{
    using namespace ccd_benchmark_test;
    namespace fs = std::filesystem;
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    const fs::path root = fs::temp_directory_path()
        / ("ipc_test_ccd_benchmark_" + std::to_string(stamp) + "_" + std::to_string(std::random_device {}()));
    const ipc::CCDQuerySet ee = edge_edge_set(), vf = vertex_face_set();
    const std::vector<ipc::CCDQuery> vf_first(vf.queries.begin(), vf.queries.begin() + 4);
    const std::vector<ipc::CCDQuery> vf_rest(vf.queries.begin() + 4, vf.queries.end());
    write_queries(root / "group" / "beta" / "edge-edge" / "data_0_0.csv", ee.queries);
    write_queries(root / "alpha" / "vertex-face" / "data_0_0.csv", vf_first);
    write_queries(root / "alpha" / "vertex-face" / "data_0_1.csv", vf_rest);
    write_queries(root / "alpha" / "other" / "data_0_0.csv", vf_rest); // not a query folder: skipped

    const std::vector<ipc::CCDQuerySet> sets = ipc::load_ccd_query_sets(root.string());
    REQUIRE(sets.size() == 2);
    CHECK(sets[0].name == "alpha");
    CHECK(sets[0].type == ipc::CCDQueryType::vertex_face);
    CHECK(sets[1].name == "group/beta");
    CHECK(sets[1].type == ipc::CCDQueryType::edge_edge);
    REQUIRE(sets[0].queries.size() == vf.queries.size());
    REQUIRE(sets[1].queries.size() == ee.queries.size());
    for (std::size_t q = 0; q < vf.queries.size(); ++q) {
        CHECK(sets[0].queries[q].ground_truth == vf.queries[q].ground_truth);
        for (std::size_t v = 0; v < 8; ++v) {
            CHECK(sets[0].queries[q].vertices[v] == vf.queries[q].vertices[v]);
        }
    }
    const std::vector<ipc::CCDQuerySet> capped = ipc::load_ccd_query_sets(root.string(), 6);
    CHECK(capped[0].queries.size() == 6);
    CHECK(capped[1].queries.size() == 6);

    ipc::CCDBenchmarkOptions options;
    options.time = false;
    const auto from_files = ipc::benchmark_ccd(SampledCCD(), sets, options, "sampled");
    CHECK(from_files.false_negatives() == 2 * long(crossing_times().size()));
    CHECK(from_files.false_positives() == 0);

    CHECK_THROWS_AS(ipc::load_ccd_query_sets((root / "missing").string()), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::load_ccd_query_sets((root / "alpha" / "other").string()), ipc::invalid_argument);
    fs::remove_all(root);
}

TEST_CASE("CCD benchmark: ACCD on the sample query sets", "[ccd][ccd_benchmark]")
{
    const std::string folder = ipc::test::ccd_queries_folder();
    if (folder.empty()) {
        WARN("IPC_CCD_QUERIES is not set: skipping the sample query sets");
        return;
    }
    const std::vector<ipc::CCDQuerySet> sets = ipc::load_ccd_query_sets(folder, 40);
    REQUIRE_FALSE(sets.empty());
    for (const double xi : { 0.0, 1e-4 }) {
        CAPTURE(xi);
        ipc::CCDBenchmarkOptions options;
        options.min_distance = xi;
        options.time = false;
        const ipc::CCDBenchmarkReport report = ipc::benchmark_ccd(ipc::AdditiveCCD(), sets, options, "accd");
        CHECK(report.queries() > 0);
        CHECK(report.false_negatives() == 0);
    }
}
