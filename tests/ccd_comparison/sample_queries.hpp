#pragma once
// Walks a folder laid out like the CCD benchmark of Wang et al. 2021
// (<set>/edge-edge/*.csv and <set>/vertex-face/*.csv) and reads every file
// with ipc::read_ccd_queries.

#include <ipc/io/ccd_queries.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace ipc_test {

struct SampleQuery {
    ipc::CCDQuery query;
    bool edge_edge = false;
    std::string source; // "<set>/<kind>/<file>#<index>"
};

/// Every query under root, in a deterministic (sorted) order.
inline std::vector<SampleQuery> read_sample_queries(const std::filesystem::path& root)
{
    std::vector<SampleQuery> queries;
    std::vector<std::filesystem::path> sets;
    for (const auto& entry : std::filesystem::directory_iterator(root)) {
        if (entry.is_directory()) {
            sets.push_back(entry.path());
        }
    }
    std::sort(sets.begin(), sets.end());
    for (const auto& set : sets) {
        for (const bool edge_edge : { true, false }) {
            const auto folder = set / (edge_edge ? "edge-edge" : "vertex-face");
            if (!std::filesystem::is_directory(folder)) {
                continue;
            }
            std::vector<std::filesystem::path> files;
            for (const auto& entry : std::filesystem::directory_iterator(folder)) {
                if (entry.path().extension() == ".csv") {
                    files.push_back(entry.path());
                }
            }
            std::sort(files.begin(), files.end());
            for (const auto& file : files) {
                const std::string label = set.filename().string() + "/"
                    + folder.filename().string() + "/" + file.filename().string();
                const std::vector<ipc::CCDQuery> read = ipc::read_ccd_queries(file.string());
                for (std::size_t i = 0; i < read.size(); ++i) {
                    queries.push_back({ read[i], edge_edge, label + "#" + std::to_string(i) });
                }
            }
        }
    }
    return queries;
}

} // namespace ipc_test
