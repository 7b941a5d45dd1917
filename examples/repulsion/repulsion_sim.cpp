// repulsion_sim: runs a cloth scene with the vertex-repulsion integrator
// (repulsion_solver.hpp). It runs the cloth scenes of ipc_sim by the same
// names, remeshed as uniform lattices (about 1,000 vertices, paper: 50,000)
// with h = 0.01 s, for the scene's default duration; obstacles are the
// scenes' signed-distance shapes (repulsion_scenes.hpp says what changes).
//
//   repulsion_sim --scene NAME [--size small|paper] [--frames N] [--dt H]
//                 [--out DIR] [--json FILE] [--video FILE] [--threads N]
//                 [--rest-edge L] [--no-smoothing] [--dynamics chebyshev|factored]
//                 [--hard-solver newton|gradient]
//   repulsion_sim --scene-file SCENE.json [...]   (a scene with cloth; docs/scene-files.md)
//   repulsion_sim ... --dump-scene OUT.json       (write the scene, do not run it)
//   repulsion_sim --list-scenes
//   repulsion_sim --help
//
// Outputs and exit codes as ipc_sim's; with several sheets it also reports
// (printed, and in the JSON as "layer_gaps") the gap at which each sheet
// rests on the one below at the final state. Every frame is an OBJ with the cloth
// under `o bodies` and each obstacle, as a mesh inscribed in its shape,
// under `o obstacle_NAME`.

#include "repulsion_scenes.hpp"

#include <common/cli.hpp>
#include <common/contact_distances.hpp>
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
#include <cmath>
#include <exception>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

using namespace ipc::examples;

