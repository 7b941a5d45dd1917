#pragma once
/// @file
/// Scores any CCD method (ours or a user's) on the query sets of the CCD
/// benchmark of Wang et al. 2021, or on queries built in memory.
///
///     ipc::CCDBenchmarkOptions options;
///     options.min_distance = 1e-4; // the xi to test, metres
///     const ipc::CCDBenchmarkReport report = ipc::benchmark_ccd(
///         MyCCD(), ipc::load_ccd_query_sets("path/to/queries"), options, "mine");
///     std::cout << ipc::ccd_benchmark_table(report);
///
/// The method is any type meeting the CCD concept (ipc::is_ccd_method_v, see
/// ipc/ccd/ccd_method.hpp). Only its point_triangle and edge_edge queries are
/// called, with tmax = 1. When it also has the `_result` calls returning an
/// ipc::CCDResult (as every method deriving from ipc::CCDQueries does), those
/// are used and the report includes the iterations; otherwise the drop-in
/// bool calls are used and the iterations are left out.
///
/// Ground truth, per query:
///  - the files' own column (the primitives touch, distance 0) when
///    min_distance is 0 (CCDGroundTruth::files);
///  - otherwise the long-double reference of ipc/ccd/ccd_reference.hpp: the
///    primitives come within min_distance at some t in [0, 1]
///    (CCDGroundTruth::reference). Queries it cannot settle are counted as
///    undecided and enter neither error count.
/// A false negative is a positive query the method reports as no collision
/// (CCDResult::collides() false, or the bool call returning false); a false
/// positive is a negative query it reports as a collision.
///
/// Timing: each query is first run once untimed (that result is the one
/// scored); then, in `repeats` rounds over the whole set, each query is timed
/// over a batch of `calls_per_batch` calls with std::chrono::steady_clock. A
/// query's time is its fastest round's mean per call, which is robust to the
/// machine's interruptions. The method is called directly (no virtual call or
/// std::function in between).

#include <ipc/ccd/ccd_method.hpp>
#include <ipc/ccd/ccd_reference.hpp>
#include <ipc/ccd/ccd_result.hpp>
#include <ipc/core/error.hpp>
#include <ipc/io/ccd_queries.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ipc {

/// The two kinds of queries of the benchmark.
enum class CCDQueryType {
    edge_edge,   ///< edge (v0, v1) against edge (v2, v3)
    vertex_face, ///< vertex v0 against triangle (v1, v2, v3)
};

/// Name of a query type as in the benchmark's folders.
/// @param type the query type.
/// @return "edge-edge" or "vertex-face".
constexpr const char* to_string(CCDQueryType type)
{
    return type == CCDQueryType::edge_edge ? "edge-edge" : "vertex-face";
}

/// One set of queries of one type, e.g. the edge-edge queries of
/// "erleben-spikes", read from files or built in memory.
struct CCDQuerySet {
    /// Name of the set, shown in the report (must not be empty or "all").
    std::string name;
    /// Which primitives the queries hold (the order of CCDQuery::vertices).
    CCDQueryType type = CCDQueryType::edge_edge;
    /// The queries; each one's ground_truth is used when min_distance is 0.
    std::vector<CCDQuery> queries;
};

