// ipc_sim: runs one of the reference C-IPC example scenes.
//
//   ipc_sim --scene NAME [--size small|paper|full|N] [--frames N] [--dt H]
//           [--out DIR] [--json FILE] [--video FILE] [--threads N]
//           [--check] [--trace] [--termination residual|toi|max_norm]
//           [--save-state FILE] [--resume FILE]
//           (NAME: a 3D scene of the shared library, or a 2D scene of scenes_2d.hpp)
//   ipc_sim --scene-file SCENE.json [...]    (docs/scene-files.md)
//   ipc_sim --ipc-script SCRIPT.txt [...]    (an IPC 2020 scene script)
//   ipc_sim ... --dump-scene OUT.json        (write the scene, do not run it)
//   ipc_sim --list-scenes
//   ipc_sim --help
//
// Checks that its outputs can be written, prints where they go and the
// progress while running, writes one OBJ per frame and a PNG of the last
// frame to DIR (default out/NAME), prints a summary table at the end and,
// with --json, writes per-step statistics; --video FILE also writes the run
// as a video through ffmpeg (common/video_output.hpp). Exit codes (common/cli.hpp):
// 0 done, 1 an output cannot be written or the run failed, 2 a bad command
// line (also when run without arguments).

#include "report.hpp"
#include "ipc_scenes.hpp"
#include "scenes_2d.hpp"
#include "solver.hpp"
#include "solver_2d.hpp"
#include "state_file.hpp"

#include <common/cli.hpp>
#include <common/frame_output.hpp>
#include <common/frame_output_2d.hpp>
#include <common/json_output.hpp>
#include <common/keep_freed_memory.hpp>
#include <common/progress.hpp>
#include <common/scene_source.hpp>
#include <common/video_output.hpp>

#include <ipc/config.hpp>

#include <fmt/core.h>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <chrono>
#include <exception>
#include <iostream>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace ipc::examples;

