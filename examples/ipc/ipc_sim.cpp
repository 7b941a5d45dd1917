// ipc_sim: runs one of the reference C-IPC example scenes.
//
//   ipc_sim --scene NAME [--size small|paper] [--frames N] [--dt H]
//           [--out DIR] [--json FILE] [--threads N]
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
#include "scenes.hpp"
#include "solver.hpp"

#include <common/cli.hpp>
#include <common/json_output.hpp>
#include <common/obj_writer.hpp>
#include <common/png_output.hpp>
#include <common/progress.hpp>
#include <common/rasterizer.hpp>

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

Color color_of(VertexKind k)
{
    switch (k) {
    case VertexKind::volume:
        return { 230, 120, 70 };
    case VertexKind::shell:
        return { 70, 130, 220 };
    case VertexKind::rod:
        return { 240, 200, 60 };
    case VertexKind::particle:
        return { 200, 60, 160 };
    case VertexKind::obstacle:
        return { 170, 170, 170 };
    }
    return { 255, 255, 255 };
}

const char* name_of(VertexKind k)
{
    switch (k) {
    case VertexKind::volume:
        return "soft volume";
    case VertexKind::shell:
        return "cloth";
    case VertexKind::rod:
        return "rods";
    case VertexKind::particle:
        return "particles";
    case VertexKind::obstacle:
        return "obstacles";
    }
    return "?";
}

/// The preview picture of the current state: opaque bodies first, then the
/// cloth blended over them when the scene asks for it, particles as outlined
/// discs, a caption (scene, step, time, contacts) and a colour legend.
void render(const std::string& path, const Simulator& sim, const Scene& scene, std::size_t step, std::size_t contacts)
{
    const Model& m = sim.model();
    const Eigen::MatrixXd& x = sim.positions();
    const ipc::CollisionMesh& mesh = sim.collision_mesh();
    const Eigen::MatrixXi& F = mesh.faces();
    Rasterizer r(800, 600, scene.eye, scene.target);
    auto vertex = [&](Eigen::Index i) -> Eigen::Vector3d { return x.row(i).transpose(); };

    std::vector<Eigen::Index> blended;
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
        const VertexKind kind = m.kind[std::size_t(F(f, 0))];
        if (kind == VertexKind::shell && scene.shell_opacity < 1) {
            blended.push_back(f);
        } else {
            r.triangle(vertex(F(f, 0)), vertex(F(f, 1)), vertex(F(f, 2)), color_of(kind));
        }
    }
    for (const auto& e : m.contact_edges) {
        r.segment(vertex(e[0]), vertex(e[1]), color_of(VertexKind::rod), 3);
    }
    for (Eigen::Index v = 0; v < x.rows(); ++v) {
        if (m.kind[std::size_t(v)] == VertexKind::particle) {
            r.point(vertex(v), color_of(VertexKind::particle), 4.5, { 40, 10, 35 }, 1.5, true);
        }
    }
    // Blended cloth, farthest triangle first.
    std::vector<double> depth(blended.size());
    for (std::size_t k = 0; k < blended.size(); ++k) {
        const Eigen::Index f = blended[k];
        depth[k] = r.view_depth((vertex(F(f, 0)) + vertex(F(f, 1)) + vertex(F(f, 2))) / 3);
    }
    std::vector<std::size_t> order(blended.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return depth[a] > depth[b]; });
    for (const std::size_t k : order) {
        const Eigen::Index f = blended[k];
        r.triangle(vertex(F(f, 0)), vertex(F(f, 1)), vertex(F(f, 2)), color_of(VertexKind::shell), scene.shell_opacity);
    }

    // Caption along the top.
    const int scale = 2;
    const std::string caption
        = fmt::format("{}   step {}   t = {:.3f} s   contacts {}", scene.name, step, sim.time(), contacts);
    r.panel(0, 0, r.width(), Rasterizer::text_height(scale) + 14, { 25, 30, 40 }, 0.8);
    r.text(12, 8, caption, { 255, 255, 255 }, scale);

    // Legend along the bottom: one swatch per kind of body in the scene.
    std::vector<VertexKind> kinds;
    for (const VertexKind k : { VertexKind::volume, VertexKind::shell, VertexKind::rod, VertexKind::particle,
             VertexKind::obstacle }) {
        if (std::find(m.kind.begin(), m.kind.end(), k) != m.kind.end()) {
            kinds.push_back(k);
        }
    }
    const int line = Rasterizer::text_height(scale);
    const int top = r.height() - line - 14;
    r.panel(0, top, r.width(), line + 14, { 25, 30, 40 }, 0.6);
    int left = 12;
    for (const VertexKind k : kinds) {
        r.panel(left, top + 7, 7 * scale, 7 * scale, color_of(k));
        left += 7 * scale + 8;
        r.text(left, top + 7, name_of(k), { 255, 255, 255 }, scale);
        left += Rasterizer::text_width(name_of(k), scale) + 22;
    }
    write_png(path, r.image(), r.width(), r.height());
}

void write_frame(const std::string& path, const Simulator& sim)
{
    const Model& m = sim.model();
    std::vector<Eigen::Vector3i> faces;
    const ipc::CollisionMesh& mesh = sim.collision_mesh();
    for (Eigen::Index f = 0; f < mesh.faces().rows(); ++f) {
        faces.emplace_back(mesh.faces().row(f).transpose());
    }
    std::vector<int> points;
    for (Eigen::Index v = 0; v < sim.positions().rows(); ++v) {
        if (m.kind[std::size_t(v)] == VertexKind::particle) {
            points.push_back(int(v));
        }
    }
    write_obj(path, sim.positions(), faces, m.contact_edges, points);
}

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
    app.footer("Outputs: DIR/frame_NNNN.obj for every step, DIR/last_frame.png, and FILE with --json.\n"
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
            print_scene_list(std::cout, entries);
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
        Scene scene = make_scene(o.scene, o.paper());
        if (o.dt > 0) {
            scene.parameters.dt = o.dt;
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

        const SolverParameters parameters = scene.parameters;
        fmt::print("scene {} ({}): {} vertices, {} tets, {} triangles, {} rod segments, h = {} s, dhat = {} m, offset = {} m, "
                   "mu = {}, strain limit = {}\n",
            scene.name, o.size, scene.model.num_vertices(), scene.model.tets.size(), scene.model.membranes.size(),
            scene.model.rod_segments.size(), parameters.dt, parameters.dhat, scene.offset, parameters.mu,
            parameters.strain_limit ? fmt::format("{}", *parameters.strain_limit) : std::string("none"));
        fmt::print("writing {} frames to {}, picture {}, statistics {}\n", frames + 1, frames_pattern, picture, json_text);
        std::fflush(stdout);

        Simulator sim(scene.model, parameters);
        write_frame(fmt::format("{}/frame_{:04d}.obj", out, 0), sim);
        std::vector<StepStats> steps;
        Progress progress(frames, scene.name);
        for (int f = 1; f <= frames; ++f) {
            steps.push_back(sim.step());
            const StepStats& s = steps.back();
            write_frame(fmt::format("{}/frame_{:04d}.obj", out, f), sim);
            progress.update(f, fmt::format("{} it, {} contacts", s.newton_iterations, s.contacts));
        }
        progress.finish();
        render(picture, sim, scene, steps.size(), steps.empty() ? 0 : steps.back().contacts);

        print_summary(scene, run_totals(steps));
        if (!o.json.empty()) {
            write_json(o.json, run_report(scene, o.size, parameters, steps));
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