namespace {

/// The cloth scenes: the shared scenes that are cloth and signed-distance
/// obstacles only (cloth_stack's ball is left out with a note).
const std::vector<std::string>& cloth_scenes()
{
    static const std::vector<std::string> names { "cloth_on_sphere", "cloth_stack", "hanging_cloth", "twist_cloth",
        "pile", "free_fall" };
    return names;
}

void write_repulsion_frame(const std::string& path, const RepulsionSimulator& sim, const ObstacleDrawing& obstacles)
{
    std::vector<ObjObject> objects(1);
    objects[0].name = "bodies";
    for (Eigen::Index f = 0; f < sim.faces().rows(); ++f) {
        objects[0].triangles.push_back(sim.faces().row(f).transpose());
    }
    objects.insert(objects.end(), obstacles.objects.begin(), obstacles.objects.end());
    write_obj(path, with_drawing(sim.positions(), obstacles), objects);
}

Rasterizer draw_repulsion_frame(const RepulsionSimulator& sim, const ObstacleDrawing& obstacles, const FrameView& view,
    std::size_t step, std::size_t contacts)
{
    // A display model: the cloth and obstacle vertices with their kinds.
    const Eigen::MatrixXd V = with_drawing(sim.positions(), obstacles);
    Model display;
    display.positions = V;
    display.kind.assign(std::size_t(sim.positions().rows()), VertexKind::shell);
    display.kind.resize(std::size_t(V.rows()), VertexKind::obstacle);
    Eigen::MatrixXi F(sim.faces().rows() + Eigen::Index(obstacles.faces.size()), 3);
    F.topRows(sim.faces().rows()) = sim.faces();
    for (std::size_t k = 0; k < obstacles.faces.size(); ++k) {
        F.row(sim.faces().rows() + Eigen::Index(k)) = obstacles.faces[k].transpose();
    }
    const ipc::CollisionMesh mesh = ipc::CollisionMesh::Builder(V).faces(F).build();
    return draw_frame(display, mesh, V, view, step, sim.time(), contacts);
}

void render_repulsion_frame(const std::string& path, const RepulsionSimulator& sim, const ObstacleDrawing& obstacles,
    const FrameView& view, std::size_t step, std::size_t contacts)
{
    const Rasterizer r = draw_repulsion_frame(sim, obstacles, view, step, contacts);
    write_png(path, r.image(), r.width(), r.height());
}

/// How each sheet rests on the one below it at the final state, over the
/// vertices within 1.5 r of it (r: the activation radius, where the
/// repulsion starts); none for a single sheet.
std::vector<LayerGap> resting_layer_gaps(const RepulsionSimulator& sim, const RepulsionScene& setup)
{
    const auto& shells = setup.model.shells;
    if (shells.size() < 2) {
        return {};
    }
    std::vector<std::size_t> sheet(std::size_t(sim.positions().rows()), 0);
    for (std::size_t k = 0; k < shells.size(); ++k) {
        for (ipc::Index v = 0; v < shells[k].num_vertices; ++v) {
            sheet[std::size_t(shells[k].first_vertex + v)] = k;
        }
    }
    return layer_gaps(sim.positions(), sim.faces(), sheet, 1.5 * setup.parameters.collection_radius());
}

Json repulsion_report(const std::string& scene, const std::string& size, const RepulsionScene& setup,
    const std::vector<RepulsionStepStats>& steps, const std::vector<LayerGap>& gaps)
{
    const RepulsionParameters& p = setup.parameters;
    Json report;
    report["scene"] = scene;
    report["size"] = size;
    report["solver"] = "repulsion";
    report["parameters"] = {
        { "dt", json_number(p.dt) },
        { "rest_edge", json_number(p.rest_edge) },
        { "max_edge", json_number(p.max_edge()) },
        { "separation", json_number(p.separation()) },
        { "tightening", json_number(p.tightening()) },
        { "displacement_cap", json_number(p.displacement_cap()) },
        { "slack", json_number(p.slack()) },
        { "collection_radius", json_number(p.collection_radius()) },
        { "collision_steps", p.collision_steps },
        { "dynamics", p.dynamics == RepulsionDynamics::factored ? "factored" : "chebyshev" },
        { "dynamics_iterations", p.dynamics_iterations_per_step() },
        { "hard_solver", p.hard_solver == RepulsionHardSolver::newton ? "newton" : "gradient" },
        { "init_pieces", p.init_pieces },
        { "sigma", json_number(p.sigma) },
        { "mu", json_number(p.friction) },
        { "self_mu", json_number(p.self_friction) },
        { "vertices", static_cast<long long>(setup.model.num_vertices()) },
    };
    Json notes = Json::array();
    for (const auto& n : setup.notes) {
        notes.push_back(n);
    }
    report["notes"] = std::move(notes);
    Json list = Json::array();
    double seconds = 0, soft = 0, collision = 0, hard = 0;
    double min_vertex = std::numeric_limits<double>::infinity(), min_obstacle = min_vertex, max_edge = 0;
    for (const auto& s : steps) {
        seconds += s.seconds;
        soft += s.soft_successes;
        collision += s.collision_steps;
        hard += s.hard_iterations;
        min_vertex = std::min(min_vertex, s.min_vertex_distance);
        min_obstacle = std::min(min_obstacle, s.min_obstacle_distance);
        max_edge = std::max(max_edge, s.max_edge_length);
        list.push_back({
            { "contacts", s.contacts },
            { "pairs", s.pairs },
            { "min_vertex_distance", json_number(s.min_vertex_distance) },
            { "max_edge_length", json_number(s.max_edge_length) },
            { "min_obstacle_distance", json_number(s.min_obstacle_distance) },
            { "soft_success", json_number(s.soft_success()) },
            { "hard_iterations", s.hard_iterations },
            { "local_hard_phases", s.local_hard_phases },
            { "dynamics_restarts", s.dynamics_restarts },
            { "failed_factorizations", s.failed_factorizations },
            { "guard_pairs", s.guard_pairs },
            { "guard_rejections", s.guard_rejections },
            { "friction_pairs", s.friction_pairs },
            { "normal_force_pairs", json_number(s.normal_force_pairs) },
            { "normal_force_obstacles", json_number(s.normal_force_obstacles) },
            { "kinetic_energy", json_number(s.kinetic_energy) },
            { "mean_speed", json_number(s.mean_speed) },
            { "seconds", json_number(s.seconds) },
            { "seconds_dynamics", json_number(s.seconds_dynamics) },
            { "seconds_collect", json_number(s.seconds_collect) },
            { "seconds_soft", json_number(s.seconds_soft) },
            { "seconds_hard", json_number(s.seconds_hard) },
            { "seconds_guard", json_number(s.seconds_guard) },
            { "seconds_friction", json_number(s.seconds_friction) },
        });
    }
    report["steps"] = std::move(list);
    Json layers = Json::array();
    for (const LayerGap& g : gaps) {
        layers.push_back({ { "lower", g.lower }, { "upper", g.upper }, { "resting_vertices", g.resting },
            { "min", json_number(g.min) }, { "median", json_number(g.median) }, { "max", json_number(g.max) },
            { "median_over_activation_radius", json_number(g.median / p.collection_radius()) } });
    }
    report["layer_gaps"] = std::move(layers); // at the final state
    const double count = steps.empty() ? 1.0 : double(steps.size());
    report["totals"] = {
        { "steps", steps.size() },
        { "seconds", json_number(seconds) },
        { "seconds_per_step", json_number(seconds / count) },
        { "soft_success", json_number(collision > 0 ? soft / collision : 1.0) },
        { "hard_iterations", json_number(hard) },
        { "min_vertex_distance", json_number(min_vertex) },
        { "max_edge_length", json_number(max_edge) },
        { "min_obstacle_distance", json_number(min_obstacle) },
    };
    return report;
}

} // namespace

