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
// Everything is done by the library's benchmark API (ipc/benchmark/
// ccd_benchmark.hpp), which scores a user's own CCD method the same way:
//  - Ground truth: the files' own column (touching, distance 0) when no
//    --min-distance is given. With --min-distance XI a query counts as
//    positive when the primitives come within XI at some t in [0, 1], by the
//    long-double reference of ipc/ccd/ccd_reference.hpp; queries it cannot
//    settle are listed as "undecided" and excluded from both error counts.
//  - Timing: each query is run once untimed (its result is the one scored),
//    then timed in R rounds (default 5) over the whole set, each round timing
//    a batch of 4 calls with steady_clock; a query's time is its fastest
//    round's mean per call.

#include <ipc/benchmark/ccd_benchmark.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#if __has_include(<ipc/ccd/root_finding_ccd.hpp>)
#include <ipc/ccd/root_finding_ccd.hpp>
#define IPC_BENCH_HAS_ROOT_FINDING 1
#endif
#if __has_include(<ipc/ccd/inclusion_ccd.hpp>)
#include <ipc/ccd/inclusion_ccd.hpp>
#define IPC_BENCH_HAS_INCLUSION 1
#endif

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace {

/// A method of the library, behind one signature.
struct Method {
    std::string name;
    std::function<ipc::CCDBenchmarkReport(const std::vector<ipc::CCDQuerySet>&, const ipc::CCDBenchmarkOptions&)>
        run;
};

template <typename CCD> Method make_method(std::string name, CCD ccd)
{
    return { name, [ccd, name](const std::vector<ipc::CCDQuerySet>& sets, const ipc::CCDBenchmarkOptions& options) {
                return ipc::benchmark_ccd(ccd, sets, options, name);
            } };
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
    ipc::CCDBenchmarkOptions options;
    options.ground_truth = ipc::CCDGroundTruth::files;
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
                options.min_distance = std::stod(value());
                options.ground_truth = ipc::CCDGroundTruth::reference;
            } else if (arg == "--json") {
                json = value();
            } else if (arg == "--repeats") {
                options.repeats = std::stoi(value());
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
    if (data.empty() || options.repeats < 1 || !(options.min_distance >= 0)) {
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
        const std::vector<ipc::CCDQuerySet> sets = ipc::load_ccd_query_sets(data);
        ipc::CCDBenchmarkReport report;
        report.min_distance = options.min_distance;
        report.ground_truth = options.ground_truth;
        for (const Method& method : methods) {
            report.append(method.run(sets, options));
        }
        if (options.ground_truth == ipc::CCDGroundTruth::reference) {
            fmt::print("min_distance = {} (reference: long double branch and bound)\n\n", options.min_distance);
        } else {
            fmt::print("ground truth: the files' column (touching at distance 0)\n\n");
        }
        fmt::print("{}", ipc::ccd_benchmark_table(report));
        if (!json.empty()) {
            std::FILE* out = std::fopen(json.c_str(), "w");
            if (out == nullptr) {
                throw ipc::error("ccd_benchmark: cannot write '" + json + "'");
            }
            fmt::print(out, "{}", ipc::ccd_benchmark_json(report));
            std::fclose(out);
        }
    } catch (const std::exception& e) {
        fmt::print(stderr, "ccd_benchmark: {}\n", e.what());
        return 1;
    }
    return 0;
}
