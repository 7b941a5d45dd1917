#pragma once
/// @file
/// The command line every example program shares, built on CLI11:
///
///   --scene NAME  --size small|paper|full|N  --frames N  --dt H  --out DIR
///   --json FILE   --video FILE        --threads N    --list-scenes
///   --scene-file PATH  --dump-scene PATH  (and --ipc-script PATH in ipc_sim)
///
/// A program makes a CLI::App, calls add_common_options (and adds options of
/// its own if it has any), then parse_command_line, which settles help,
/// usage errors and the exit codes:
///
///   0  --help (usage on standard output), or --list-scenes
///   1  an output location that cannot be written (check_output_dir,
///      check_output_file, before any simulation) or a failed run
///   2  no arguments, an unknown flag, a bad value or no scene given
///      (message and usage hint on standard error)

#include <ipc/core/parallel.hpp>

#include <common/scenes.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <system_error>
#if defined(__linux__)
#include <unistd.h>
#endif
#include <vector>

namespace ipc::examples {

/// Exit codes of the example programs.
enum ExitCode : int {
    exit_ok = 0,
    exit_failure = 1, ///< the run could not be done (output not writable, solver error)
    exit_usage = 2,   ///< the command line was wrong
};

/// The values of the shared flags. Zero (or empty) means "not given": the
/// program then uses the scene's own default.
struct CommonOptions {
    std::string scene;          ///< --scene (required unless --list-scenes)
    std::string size = "small"; ///< --size small|paper|full|N (SceneSize::parse)
    int frames = 0;             ///< --frames N (0: the scene's default)
    double dt = 0;              ///< --dt H in seconds (0: the scene's default)
    std::string out;            ///< --out DIR (empty: out/SCENE)
    std::string json;           ///< --json FILE (empty: no statistics file)
    std::string video;          ///< --video FILE (empty: no video; needs ffmpeg, common/video_output.hpp)
    int threads = 0;            ///< --threads N (0: the OpenMP default)
    bool list_scenes = false;   ///< --list-scenes
    std::string scene_file;     ///< --scene-file PATH: a JSON scene (docs/scene-files.md)
    std::string ipc_script;     ///< --ipc-script PATH: an IPC 2020 scene script (ipc_sim only)
    std::string dump_scene;     ///< --dump-scene PATH: write the scene as JSON and exit

    bool paper() const { return size == "paper"; }
    /// The --size asked for (checked by the parser).
    SceneSize scene_size() const { return SceneSize::parse(size); }
};

/// One line of --list-scenes.
struct SceneEntry {
    std::string name;
    std::string description;
};

/// A validator that accepts finite numbers greater than zero (CLI11's
/// PositiveNumber lets "nan" through); unit names the quantity in messages.
inline CLI::Validator positive_finite(const std::string& unit)
{
    return CLI::Validator(
        [unit](std::string& text) -> std::string {
            errno = 0;
            char* end = nullptr;
            const double x = std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(x) || !(x > 0)) {
                return "must be a positive number of " + unit + ", got '" + text + "'";
            }
            return {};
        },
        unit + " > 0");
}

/// Adds the shared flags to app, storing into o. scenes lists the names
/// --scene accepts.
inline void add_common_options(CLI::App& app, CommonOptions& o, const std::vector<std::string>& scenes)
{
    app.add_option("--scene", o.scene, "scene to run (see --list-scenes)")
        ->check(CLI::IsMember(scenes))
        ->type_name("NAME");
    app.add_option("--size", o.size,
           "small (seconds to a minute), paper (the paper's setup at the resolution --list-scenes gives, "
           "often a fraction of the paper's vertex count), full (the paper's vertex count) or a number of "
           "vertices (the nearest resolution); full and numbers: chains, press, well")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                try {
                    SceneSize::parse(text);
                } catch (const std::exception& e) {
                    return e.what();
                }
                return {};
            },
            "SIZE"))
        ->type_name("SIZE")
        ->capture_default_str();
    app.add_option("--frames", o.frames, "number of time steps (default: the scene's)")
        ->check(CLI::Range(1, 100000))
        ->type_name("N");
    app.add_option("--dt", o.dt, "time step in seconds (default: the scene's)")
        ->check(positive_finite("seconds"))
        ->type_name("H");
    app.add_option("--out", o.out, "folder for the OBJ frames and the picture (default: out/SCENE)")
        ->type_name("DIR");
    app.add_option("--json", o.json, "also write per-step statistics to this JSON file")->type_name("FILE");
    app.add_option("--video", o.video,
           "also write the run as a video (e.g. run.mp4: H.264, one frame per step, real time where the step "
           "allows); needs the ffmpeg program")
        ->type_name("FILE");
    app.add_option("--threads", o.threads, "number of OpenMP threads (default: all cores)")
        ->check(CLI::Range(1, 4096))
        ->type_name("N");
    app.add_flag("--list-scenes", o.list_scenes, "print every scene, one a line, and exit");
    auto* file = app.add_option("--scene-file", o.scene_file, "run the scene in this JSON file (docs/scene-files.md)")
                     ->type_name("PATH");
    file->excludes(app.get_option("--scene"));
    app.add_option("--dump-scene", o.dump_scene,
           "write the scene (built in, from --scene-file or imported) as a JSON scene file and exit without simulating")
        ->type_name("PATH");
}

