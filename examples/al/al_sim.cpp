// al_sim: runs an example scene with the barrier-free augmented-Lagrangian
// solver (al_solver.hpp). It runs the scenes of ipc_sim by the same names
// (same bodies, materials, obstacles and motions) with the AL method's own
// contact parameters: delta = the scene's dhat, k_min = 6 with friction or
// cloth and 2 otherwise, eps = 1e-3. Cloth strain limits are not enforced
// (the AL paper has none), and scripted vertices sit at their targets in
// the proxy instead of being clamped by CCD as in ipc_sim.
//
//   al_sim --scene NAME [--size small|paper|full|N] [--frames N] [--dt H]
//          [--out DIR] [--json FILE] [--video FILE] [--threads N]
//          [--mu-scale C] [--friction-hessian fallback|exact|majorizer]
//          [--delta D] [--decay G] [--hit-filter earliest|all]
//          [--linear-solver pcg|cholesky] [--check]
//   al_sim --scene-file SCENE.json [...]   (docs/scene-files.md)
//   al_sim ... --dump-scene OUT.json       (write the scene, do not run it)
//   al_sim --list-scenes
//   al_sim --help
//
// Outputs and exit codes as ipc_sim's.

#include "al_scenes.hpp"

#include <common/cli.hpp>
#include <common/frame_output.hpp>
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
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace ipc::examples;

namespace {

/// Sums and extremes over the steps of a run (the summary and the --json
/// totals).
struct AlTotals {
    double steps = 0, seconds = 0, newton = 0, toi = 0, cg = 0, factorizations = 0;
    std::size_t max_constraints = 0;
    int not_converged = 0, stall_guards = 0, cg_fallbacks = 0;
    std::optional<double> min_gap, min_distance, max_boundary_error;
    double time_assembly = 0, time_solve = 0, time_ccd = 0, time_line_search = 0;