/// Loads every query set of a folder in the layout of Wang et al. 2021: files
/// SET/edge-edge/data_*.csv and SET/vertex-face/data_*.csv at any depth below
/// folder. Files are read in the order of their paths; the files of one set
/// and type form one CCDQuerySet named after SET's path relative to folder.
/// @param folder the root folder.
/// @param max_queries_per_set keep at most this many queries of each set
///        (the first ones in file order); 0 keeps all.
/// @return the sets, sorted by name, edge-edge before vertex-face.
/// @throws ipc::invalid_argument when folder is not a directory or holds no
///         query file; the errors of ipc::read_ccd_queries for a bad file.
inline std::vector<CCDQuerySet> load_ccd_query_sets(
    const std::string& folder, std::size_t max_queries_per_set = 0)
{
    namespace fs = std::filesystem;
    std::error_code status;
    require(fs::is_directory(folder, status), "load_ccd_query_sets: '", folder,
            "' is not a directory");
    struct File {
        std::string set;
        CCDQueryType type;
        fs::path path;
    };
    std::vector<File> files;
    const fs::path root(folder);
    for (const auto& entry :
         fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied)) {
        if (!entry.is_regular_file()) {
            continue;
        }
        const fs::path& path = entry.path();
        const std::string name = path.filename().string();
        const std::string kind = path.parent_path().filename().string();
        if (name.rfind("data_", 0) != 0 || path.extension() != ".csv") {
            continue;
        }
        if (kind != "edge-edge" && kind != "vertex-face") {
            continue;
        }
        std::string set = fs::relative(path.parent_path().parent_path(), root).generic_string();
        if (set == "." || set.empty()) {
            fs::path whole = fs::absolute(root).lexically_normal();
            if (whole.filename().empty()) {
                whole = whole.parent_path();
            }
            set = whole.filename().string();
            if (set.empty()) {
                set = "queries";
            }
        }
        files.push_back({ set, kind == "edge-edge" ? CCDQueryType::edge_edge : CCDQueryType::vertex_face, path });
    }
    std::sort(files.begin(), files.end(), [](const File& a, const File& b) {
        return a.path.generic_string() < b.path.generic_string();
    });
    require(!files.empty(), "load_ccd_query_sets: no */edge-edge/data_*.csv or */vertex-face/data_*.csv under '",
            folder, "'");
    std::vector<CCDQuerySet> sets;
    for (const File& file : files) {
        if (sets.empty() || sets.back().name != file.set || sets.back().type != file.type) {
            sets.push_back({ file.set, file.type, {} });
        }
        std::vector<CCDQuery>& queries = sets.back().queries;
        if (max_queries_per_set > 0 && queries.size() >= max_queries_per_set) {
            continue;
        }
        for (const CCDQuery& query : read_ccd_queries(file.path.string())) {
            if (max_queries_per_set > 0 && queries.size() >= max_queries_per_set) {
                break;
            }
            queries.push_back(query);
        }
    }
    return sets;
}

/// Where the benchmark takes each query's ground truth from.
enum class CCDGroundTruth {
    automatic, ///< files when min_distance is 0, otherwise reference
    files,     ///< CCDQuery::ground_truth (touching, distance 0); needs min_distance = 0
    reference, ///< the long-double reference of ccd_reference.hpp, within min_distance
};

/// Printable name of a ground-truth choice.
/// @param truth the choice.
/// @return "automatic", "files" or "reference".
constexpr const char* to_string(CCDGroundTruth truth)
{
    return truth == CCDGroundTruth::automatic ? "automatic"
        : truth == CCDGroundTruth::files      ? "files"
                                              : "reference";
}

/// Settings of benchmark_ccd.
struct CCDBenchmarkOptions {
    /// The minimum separation xi passed to the method and tested by the
    /// ground truth (metres, finite, >= 0).
    double min_distance = 0;
    /// Where the ground truth comes from (see CCDGroundTruth).
    CCDGroundTruth ground_truth = CCDGroundTruth::automatic;
    /// Tolerances and limits of the reference ground truth.
    CCDReferenceOptions reference;
    /// Score at most this many queries of each set (the first ones); 0: all.
    std::size_t max_queries = 0;
    /// Measure the time per query (false: only the counts and iterations).
    bool time = true;
    /// Timing rounds over each set (>= 1); a query's time is its fastest round.
    int repeats = 5;
    /// Calls per timed batch (>= 1); a round's time is the batch's mean.
    int calls_per_batch = 4;
};

