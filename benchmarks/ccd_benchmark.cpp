// CCD benchmark over the query files of Wang et al. 2021.
//
//   ccd_benchmark --data DIR [--method NAME]... [--min-distance XI]
//                 [--repeats R] [--json FILE]
//
// Walks DIR for */edge-edge/data_*.csv and */vertex-face/data_*.csv (sorted),
// runs every method on every query and prints, per method and set: queries,
// false negatives, false positives, mean / median / 99th percentile / maximum
// nanoseconds per query and mean / maximum iterations. Methods: accd,
// root_finding, inclusion (default: every one compiled in).
//
// Ground truth: the files' own column (touching, distance 0) when no
// --min-distance is given. With --min-distance XI a query counts as positive
// when the primitives come within XI at some t in [0, 1]; this reference is
// computed here in long double by branch and bound over t (lower bound on each
// interval from a separating plane through the closest points at its middle,
// affine in t, and from the Lipschitz bound of the relative motion). Positive:
// a sampled distance <= XI (1 + 1e-12) + 1e-15 L (L: the query's largest
// coordinate); negative: every interval bounded above that threshold;
// queries that stay undecided after intervals of width 1e-13 or 20000
// evaluations are listed as "undecided" and excluded from both error counts.
//
// Timing: each query is run once untimed (its result is the one scored), then
// timed in R rounds (default 5) over the whole set, each round timing a batch
// of 4 calls with steady_clock; a query's time is its fastest round's mean per
// call (includes the std::function call, about 2 ns).

#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/io/ccd_queries.hpp>
#if __has_include(<ipc/ccd/root_finding_ccd.hpp>)
#include <ipc/ccd/root_finding_ccd.hpp>
#define IPC_BENCH_HAS_ROOT_FINDING 1
#endif
#if __has_include(<ipc/ccd/inclusion_ccd.hpp>)
#include <ipc/ccd/inclusion_ccd.hpp>
#define IPC_BENCH_HAS_INCLUSION 1
#endif

#include "timing.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using ipc::CCDQuery;
using ipc::CCDResult;

enum class QueryType { edge_edge, vertex_face };

const char* type_name(QueryType type)
{
    return type == QueryType::edge_edge ? "edge-edge" : "vertex-face";
}

struct QueryFile {
    std::string set;
    QueryType type;
    fs::path path;
};

std::vector<QueryFile> find_query_files(const fs::path& root)
{
    std::vector<QueryFile> files;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file()) {
            continue;
        }
        const fs::path& path = entry.path();
        const std::string name = path.filename().string();
        const std::string folder = path.parent_path().filename().string();
        if (name.rfind("data_", 0) != 0 || path.extension() != ".csv") {
            continue;
        }
        if (folder != "edge-edge" && folder != "vertex-face") {
            continue;
        }
        const fs::path set = fs::relative(path.parent_path().parent_path(), root);
        files.push_back({ set.generic_string(),
                          folder == "edge-edge" ? QueryType::edge_edge : QueryType::vertex_face,
                          path });
    }
    std::sort(files.begin(), files.end(), [](const QueryFile& a, const QueryFile& b) {
        return a.path.generic_string() < b.path.generic_string();
    });
    return files;
}

// ---------------------------------------------------------------------------
// Reference for --min-distance: does min_t d(t) <= xi (long double).

enum class Reference { negative, positive, undecided };

using Vec3L = Eigen::Matrix<long double, 3, 1>;

