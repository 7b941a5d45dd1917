#pragma once
/// @file
/// What ipc_sim reports about a run: totals over the steps (the summary
/// table) and the statistics document written with --json, for the 3D
/// scenes (run_report) and the 2D ones (run_report_2d).

#include "ipc_scenes.hpp"
#include "scenes_2d.hpp"
#include "solver.hpp"

#include <common/json_output.hpp>
#include <common/newton_linear_solver.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ipc::examples {

/// Sums and extremes over the steps of a run.
struct RunTotals {
    std::size_t steps = 0;
    double seconds = 0;
    double newton_iterations = 0;
    double contacts = 0; ///< summed over the steps
    std::size_t max_contacts = 0;
    std::optional<double> min_gap;
    std::optional<double> min_distance;
    std::optional<double> max_strain;
    double factorizations = 0;
    double toi_sum = 0; ///< sum over steps of the mean alpha
    int not_converged = 0;
    double time_assembly = 0, time_solve = 0, time_ccd = 0, time_line_search = 0;

    /// Per-step average of a total (0 without steps).
    double per_step(double total) const { return steps > 0 ? total / double(steps) : 0; }
};

/// The totals of steps.
inline RunTotals run_totals(const std::vector<StepStats>& steps)
{
    RunTotals t;
    t.steps = steps.size();
    for (const auto& s : steps) {
        t.seconds += s.seconds;
        t.newton_iterations += s.newton_iterations;
        t.contacts += double(s.contacts);
        t.max_contacts = std::max(t.max_contacts, s.contacts);
        if (s.min_gap) {
            t.min_gap = t.min_gap ? std::min(*t.min_gap, *s.min_gap) : *s.min_gap;
        }
        if (s.min_distance) {
            t.min_distance = t.min_distance ? std::min(*t.min_distance, *s.min_distance) : *s.min_distance;
        }
        t.factorizations += s.factorizations;
        t.toi_sum += s.toi_mean;
        if (s.max_strain) {
            t.max_strain = t.max_strain ? std::max(*t.max_strain, *s.max_strain) : *s.max_strain;
        }
        t.not_converged += s.converged ? 0 : 1;
        t.time_assembly += s.time_assembly;
        t.time_solve += s.time_solve;
        t.time_ccd += s.time_ccd;
        t.time_line_search += s.time_line_search;
    }
    return t;
}

/// Adds a run's "steps" (one entry per step) and "totals" to a --json
/// document (shared by the 3D and 2D reports).
inline void add_step_statistics(Json& report, const std::vector<StepStats>& steps)
{
    const RunTotals t = run_totals(steps);
    Json list = Json::array();
    for (const auto& s : steps) {
        list.push_back({
            { "newton_iterations", s.newton_iterations },
            { "contacts", s.contacts },
            { "min_gap", json_number(s.min_gap) },
            { "min_distance", json_number(s.min_distance) },
            { "factorizations", s.factorizations },
            { "toi_mean", json_number(s.toi_mean) },
            { "max_strain", json_number(s.max_strain) },
            { "seconds", json_number(s.seconds) },
            { "kappa", json_number(s.kappa) },
            { "kappa_s", json_number(s.kappa_s) },
            { "script_progress", json_number(s.script_progress) },
            { "converged", s.converged },
            { "friction_passes", s.friction_passes },
            { "cut_iterations", s.cut_iterations },
            { "look_ahead_solves", s.look_ahead_solves },
            { "look_ahead_pairs", s.look_ahead_pairs },
        });
    }
    report["steps"] = std::move(list);
    report["totals"] = {
        { "steps", t.steps },
        { "seconds", json_number(t.seconds) },
        { "seconds_per_step", json_number(t.per_step(t.seconds)) },
        { "newton_iterations", json_number(t.newton_iterations) },
        { "newton_iterations_per_step", json_number(t.per_step(t.newton_iterations)) },
        { "max_contacts", t.max_contacts },
        { "min_gap", json_number(t.min_gap) },
        { "min_distance", json_number(t.min_distance) },
        { "max_strain", json_number(t.max_strain) },
        { "factorizations_per_step", json_number(t.per_step(t.factorizations)) },
        { "seconds_per_factorization", json_number(t.factorizations > 0 ? t.time_solve / t.factorizations : 0.0) },
        { "toi_mean", json_number(t.per_step(t.toi_sum)) },
        { "steps_not_converged", t.not_converged },
        { "seconds_assembly", json_number(t.time_assembly) },
        { "seconds_linear_solve", json_number(t.time_solve) },
        { "seconds_ccd", json_number(t.time_ccd) },
        { "seconds_line_search", json_number(t.time_line_search) },
    };
}