namespace {

std::string optional_text(const std::optional<double>& x, const char* format)
{
    return x ? fmt::format(fmt::runtime(format), *x) : std::string("-");
}

void print_summary(const std::string& scene_name, const RunTotals& t)
{
    const double seconds = t.seconds > 0 ? t.seconds : 1;
    fmt::print("\n{:<28} {:>14}\n", "summary", scene_name);
    fmt::print("{:<28} {:>14}\n", "steps", t.steps);
    fmt::print("{:<28} {:>14.3f}\n", "seconds per step", t.per_step(t.seconds));
    fmt::print("{:<28} {:>14.1f}\n", "Newton iterations per step", t.per_step(t.newton_iterations));
    fmt::print("{:<28} {:>14.1f}\n", "contacts per step (avg)", t.per_step(t.contacts));
    fmt::print("{:<28} {:>14}\n", "contacts (max)", t.max_contacts);
    fmt::print("{:<28} {:>14}\n", "smallest gap d - xi (m)", optional_text(t.min_gap, "{:.3e}"));
    fmt::print("{:<28} {:>14}\n", "largest stretch", optional_text(t.max_strain, "{:.5f}"));
    fmt::print("{:<28} {:>14}\n", "steps not converged", t.not_converged);
    fmt::print("{:<28} {:>13.0f}%\n", "time: assembly", 100 * t.time_assembly / seconds);
    fmt::print("{:<28} {:>13.0f}%\n", "time: linear solve", 100 * t.time_solve / seconds);
    fmt::print("{:<28} {:>14.1f}\n", "ms per factorization+solve", t.factorizations > 0 ? 1e3 * t.time_solve / t.factorizations : 0.0);
    fmt::print("{:<28} {:>13.0f}%\n", "time: CCD step bound", 100 * t.time_ccd / seconds);
    fmt::print("{:<28} {:>13.0f}%\n", "time: line search", 100 * t.time_line_search / seconds);
}

/// The scenes --scene accepts: the shared 3D library's, then the 2D ones.
std::vector<std::string> all_scene_names()
{
    std::vector<std::string> names = scene_names();
    for (const auto& name : scene_names_2d()) {
        names.push_back(name);
    }
    return names;
}

/// Where a run writes, checked before it starts.
struct Outputs {
    std::string dir, frames_pattern, picture, json_text, video;
};

/// The outputs of a run of scene_name, or none after printing why one of
/// them cannot be written.
std::optional<Outputs> prepare_outputs(const CommonOptions& o, const std::string& scene_name)
{
    Outputs out;
    out.dir = o.out.empty() ? "out/" + scene_name : o.out;
    std::optional<std::string> problem = check_output_dir(out.dir);
    if (!problem && !o.json.empty()) {
        problem = check_output_file(o.json);
    }
    if (!problem) {
        problem = check_video_output(o.video);
    }
    if (problem) {
        fmt::print(stderr, "ipc_sim: {}\n", *problem);
        return std::nullopt;
    }
    out.frames_pattern = out.dir + "/frame_NNNN.obj";
    out.picture = out.dir + "/last_frame.png";
    out.json_text = o.json.empty() ? std::string("none (use --json FILE)") : o.json;
    out.video = o.video;
    return out;
}

/// Applies --check and --termination to p; k_min of the TOI rule is 6 for
/// runs with friction or cloth (long_k_min), 2 otherwise.
/// ipc_sim's own flags, beside the common ones.
struct RunFlags {
    bool check = false;
    bool trace = false;
    std::string termination;
    int max_newton_iterations = 0; ///< 0: the solver's default
    std::string look_ahead = "on";  ///< contact look-ahead: on or off
    std::string save_state;         ///< --save-state FILE (empty: none)
    std::string resume;             ///< --resume FILE (empty: a fresh run)
};

void apply_run_flags(SolverParameters& p, const RunFlags& flags, bool long_k_min)
{
    const std::string& termination = flags.termination;
    p.check_intersections = p.check_intersections || flags.check;
    if (flags.max_newton_iterations > 0) {
        p.max_newton_iterations = flags.max_newton_iterations;
    }
    p.contact_look_ahead = flags.look_ahead == "on";
    if (termination == "toi") {
        p.termination = SolverParameters::Termination::toi;
    } else if (termination == "max_norm") {
        p.termination = SolverParameters::Termination::max_norm;
    } else if (termination == "residual") {
        p.termination = SolverParameters::Termination::residual;
    }
    if (p.termination == SolverParameters::Termination::toi) {
        p.toi_k_min = long_k_min ? 6 : 2;
    }
}

/// Runs the 2D scene o.scene (a name from scene_names_2d()) with Simulator2D:
/// the same outputs, summary and statistics as a 3D scene. Returns the exit
/// code.
int run_scene_2d(const CommonOptions& o, const RunFlags& flags)
{
    if (!o.dump_scene.empty()) {
        fmt::print(stderr, "ipc_sim: --dump-scene writes 3D scene files; {} is a 2D scene\n", o.scene);
        return exit_failure;
    }
    if (o.size != "small" && o.size != "paper") {
        fmt::print(stderr, "ipc_sim: the 2D scene {} has the sizes small and paper, not '{}'\n", o.scene, o.size);
        return exit_usage;
    }
    Scene2D scene = make_scene_2d(o.scene, o.paper());
    if (o.dt > 0) {
        scene.parameters.dt = o.dt;
    }
    const int frames = o.frames > 0 ? o.frames : scene.frames;
    const std::optional<Outputs> outputs = prepare_outputs(o, scene.name);
    if (!outputs) {
        return exit_failure;
    }
    const auto& [out, frames_pattern, picture, json_text, video_path] = *outputs;
    SolverParameters parameters = scene.parameters;
    apply_run_flags(parameters, flags, parameters.mu > 0);
    if (flags.trace) {
        fmt::print(stderr, "ipc_sim: --trace is not available for the 2D scenes\n");
    }
    if (!flags.save_state.empty() || !flags.resume.empty()) {
        fmt::print(stderr, "ipc_sim: --save-state and --resume are for the 3D scenes; {} is a 2D scene\n", o.scene);
        return exit_failure;
    }
    const auto& m = scene.model;
    fmt::print("scene {} ({}, 2D): {} vertices, {} triangles, {} rope segments, {} contact edges, h = {} s, dhat = {} m, "
               "offset = {} m, mu = {}\n",
        scene.name, scene_size_label(o), m.num_vertices(), m.triangles.size(), m.springs.size(), m.contact_edges.size(),
        parameters.dt, parameters.dhat, scene.offset, parameters.mu);
    fmt::print("linear solver: {}\n", linear_solver_description());
    fmt::print("writing {} frames to {}, picture {}, statistics {}\n", frames + 1, frames_pattern, picture, json_text);
    std::optional<VideoWriter> video;
    if (!video_path.empty()) {
        video.emplace(video_path, parameters.dt);
        fmt::print("video {} ({})\n", video_path, describe(video->rate()));
    }
    std::fflush(stdout);

    Simulator2D sim(scene.model, parameters);
    std::vector<StepStats> steps;
    const auto add_video_frame = [&] {
        if (video) {
            video->add_frame(draw_frame_2d(sim.model(), sim.positions(), scene.name, scene.view_center,
                scene.view_height, steps.size(), sim.time(), steps.empty() ? 0 : steps.back().contacts));
        }
    };
    write_frame_2d(fmt::format("{}/frame_{:04d}.obj", out, 0), sim.model(), sim.positions());
    add_video_frame();
    Progress progress(frames, scene.name);
    PeriodicJson statistics(o.json);
    for (int f = 1; f <= frames; ++f) {
        steps.push_back(sim.step());
        const StepStats& s = steps.back();
        write_frame_2d(fmt::format("{}/frame_{:04d}.obj", out, f), sim.model(), sim.positions());
        add_video_frame();
        progress.update(f, fmt::format("{} it, {} contacts", s.newton_iterations, s.contacts));
        statistics.maybe_write([&] { return run_report_2d(scene, scene_size_label(o), parameters, steps); });
    }
    progress.finish();
    if (video) {
        video->finish();
    }
    render_frame_2d(picture, sim.model(), sim.positions(), scene.name, scene.view_center, scene.view_height,
        steps.size(), sim.time(), steps.empty() ? 0 : steps.back().contacts);
    print_summary(scene.name, run_totals(steps));
    if (!o.json.empty()) {
        write_json(o.json, run_report_2d(scene, scene_size_label(o), parameters, steps));
    }
    fmt::print("\nframes     {} (frame_0000 to frame_{:04d})\npicture    {}\nstatistics {}\n", frames_pattern, frames,
        picture, json_text);
    if (video) {
        fmt::print("video      {} ({} frames)\n", video->path(), video->frames());
    }
    return exit_ok;
}

} // namespace

