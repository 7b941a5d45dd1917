// ipc_sim: runs one of the reference C-IPC example scenes.
//
//   ipc_sim --scene NAME [--size small|paper] [--frames N] [--dt H]
//           [--out DIR] [--json FILE] [--threads N] [--termination residual|toi|max_norm]
//   ipc_sim --scene-file SCENE.json [...]    (docs/scene-files.md)
//   ipc_sim --ipc-script SCRIPT.txt [...]    (an IPC 2020 scene script)
//   ipc_sim ... --dump-scene OUT.json        (write the scene, do not run it)
//   ipc_sim --list-scenes
//   ipc_sim --help
//
// Checks that its outputs can be written, prints where they go and the
// progress while running, writes one OBJ per frame and a PNG of the last
// frame to DIR (default out/NAME), prints a summary table at the end and,
// with --json, writes per-step statistics. Exit codes (common/cli.hpp):
// 0 done, 1 an output cannot be written or the run failed, 2 a bad command
// line (also when run without arguments).

#include "report.hpp"
#include "ipc_scenes.hpp"
#include "solver.hpp"

#include <common/cli.hpp>
#include <common/json_output.hpp>
#include <common/frame_output.hpp>
#include <common/progress.hpp>
#include <common/scene_source.hpp>

#include <ipc/config.hpp>

#include <fmt/core.h>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <exception>
#include <iostream>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

using namespace ipc::examples;

namespace {

std::string optional_text(const std::optional<double>& x, const char* format)
{
    return x ? fmt::format(fmt::runtime(format), *x) : std::string("-");
}

void print_summary(const Scene& scene, const RunTotals& t)
{
    const double seconds = t.seconds > 0 ? t.seconds : 1;
    fmt::print("\n{:<28} {:>14}\n", "summary", scene.name);
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

} // namespace

int main(int argc, char** argv)
{
    CLI::App app("Runs one of the reference C-IPC example scenes: writes an OBJ per frame and a picture of the last "
                 "frame, and prints a summary.",
        "ipc_sim");
    CommonOptions o;
    add_common_options(app, o, scene_names());
    add_ipc_script_option(app, o);
    bool check = false;
    app.add_flag("--check", check,
        "after every step, check the state exactly for intersections (ipc::has_intersections) and stop with an error "
        "at the first one");
    bool trace = false;
    app.add_flag("--trace", trace,
        "print one line per Newton iteration to stderr: residual, CCD bound, step fraction, energy and the ratio of the "
        "actual to the predicted energy decrease");
    std::string termination;
    app.add_option("--termination", termination,
           "Newton termination: residual (C-IPC eq. 13, the default), toi (cumulative TOI, Zheng et al. 2025 "
           "Eq. 9: k_min = 6 with friction or cloth, 2 otherwise; eps = 1e-3) or max_norm (IPC 2020: |p|_inf / h "
           "< eps_d; the default of imported IPC scripts)")
        ->check(CLI::IsMember({ "residual", "toi", "max_norm" }));
    app.footer("Outputs: DIR/frame_NNNN.obj for every step, DIR/last_frame.png, and FILE with --json.\n"
               "Exit codes: 0 done (also after --help and --list-scenes); 1 an output cannot be written (checked "
               "before\nthe run) or the run failed; 2 a bad command line, or no arguments at all.\n"
               "Example: ipc_sim --scene all_in --out out/demo --json out/demo/stats.json");
    if (const auto code = parse_command_line(app, o, argc, argv, "ipc_sim --scene all_in", std::cout, std::cerr)) {
        return *code;
    }
    try {
        if (o.list_scenes) {
            print_scenes(std::cout, scene_names());
            return exit_ok;
        }
#if IPC_HAS_OPENMP
        if (o.threads > 0) {
            omp_set_num_threads(o.threads);
        }
#else
        if (o.threads > 1) {
            fmt::print(stderr, "ipc_sim: built without OpenMP, --threads {} has no effect\n", o.threads);
        }
#endif
        Scene scene = load_scene(o, "ipc_sim");
        if (dump_scene_if_asked(o, scene)) {
            return exit_ok;
        }
        if (o.dt > 0) {
            scene.physics.dt = o.dt;
        }
        const int frames = o.frames > 0 ? o.frames : scene.frames;
        const std::string out = o.out.empty() ? "out/" + scene.name : o.out;

        // Every output location is checked before the run starts.
        std::optional<std::string> problem = check_output_dir(out);
        if (!problem && !o.json.empty()) {
            problem = check_output_file(o.json);
        }
        if (problem) {
            fmt::print(stderr, "ipc_sim: {}\n", *problem);
            return exit_failure;
        }
        const std::string frames_pattern = out + "/frame_NNNN.obj";
        const std::string picture = out + "/last_frame.png";
        const std::string json_text = o.json.empty() ? std::string("none (use --json FILE)") : o.json;

        SolverParameters parameters = ipc_parameters(scene);
        if (check) {
            parameters.check_intersections = true;
        }
        if (trace) {
            parameters.newton_trace = stderr;
        }
        if (termination == "toi") {
            parameters.termination = SolverParameters::Termination::toi;
        } else if (termination == "max_norm") {
            parameters.termination = SolverParameters::Termination::max_norm;
        } else if (termination == "residual") {
            parameters.termination = SolverParameters::Termination::residual;
        }
        if (parameters.termination == SolverParameters::Termination::toi) {
            parameters.toi_k_min = parameters.mu > 0 || !scene.model.membranes.empty() ? 6 : 2;
        }
        fmt::print("scene {} ({}): {} vertices, {} tets, {} triangles, {} rod segments, h = {} s, dhat = {} m, offset = {} m, "
                   "mu = {}, strain limit = {}\n",
            scene.name, scene_size_label(o), scene.model.num_vertices(), scene.model.tets.size(), scene.model.membranes.size(),
            scene.model.rod_segments.size(), parameters.dt, parameters.dhat, scene.offset, parameters.mu,
            parameters.strain_limit ? fmt::format("{}", *parameters.strain_limit) : std::string("none"));
        fmt::print("linear solver: {}\n", linear_solver_description());
        fmt::print("writing {} frames to {}, picture {}, statistics {}\n", frames + 1, frames_pattern, picture, json_text);
        std::fflush(stdout);

        Simulator sim(scene.model, parameters);
        write_frame(fmt::format("{}/frame_{:04d}.obj", out, 0), sim.model(), sim.collision_mesh(), sim.positions());
        std::vector<StepStats> steps;
        Progress progress(frames, scene.name);
        for (int f = 1; f <= frames; ++f) {
            steps.push_back(sim.step());
            const StepStats& s = steps.back();
            write_frame(fmt::format("{}/frame_{:04d}.obj", out, f), sim.model(), sim.collision_mesh(), sim.positions());
            progress.update(f, fmt::format("{} it, {} contacts", s.newton_iterations, s.contacts));
        }
        progress.finish();
        render_frame(picture, sim.model(), sim.collision_mesh(), sim.positions(), view_of(scene), steps.size(), sim.time(),
            steps.empty() ? 0 : steps.back().contacts);

        print_summary(scene, run_totals(steps));
        if (!o.json.empty()) {
            write_json(o.json, run_report(scene, scene_size_label(o), parameters, steps));
        }
        fmt::print("\nframes     {} (frame_0000 to frame_{:04d})\npicture    {}\nstatistics {}\n", frames_pattern,
            frames, picture, json_text);
    } catch (const ipc::error& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return exit_failure;
    } catch (const std::exception& e) {
        fmt::print(stderr, "ipc_sim: {}\n", e.what());
        return exit_failure;
    }
    return exit_ok;
}
