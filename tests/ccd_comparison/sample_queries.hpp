#pragma once
// Reader for the CCD query files of the Wang et al. 2021 benchmark format:
// 8 rows per query, each row "x_num,x_den,y_num,y_den,z_num,z_den,truth".
// Denominators are powers of two, so num / den is exact in double as long as
// the numerator itself is (strtod rounds correctly, and the sample's
// numerators carry at most 53 significant bits).

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ipc_test {

struct SampleQuery {
    std::array<Eigen::Vector3d, 8> points;
    bool truth = false;
    bool edge_edge = false;
    std::string source; // "<set>/<kind>/<file>#<index>"
};

/// Parses one file; returns false when a row is malformed.
inline bool read_query_file(
    const std::filesystem::path& file, bool edge_edge, const std::string& label,
    std::vector<SampleQuery>& out)
{
    std::ifstream in(file);
    if (!in) {
        return false;
    }
    std::string line;
    SampleQuery query;
    query.edge_edge = edge_edge;
    int row = 0;
    int index = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line == "\r") {
            continue;
        }
        std::array<std::string, 7> fields;
        std::stringstream stream(line);
        for (std::string& field : fields) {
            if (!std::getline(stream, field, ',')) {
                return false;
            }
        }
        for (int k = 0; k < 3; ++k) {
            const double numerator = std::strtod(fields[2 * k].c_str(), nullptr);
            const double denominator = std::strtod(fields[2 * k + 1].c_str(), nullptr);
            if (!(denominator > 0)) {
                return false;
            }
            query.points[row][k] = numerator / denominator;
        }
        query.truth = query.truth || std::atoi(fields[6].c_str()) != 0;
        if (++row == 8) {
            query.source = label + "#" + std::to_string(index++);
            out.push_back(query);
            query = SampleQuery();
            query.edge_edge = edge_edge;
            row = 0;
        }
    }
    return row == 0;
}

/// Reads every "<set>/edge-edge/*.csv" and "<set>/vertex-face/*.csv" under
/// root, in a deterministic (sorted) order.
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
                if (!read_query_file(file, edge_edge, label, queries)) {
                    queries.clear();
                    return queries;
                }
            }
        }
    }
    return queries;
}

} // namespace ipc_test