int main(int argc, char** argv)
{
    ipc::examples::keep_freed_memory();
    CLI::App app("Runs one of the reference C-IPC example scenes: writes an OBJ per frame and a picture of the last "
                 "frame, and prints a summary.",
        "ipc_sim");
    CommonOptions o;
    add_common_options(app, o, all_scene_names());
    add_ipc_script_option(app, o);
    RunFlags flags;
    app.add_flag("--check", flags.check,
        "after every step, check the state exactly for intersections (ipc::has_intersections) and stop with an error "
        "at the first one");
    app.add_flag("--trace", flags.trace,
        "print one line per Newton iteration to stderr: residual, CCD bound, step fraction, energy and the ratio of the "
        "actual to the predicted energy decrease");
    app.add_option("--termination", flags.termination,
           "Newton termination: residual (C-IPC eq. 13, the default), toi (cumulative TOI, Zheng et al. 2025 "
           "Eq. 9: k_min = 6 with friction or cloth, 2 otherwise; eps = 1e-3) or max_norm (IPC 2020: |p|_inf / h "
           "< eps_d; the default of imported IPC scripts)")
        ->check(CLI::IsMember({ "residual", "toi", "max_norm" }));
    app.add_option("--max-newton-iterations", flags.max_newton_iterations,
           "Newton iterations per friction pass, at most (default 1000); a step that reaches it keeps its last "
           "intersection-free iterate and is reported as not converged")
        ->check(CLI::PositiveNumber);
    app.add_option("--look-ahead", flags.look_ahead,
           "contact look-ahead (default on): after a Newton step that CCD cut short, the pairs the full step would "
           "have brought into contact stiffen the next Newton matrices along their normals (the energy and the line "
           "search are unchanged); off: the plain IPC method, where dense contact creeps one pair at a time")
        ->check(CLI::IsMember({ "on", "off" }));
    app.add_option("--save-state", flags.save_state,
        "after every step, write the simulator's state to this file (JSON, full precision), so that an interrupted "
        "run can go on with --resume");
    app.add_option("--resume", flags.resume,
        "go on from a state file written by --save-state for the same scene and settings: the run continues at the "
        "step after the saved one and ends at step --frames of the whole run, numbering frames and JSON steps "
        "accordingly; the steps after it are the ones the uninterrupted run would take");
    app.footer("Outputs: DIR/frame_NNNN.obj for every step, DIR/last_frame.png, FILE with --json, and a video with\n"
               "--video (needs ffmpeg).\n"
               "Exit codes: 0 done (also after --help and --list-scenes); 1 an output cannot be written (checked "
               "before\nthe run) or the run failed; 2 a bad command line, or no arguments at all.\n"
               "Example: ipc_sim --scene all_in --out out/demo --json out/demo/stats.json");
    if (const auto code = parse_command_line(app, o, argc, argv, "ipc_sim --scene all_in", std::cout, std::cerr)) {
        return *code;
    }
    try {
        if (o.list_scenes) {
            std::vector<SceneEntry> entries;
            for (const auto& name : scene_names()) {
                entries.push_back({ name, make_scene(name).description });
            }
            for (const auto& name : scene_names_2d()) {
                entries.push_back({ name, make_scene_2d(name).description });
            }
            print_scene_list(std::cout, entries);
            return exit_ok;
        }
        use_threads(o, "ipc_sim", argv);
        if (is_scene_2d(o.scene)) {
            return run_scene_2d(o, flags);
        }
        Scene scene = load_scene(o, "ipc_sim");
        if (dump_scene_if_asked(o, scene)) {
            return exit_ok;
        }
        if (o.dt > 0) {
            scene.physics.dt = o.dt;
        }
        const int frames = o.frames > 0 ? o.frames : scene.frames;
        if (!flags.save_state.empty()) {
            if (const auto problem = check_output_file(flags.save_state)) {
                fmt::print(stderr, "ipc_sim: {}\n", *problem);
                return exit_failure;
            }
        }
        // Every output location is checked before the run starts.
        const std::optional<Outputs> outputs = prepare_outputs(o, scene.name);
        if (!outputs) {
            return exit_failure;
        }
        const auto& [out, frames_pattern, picture, json_text, video_path] = *outputs;

        SolverParameters parameters = ipc_parameters(scene);
        apply_run_flags(parameters, flags, parameters.mu > 0 || !scene.model.membranes.empty());
        if (flags.trace) {
            parameters.newton_trace = stderr;
        }
        const StateFileRun run { scene.name, scene.model.num_vertices(), parameters.dt, parameters.dhat };
        std::optional<SimulatorState> resumed;
        if (!flags.resume.empty()) {
            resumed = read_state_file(flags.resume, run);
            if (resumed->steps >= frames) {
                fmt::print(stderr, "ipc_sim: {} holds the state after step {}; --frames {} leaves nothing to run\n",
                    flags.resume, resumed->steps, frames);
                return exit_failure;
            }
        }
        const int first_frame = resumed ? resumed->steps : 0;
        fmt::print("scene {} ({}): {} vertices, {} tets, {} triangles, {} rod segments, h = {} s, dhat = {} m, offset = {} m, "
                   "mu = {}, strain limit = {}\n",
            scene.name, scene_size_label(o), scene.model.num_vertices(), scene.model.tets.size(), scene.model.membranes.size(),
            scene.model.rod_segments.size(), parameters.dt, parameters.dhat, scene.offset, parameters.mu,
            parameters.strain_limit ? fmt::format("{}", *parameters.strain_limit) : std::string("none"));
        fmt::print("linear solver: {}\n", linear_solver_description());
        if (resumed) {
            fmt::print("resuming from {}: the state after step {} (t = {} s)\n", flags.resume, first_frame,
                resumed->time);
        }
        fmt::print("writing {} frames to {}, picture {}, statistics {}\n", frames - first_frame + 1, frames_pattern,
            picture, json_text);
        if (!flags.save_state.empty()) {
            fmt::print("state after every step: {}\n", flags.save_state);
        }
        std::optional<VideoWriter> video;
        if (!video_path.empty()) {
            video.emplace(video_path, parameters.dt);
            fmt::print("video {} ({})\n", video_path, describe(video->rate()));
        }
        std::fflush(stdout);

        Simulator sim(scene.model, parameters);
        if (resumed) {
            sim.restore(*resumed);
        }
        std::vector<StepStats> steps;
        const auto add_video_frame = [&] {
            if (video) {
                video->add_frame(draw_frame(sim.model(), sim.collision_mesh(), sim.positions(), view_of(scene),
                    std::size_t(first_frame) + steps.size(), sim.time(), steps.empty() ? 0 : steps.back().contacts));
            }
        };
        write_frame(fmt::format("{}/frame_{:04d}.obj", out, first_frame), sim.model(), sim.collision_mesh(),
            sim.positions());
        add_video_frame();
        Progress progress(frames - first_frame, scene.name);
        PeriodicJson statistics(o.json);
        const auto report = [&] {
            Json r = run_report(scene, scene_size_label(o), parameters, steps);
            r["first_step"] = first_frame + 1;
            return r;
        };
        for (int f = first_frame + 1; f <= frames; ++f) {
            steps.push_back(sim.step());
            const StepStats& s = steps.back();
            write_frame(fmt::format("{}/frame_{:04d}.obj", out, f), sim.model(), sim.collision_mesh(), sim.positions());
            if (!flags.save_state.empty()) {
                write_state_file(flags.save_state, run, sim.state());
            }
            add_video_frame();
            progress.update(f - first_frame, fmt::format("{} it, {} contacts", s.newton_iterations, s.contacts));
            statistics.maybe_write(report);
        }
        progress.finish();
        if (video) {
            video->finish();
        }
        render_frame(picture, sim.model(), sim.collision_mesh(), sim.positions(), view_of(scene),
            std::size_t(first_frame) + steps.size(), sim.time(), steps.empty() ? 0 : steps.back().contacts);

        print_summary(scene.name, run_totals(steps));
        if (!o.json.empty()) {
            write_json(o.json, report());
        }
        fmt::print("\nframes     {} (frame_{:04d} to frame_{:04d})\npicture    {}\nstatistics {}\n", frames_pattern,
            first_frame, frames, picture, json_text);
        if (video) {
            fmt::print("video      {} ({} frames)\n", video->path(), video->frames());
        }
    } catch (const ipc::error& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return exit_failure;
    } catch (const std::exception& e) {
        fmt::print(stderr, "ipc_sim: {}\n", e.what());
        return exit_failure;
    }
    return exit_ok;
}