/// The scores of one method on one query set (or, with set "all", on every
/// set of one type together).
struct CCDBenchmarkRow {
    /// Name of the method.
    std::string method;
    /// Name of the query set; "all" for the totals of one type.
    std::string set;
    /// Which primitives the queries hold.
    CCDQueryType type = CCDQueryType::edge_edge;
    /// Queries scored.
    long queries = 0;
    /// Positive queries the method reported as no collision (misses).
    long false_negatives = 0;
    /// Negative queries the method reported as a collision.
    long false_positives = 0;
    /// Queries whose reference answer is undecided (in neither error count).
    long undecided = 0;
    /// Indices (into the set's queries) of the false negatives; empty in the
    /// "all" rows.
    std::vector<std::size_t> false_negative_queries;
    /// Indices of the false positives; empty in the "all" rows.
    std::vector<std::size_t> false_positive_queries;
    /// True when the times below were measured.
    bool timed = false;
    /// Mean time per query (nanoseconds; 0 when not timed).
    double ns_mean = 0;
    /// Median time per query (nanoseconds).
    double ns_median = 0;
    /// 99th percentile of the time per query (nanoseconds).
    double ns_p99 = 0;
    /// Largest time per query (nanoseconds).
    double ns_max = 0;
    /// True when the method reported iterations (its `_result` calls).
    bool has_iterations = false;
    /// Mean iterations per query (0 without has_iterations).
    double iterations_mean = 0;
    /// Largest iterations of a query (0 without has_iterations).
    long iterations_max = 0;
};

/// What benchmark_ccd returns: one row per method, set and type, then per
/// method the "all" rows of each type.
struct CCDBenchmarkReport {
    /// The minimum separation the methods were asked about (metres).
    double min_distance = 0;
    /// The ground truth used: files or reference (never automatic).
    CCDGroundTruth ground_truth = CCDGroundTruth::files;
    /// The rows, in the order described above.
    std::vector<CCDBenchmarkRow> rows;

    /// Appends the rows of another report (e.g. another method on the same
    /// queries), so that one table shows both.
    /// @param other a report with the same min_distance and ground truth.
    /// @throws ipc::invalid_argument when they differ.
    void append(const CCDBenchmarkReport& other)
    {
        require(other.min_distance == min_distance && other.ground_truth == ground_truth,
                "CCDBenchmarkReport::append: reports differ (min_distance ", min_distance, " and ",
                other.min_distance, ", ground truth ", to_string(ground_truth), " and ",
                to_string(other.ground_truth), ")");
        rows.insert(rows.end(), other.rows.begin(), other.rows.end());
    }

    /// The "all" row of one query type.
    /// @param type the query type.
    /// @param method the method's name; empty: the report's first method.
    /// @return the row.
    /// @throws ipc::invalid_argument when the report has no such row.
    const CCDBenchmarkRow& total(CCDQueryType type, const std::string& method = "") const
    {
        const std::string& wanted = method.empty() && !rows.empty() ? rows.front().method : method;
        for (const CCDBenchmarkRow& row : rows) {
            if (row.set == "all" && row.type == type && row.method == wanted) {
                return row;
            }
        }
        throw invalid_argument(detail::concat("CCDBenchmarkReport::total: no ", to_string(type),
                                              " queries of method '", wanted, "' in the report"));
    }

    /// Queries scored, over every method and type ("all" rows).
    /// @return the sum.
    long queries() const { return sum(&CCDBenchmarkRow::queries); }
    /// False negatives over every method and type ("all" rows).
    /// @return the sum.
    long false_negatives() const { return sum(&CCDBenchmarkRow::false_negatives); }
    /// False positives over every method and type ("all" rows).
    /// @return the sum.
    long false_positives() const { return sum(&CCDBenchmarkRow::false_positives); }
    /// Undecided queries over every method and type ("all" rows).
    /// @return the sum.
    long undecided() const { return sum(&CCDBenchmarkRow::undecided); }

private:
    long sum(long CCDBenchmarkRow::*field) const
    {
        long total = 0;
        for (const CCDBenchmarkRow& row : rows) {
            total += row.set == "all" ? row.*field : 0;
        }
        return total;
    }
};

namespace detail::ccd_benchmark {

    /// Keeps the compiler from discarding a computed value.
    template <typename T> inline void keep(const T& value)
    {
#if defined(__GNUC__) || defined(__clang__)
        asm volatile("" : : "r,m"(value) : "memory");
#else
        static volatile T sink;
        sink = value;
#endif
    }

