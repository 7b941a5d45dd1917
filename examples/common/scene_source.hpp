#pragma once
/// @file
/// Where an example program's scene comes from: a built-in scene by name
/// (--scene, --size), a JSON scene file (--scene-file, docs/scene-files.md)
/// or an IPC 2020 scene script (--ipc-script, ipc_sim only); and --dump-scene,
/// which writes that scene as a JSON scene file instead of running it.

#include <common/cli.hpp>
#include <common/ipc_script.hpp>
#include <common/scene_file.hpp>
#include <common/scenes.hpp>

#include <fmt/core.h>

#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

namespace ipc::examples {

/// The scene the options name (--dt and --frames are left to the program).
/// Warnings of an imported
/// script (commands ignored or approximated) go to standard error, one a
/// line, prefixed with program. Throws ipc::invalid_argument for a bad file.
inline Scene load_scene(const CommonOptions& o, const std::string& program)
{
    Scene scene;
    if (!o.ipc_script.empty()) {
        IpcScriptImport imported = import_ipc_script(o.ipc_script);
        for (const std::string& w : imported.warnings) {
            fmt::print(stderr, "{}: warning: {}\n", program, w);
        }
        scene = std::move(imported.scene);
    } else if (!o.scene_file.empty()) {
        scene = read_scene_file(o.scene_file);
    } else {
        scene = make_scene(o.scene, o.scene_size());
    }
    return scene;
}

/// --list-scenes: the built-in scenes called names, one a line with its
/// description.
inline void print_scenes(std::ostream& out, const std::vector<std::string>& names)
{
    std::vector<SceneEntry> entries;
    for (const auto& name : names) {
        entries.push_back({ name, make_scene(name).description });
    }
    print_scene_list(out, entries);
}

/// The label of the scene's size in reports: --size for a built-in scene
/// (small, paper, full or a vertex count), else "file".
inline std::string scene_size_label(const CommonOptions& o)
{
    return o.scene.empty() ? std::string("file") : o.scene_size().label();
}

/// With --dump-scene, writes scene there (with --dt and --frames applied)
/// and says so; returns whether it did (the program then exits without
/// simulating).
inline bool dump_scene_if_asked(const CommonOptions& o, Scene scene)
{
    if (o.dump_scene.empty()) {
        return false;
    }
    if (o.dt > 0) {
        scene.physics.dt = o.dt;
    }
    if (o.frames > 0) {
        scene.frames = o.frames;
    }
    write_scene_file(scene, o.dump_scene);
    fmt::print("wrote scene {} ({} vertices, {} frames) to {}\n", scene.name, scene.model.num_vertices(), scene.frames,
        o.dump_scene);
    return true;
}

} // namespace ipc::examples