Reference reference_within(const CCDQuery& query, QueryType type, long double xi)
{
    using ipc::detail::accd::point_triangle_vector;
    using ipc::detail::accd::segment_segment_vector;
    std::array<Vec3L, 4> x0, x1;
    long double size = 0;
    for (int i = 0; i < 4; ++i) {
        x0[i] = query.vertices[i].cast<long double>();
        x1[i] = query.vertices[i + 4].cast<long double>();
        size = std::max({ size, x0[i].cwiseAbs().maxCoeff(), x1[i].cwiseAbs().maxCoeff() });
    }
    const int first = type == QueryType::edge_edge ? 2 : 1;
    // vertex differences (first primitive minus second) at t = 0 and t = 1
    std::vector<std::pair<Vec3L, Vec3L>> differences;
    long double rate = 0;
    for (int a = 0; a < first; ++a) {
        for (int b = first; b < 4; ++b) {
            differences.push_back({ x0[a] - x0[b], x1[a] - x1[b] });
            rate = std::max(rate, (differences.back().second - differences.back().first).norm());
        }
    }
    const long double threshold = xi * (1 + 1e-12L) + 1e-15L * size;
    auto closest = [&](long double t) {
        std::array<Vec3L, 4> x;
        for (int i = 0; i < 4; ++i) {
            x[i] = x0[i] + t * (x1[i] - x0[i]);
        }
        return type == QueryType::edge_edge ? segment_segment_vector<long double>(x[0], x[1], x[2], x[3])
                                            : point_triangle_vector<long double>(x[0], x[1], x[2], x[3]);
    };
    struct Interval {
        long double a, b;
    };
    std::vector<Interval> stack { { 0.0L, 1.0L } };
    bool undecided = false;
    int evaluations = 0;
    while (!stack.empty()) {
        const Interval interval = stack.back();
        stack.pop_back();
        const long double mid = 0.5L * (interval.a + interval.b);
        const Vec3L r = closest(mid);
        const long double d = r.norm();
        if (++evaluations > 20000) {
            return Reference::undecided;
        }
        if (d <= threshold) {
            return Reference::positive;
        }
        long double lower = d - rate * 0.5L * (interval.b - interval.a);
        const Vec3L n = r / d;
        long double plane = std::numeric_limits<long double>::infinity();
        for (const auto& [c0, c1] : differences) {
            const long double at0 = n.dot(c0), at1 = n.dot(c1);
            plane = std::min({ plane, at0 + interval.a * (at1 - at0), at0 + interval.b * (at1 - at0) });
        }
        lower = std::max(lower, plane);
        if (lower > threshold) {
            continue;
        }
        if (interval.b - interval.a < 1e-13L) {
            undecided = true;
            continue;
        }
        stack.push_back({ mid, interval.b });
        stack.push_back({ interval.a, mid });
    }
    return undecided ? Reference::undecided : Reference::negative;
}

// ---------------------------------------------------------------------------

struct Method {
    std::string name;
    std::function<CCDResult(const CCDQuery&, QueryType, double)> run;
};

template <typename CCD> Method make_method(std::string name, CCD ccd)
{
    return { std::move(name), [ccd](const CCDQuery& q, QueryType type, double xi) {
                const auto& v = q.vertices;
                if (type == QueryType::edge_edge) {
                    return ccd.edge_edge_ccd_result(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], xi, 1.0);
                }
                return ccd.point_triangle_ccd_result(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], xi, 1.0);
            } };
}

struct Row {
    std::string method, set, type;
    long queries = 0, false_negatives = 0, false_positives = 0, undecided = 0;
    double ns_mean = 0, ns_median = 0, ns_p99 = 0, ns_max = 0;
    double iterations_mean = 0;
    long iterations_max = 0;
};

struct Sample {
    double ns;
    long iterations;
};

Row summarize(
    const std::string& method, const std::string& set, const std::string& type,
    std::vector<Sample> samples, long fn, long fp, long undecided)
{
    Row row;
    row.method = method;
    row.set = set;
    row.type = type;
    row.queries = long(samples.size());
    row.false_negatives = fn;
    row.false_positives = fp;
    row.undecided = undecided;
    if (samples.empty()) {
        return row;
    }
    std::vector<double> ns;
    double sum_ns = 0, sum_iterations = 0;
    for (const Sample& s : samples) {
        ns.push_back(s.ns);
        sum_ns += s.ns;
        sum_iterations += double(s.iterations);
        row.iterations_max = std::max(row.iterations_max, s.iterations);
    }
    std::sort(ns.begin(), ns.end());
    auto quantile = [&ns](double q) {
        const std::size_t index = std::min(ns.size() - 1, std::size_t(std::ceil(q * double(ns.size()))) - (q > 0 ? 1 : 0));
        return ns[index];
    };
    row.ns_mean = sum_ns / double(ns.size());
    row.ns_median = quantile(0.5);
    row.ns_p99 = quantile(0.99);
    row.ns_max = ns.back();
    row.iterations_mean = sum_iterations / double(ns.size());
    return row;
}