    /// True when M has point_triangle_ccd_result and edge_edge_ccd_result
    /// returning an ipc::CCDResult.
    template <typename M, typename = void> struct has_result_calls : std::false_type { };

    template <typename M>
    struct has_result_calls<
        M,
        std::enable_if_t<
            std::is_convertible_v<
                decltype(std::declval<const M&>().point_triangle_ccd_result(
                    std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                    std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                    std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                    std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(), 0.0,
                    1.0)),
                CCDResult>
            && std::is_convertible_v<
                decltype(std::declval<const M&>().edge_edge_ccd_result(
                    std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                    std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                    std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(),
                    std::declval<const Eigen::Vector3d&>(), std::declval<const Eigen::Vector3d&>(), 0.0,
                    1.0)),
                CCDResult>>> : std::true_type { };

    /// True when M has a static `name` member convertible to std::string.
    template <typename M, typename = void> struct has_name : std::false_type { };
    template <typename M>
    struct has_name<M,
                    std::enable_if_t<std::is_convertible_v<decltype(M::name), std::string>
                                     && !std::is_member_object_pointer_v<decltype(&M::name)>>>
        : std::true_type { };

    /// One query's outcome as scored.
    struct Outcome {
        bool collides = false;
        long iterations = 0;
    };

    /// Runs one query with tmax = 1 through the `_result` calls when the
    /// method has them, else through the drop-in bool calls.
    template <typename Method>
    inline Outcome run(const Method& method, const CCDQuery& query, CCDQueryType type, double xi)
    {
        const auto& v = query.vertices;
        if constexpr (has_result_calls<Method>::value) {
            const CCDResult result = type == CCDQueryType::edge_edge
                ? CCDResult(method.edge_edge_ccd_result(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], xi, 1.0))
                : CCDResult(
                    method.point_triangle_ccd_result(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], xi, 1.0));
            keep(result.toi);
            return { result.collides(), result.iterations };
        } else {
            double toi = 1;
            const bool hit = type == CCDQueryType::edge_edge
                ? bool(method.edge_edge_ccd(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], toi, xi, 1.0))
                : bool(method.point_triangle_ccd(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], toi, xi, 1.0));
            keep(toi);
            return { hit, 0 };
        }
    }

    /// One query's time and iterations.
    struct Sample {
        double ns;
        long iterations;
    };

    /// Fills the statistics of row from its samples.
    inline void summarize(CCDBenchmarkRow& row, const std::vector<Sample>& samples)
    {
        row.queries = long(samples.size());
        if (samples.empty()) {
            return;
        }
        std::vector<double> ns;
        ns.reserve(samples.size());
        double sum_ns = 0, sum_iterations = 0;
        for (const Sample& s : samples) {
            ns.push_back(s.ns);
            sum_ns += s.ns;
            sum_iterations += double(s.iterations);
            row.iterations_max = std::max(row.iterations_max, s.iterations);
        }
        std::sort(ns.begin(), ns.end());
        // Nearest-rank quantile: the smallest sample with at least q n
        // samples at or below it.
        auto quantile = [&ns](double q) {
            const std::size_t rank = std::size_t(std::ceil(q * double(ns.size())));
            return ns[std::min(ns.size() - 1, rank - (q > 0 ? 1 : 0))];
        };
        if (row.timed) {
            row.ns_mean = sum_ns / double(ns.size());
            row.ns_median = quantile(0.5);
            row.ns_p99 = quantile(0.99);
            row.ns_max = ns.back();
        }
        if (row.has_iterations) {
            row.iterations_mean = sum_iterations / double(ns.size());
        } else {
            row.iterations_max = 0;
        }
    }

    /// Shortest decimal text that reads back as x (fixed notation for
    /// exponents in [-5, 16), scientific otherwise), for JSON.
    inline std::string shortest(double x)
    {
        if (!std::isfinite(x)) {
            return "null";
        }
        char buffer[64];
        int digits = 1;
        for (; digits < 17; ++digits) {
            std::snprintf(buffer, sizeof(buffer), "%.*e", digits - 1, x);
            if (std::strtod(buffer, nullptr) == x) {
                break;
            }
        }
        std::snprintf(buffer, sizeof(buffer), "%.*e", digits - 1, x);
        const int exponent = x == 0 ? 0 : std::atoi(std::strchr(buffer, 'e') + 1);
        if (exponent >= -5 && exponent < 16) {
            std::snprintf(buffer, sizeof(buffer), "%.*f", std::max(0, digits - 1 - exponent), x);
        }
        return buffer;
    }

    /// printf-style formatting of one value.
    template <typename T> inline std::string format(const char* spec, T value)
    {
        char buffer[64];
        std::snprintf(buffer, sizeof(buffer), spec, value);
        return buffer;
    }

    /// JSON string literal of text.
    inline std::string quoted(const std::string& text)
    {
        std::string out = "\"";
        for (const char c : text) {
            if (c == '"' || c == '\\') {
                out += '\\';
                out += c;
            } else if (static_cast<unsigned char>(c) < 0x20) {
                out += format("\\u%04x", int(static_cast<unsigned char>(c)));
            } else {
                out += c;
            }
        }
        return out + "\"";
    }

} // namespace detail::ccd_benchmark