    explicit AlTotals(const std::vector<AlStepStats>& list)
    {
        const auto smallest = [](std::optional<double>& total, const std::optional<double>& value) {
            if (value) {
                total = total ? std::min(*total, *value) : *value;
            }
        };
        for (const auto& s : list) {
            steps += 1;
            seconds += s.seconds;
            newton += s.newton_iterations;
            toi += s.toi_mean;
            cg += double(s.cg_iterations);
            factorizations += s.factorizations;
            max_constraints = std::max(max_constraints, s.constraints);
            not_converged += s.converged ? 0 : 1;
            stall_guards += s.stall_guards;
            cg_fallbacks += s.cg_fallbacks;
            smallest(min_gap, s.min_gap);
            smallest(min_distance, s.min_distance);
            if (s.boundary_error) {
                max_boundary_error = std::max(max_boundary_error.value_or(0.0), *s.boundary_error);
            }
            time_assembly += s.time_assembly;
            time_solve += s.time_solve;
            time_ccd += s.time_ccd;
            time_line_search += s.time_line_search;
        }
    }
    /// Per-step average of a total (0 without steps).
    double per_step(double total) const { return steps > 0 ? total / steps : 0; }
};

Json al_report(const Scene& scene, const std::string& size, const AlParameters& p,
               const std::vector<AlStepStats>& steps)
{
    Json report;
    report["scene"] = scene.name;
    report["size"] = size;
    report["solver"] = "augmented_lagrangian";
    report["linear_solver"] = al_linear_solver_description(p);
    report["parameters"] = {
        { "dt", json_number(p.dt) },         { "delta", json_number(p.delta) },
        { "offset", json_number(scene.offset) }, { "mu", json_number(p.friction) },
        { "eps_v", json_number(p.eps_v) },   { "k_min", p.k_min },
        { "eps", json_number(p.eps) },       { "mu_scale", json_number(p.mu_scale) },
        { "decay", json_number(p.decay) },   { "hit_filter", p.earliest_hit_filter ? "earliest" : "all" },
        { "vertices", static_cast<long long>(scene.model.num_vertices()) },
        { "friction_hessian", p.friction_hessian == AlFrictionHessian::exact ? "exact"
                              : p.friction_hessian == AlFrictionHessian::majorizer ? "majorizer" : "fallback" },
    };
    Json list = Json::array();
    for (const auto& s : steps) {
        list.push_back({
            { "newton_iterations", s.newton_iterations },
            { "outer_iterations", s.outer_iterations },
            { "toi_mean", json_number(s.toi_mean) },
            { "constraints", s.constraints },
            { "contacts", s.constraints },
            { "cg_iterations", s.cg_iterations },
            { "factorizations", s.factorizations },
            { "cg_fallbacks", s.cg_fallbacks },
            { "min_distance", json_number(s.min_distance) },
            { "min_gap", json_number(s.min_gap) },
            { "boundary_error", json_number(s.boundary_error) },
            { "boundary_bound", json_number(s.boundary_bound) },
            { "mu", json_number(s.mu) },
            { "stall_guards", s.stall_guards },
            { "seconds", json_number(s.seconds) },
            { "converged", s.converged },
        });
    }
    report["steps"] = std::move(list);
    const AlTotals t(steps);
    report["totals"] = {
        { "steps", steps.size() },
        { "seconds", json_number(t.seconds) },
        { "seconds_per_step", json_number(t.per_step(t.seconds)) },
        { "newton_iterations", json_number(t.newton) },
        { "newton_iterations_per_step", json_number(t.per_step(t.newton)) },
        { "max_contacts", t.max_constraints },
        { "min_gap", json_number(t.min_gap) },
        { "min_distance", json_number(t.min_distance) },
        { "cg_iterations_per_solve", json_number(t.newton > 0 ? t.cg / t.newton : 0.0) },
        { "factorizations_per_step", json_number(t.per_step(t.factorizations)) },
        { "toi_mean", json_number(t.per_step(t.toi)) },
        { "max_boundary_error", json_number(t.max_boundary_error) },
        { "stall_guards", t.stall_guards },
        { "cg_fallbacks", t.cg_fallbacks },
        { "steps_not_converged", t.not_converged },
        { "seconds_assembly", json_number(t.time_assembly) },
        { "seconds_linear_solve", json_number(t.time_solve) },
        { "seconds_ccd", json_number(t.time_ccd) },
        { "seconds_line_search", json_number(t.time_line_search) },
    };
    return report;
}

} // namespace

