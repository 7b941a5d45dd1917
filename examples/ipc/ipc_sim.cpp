// ipc_sim: runs one of the reference C-IPC example scenes.
//
//   ipc_sim --scene NAME [--size small|paper] [--frames N] [--dt H]
//           [--out DIR] [--json FILE] [--threads N]
//
// Prints progress while running, writes one OBJ per frame and a PNG of the
// last frame to DIR (default out/NAME), prints a summary table at the end
// and, with --json, writes per-step statistics.

#include "scenes.hpp"
#include "solver.hpp"

#include <common/json_writer.hpp>
#include <common/obj_writer.hpp>
#include <common/png_writer.hpp>
#include <common/progress.hpp>
#include <common/rasterizer.hpp>

#include <ipc/config.hpp>

#include <fmt/core.h>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

using namespace ipc::examples;

namespace {

struct Options {
    std::string scene = "cloth_on_sphere";
    bool paper = false;
    int frames = -1;
    double dt = -1;
    std::string out;
    std::string json;
    int threads = 0;
};

[[noreturn]] void usage(const char* message)
{
    std::string names;
    for (const auto& n : scene_names()) {
        names += " " + n;
    }
    fmt::print(stderr,
        "{}\nusage: ipc_sim --scene NAME [--size small|paper] [--frames N] [--dt H] [--out DIR] [--json FILE] [--threads N]\n"
        "scenes:{}\n",
        message, names);
    std::exit(2);
}

Options parse(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                usage(("missing value after " + a).c_str());
            }
            return argv[++i];
        };
        try {
            if (a == "--scene") {
                o.scene = next();
            } else if (a == "--size") {
                const std::string s = next();
                if (s != "small" && s != "paper") {
                    usage("--size must be small or paper");
                }
                o.paper = s == "paper";
            } else if (a == "--frames") {
                o.frames = std::stoi(next());
                if (o.frames < 1) {
                    usage("--frames must be >= 1");
                }
            } else if (a == "--dt") {
                o.dt = std::stod(next());
                if (!(o.dt > 0)) {
                    usage("--dt must be positive");
                }
            } else if (a == "--out") {
                o.out = next();
            } else if (a == "--json") {
                o.json = next();
            } else if (a == "--threads") {
                o.threads = std::stoi(next());
                if (o.threads < 1) {
                    usage("--threads must be >= 1");
                }
            } else if (a == "--help" || a == "-h") {
                usage("");
            } else {
                usage(("unknown option " + a).c_str());
            }
        } catch (const std::logic_error&) {
            usage(("bad number after " + a).c_str());
        }
    }
    return o;
}

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