/// Resolves options.ground_truth: automatic becomes files when min_distance
/// is 0 and reference otherwise.
/// @param options the benchmark options.
/// @return CCDGroundTruth::files or CCDGroundTruth::reference.
/// @throws ipc::invalid_argument for files with a min_distance other than 0,
///         or a min_distance that is negative, NaN or infinite.
inline CCDGroundTruth resolve_ccd_ground_truth(const CCDBenchmarkOptions& options)
{
    require(std::isfinite(options.min_distance) && options.min_distance >= 0,
            "benchmark_ccd: min_distance must be finite and >= 0, got ", options.min_distance);
    if (options.ground_truth == CCDGroundTruth::automatic) {
        return options.min_distance == 0 ? CCDGroundTruth::files : CCDGroundTruth::reference;
    }
    require(options.ground_truth != CCDGroundTruth::files || options.min_distance == 0,
            "benchmark_ccd: the files' ground truth is for touching (min_distance 0), got min_distance ",
            options.min_distance, "; use CCDGroundTruth::reference");
    return options.ground_truth;
}

/// The ground truth of one query under the given options.
/// @param query the query (8 positions, see CCDQuery).
/// @param type its type.
/// @param options min_distance, ground_truth and the reference's options.
/// @return positive or negative (from the file's column, or the reference),
///         or undecided (reference only).
/// @throws ipc::invalid_argument as resolve_ccd_ground_truth, and for NaN or
///         infinite coordinates with the reference.
inline CCDReferenceAnswer ccd_benchmark_truth(
    const CCDQuery& query, CCDQueryType type, const CCDBenchmarkOptions& options)
{
    if (resolve_ccd_ground_truth(options) == CCDGroundTruth::files) {
        return query.ground_truth ? CCDReferenceAnswer::positive : CCDReferenceAnswer::negative;
    }
    const auto& v = query.vertices;
    return (type == CCDQueryType::edge_edge
                ? edge_edge_ccd_reference(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], options.min_distance,
                                          options.reference)
                : point_triangle_ccd_reference(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7],
                                               options.min_distance, options.reference))
        .answer;
}