/// The fields every --json document starts with: scene name, size, the
/// linear solver in use and the solver parameters.
inline Json report_header(const std::string& name, const std::string& size, double offset, Index vertices,
    const SolverParameters& parameters)
{
    Json report;
    report["scene"] = name;
    report["size"] = size;
    report["linear_solver"] = linear_solver_description();
    report["parameters"] = {
        { "dt", json_number(parameters.dt) },
        { "dhat", json_number(parameters.dhat) },
        { "offset", json_number(offset) },
        { "strain_limit", json_number(parameters.strain_limit) },
        { "mu", json_number(parameters.mu) },
        { "eps_v", json_number(parameters.eps_v) },
        { "newton_tolerance", json_number(parameters.newton_tolerance) },
        { "vertices", static_cast<long long>(vertices) },
    };
    return report;
}

/// The --json document of a run of scene (size "small" or "paper") with the
/// given parameters: {"scene", "size", "parameters", "steps": [...],
/// "totals"}. Missing and non-finite numbers are null.
inline Json run_report(const Scene& scene, const std::string& size, const SolverParameters& parameters,
    const std::vector<StepStats>& steps)
{
    Json report = report_header(scene.name, size, scene.offset, scene.model.num_vertices(), parameters);
    // The body counts the IPC paper's Fig. 23 reports: nodes and tets of the
    // volumes and their surface triangles.
    const auto& m = scene.model;
    const auto is_volume = [&](int v) { return m.kind[std::size_t(v)] == VertexKind::volume; };
    long long volume_vertices = 0, volume_faces = 0;
    for (Index v = 0; v < m.num_vertices(); ++v) {
        volume_vertices += is_volume(int(v)) ? 1 : 0;
    }
    std::map<std::array<int, 3>, int> face_uses;
    for (const auto& t : m.tetrahedra) {
        for (const auto& f : { std::array<int, 3> { t[0], t[1], t[2] }, std::array<int, 3> { t[0], t[1], t[3] },
                 std::array<int, 3> { t[0], t[2], t[3] }, std::array<int, 3> { t[1], t[2], t[3] } }) {
            auto key = f;
            std::sort(key.begin(), key.end());
            ++face_uses[key];
        }
    }
    for (const auto& [face, uses] : face_uses) {
        volume_faces += uses == 1 ? 1 : 0;
    }
    report["model"] = { { "volume_vertices", volume_vertices }, { "tets", static_cast<long long>(m.tets.size()) },
        { "volume_surface_faces", volume_faces }, { "shell_triangles", static_cast<long long>(m.membranes.size()) },
        { "rod_segments", static_cast<long long>(m.rod_segments.size()) } };
    add_step_statistics(report, steps);
    return report;
}

/// The --json document of a run of the 2D scene (size "small" or "paper"):
/// the fields of run_report, with "dimension": 2 and the 2D body counts
/// under "model" (vertices, triangles, rope segments, obstacle edges).
inline Json run_report_2d(const Scene2D& scene, const std::string& size, const SolverParameters& parameters,
    const std::vector<StepStats>& steps)
{
    Json report = report_header(scene.name, size, scene.offset, scene.model.num_vertices(), parameters);
    report["dimension"] = 2;
    const auto& m = scene.model;
    long long obstacle_edges = 0;
    for (const auto& e : m.contact_edges) {
        obstacle_edges += m.fixed[std::size_t(e[0])] && m.fixed[std::size_t(e[1])] ? 1 : 0;
    }
    report["model"] = { { "triangles", static_cast<long long>(m.triangles.size()) },
        { "rope_segments", static_cast<long long>(m.springs.size()) }, { "obstacle_edges", obstacle_edges },
        { "contact_edges", static_cast<long long>(m.contact_edges.size()) } };
    add_step_statistics(report, steps);
    return report;
}

} // namespace ipc::examples