void print_rows(const std::vector<Row>& rows, bool with_undecided)
{
    fmt::print(
        "| method | set | type | queries | FN | FP |{} mean ns | median ns | p99 ns | max ns | mean it | max it |\n",
        with_undecided ? " undecided |" : "");
    fmt::print("|---|---|---|---:|---:|---:|{}---:|---:|---:|---:|---:|---:|\n", with_undecided ? "---:|" : "");
    for (const Row& r : rows) {
        fmt::print(
            "| {} | {} | {} | {} | {} | {} |{} {:.0f} | {:.0f} | {:.0f} | {:.0f} | {:.2f} | {} |\n", r.method,
            r.set, r.type, r.queries, r.false_negatives, r.false_positives,
            with_undecided ? fmt::format(" {} |", r.undecided) : std::string(), r.ns_mean, r.ns_median,
            r.ns_p99, r.ns_max, r.iterations_mean, r.iterations_max);
    }
}

void write_json(const std::string& path, const std::vector<Row>& rows, double min_distance)
{
    std::FILE* out = std::fopen(path.c_str(), "w");
    if (out == nullptr) {
        throw ipc::error("ccd_benchmark: cannot write '" + path + "'");
    }
    fmt::print(out, "{{\"min_distance\": {}, \"results\": [\n", min_distance);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        fmt::print(
            out,
            "  {{\"method\": \"{}\", \"set\": \"{}\", \"type\": \"{}\", \"queries\": {}, "
            "\"false_negatives\": {}, \"false_positives\": {}, \"undecided\": {}, \"ns_mean\": {:.1f}, "
            "\"ns_median\": {:.1f}, \"ns_p99\": {:.1f}, \"ns_max\": {:.1f}, "
            "\"iterations_mean\": {:.3f}, \"iterations_max\": {}}}{}\n",
            r.method, r.set, r.type, r.queries, r.false_negatives, r.false_positives, r.undecided,
            r.ns_mean, r.ns_median, r.ns_p99, r.ns_max, r.iterations_mean, r.iterations_max,
            i + 1 < rows.size() ? "," : "");
    }
    fmt::print(out, "]}}\n");
    std::fclose(out);
}

int usage()
{
    fmt::print(stderr,
               "usage: ccd_benchmark --data DIR [--method accd|root_finding|inclusion]... "
               "[--min-distance XI] [--repeats R] [--json FILE]\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    std::string data, json;
    std::vector<std::string> wanted;
    double min_distance = 0;
    bool offset_mode = false;
    int repeats = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                throw ipc::invalid_argument("ccd_benchmark: " + arg + " needs a value");
            }
            return argv[++i];
        };
        try {
            if (arg == "--data") {
                data = value();
            } else if (arg == "--method") {
                wanted.push_back(value());
            } else if (arg == "--min-distance") {
                min_distance = std::stod(value());
                offset_mode = true;
            } else if (arg == "--json") {
                json = value();
            } else if (arg == "--repeats") {
                repeats = std::stoi(value());
            } else if (arg == "--help" || arg == "-h") {
                return usage();
            } else {
                fmt::print(stderr, "ccd_benchmark: unknown argument '{}'\n", arg);
                return usage();
            }
        } catch (const std::exception& e) {
            fmt::print(stderr, "ccd_benchmark: bad value for {}: {}\n", arg, e.what());
            return 2;
        }
    }
    if (data.empty() || repeats < 1 || !(min_distance >= 0)) {
        return usage();
    }

    std::vector<Method> available;
    available.push_back(make_method("accd", ipc::AdditiveCCD()));
#ifdef IPC_BENCH_HAS_ROOT_FINDING
    available.push_back(make_method("root_finding", ipc::RootFindingCCD()));
#endif
#ifdef IPC_BENCH_HAS_INCLUSION
    available.push_back(make_method("inclusion", ipc::InclusionCCD()));