int main(int argc, char** argv)
{
    ipc::examples::keep_freed_memory();
    CLI::App app("Runs a cloth scene with the vertex-repulsion integrator (Wu et al. 2020): writes an OBJ per frame "
                 "and a picture of the last frame, and prints a summary.",
        "repulsion_sim");
    CommonOptions o;
    add_common_options(app, o, cloth_scenes());
    double rest_edge = 0;
    bool no_smoothing = false;
    auto* rest_edge_option
        = app.add_option("--rest-edge", rest_edge, "lattice edge length L_ref in metres (default: about 1,000 vertices)")
              ->check(positive_finite("metres"))
              ->type_name("L");
    double vertices = 0;
    app.add_option("--vertices", vertices, "lattice of about N cloth vertices (sets L_ref; e.g. another program's count)")
        ->check(CLI::Range(1.0, 1e8))
        ->type_name("N")
        ->excludes(rest_edge_option);
    int dynamics_iterations = 0;
    app.add_option("--dynamics-iterations", dynamics_iterations,
           "descent iterations per dynamics step, I_dyn (default: the integrator's)")
        ->check(CLI::Range(1, 1000))
        ->type_name("N");
    std::string dynamics;
    app.add_option("--dynamics", dynamics,
           "dynamics solver: chebyshev (the paper's Jacobi descent) or factored (Newton with a Hessian factorised "
           "once per time step; default: the scene's)")
        ->check(CLI::IsMember({ "chebyshev", "factored" }))
        ->type_name("NAME");
    std::string hard_solver;
    app.add_option("--hard-solver", hard_solver,
           "hard phase descent: newton (the default; Newton steps on the barrier objective) or gradient (the "
           "paper's backtracking gradient descent)")
        ->check(CLI::IsMember({ "newton", "gradient" }))
        ->type_name("NAME");
    app.add_flag("--no-smoothing", no_smoothing, "start each step from x^t instead of the smoothed prediction");
    app.footer("Outputs: DIR/frame_NNNN.obj for every step, DIR/last_frame.png, FILE with --json, and a video with\n"
               "--video (needs ffmpeg).\n"
               "Exit codes: 0 done (also after --help and --list-scenes); 1 an output cannot be written (checked "
               "before\nthe run) or the run failed; 2 a bad command line, or no arguments at all.\n"
               "Example: repulsion_sim --scene cloth_on_sphere --out out/rep_sphere --json out/rep_sphere/stats.json");
    if (const auto code
        = parse_command_line(app, o, argc, argv, "repulsion_sim --scene cloth_on_sphere", std::cout, std::cerr)) {
        return *code;
    }
    try {
        if (o.list_scenes) {
            print_scenes(std::cout, cloth_scenes());
            return exit_ok;
        }
        use_threads(o, "repulsion_sim", argv);
        const Scene scene = load_scene(o, "repulsion_sim");
        if (dump_scene_if_asked(o, scene)) {
            return exit_ok;
        }
        if (vertices > 0) {
            rest_edge = choose_rest_edge(scene, vertices);
        }
        RepulsionScene setup = repulsion_scene(scene, o.paper(), rest_edge, o.dt);
        if (no_smoothing) {
            setup.parameters.init_pieces = 0;
        }
        if (!dynamics.empty()) {
            setup.parameters.dynamics
                = dynamics == "factored" ? RepulsionDynamics::factored : RepulsionDynamics::chebyshev;
        }
        if (!hard_solver.empty()) {
            setup.parameters.hard_solver
                = hard_solver == "gradient" ? RepulsionHardSolver::gradient : RepulsionHardSolver::newton;
        }
        if (dynamics_iterations > 0) {
            setup.parameters.dynamics_iterations = dynamics_iterations;
        }
        const int frames = o.frames > 0 ? o.frames : setup.frames;
        const std::string out = o.out.empty() ? "out/repulsion_" + scene.name : o.out;
        std::optional<std::string> problem = check_output_dir(out);
        if (!problem && !o.json.empty()) {
            problem = check_output_file(o.json);
        }
        if (!problem) {
            problem = check_video_output(o.video);
        }
        if (problem) {
            fmt::print(stderr, "repulsion_sim: {}\n", *problem);
            return exit_failure;
        }
        const std::string picture = out + "/last_frame.png";
        const RepulsionParameters& p = setup.parameters;
        fmt::print("scene {} ({}): {} vertices, h = {} s, L_ref = {:.4g} m, L = {:.4g} m, B = {:.4g} m, D = {:.3g} m, "
                   "friction = {} (obstacles) / {} (self), smoothing {}, dynamics {} x {}, hard phase {}\n",
            scene.name, scene_size_label(o), setup.model.num_vertices(), p.dt, p.rest_edge, p.max_edge(), p.separation(),
            p.displacement_cap(), p.friction, p.self_friction, p.init_pieces > 0 ? "on" : "off",
            p.dynamics == RepulsionDynamics::factored ? "factored" : "chebyshev", p.dynamics_iterations_per_step(),
            p.hard_solver == RepulsionHardSolver::newton ? "newton" : "gradient");
        for (const auto& note : setup.notes) {
            fmt::print("note: {}\n", note);
        }
        fmt::print("writing {} frames to {}/frame_NNNN.obj, picture {}, statistics {}\n", frames + 1, out, picture,
            o.json.empty() ? std::string("none (use --json FILE)") : o.json);
        std::optional<VideoWriter> video;
        if (!o.video.empty()) {
            video.emplace(o.video, p.dt);
            fmt::print("video {} ({})\n", o.video, describe(video->rate()));
        }
        std::fflush(stdout);

        RepulsionSimulator sim(setup.model, setup.parameters);
        const ObstacleDrawing obstacles = obstacle_drawing(setup.obstacles, sim.positions().rows());
        std::vector<RepulsionStepStats> steps;
        const auto add_video_frame = [&] {
            if (video) {
                video->add_frame(draw_repulsion_frame(sim, obstacles, view_of(scene), steps.size(),
                    steps.empty() ? 0 : steps.back().contacts));
            }
        };
        write_repulsion_frame(fmt::format("{}/frame_{:04d}.obj", out, 0), sim, obstacles);
        add_video_frame();
        Progress progress(frames, scene.name);
        for (int f = 1; f <= frames; ++f) {
            steps.push_back(sim.step());
            const RepulsionStepStats& s = steps.back();
            write_repulsion_frame(fmt::format("{}/frame_{:04d}.obj", out, f), sim, obstacles);
            add_video_frame();
            progress.update(f, fmt::format("soft {:.1f}%, {} hard it, {} pairs", 100 * s.soft_success(),
                s.hard_iterations, s.pairs));
        }
        progress.finish();
        if (video) {
            video->finish();
        }
        render_repulsion_frame(picture, sim, obstacles, view_of(scene), steps.size(),
            steps.empty() ? 0 : steps.back().contacts);
        const std::vector<LayerGap> gaps = resting_layer_gaps(sim, setup);
        const Json report = repulsion_report(scene.name, scene_size_label(o), setup, steps, gaps);
        const Json& t = report["totals"];
        const auto number = [](const Json& j) { return j.is_null() ? std::nan("") : j.get<double>(); };
        fmt::print("\n{:<28} {:>14}\n", "summary (repulsion)", scene.name);
        fmt::print("{:<28} {:>14}\n", "steps", steps.size());
        fmt::print("{:<28} {:>14.4f}\n", "seconds per step", number(t["seconds_per_step"]));
        fmt::print("{:<28} {:>13.2f}%\n", "soft-phase success", 100 * number(t["soft_success"]));
        fmt::print("{:<28} {:>14.0f}\n", "hard iterations", number(t["hard_iterations"]));
        fmt::print("{:<28} {:>14.4g}\n", "min vertex distance (m)", number(t["min_vertex_distance"]));
        fmt::print("{:<28} {:>14.4g}\n", "max edge length (m)", number(t["max_edge_length"]));
        fmt::print("{:<28} {:>14.4g}\n", "min obstacle distance (m)", number(t["min_obstacle_distance"]));
        for (const LayerGap& g : gaps) {
            fmt::print("{:<28} {:>14.4g}   ({:.2f} r; min {:.4g}, max {:.4g}, {} vertices)\n",
                fmt::format("sheet {} on {}: median gap (m)", g.upper, g.lower), g.median,
                g.median / p.collection_radius(), g.min, g.max, g.resting);
        }
        if (!o.json.empty()) {
            write_json(o.json, report);
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
        fmt::print(stderr, "repulsion_sim: {}\n", e.what());
        return exit_failure;
    }
    return exit_ok;
}