int main(int argc, char** argv)
{
    ipc::examples::keep_freed_memory();
    CLI::App app("Runs an example scene with the barrier-free augmented-Lagrangian solver: writes an OBJ per frame "
                 "and a picture of the last frame, and prints a summary.",
        "al_sim");
    CommonOptions o;
    add_common_options(app, o, scene_names());
    std::string friction_hessian = "fallback";
    app.add_option("--friction-hessian", friction_hessian,
           "friction Hessian of the Newton steps: fallback (the default: exact, and where a subproblem's second "
           "or later step is cut, a second solve with the majorizer), exact (no curvature along a sliding slip) or majorizer (full steps "
           "never raise the friction energy)")
        ->check(CLI::IsMember({ "fallback", "exact", "majorizer" }));
    std::string linear_solver = "pcg";
    app.add_option("--linear-solver", linear_solver,
           "linear solver of the Newton steps: pcg (the default and the paper's: block-Jacobi PCG to a relative "
           "residual of 1e-4) or cholesky (ipc_sim's sparse Cholesky, an exact solve)")
        ->check(CLI::IsMember({ "pcg", "cholesky" }));
    long cg_max_iterations = AlParameters().cg_max_iterations;
    app.add_option("--cg-max-iterations", cg_max_iterations,
           "PCG iterations per linear solve, at most (default 2000); a solve that does not reach its tolerance "
           "within them, or meets negative curvature, is redone with the sparse Cholesky factorisation, as "
           "are the rest of that step's solves (cg_fallbacks in the JSON)")
        ->check(CLI::PositiveNumber);
    bool check = false;
    app.add_flag("--check", check,
        "after every step, stop with an error if the exact test finds an intersection or a vertex inside an "
        "obstacle (on by default in debug builds)");
    double mu_scale = AlParameters().mu_scale;
    app.add_option("--mu-scale", mu_scale,
           "C_mu in the penalty mu = C_mu max diag(M + h^2 grad^2 Psi), set at each step (AL paper Eq. 20; its "
           "value 0.1 is the default)")
        ->check(CLI::PositiveNumber);
    double delta = 0;
    app.add_option("--delta", delta, "contact offset delta in metres (default: the scene's dhat; AL paper Fig. 11 "
                                     "runs a large delta on a fine mesh)")
        ->check(positive_finite("metres"));
    double decay = AlParameters().decay;
    app.add_option("--decay", decay,
           "Gamma, the factor by which a slack constraint's weight decays per subproblem (0: dropped at once, "
           "1: never leaves; the paper's 0.9 is the default; its Figs. 18-19 sweep it)")
        ->check(CLI::Range(0.0, 1.0));
    std::string hit_filter = "earliest";
    app.add_option("--hit-filter", hit_filter,
           "which hit pairs enter the constraint set: earliest (each vertex's earliest new hit, the paper's) or "
           "all (the ablation of the paper's Fig. 18)")
        ->check(CLI::IsMember({ "earliest", "all" }))
        ->capture_default_str();
    app.footer("Outputs: DIR/frame_NNNN.obj for every step, DIR/last_frame.png, FILE with --json, and a video with\n"
               "--video (needs ffmpeg).\n"
               "Exit codes: 0 done (also after --help and --list-scenes); 1 an output cannot be written (checked "
               "before\nthe run) or the run failed; 2 a bad command line, or no arguments at all.\n"
               "Example: al_sim --scene granules --out out/al_granules --json out/al_granules/stats.json");
    if (const auto code = parse_command_line(app, o, argc, argv, "al_sim --scene granules", std::cout, std::cerr)) {
        return *code;
    }
    try {
        if (o.list_scenes) {
            print_scenes(std::cout, scene_names());
            return exit_ok;
        }
        use_threads(o, "al_sim", argv);
        Scene scene = load_scene(o, "al_sim");
        if (dump_scene_if_asked(o, scene)) {
            return exit_ok;
        }
        if (o.dt > 0) {
            scene.physics.dt = o.dt;
        }
        const int frames = o.frames > 0 ? o.frames : scene.frames;
        const std::string out = o.out.empty() ? "out/al_" + scene.name : o.out;
        std::optional<std::string> problem = check_output_dir(out);
        if (!problem && !o.json.empty()) {
            problem = check_output_file(o.json);
        }
        if (!problem) {
            problem = check_video_output(o.video);
        }
        if (problem) {
            fmt::print(stderr, "al_sim: {}\n", *problem);
            return exit_failure;
        }
        const std::string picture = out + "/last_frame.png";
        AlParameters parameters = al_parameters(scene);
        parameters.friction_hessian = friction_hessian == "exact" ? AlFrictionHessian::exact
            : friction_hessian == "majorizer"                          ? AlFrictionHessian::majorizer
                                                                       : AlFrictionHessian::exact_then_majorizer;
        parameters.mu_scale = mu_scale;
        if (delta > 0) {
            parameters.delta = delta;
        }
        parameters.decay = decay;
        parameters.earliest_hit_filter = hit_filter == "earliest";
        parameters.linear_solver = linear_solver == "cholesky" ? AlLinearSolver::cholesky : AlLinearSolver::pcg;
        parameters.cg_max_iterations = cg_max_iterations;
        parameters.check_intersections = parameters.check_intersections || check;
        fmt::print("scene {} ({}): {} vertices, h = {} s, delta = {} m, offset = {} m, friction = {}, k_min = {}\n",
                   scene.name, scene_size_label(o), scene.model.num_vertices(), parameters.dt, parameters.delta, scene.offset,
                   parameters.friction, parameters.k_min);
        fmt::print("linear solver: {}\n", al_linear_solver_description(parameters));
        fmt::print("writing {} frames to {}/frame_NNNN.obj, picture {}, statistics {}\n", frames + 1, out, picture,
                   o.json.empty() ? std::string("none (use --json FILE)") : o.json);
        std::optional<VideoWriter> video;
        if (!o.video.empty()) {
            video.emplace(o.video, parameters.dt);
            fmt::print("video {} ({})\n", o.video, describe(video->rate()));
        }
        std::fflush(stdout);

        AlSimulator sim(scene.model, parameters);
        std::vector<AlStepStats> steps;
        const auto add_video_frame = [&] {
            if (video) {
                video->add_frame(draw_frame(sim.model(), sim.collision_mesh(), sim.positions(), view_of(scene),
                    steps.size(), sim.time(), steps.empty() ? 0 : steps.back().constraints));
            }
        };
        write_frame(fmt::format("{}/frame_{:04d}.obj", out, 0), sim.model(), sim.collision_mesh(), sim.positions());
        add_video_frame();
        Progress progress(frames, scene.name);
        PeriodicJson statistics(o.json);
        for (int f = 1; f <= frames; ++f) {
            steps.push_back(sim.step());
            statistics.maybe_write([&] { return al_report(scene, scene_size_label(o), parameters, steps); });
            const AlStepStats& s = steps.back();
            write_frame(fmt::format("{}/frame_{:04d}.obj", out, f), sim.model(), sim.collision_mesh(), sim.positions());
            add_video_frame();
            progress.update(f, fmt::format("{} it, {} constraints, toi {:.2f}", s.newton_iterations, s.constraints,
                                           s.toi_mean));
        }
        progress.finish();
        if (video) {
            video->finish();
        }
        render_frame(picture, sim.model(), sim.collision_mesh(), sim.positions(), view_of(scene), steps.size(),
                     sim.time(), steps.empty() ? 0 : steps.back().constraints);
        const AlTotals t(steps);
        fmt::print("\n{:<28} {:>14}\n", "summary (AL)", scene.name);
        fmt::print("{:<28} {:>14}\n", "steps", steps.size());
        fmt::print("{:<28} {:>14.3f}\n", "seconds per step", t.per_step(t.seconds));
        fmt::print("{:<28} {:>14.1f}\n", "Newton iterations per step", t.per_step(t.newton));
        fmt::print("{:<28} {:>14.3f}\n", "mean toi", t.per_step(t.toi));
        if (parameters.linear_solver == AlLinearSolver::cholesky) {
            fmt::print("{:<28} {:>14.1f}\n", "factorizations per step", t.per_step(t.factorizations));
        } else {
            fmt::print("{:<28} {:>14.1f}\n", "CG iterations per solve", t.newton > 0 ? t.cg / t.newton : 0.0);
            fmt::print("{:<28} {:>14}\n", "CG solves redone (Cholesky)", t.cg_fallbacks);
        }
        fmt::print("{:<28} {:>14}\n", "max constraints", t.max_constraints);
        fmt::print("{:<28} {:>14}\n", "min distance (m)",
                   t.min_distance ? fmt::format("{:.3e}", *t.min_distance) : std::string("none within 2 delta"));
        if (t.max_boundary_error) {
            fmt::print("{:<28} {:>14.3e}\n", "max boundary error (m)", *t.max_boundary_error);
        }
        fmt::print("{:<28} {:>14}\n", "stall guards", t.stall_guards);
        fmt::print("{:<28} {:>14}\n", "steps not converged", t.not_converged);
        if (!o.json.empty()) {
            write_json(o.json, al_report(scene, scene_size_label(o), parameters, steps));
        }
        fmt::print("\nframes     {}/frame_NNNN.obj (frame_0000 to frame_{:04d})\npicture    {}\nstatistics {}\n", out,
                   frames, picture, o.json.empty() ? std::string("none (use --json FILE)") : o.json);
        if (video) {
            fmt::print("video      {} ({} frames)\n", video->path(), video->frames());
        }
    } catch (const ipc::error& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return exit_failure;
    } catch (const std::exception& e) {
        fmt::print(stderr, "al_sim: {}\n", e.what());
        return exit_failure;
    }
    return exit_ok;
}
