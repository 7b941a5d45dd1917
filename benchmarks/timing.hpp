#pragma once
// Small timing harness shared by the benchmark executables.

#include <fmt/core.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace ipc::bench {

/// Keeps the compiler from discarding a computed value.
template <typename T> inline void do_not_optimize(const T& value)
{
    asm volatile("" : : "r,m"(value) : "memory");
}

/// Runs f(i) for i in [0, n) and returns the mean nanoseconds per call.
/// f should read its inputs from arrays prepared beforehand.
template <typename F> double ns_per_call(std::size_t n, F&& f)
{
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < n; ++i) {
        f(i);
    }
    const auto stop = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::nano>(stop - start).count() / double(n);
}

/// Best of `repeats` runs of ns_per_call (the least disturbed by the machine).
template <typename F> double best_ns_per_call(std::size_t n, int repeats, F&& f)
{
    double best = 1e300;
    for (int r = 0; r < repeats; ++r) {
        const double ns = ns_per_call(n, f);
        best = ns < best ? ns : best;
    }
    return best;
}

/// A table of (group, name, ns per call) rows printed as Markdown.
class Table {
public:
    void add(std::string group, std::string name, double ns)
    {
        rows_.push_back({ std::move(group), std::move(name), ns });
    }

    void print() const
    {
        fmt::print("| group | kernel | ns/call |\n|---|---|---:|\n");
        for (const Row& row : rows_) {
            fmt::print("| {} | {} | {:.1f} |\n", row.group, row.name, row.ns);
        }
    }

private:
    struct Row {
        std::string group, name;
        double ns;
    };
    std::vector<Row> rows_;
};

} // namespace ipc::bench