/// Scores a CCD method on query sets (see the file comment for the ground
/// truth, the error counts and the timing).
/// @param method any type meeting the CCD concept (ipc::is_ccd_method_v);
///        only its point_triangle and edge_edge queries are called.
/// @param sets the query sets (e.g. from load_ccd_query_sets).
/// @param options min_distance, ground truth, query cap and timing.
/// @param name the method's name in the report; empty: Method::name when the
///        type has one, else "method".
/// @return one row per set, in the order of sets, then one "all" row per
///         query type present (every set of that type together).
/// @throws ipc::invalid_argument for invalid options, a set named "" or
///         "all", or (reference ground truth) non-finite coordinates; any
///         exception the method throws passes through.
template <typename Method>
CCDBenchmarkReport benchmark_ccd(
    const Method& method, const std::vector<CCDQuerySet>& sets, const CCDBenchmarkOptions& options = {},
    std::string name = "")
{
    static_assert(is_ccd_method_v<Method>,
                  "benchmark_ccd: Method must meet the CCD concept (see ipc/ccd/ccd_method.hpp)");
    namespace bench = detail::ccd_benchmark;
    using Clock = std::chrono::steady_clock;
    CCDBenchmarkReport report;
    report.min_distance = options.min_distance;
    report.ground_truth = resolve_ccd_ground_truth(options);
    require(!options.time || options.repeats >= 1, "benchmark_ccd: repeats must be >= 1, got ",
            options.repeats);
    require(!options.time || options.calls_per_batch >= 1, "benchmark_ccd: calls_per_batch must be >= 1, got ",
            options.calls_per_batch);
    if (name.empty()) {
        if constexpr (bench::has_name<Method>::value) {
            name = std::string(Method::name);
        }
        if (name.empty()) {
            name = "method";
        }
    }
    for (const CCDQuerySet& set : sets) {
        require(!set.name.empty() && set.name != "all", "benchmark_ccd: a query set may not be named '",
                set.name, "'");
    }
    const double xi = options.min_distance;
    constexpr bool with_iterations = bench::has_result_calls<Method>::value;

    std::vector<bench::Sample> pooled[2];
    long pooled_counts[2][3] = { { 0, 0, 0 }, { 0, 0, 0 } };
    bool present[2] = { false, false };
    for (const CCDQuerySet& set : sets) {
        const std::size_t n = options.max_queries > 0 ? std::min(options.max_queries, set.queries.size())
                                                      : set.queries.size();
        CCDBenchmarkRow row;
        row.method = name;
        row.set = set.name;
        row.type = set.type;
        row.timed = options.time;
        row.has_iterations = with_iterations;

        std::vector<bench::Outcome> outcomes(n);
        for (std::size_t q = 0; q < n; ++q) {
            outcomes[q] = bench::run(method, set.queries[q], set.type, xi);
        }
        std::vector<double> best(n, options.time ? 1e300 : 0.0);
        if (options.time) {
            for (int round = 0; round < options.repeats; ++round) {
                for (std::size_t q = 0; q < n; ++q) {
                    const auto start = Clock::now();
                    for (int r = 0; r < options.calls_per_batch; ++r) {
                        bench::run(method, set.queries[q], set.type, xi); // keeps its toi
                    }
                    const auto stop = Clock::now();
                    best[q] = std::min(best[q], std::chrono::duration<double, std::nano>(stop - start).count()
                                           / double(options.calls_per_batch));
                }
            }
        }
        std::vector<bench::Sample> samples;
        samples.reserve(n);
        for (std::size_t q = 0; q < n; ++q) {
            samples.push_back({ best[q], outcomes[q].iterations });
            const CCDReferenceAnswer truth = ccd_benchmark_truth(set.queries[q], set.type, options);
            if (truth == CCDReferenceAnswer::undecided) {
                ++row.undecided;
            } else if (truth == CCDReferenceAnswer::positive && !outcomes[q].collides) {
                ++row.false_negatives;
                row.false_negative_queries.push_back(q);
            } else if (truth == CCDReferenceAnswer::negative && outcomes[q].collides) {
                ++row.false_positives;
                row.false_positive_queries.push_back(q);
            }
        }
        const int t = set.type == CCDQueryType::edge_edge ? 0 : 1;
        present[t] = true;
        pooled[t].insert(pooled[t].end(), samples.begin(), samples.end());
        pooled_counts[t][0] += row.false_negatives;
        pooled_counts[t][1] += row.false_positives;
        pooled_counts[t][2] += row.undecided;
        bench::summarize(row, samples);
        report.rows.push_back(std::move(row));
    }
    for (int t = 0; t < 2; ++t) {
        if (!present[t]) {
            continue;
        }
        CCDBenchmarkRow row;
        row.method = name;
        row.set = "all";
        row.type = t == 0 ? CCDQueryType::edge_edge : CCDQueryType::vertex_face;
        row.timed = options.time;
        row.has_iterations = with_iterations;
        row.false_negatives = pooled_counts[t][0];
        row.false_positives = pooled_counts[t][1];
        row.undecided = pooled_counts[t][2];
        bench::summarize(row, pooled[t]);
        report.rows.push_back(std::move(row));
    }
    return report;
}

