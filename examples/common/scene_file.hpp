#pragma once
/// @file
/// Scene files: a Scene (common/scenes.hpp) as a JSON document, so that a
/// setup can be written by hand (bodies from mesh files or inline arrays,
/// selections of fixed and scripted vertices, analytic obstacles) or dumped
/// from a built-in scene and read back. The format ("format": "ipc-scene",
/// "version": 1) is described in docs/scene-files.md.
///
/// Reading validates everything it reads and throws ipc::invalid_argument
/// with a message that names the file, the JSON path of the offending value
/// (e.g. /bodies/2/material/density) and what was expected. Writing and
/// reading back gives the same scene bit for bit: the same model (positions,
/// masses, rest data, materials, fixed and scripted vertices) and physics.
///
/// Defined in scene_file.cpp (compiled into the ipc_scenes library).

#include <common/json_output.hpp>
#include <common/scenes.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace ipc::examples {

/// Reads a scene file (JSON, format in docs/scene-files.md). Mesh paths are
/// relative to the file's folder. Throws ipc::invalid_argument naming the
/// file, the JSON path (e.g. /bodies/2/material/density) and what was
/// expected.
Scene read_scene_file(const std::string& path);

/// The same from an already parsed document; base_dir resolves relative mesh
/// paths, source names the document in messages.
Scene scene_from_json(const nlohmann::json& doc, const std::string& source, const std::filesystem::path& base_dir);

/// The scene as a document that scene_from_json turns back into the same
/// scene (bit-identical model and physics). Bodies are written with inline
/// vertices and elements. Throws ipc::invalid_argument if the model's body
/// records do not cover its vertices in order.
nlohmann::ordered_json scene_to_json(const Scene& scene);

/// Writes scene_to_json(scene) to path (creating its folder); throws
/// ipc::invalid_argument if it cannot be written.
void write_scene_file(const Scene& scene, const std::string& path);

} // namespace ipc::examples