#endif
    std::vector<Method> methods;
    if (wanted.empty()) {
        methods = available;
    } else {
        for (const std::string& name : wanted) {
            auto it = std::find_if(available.begin(), available.end(),
                                   [&](const Method& m) { return m.name == name; });
            if (it == available.end()) {
                fmt::print(stderr, "ccd_benchmark: method '{}' is not available\n", name);
                return 2;
            }
            methods.push_back(*it);
        }
    }

    try {
        const std::vector<QueryFile> files = find_query_files(data);
        if (files.empty()) {
            fmt::print(stderr, "ccd_benchmark: no */edge-edge/data_*.csv or */vertex-face/data_*.csv under {}\n", data);
            return 1;
        }
        // Load every query, grouped by (set, type), with its reference answer.
        struct Group {
            std::string set;
            QueryType type;
            std::vector<CCDQuery> queries;
            std::vector<Reference> reference;
        };
        std::vector<Group> groups;
        for (const QueryFile& file : files) {
            if (groups.empty() || groups.back().set != file.set || groups.back().type != file.type) {
                groups.push_back({ file.set, file.type, {}, {} });
            }
            for (const CCDQuery& query : ipc::read_ccd_queries(file.path.string())) {
                groups.back().queries.push_back(query);
                groups.back().reference.push_back(
                    offset_mode ? reference_within(query, file.type, min_distance)
                                : (query.ground_truth ? Reference::positive : Reference::negative));
            }
        }

        std::vector<Row> rows;
        for (const Method& method : methods) {
            std::map<QueryType, std::vector<Sample>> all_samples;
            std::map<QueryType, std::array<long, 3>> all_counts;
            std::vector<Row> method_rows;
            for (const Group& group : groups) {
                std::vector<Sample> samples;
                long fn = 0, fp = 0, undecided = 0;
                std::vector<CCDResult> results;
                for (const CCDQuery& query : group.queries) {
                    results.push_back(method.run(query, group.type, min_distance));
                }
                // Per query: the fastest of `repeats` rounds, each timing a
                // batch of 4 calls (robust to the machine's interruptions).
                std::vector<double> best(group.queries.size(), 1e300);
                for (int round = 0; round < repeats; ++round) {
                    for (std::size_t q = 0; q < group.queries.size(); ++q) {
                        const auto start = std::chrono::steady_clock::now();
                        for (int r = 0; r < 4; ++r) {
                            const CCDResult again = method.run(group.queries[q], group.type, min_distance);
                            ipc::bench::do_not_optimize(again.toi);
                        }
                        const auto stop = std::chrono::steady_clock::now();
                        best[q] = std::min(best[q], std::chrono::duration<double, std::nano>(stop - start).count() / 4);
                    }
                }
                for (std::size_t q = 0; q < group.queries.size(); ++q) {
                    const CCDResult& result = results[q];
                    samples.push_back({ best[q], result.iterations });
                    const Reference truth = group.reference[q];
                    if (truth == Reference::undecided) {
                        ++undecided;
                    } else if (truth == Reference::positive && !result.collides()) {
                        ++fn;
                    } else if (truth == Reference::negative && result.collides()) {
                        ++fp;
                    }
                }
                auto& pooled = all_samples[group.type];
                pooled.insert(pooled.end(), samples.begin(), samples.end());
                auto& counts = all_counts[group.type];
                counts[0] += fn;
                counts[1] += fp;
                counts[2] += undecided;
                method_rows.push_back(summarize(method.name, group.set, type_name(group.type),
                                                std::move(samples), fn, fp, undecided));
            }
            for (auto& [type, samples] : all_samples) {
                const auto& counts = all_counts[type];
                method_rows.push_back(summarize(method.name, "all", type_name(type), samples,
                                                counts[0], counts[1], counts[2]));
            }
            rows.insert(rows.end(), method_rows.begin(), method_rows.end());
        }
        if (offset_mode) {
            fmt::print("min_distance = {} (reference: long double branch and bound)\n\n", min_distance);
        } else {
            fmt::print("ground truth: the files' column (touching at distance 0)\n\n");
        }
        print_rows(rows, offset_mode);
        if (!json.empty()) {
            write_json(json, rows, min_distance);
        }
    } catch (const std::exception& e) {
        fmt::print(stderr, "ccd_benchmark: {}\n", e.what());
        return 1;
    }
    return 0;
}