/// The report as a Markdown table: method, set, type, queries, FN, FP, (with
/// the reference ground truth) undecided, mean / median / p99 / max ns per
/// query, mean and max iterations ("-" where not measured).
/// @param report the report.
/// @return the table, one line per row after two header lines.
inline std::string ccd_benchmark_table(const CCDBenchmarkReport& report)
{
    namespace bench = detail::ccd_benchmark;
    const bool with_undecided = report.ground_truth == CCDGroundTruth::reference;
    std::string out = "| method | set | type | queries | FN | FP |";
    out += with_undecided ? " undecided |" : "";
    out += " mean ns | median ns | p99 ns | max ns | mean it | max it |\n";
    out += "|---|---|---|---:|---:|---:|";
    out += with_undecided ? "---:|" : "";
    out += "---:|---:|---:|---:|---:|---:|\n";
    for (const CCDBenchmarkRow& r : report.rows) {
        out += "| " + r.method + " | " + r.set + " | " + to_string(r.type) + " | " + std::to_string(r.queries)
            + " | " + std::to_string(r.false_negatives) + " | " + std::to_string(r.false_positives) + " |";
        if (with_undecided) {
            out += " " + std::to_string(r.undecided) + " |";
        }
        for (const double ns : { r.ns_mean, r.ns_median, r.ns_p99, r.ns_max }) {
            out += " " + (r.timed ? bench::format("%.0f", ns) : std::string("-")) + " |";
        }
        out += " " + (r.has_iterations ? bench::format("%.2f", r.iterations_mean) : std::string("-")) + " |";
        out += " " + (r.has_iterations ? std::to_string(r.iterations_max) : std::string("-")) + " |\n";
    }
    return out;
}

/// The report as JSON: {"min_distance": xi, "results": [one object per row
/// with method, set, type, queries, false_negatives, false_positives,
/// undecided, ns_mean, ns_median, ns_p99, ns_max, iterations_mean,
/// iterations_max]}; times and iterations that were not measured are null.
/// @param report the report.
/// @return the JSON text, one row per line.
inline std::string ccd_benchmark_json(const CCDBenchmarkReport& report)
{
    namespace bench = detail::ccd_benchmark;
    std::string out = "{\"min_distance\": " + bench::shortest(report.min_distance) + ", \"results\": [\n";
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
        const CCDBenchmarkRow& r = report.rows[i];
        auto ns = [&r](double value) { return r.timed ? bench::format("%.1f", value) : std::string("null"); };
        out += "  {\"method\": " + bench::quoted(r.method) + ", \"set\": " + bench::quoted(r.set)
            + ", \"type\": \"" + to_string(r.type) + "\", \"queries\": " + std::to_string(r.queries)
            + ", \"false_negatives\": " + std::to_string(r.false_negatives)
            + ", \"false_positives\": " + std::to_string(r.false_positives)
            + ", \"undecided\": " + std::to_string(r.undecided) + ", \"ns_mean\": " + ns(r.ns_mean)
            + ", \"ns_median\": " + ns(r.ns_median) + ", \"ns_p99\": " + ns(r.ns_p99)
            + ", \"ns_max\": " + ns(r.ns_max) + ", \"iterations_mean\": "
            + (r.has_iterations ? bench::format("%.3f", r.iterations_mean) : std::string("null"))
            + ", \"iterations_max\": "
            + (r.has_iterations ? std::to_string(r.iterations_max) : std::string("null")) + "}"
            + (i + 1 < report.rows.size() ? "," : "") + "\n";
    }
    return out + "]}\n";
}

} // namespace ipc