/// Adds --ipc-script (the IPC 2020 scene scripts importer) to app.
inline void add_ipc_script_option(CLI::App& app, CommonOptions& o)
{
    app.add_option("--ipc-script", o.ipc_script,
           "run an IPC (SIGGRAPH 2020) scene script; --frames overrides its duration (docs/scene-files.md)")
        ->type_name("PATH")
        ->excludes(app.get_option("--scene"))
        ->excludes(app.get_option("--scene-file"));
}

/// Parses the command line into app (and the CommonOptions bound to it).
/// Returns std::nullopt when the program should go on, or the exit code it
/// should return at once: exit_ok after --help (usage written to out),
/// exit_usage after no arguments, a parse error or a missing --scene
/// (message, usage hint to err). hint is an example command, e.g.
/// "ipc_sim --scene all_in".
inline std::optional<int> parse_command_line(CLI::App& app, const CommonOptions& o, int argc, const char* const* argv,
    const std::string& hint, std::ostream& out, std::ostream& err)
{
    const std::string name = app.get_name();
    const std::string tail = "try: " + hint + "\n or: " + name + " --list-scenes\n or: " + name + " --help\n";
    if (argc <= 1) {
        err << app.help() << '\n' << tail;
        return exit_usage;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        out << app.help();
        return exit_ok;
    } catch (const CLI::ParseError& e) {
        err << name << ": " << e.what() << '\n' << tail;
        return exit_usage;
    }
    if (!o.list_scenes && o.scene.empty() && o.scene_file.empty() && o.ipc_script.empty()) {
        err << name << ": --scene (or --scene-file" << (app.get_option_no_throw("--ipc-script") ? ", --ipc-script" : "")
            << ") is required\n"
            << tail;
        return exit_usage;
    }
    return std::nullopt;
}

/// Applies --threads (o.threads; 0: all cores) to OpenMP. Without OpenMP,
/// warns on standard error that --threads N > 1 has no effect.
///
/// On Linux, when OMP_THREAD_LIMIT is not set, the program sets it to that
/// thread count and starts itself again with the same arguments (argv), so
/// that no OpenMP team of the process, its own or a library's, holds more
/// threads than asked for. The limit is what lets the Newton solvers
/// factorise large systems on several threads (NewtonLinearSolver): CHOLMOD
/// opens teams of a compiled-in size (4 in Debian's build) whatever the
/// thread count, and OpenBLAS's threaded kernels wait on every thread of
/// their team, so an oversubscribed team is several times slower and a team
/// cut short by dynamic adjustment never finishes. A user-set
/// OMP_THREAD_LIMIT is kept. Returns only when the program goes on in this
/// process (always, where the restart is not done or fails).
inline void use_threads(const CommonOptions& o, const char* program, char** argv)
{
#if IPC_HAS_OPENMP
    if (o.threads > 0) {
        omp_set_num_threads(o.threads);
    }
#if defined(__linux__)
    if (std::getenv("OMP_THREAD_LIMIT") == nullptr) {
        const std::string limit = std::to_string(o.threads > 0 ? o.threads : omp_get_num_procs());
        std::error_code error;
        const std::string self = std::filesystem::read_symlink("/proc/self/exe", error).string();
        if (!error && ::setenv("OMP_THREAD_LIMIT", limit.c_str(), 1) == 0) {
            ::execv(self.c_str(), argv);
            ::unsetenv("OMP_THREAD_LIMIT"); // the restart failed: go on without the limit
        }
    }
#else
    (void)argv;
#endif
    (void)program;
#else
    (void)argv;
    if (o.threads > 1) {
        std::fprintf(stderr, "%s: built without OpenMP, --threads %d has no effect\n", program, o.threads);
    }
#endif
}

/// Writes the scene list: one scene a line, name first, then its description.
inline void print_scene_list(std::ostream& out, const std::vector<SceneEntry>& scenes)
{
    std::size_t width = 0;
    for (const auto& s : scenes) {
        width = std::max(width, s.name.size());
    }
    for (const auto& s : scenes) {
        out << s.name << std::string(width + 2 - s.name.size(), ' ') << s.description << '\n';
    }
}

/// Creates the folder dir (and its parents) and checks that a file can be
/// written in it. Returns an error message, or std::nullopt when it can.
inline std::optional<std::string> check_output_dir(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) {
        return "cannot create the output folder " + dir + ": " + ec.message();
    }
    if (!fs::is_directory(dir, ec)) {
        return "the output path " + dir + " is not a folder";
    }
    const fs::path probe = fs::path(dir) / ".write_probe";
    {
        std::ofstream file(probe);
        if (!file) {
            return "cannot write into the output folder " + dir + ": " + std::strerror(errno);
        }
    }
    fs::remove(probe, ec);
    return std::nullopt;
}

/// Creates the folder of the file path and checks that path can be opened
/// for writing, without changing a file already there (a file the check
/// creates is removed again). Returns an error message, or std::nullopt.
inline std::optional<std::string> check_output_file(const std::string& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path p(path);
    if (p.has_parent_path()) {
        fs::create_directories(p.parent_path(), ec);
        if (ec) {
            return "cannot create the folder of " + path + ": " + ec.message();
        }
    }
    if (fs::is_directory(p, ec)) {
        return "cannot write " + path + ": it is a folder";
    }
    const bool existed = fs::exists(p, ec);
    {
        std::ofstream file(path, std::ios::app);
        if (!file) {
            return "cannot write " + path + ": " + std::strerror(errno);
        }
    }
    if (!existed) {
        fs::remove(p, ec);
    }
    return std::nullopt;
}

} // namespace ipc::examples
