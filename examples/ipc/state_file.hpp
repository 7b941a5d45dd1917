#pragma once
/// @file
/// ipc_sim's state files (--save-state, --resume): a Simulator's state after
/// a step, written as JSON with every number to full precision, so that a
/// long run can stop and later go on exactly where it stopped.
///
/// A file names the run it belongs to (scene, vertex count, time step,
/// dhat); reading it for another run is an error that names the difference.
///
///   {"format": "ipc_sim state", "version": 1, "scene": "granules",
///    "vertices": n, "dt": h, "dhat": d, "steps": N, "time": t,
///    "strain_stiffness": kappa_s, "scripts_released": false,
///    "positions": [[x, y, z], ...], "velocities": [[vx, vy, vz], ...]}

#include "solver.hpp"

#include <common/json_output.hpp>

#include <ipc/core/error.hpp>

#include <fstream>
#include <string>

namespace ipc::examples {

/// The run a state file belongs to.
struct StateFileRun {
    std::string scene;
    Index vertices = 0;
    double dt = 0;   ///< time step (s)
    double dhat = 0; ///< barrier support (m)
};

namespace detail {
    inline Json rows_to_json(const Eigen::MatrixXd& m)
    {
        Json rows = Json::array();
        for (Index i = 0; i < m.rows(); ++i) {
            rows.push_back({ m(i, 0), m(i, 1), m(i, 2) });
        }
        return rows;
    }

    inline Eigen::MatrixXd rows_from_json(const Json& rows, const std::string& key, const std::string& path)
    {
        require(rows.is_array(), path, ": '", key, "' is not an array");
        Eigen::MatrixXd m(Index(rows.size()), 3);
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const Json& row = rows[i];
            require(row.is_array() && row.size() == 3 && row[0].is_number() && row[1].is_number()
                    && row[2].is_number(),
                path, ": '", key, "' row ", i, " is not three numbers");
            for (int c = 0; c < 3; ++c) {
                m(Index(i), c) = row[std::size_t(c)].get<double>();
            }
        }
        return m;
    }
} // namespace detail

/// Writes state (of the run described by run) to path, replacing it whole
/// (written beside it, then renamed). Throws ipc::error when it cannot.
inline void write_state_file(const std::string& path, const StateFileRun& run, const SimulatorState& state)
{
    Json doc;
    doc["format"] = "ipc_sim state";
    doc["version"] = 1;
    doc["scene"] = run.scene;
    doc["vertices"] = run.vertices;
    doc["dt"] = run.dt;
    doc["dhat"] = run.dhat;
    doc["steps"] = state.steps;
    doc["time"] = state.time;
    doc["strain_stiffness"] = state.strain_stiffness;
    doc["scripts_released"] = state.scripts_released;
    doc["positions"] = detail::rows_to_json(state.positions);
    doc["velocities"] = detail::rows_to_json(state.velocities);
    write_json(path, doc, -1);
}

/// Reads the state file at path, written for the run described by run.
/// Throws ipc::invalid_argument when the file cannot be read, is not an
/// ipc_sim state file, or belongs to another run (naming what differs).
/// Restoring the state checks it further (Simulator::restore).
inline SimulatorState read_state_file(const std::string& path, const StateFileRun& run)
{
    std::ifstream file(path);
    require(bool(file), "cannot open the state file ", path);
    Json doc;
    try {
        doc = Json::parse(file);
    } catch (const nlohmann::json::exception& e) {
        throw invalid_argument(path + ": not a valid JSON document: " + e.what());
    }
    require(doc.is_object() && doc.value("format", "") == "ipc_sim state", path, ": not an ipc_sim state file");
    require(doc.value("version", 0) == 1, path, ": unknown state file version ", doc.value("version", 0));
    try {
        const std::string scene = doc.at("scene").get<std::string>();
        require(scene == run.scene, path, ": the state is of scene '", scene, "', this run is '", run.scene, "'");
        const Index vertices = doc.at("vertices").get<Index>();
        require(vertices == run.vertices, path, ": the state has ", vertices, " vertices, this run's scene ",
            run.vertices);
        const double dt = doc.at("dt").get<double>(), dhat = doc.at("dhat").get<double>();
        require(dt == run.dt, path, ": the state was saved with time step ", dt, " s, this run uses ", run.dt, " s");
        require(dhat == run.dhat, path, ": the state was saved with dhat ", dhat, " m, this run uses ", run.dhat,
            " m");
        SimulatorState state;
        state.steps = doc.at("steps").get<int>();
        state.time = doc.at("time").get<double>();
        state.strain_stiffness = doc.at("strain_stiffness").get<double>();
        state.scripts_released = doc.at("scripts_released").get<bool>();
        state.positions = detail::rows_from_json(doc.at("positions"), "positions", path);
        state.velocities = detail::rows_from_json(doc.at("velocities"), "velocities", path);
        return state;
    } catch (const nlohmann::json::exception& e) {
        throw invalid_argument(path + ": " + e.what());
    }
}

} // namespace ipc::examples
