#pragma once
/// @file
/// Helpers for the statistics files the examples write with nlohmann::json
/// (ordered_json, so members keep the order they were added in): optional
/// and non-finite numbers become null, and files are written with their
/// folder created and failures reported as ipc::error.

#include <ipc/core/error.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>

namespace ipc::examples {

/// The JSON document type of the examples' statistics files.
using Json = nlohmann::ordered_json;

/// x as a JSON number, or null when x is not finite.
inline Json json_number(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

/// *x as a JSON number, or null when x is empty or not finite.
inline Json json_number(const std::optional<double>& x)
{
    return x ? json_number(*x) : Json(nullptr);
}

/// Writes document to path (indented by indent spaces, one line when
/// negative), creating its folder. Throws ipc::error when it cannot.
inline void write_json(const std::string& path, const Json& document, int indent = 2)
{
    const std::filesystem::path p(path);
    if (p.has_parent_path()) {
        std::error_code ec;
        std::filesystem::create_directories(p.parent_path(), ec);
        require<error>(!ec, "cannot create the folder of ", path, ": ", ec.message());
    }
    // Written beside the target and renamed over it, so that a reader (or a
    // run killed while writing) never sees half a document.
    const std::string partial = path + ".partial";
    std::ofstream file(partial);
    require<error>(bool(file), "cannot open ", partial, " for writing");
    file << document.dump(indent) << '\n';
    file.close();
    require<error>(!file.fail(), "failed writing ", partial);
    std::error_code ec;
    std::filesystem::rename(partial, path, ec);
    require<error>(!ec, "cannot move ", partial, " to ", path, ": ", ec.message());
}

/// Rewrites a --json file during a run, at most once per interval, so that
/// a long run stopped early keeps the statistics of its finished steps.
class PeriodicJson {
public:
    explicit PeriodicJson(std::string path)
        : path_(std::move(path))
    {
    }

    /// Writes report() when the interval has passed since the last write.
    template <typename Report> void maybe_write(const Report& report)
    {
        if (path_.empty() || std::chrono::steady_clock::now() - last_ < interval) {
            return;
        }
        write_json(path_, report());
        last_ = std::chrono::steady_clock::now();
    }

private:
    static constexpr std::chrono::seconds interval { 10 };
    std::string path_;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

} // namespace ipc::examples