void render(const std::string& path, const Simulator& sim, const Scene& scene)
{
    const Model& m = sim.model();
    const Eigen::MatrixXd& x = sim.positions();
    const ipc::CollisionMesh& mesh = sim.collision_mesh();
    Rasterizer r(800, 600, scene.eye, scene.target);
    for (Eigen::Index f = 0; f < mesh.faces().rows(); ++f) {
        const int a = mesh.faces()(f, 0), b = mesh.faces()(f, 1), c = mesh.faces()(f, 2);
        r.triangle(x.row(a).transpose(), x.row(b).transpose(), x.row(c).transpose(), color_of(m.kind[std::size_t(a)]));
    }
    for (const auto& e : m.contact_edges) {
        r.segment(x.row(e[0]).transpose(), x.row(e[1]).transpose(), color_of(VertexKind::rod), 3);
    }
    for (Eigen::Index v = 0; v < x.rows(); ++v) {
        if (m.kind[std::size_t(v)] == VertexKind::particle) {
            r.point(x.row(v).transpose(), color_of(VertexKind::particle), 3);
        }
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

} // namespace

int main(int argc, char** argv)
{
    const Options o = parse(argc, argv);
#if IPC_HAS_OPENMP
    if (o.threads > 0) {
        omp_set_num_threads(o.threads);
    }
#endif
    try {
        Scene scene = make_scene(o.scene, o.paper);
        if (o.dt > 0) {
            scene.parameters.dt = o.dt;
        }
        const int frames = o.frames > 0 ? o.frames : scene.frames;
        const std::string out = o.out.empty() ? "out/" + scene.name : o.out;
        std::filesystem::create_directories(out);
        const SolverParameters parameters = scene.parameters;
        const Eigen::Index vertices = scene.model.num_vertices();
        fmt::print("scene {} ({}): {} vertices, {} tets, {} triangles, {} rod segments, h = {} s, dhat = {} m, offset = {} m, "
                   "mu = {}, strain limit = {}\n",
            scene.name, o.paper ? "paper" : "small", vertices, scene.model.tets.size(), scene.model.membranes.size(),
            scene.model.rod_segments.size(), parameters.dt, parameters.dhat, scene.offset, parameters.mu,
            parameters.strain_limit ? fmt::format("{}", *parameters.strain_limit) : std::string("none"));

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
        render(out + "/last_frame.png", sim, scene);

        // Summary table.
        auto total = [&](auto field) {
            double t = 0;
            for (const auto& s : steps) {
                t += double(s.*field);
            }
            return t;
        };
        const double n = double(steps.size());
        const double seconds = total(&StepStats::seconds);
        std::size_t max_contacts = 0;
        std::optional<double> min_gap, max_strain;
        int unconverged = 0;
        for (const auto& s : steps) {
            max_contacts = std::max(max_contacts, s.contacts);
            if (s.min_gap) {
                min_gap = min_gap ? std::min(*min_gap, *s.min_gap) : *s.min_gap;
            }
            if (s.max_strain) {
                max_strain = max_strain ? std::max(*max_strain, *s.max_strain) : *s.max_strain;
            }
            unconverged += s.converged ? 0 : 1;
        }
        fmt::print("\n{:<28} {:>14}\n", "summary", scene.name);
        fmt::print("{:<28} {:>14}\n", "steps", steps.size());
        fmt::print("{:<28} {:>14.3f}\n", "seconds per step", seconds / n);
        fmt::print("{:<28} {:>14.1f}\n", "Newton iterations per step", total(&StepStats::newton_iterations) / n);
        fmt::print("{:<28} {:>14.1f}\n", "contacts per step (avg)", total(&StepStats::contacts) / n);
        fmt::print("{:<28} {:>14}\n", "contacts (max)", max_contacts);
        fmt::print("{:<28} {:>14}\n", "smallest gap d - xi (m)", optional_text(min_gap, "{:.3e}"));
        fmt::print("{:<28} {:>14}\n", "largest stretch", optional_text(max_strain, "{:.5f}"));
        fmt::print("{:<28} {:>14}\n", "steps not converged", unconverged);
        fmt::print("{:<28} {:>13.0f}%\n", "time: assembly", 100 * total(&StepStats::time_assembly) / seconds);
        fmt::print("{:<28} {:>13.0f}%\n", "time: linear solve", 100 * total(&StepStats::time_solve) / seconds);
        fmt::print("{:<28} {:>13.0f}%\n", "time: CCD step bound", 100 * total(&StepStats::time_ccd) / seconds);
        fmt::print("{:<28} {:>13.0f}%\n", "time: line search", 100 * total(&StepStats::time_line_search) / seconds);
        fmt::print("frames in {}/frame_*.obj, preview {}/last_frame.png\n", out, out);

        if (!o.json.empty()) {
            JsonWriter j;
            j.begin_object();
            j.member("scene", scene.name);
            j.member("size", o.paper ? "paper" : "small");
            j.key("parameters").begin_object();
            j.member("dt", parameters.dt).member("dhat", parameters.dhat).member("offset", scene.offset);
            j.member("strain_limit", parameters.strain_limit).member("mu", parameters.mu);
            j.member("eps_v", parameters.eps_v).member("newton_tolerance", parameters.newton_tolerance);
            j.member("vertices", static_cast<long long>(vertices));
            j.end_object();
            j.key("steps").begin_array();
            for (const auto& s : steps) {
                j.begin_object();
                j.member("newton_iterations", s.newton_iterations).member("contacts", s.contacts);
                j.member("min_gap", s.min_gap).member("max_strain", s.max_strain).member("seconds", s.seconds);
                j.member("kappa", s.kappa).member("converged", s.converged);
                j.end_object();
            }
            j.end_array();
            j.key("totals").begin_object();
            j.member("steps", steps.size()).member("seconds", seconds);
            j.member("seconds_per_step", seconds / n);
            j.member("newton_iterations", total(&StepStats::newton_iterations));
            j.member("newton_iterations_per_step", total(&StepStats::newton_iterations) / n);
            j.member("max_contacts", max_contacts).member("min_gap", min_gap).member("max_strain", max_strain);
            j.member("steps_not_converged", unconverged);
            j.member("seconds_assembly", total(&StepStats::time_assembly));
            j.member("seconds_linear_solve", total(&StepStats::time_solve));
            j.member("seconds_ccd", total(&StepStats::time_ccd));
            j.member("seconds_line_search", total(&StepStats::time_line_search));
            j.end_object();
            j.end_object();
            const std::filesystem::path jp(o.json);
            if (jp.has_parent_path()) {
                std::filesystem::create_directories(jp.parent_path());
            }
            std::ofstream file(o.json);
            file << j.str() << '\n';
            if (!file) {
                fmt::print(stderr, "cannot write {}\n", o.json);
                return 1;
            }
        }
    } catch (const ipc::error& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        return 1;
    }
    return 0;
}
