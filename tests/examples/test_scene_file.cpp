#include <catch2/catch.hpp>

#include <common/scene_file.hpp>
#include <common/scenes.hpp>

#include <ipc/ipc_scenes.hpp>
#include <ipc/solver.hpp>

#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <variant>
#include <vector>

using namespace ipc::examples;

namespace {

/// Same shape and the same values (== on doubles: bit-identical up to the
/// sign of zero).
template <typename A, typename B> bool sf_same(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() && a == b;
}

bool sf_same_shape(const AnalyticObstacle& a, const AnalyticObstacle& b)
{
    if (a.shape.index() != b.shape.index() || a.board_extent != b.board_extent) {
        return false;
    }
    if (const auto* p = std::get_if<ipc::PlaneObstacle>(&a.shape)) {
        const auto& q = std::get<ipc::PlaneObstacle>(b.shape);
        return p->point == q.point && p->normal == q.normal;
    }
    if (const auto* p = std::get_if<ipc::SphereObstacle>(&a.shape)) {
        const auto& q = std::get<ipc::SphereObstacle>(b.shape);
        return p->center == q.center && p->radius == q.radius;
    }
    if (const auto* p = std::get_if<ipc::BoxObstacle>(&a.shape)) {
        const auto& q = std::get<ipc::BoxObstacle>(b.shape);
        return p->center == q.center && p->half_extents == q.half_extents && p->rounding == q.rounding;
    }
    const auto& p = std::get<ipc::CapsuleObstacle>(a.shape);
    const auto& q = std::get<ipc::CapsuleObstacle>(b.shape);
    return p.a == q.a && p.b == q.b && p.radius == q.radius;
}

template <typename T> bool sf_same_list(const std::vector<T>& a, const std::vector<T>& b)
{
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] != b[i]) {
            return false;
        }
    }
    return true;
}

/// Checks that two scenes are the same bit for bit.
void sf_check_same_scene(const Scene& a, const Scene& b)
{
    CHECK(a.name == b.name);
    CHECK(a.description == b.description);
    CHECK(a.frames == b.frames);
    CHECK(a.offset == b.offset);
    CHECK(a.eye == b.eye);
    CHECK(a.target == b.target);
    CHECK(a.shell_opacity == b.shell_opacity);
    const ScenePhysics &p = a.physics, &q = b.physics;
    CHECK(p.dt == q.dt);
    CHECK(p.contact_gap == q.contact_gap);
    CHECK(p.friction == q.friction);
    CHECK(p.eps_v == q.eps_v);
    CHECK(p.strain_limit == q.strain_limit);
    CHECK(p.newton_tolerance == q.newton_tolerance);
    CHECK(p.termination == q.termination);
    CHECK(p.barrier_stiffness == q.barrier_stiffness);
    CHECK(p.friction_iterations == q.friction_iterations);
    REQUIRE(a.shapes.size() == b.shapes.size());
    for (std::size_t i = 0; i < a.shapes.size(); ++i) {
        CHECK(sf_same_shape(a.shapes[i], b.shapes[i]));
    }

    const Model &m = a.model, &n = b.model;
    REQUIRE(m.analytic_obstacles.size() == n.analytic_obstacles.size());
    for (std::size_t i = 0; i < m.analytic_obstacles.size(); ++i) {
        CHECK(sf_same_shape(m.analytic_obstacles[i], n.analytic_obstacles[i]));
    }
    CHECK(sf_same(m.positions, n.positions));
    CHECK(sf_same(m.velocities, n.velocities));
    CHECK(sf_same(m.mass, n.mass));
    CHECK(sf_same(m.contact_radius, n.contact_radius));
    CHECK(m.kind == n.kind);
    CHECK(m.fixed == n.fixed);
    CHECK(m.held() == n.held());
    CHECK(m.gravity == n.gravity);
    CHECK(m.release.has_value() == n.release.has_value());
    if (m.release && n.release) {
        CHECK(m.release->axis == n.release->axis);
        CHECK(m.release->above == n.release->above);
    }
    REQUIRE(m.scripted.size() == n.scripted.size());
    bool scripted_same = true, paths_same = true;
    for (std::size_t i = 0; i < m.scripted.size(); ++i) {
        scripted_same = scripted_same && m.scripted[i].vertex == n.scripted[i].vertex
            && m.scripted[i].motion == n.scripted[i].motion;
        const Eigen::Vector3d start = m.positions.row(m.scripted[i].vertex).transpose();
        for (const double t : { 0.0, 0.013, 0.1, 0.37, 1.0, 10.0 }) {
            paths_same = paths_same && m.scripted[i].motion(t, start) == n.scripted[i].motion(t, start);
        }
    }
    CHECK(scripted_same);
    CHECK(paths_same);

    REQUIRE(m.bodies.size() == n.bodies.size());
    for (std::size_t i = 0; i < m.bodies.size(); ++i) {
        const Model::Body &x = m.bodies[i], &y = n.bodies[i];
        INFO("body " << i);
        CHECK(x.kind == y.kind);
        CHECK(x.first_vertex == y.first_vertex);
        CHECK(x.num_vertices == y.num_vertices);
        CHECK(sf_same(x.elements, y.elements));
        CHECK(x.contact_radius == y.contact_radius);
        REQUIRE(x.material.index() == y.material.index());
        if (const auto* s = std::get_if<ShellMaterial>(&x.material)) {
            const auto& t = std::get<ShellMaterial>(y.material);
            CHECK((s->density == t.density && s->thickness == t.thickness && s->membrane_young == t.membrane_young
                && s->membrane_scale == t.membrane_scale && s->bending_young == t.bending_young
                && s->poisson == t.poisson));
        } else if (const auto* v = std::get_if<VolumeMaterial>(&x.material)) {
            const auto& w = std::get<VolumeMaterial>(y.material);
            CHECK((v->density == w.density && v->young == w.young && v->poisson == w.poisson && v->model == w.model));
        } else if (const auto* r = std::get_if<RodMaterial>(&x.material)) {
            const auto& s2 = std::get<RodMaterial>(y.material);
            CHECK((r->density == s2.density && r->young == s2.young && r->radius == s2.radius));
        } else if (const auto* q2 = std::get_if<ParticleMaterial>(&x.material)) {
            const auto& s2 = std::get<ParticleMaterial>(y.material);
            CHECK((q2->density == s2.density && q2->radius == s2.radius));
        }
    }
    REQUIRE(m.shells.size() == n.shells.size());
    for (std::size_t i = 0; i < m.shells.size(); ++i) {
        CHECK(m.shells[i].first_vertex == n.shells[i].first_vertex);
        CHECK(m.shells[i].num_vertices == n.shells[i].num_vertices);
        CHECK(sf_same(m.shells[i].faces, n.shells[i].faces));
    }

    REQUIRE(m.tets.size() == n.tets.size());
    bool tets_same = true;
    for (std::size_t i = 0; i < m.tets.size(); ++i) {
        const Model::Tet &s = m.tets[i], &t = n.tets[i];
        tets_same = tets_same && s.vertices == t.vertices && s.rest.rest_inverse == t.rest.rest_inverse
            && s.rest.volume == t.rest.volume && s.material.model == t.material.model && s.material.mu == t.material.mu
            && s.material.lambda == t.material.lambda;
    }
    CHECK(tets_same);
    REQUIRE(m.membranes.size() == n.membranes.size());
    bool membranes_same = true;
    for (std::size_t i = 0; i < m.membranes.size(); ++i) {
        const Model::Membrane &s = m.membranes[i], &t = n.membranes[i];
        membranes_same = membranes_same && s.vertices == t.vertices && s.rest.rest_inverse == t.rest.rest_inverse
            && s.rest.area == t.rest.area && s.material.mu == t.material.mu && s.material.lambda == t.material.lambda
            && s.material.thickness == t.material.thickness;
    }
    CHECK(membranes_same);
    REQUIRE(m.hinges.size() == n.hinges.size());
    bool hinges_same = true;
    for (std::size_t i = 0; i < m.hinges.size(); ++i) {
        hinges_same = hinges_same && m.hinges[i].vertices == n.hinges[i].vertices
            && m.hinges[i].rest.rest_angle == n.hinges[i].rest.rest_angle
            && m.hinges[i].rest.weight == n.hinges[i].rest.weight;
    }
    CHECK(hinges_same);
    REQUIRE(m.rod_segments.size() == n.rod_segments.size());
    bool rods_same = true;
    for (std::size_t i = 0; i < m.rod_segments.size(); ++i) {
        rods_same = rods_same && m.rod_segments[i].vertices == n.rod_segments[i].vertices
            && m.rod_segments[i].rest.length == n.rod_segments[i].rest.length
            && m.rod_segments[i].rest.stiffness == n.rod_segments[i].rest.stiffness;
    }
    REQUIRE(m.rod_joints.size() == n.rod_joints.size());
    for (std::size_t i = 0; i < m.rod_joints.size(); ++i) {
        rods_same = rods_same && m.rod_joints[i].vertices == n.rod_joints[i].vertices
            && m.rod_joints[i].rest.length0 == n.rod_joints[i].rest.length0
            && m.rod_joints[i].rest.length1 == n.rod_joints[i].rest.length1
            && m.rod_joints[i].rest.modulus == n.rod_joints[i].rest.modulus;
    }
    CHECK(rods_same);
    CHECK(sf_same_list(m.contact_faces, n.contact_faces));
    CHECK(sf_same_list(m.contact_edges, n.contact_edges));
    CHECK(sf_same_list(m.tetrahedra, n.tetrahedra));
}

/// The scene through scene_to_json, JSON text and scene_from_json.
Scene sf_reload(const Scene& scene)
{
    const nlohmann::json doc = nlohmann::json::parse(scene_to_json(scene).dump());
    return scene_from_json(doc, scene.name + ".json", ".");
}

/// A fresh folder under the system's temporary folder.
std::filesystem::path sf_temp_folder(const std::string& tag)
{
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    const std::filesystem::path dir
        = std::filesystem::temp_directory_path() / ("ipc_scene_file_" + tag + "_" + std::to_string(stamp));
    std::filesystem::create_directories(dir);
    return dir;
}

void sf_write_text(const std::filesystem::path& path, const std::string& text)
{
    std::ofstream file(path);
    file << text;
}

/// The message of the ipc::invalid_argument that reading doc throws, or
/// "(no error)".
std::string sf_error_of(const nlohmann::json& doc, const std::filesystem::path& base = ".")
{
    try {
        scene_from_json(doc, "bad_scene.json", base);
    } catch (const ipc::invalid_argument& e) {
        return e.what();
    }
    return "(no error)";
}

/// A small valid scene: a cloth above a board, a tetrahedron above both.
nlohmann::json sf_small_doc()
{
    return nlohmann::json::parse(R"({
      "format": "ipc-scene", "version": 1, "name": "small", "frames": 3,
      "physics": { "dt": 0.01 },
      "bodies": [
        { "type": "shell", "vertices": [[0, 0.1, 0], [1, 0.1, 0], [0, 0.1, 1], [1, 0.1, 1]],
          "faces": [[0, 2, 1], [1, 2, 3]],
          "material": { "density": 100, "thickness": 0.001, "young": 1e5, "poisson": 0.3 } },
        { "type": "obstacle", "vertices": [[-1, 0, -1], [2, 0, -1], [-1, 0, 2], [2, 0, 2]],
          "faces": [[0, 2, 1], [1, 2, 3]] },
        { "type": "volume", "vertices": [[0, 0.5, 0], [0.1, 0.5, 0], [0, 0.6, 0], [0, 0.5, 0.1]],
          "tets": [[0, 1, 2, 3]], "material": { "density": 1000, "young": 1e5, "poisson": 0.4 } }
      ],
      "fixed": [ { "body": 0, "vertices": [0] } ],
      "scripted": [ { "body": 1, "motion": [ { "velocity": [0, 1, 0], "end": 0.5 } ] } ],
      "shapes": [ { "type": "plane", "point": [0, 0, 0], "normal": [0, 1, 0] } ]
    })");
}

} // namespace

TEST_CASE("scene files: every built-in scene survives a round trip bit for bit", "[examples][scene_file]")
{
    for (const std::string& name : scene_names()) {
        INFO("scene " << name);
        const Scene original = make_scene(name, false);
        const Scene copy = sf_reload(original);
        sf_check_same_scene(original, copy);
        // A second round trip writes the same document.
        CHECK(scene_to_json(copy).dump() == scene_to_json(original).dump());
    }
}

TEST_CASE("scene files: one solver step is identical from a reloaded scene", "[examples][scene_file]")
{
    for (const std::string name : { "hanging_cloth", "momentum", "bar_drop", "compress" }) {
        INFO("scene " << name);
        const Scene original = make_scene(name, false);
        const Scene copy = sf_reload(original);
        Simulator a(original.model, ipc_parameters(original));
        Simulator b(copy.model, ipc_parameters(copy));
        a.step();
        b.step();
        CHECK(sf_same(a.positions(), b.positions()));
        CHECK(sf_same(a.velocities(), b.velocities()));
    }
}

TEST_CASE("scene files: written to disk and read back", "[examples][scene_file]")
{
    const std::filesystem::path dir = sf_temp_folder("disk");
    for (const std::string name : { "cloth_on_sphere", "twist_cloth", "press", "all_in" }) {
        INFO("scene " << name);
        const Scene original = make_scene(name, false);
        const std::string path = (dir / "sub" / (name + ".json")).string();
        write_scene_file(original, path);
        const Scene copy = read_scene_file(path);
        sf_check_same_scene(original, copy);
    }
    // A folder that cannot be created.
    sf_write_text(dir / "plain_file", "x");
    CHECK_THROWS_AS(write_scene_file(make_scene("hanging_cloth"), (dir / "plain_file" / "a.json").string()),
        ipc::invalid_argument);
    std::filesystem::remove_all(dir);
}

TEST_CASE("scene files: bodies from mesh files with transforms and selections", "[examples][scene_file]")
{
    const std::filesystem::path dir = sf_temp_folder("meshes");
    std::filesystem::create_directories(dir / "meshes");
    // A unit cube of 5 tetrahedra, Gmsh 4.1 (node tags 1-8: corner x + 2y + 4z, plus 1).
    sf_write_text(dir / "meshes" / "cube.msh", R"($MeshFormat
4.1 0 8
$EndMeshFormat
$Nodes
1 8 1 8
3 1 0 8
1
2
3
4
5
6
7
8
0 0 0
1 0 0
0 1 0
1 1 0
0 0 1
1 0 1
0 1 1
1 1 1
$EndNodes
$Elements
1 5 1 5
3 1 4 5
1 1 2 3 5
2 4 2 8 3
3 6 2 5 8
4 7 3 8 5
5 2 3 5 8
$EndElements
)");
    // A square in the plane x = 0; rotated by 90 degrees about z it lies flat.
    sf_write_text(dir / "meshes" / "board.obj", "v 0 -1 -1\nv 0 1 -1\nv 0 1 1\nv 0 -1 1\nf 1 2 3\nf 1 3 4\n");
    sf_write_text(dir / "meshes" / "marks.pt", "v 1 0 0\nv 0 0 1\n");
    // A rod whose segments walk the vertices backwards.
    sf_write_text(dir / "meshes" / "rod.seg", "v 0 0 0\nv 0.1 0 0\nv 0.2 0 0\ns 3 2\ns 2 1\n");
    sf_write_text(dir / "scene.json", R"({
      "format": "ipc-scene", "version": 1, "name": "meshes",
      "physics": { "dt": 0.02, "friction": 0.3 },
      "offset": 0.002,
      "bodies": [
        { "type": "volume", "mesh": "meshes/cube.msh",
          "transform": { "scale": 0.1, "translation": [0, 0.05, 0] },
          "material": { "model": "neo_hookean", "density": 500, "young": 2e4, "poisson": 0.3 },
          "velocity": [0, -1, 0] },
        { "type": "obstacle", "mesh": "meshes/board.obj",
          "transform": { "scale": 0.5, "rotation_degrees": [0, 0, 90], "translation": [0, -0.01, 0] } },
        { "type": "obstacle_points", "mesh": "meshes/marks.pt",
          "transform": { "rotation_degrees": [0, 0, 90], "translation": [2, 0, 0] } },
        { "type": "obstacle_points", "mesh": "meshes/marks.pt",
          "transform": { "rotation_degrees": [90, 0, 90], "translation": [3, 0, 0] } },
        { "type": "shell", "name": "cloth",
          "vertices": [[-0.2, 0.3, -0.2], [0, 0.3, -0.2], [0.2, 0.3, -0.2],
                       [-0.2, 0.3, 0], [0, 0.3, 0], [0.2, 0.3, 0],
                       [-0.2, 0.3, 0.2], [0, 0.3, 0.2], [0.2, 0.3, 0.2]],
          "faces": [[0, 3, 1], [1, 3, 4], [1, 4, 2], [2, 4, 5], [3, 6, 4], [4, 6, 7], [4, 7, 5], [5, 7, 8]],
          "material": { "density": 200, "thickness": 0.001 }, "contact_radius": 0.0005 },
        { "type": "obstacle", "name": "plate",
          "vertices": [[-0.1, 0.5, -0.1], [0.1, 0.5, -0.1], [0.1, 0.5, 0.1], [-0.1, 0.5, 0.1]],
          "faces": [[0, 2, 1], [0, 3, 2]] },
        { "type": "rod", "mesh": "meshes/rod.seg", "transform": { "translation": [0, 0.8, 0] },
          "material": { "radius": 0.002 }, "angular_velocity": [0, 0, 1] }
      ],
      "fixed": [
        { "body": 4, "box": { "min": [-0.21, 0.29, -0.21], "max": [-0.19, 0.31, -0.19] } },
        { "body": 4, "box": { "min": [0.19, 0.29, -0.21], "max": [0.21, 0.31, -0.19] } }
      ],
      "scripted": [
        { "body": 5, "vertices": [0, 1, 2, 3],
          "motion": [ { "velocity": [0, -0.1, 0], "end": 1.0 },
                      { "begin": 1.0, "angular_velocity": [0, 3.14, 0], "center": [0, 0.4, 0] } ] }
      ],
      "release": { "axis": "y", "above": 0.2 }
    })");
    const Scene s = read_scene_file((dir / "scene.json").string());
    const Model& m = s.model;
    REQUIRE(m.bodies.size() == 7);
    REQUIRE(m.num_vertices() == 8 + 4 + 2 + 2 + 9 + 4 + 3);
    CHECK(s.name == "meshes");
    CHECK(s.physics.dt == 0.02);
    CHECK(s.physics.friction == 0.3);
    CHECK(s.physics.contact_gap == ScenePhysics {}.contact_gap);
    CHECK(s.frames == Scene {}.frames);

    // The cube: scaled by 0.1 and lifted by 5 cm; corner x + 2y + 4z.
    CHECK(sf_same(m.positions.row(7), Eigen::RowVector3d(0.1, 0.1 + 0.05, 0.1)));
    CHECK(sf_same(m.positions.row(2), Eigen::RowVector3d(0, 0.1 + 0.05, 0)));
    CHECK(m.tets.size() == 5);
    const auto& cube = std::get<VolumeMaterial>(m.bodies[0].material);
    CHECK(cube.model == VolumeModel::neo_hookean);
    CHECK(cube.density == 500);
    CHECK(cube.young == 2e4);
    CHECK(cube.poisson == 0.3);
    CHECK(m.bodies[0].contact_radius == 0.001); // offset / 2
    CHECK(sf_same(m.velocities.row(3), Eigen::RowVector3d(0, -1, 0)));
    CHECK(std::abs(m.mass.head(8).sum() - 500 * 1e-3) < 1e-12);

    // The board: (0, -1, -1) -> scale 0.5 -> Rz(90): (x, y, z) -> (-y, x, z).
    CHECK(sf_same(m.positions.row(8), Eigen::RowVector3d(0.5, -0.01, -0.5)));
    CHECK(sf_same(m.positions.row(10), Eigen::RowVector3d(-0.5, -0.01, 0.5)));
    CHECK(m.bodies[1].contact_radius == 0);
    // rotation_degrees [0, 0, 90] maps (1, 0, 0) to (0, 1, 0); [90, 0, 90]
    // turns about z first, then about x: (1, 0, 0) -> (0, 1, 0) -> (0, 0, 1).
    CHECK(sf_same(m.positions.row(12), Eigen::RowVector3d(2, 1, 0)));
    CHECK(sf_same(m.positions.row(13), Eigen::RowVector3d(2, 0, 1)));
    CHECK(sf_same(m.positions.row(14), Eigen::RowVector3d(3, 0, 1)));
    CHECK(sf_same(m.positions.row(15), Eigen::RowVector3d(3, -1, 0)));

    // The cloth: its material with defaults for what the file leaves out.
    const auto& cloth = std::get<ShellMaterial>(m.bodies[4].material);
    CHECK(cloth.density == 200);
    CHECK(cloth.thickness == 0.001);
    CHECK(cloth.membrane_young == ShellMaterial {}.membrane_young);
    CHECK(cloth.poisson == ShellMaterial {}.poisson);
    CHECK(m.bodies[4].contact_radius == 0.0005);
    // Fixed by boxes: its two corners at z = -0.2.
    const ipc::Index cloth0 = 16;
    std::vector<ipc::Index> fixed_cloth;
    for (ipc::Index v = cloth0; v < cloth0 + 9; ++v) {
        if (m.fixed[std::size_t(v)]) {
            fixed_cloth.push_back(v - cloth0);
        }
    }
    CHECK(fixed_cloth == std::vector<ipc::Index> { 0, 2 });

    // The plate: scripted by body-local index.
    REQUIRE(m.scripted.size() == 4);
    for (int i = 0; i < 4; ++i) {
        CHECK(m.scripted[std::size_t(i)].vertex == 25 + i);
        REQUIRE(m.scripted[std::size_t(i)].motion.segments.size() == 2);
    }
    const ScriptedMotion& plate = m.scripted[0].motion;
    CHECK(std::isinf(plate.segments[1].end));
    CHECK(plate.segments[1].angular_velocity == Eigen::Vector3d(0, 3.14, 0));
    const Eigen::Vector3d start = m.positions.row(25).transpose();
    CHECK((plate(0.5, start) - (start + Eigen::Vector3d(0, -0.05, 0))).norm() < 1e-15);
    REQUIRE(m.release.has_value());
    CHECK(m.release->axis == 1);
    CHECK(m.release->above == 0.2);

    // The rod: vertices in the order the segments walk them, spun about its
    // centre (0.1, 0.8, 0) at 1 rad/s about z.
    CHECK(sf_same(m.positions.row(29), Eigen::RowVector3d(0.2, 0.8, 0)));
    CHECK(sf_same(m.positions.row(31), Eigen::RowVector3d(0, 0.8, 0)));
    CHECK(m.rod_segments.size() == 2);
    CHECK(std::get<RodMaterial>(m.bodies[6].material).radius == 0.002);
    CHECK((m.velocities.row(29) - Eigen::RowVector3d(0, 0.1, 0)).norm() < 1e-15);
    CHECK((m.velocities.row(31) - Eigen::RowVector3d(0, -0.1, 0)).norm() < 1e-15);

    // And the scene itself survives a round trip.
    sf_check_same_scene(s, sf_reload(s));
    std::filesystem::remove_all(dir);
}

TEST_CASE("scene files: bad documents are reported with the file and the JSON path", "[examples][scene_file]")
{
    using Catch::Matchers::Contains;
    using Ptr = nlohmann::json::json_pointer;
    REQUIRE(sf_error_of(sf_small_doc()) == "(no error)");

    const auto check_error = [](const nlohmann::json& doc, const std::vector<std::string>& parts) {
        const std::string message = sf_error_of(doc);
        INFO(message);
        CHECK_THAT(message, Contains("bad_scene.json"));
        for (const std::string& part : parts) {
            CHECK_THAT(message, Contains(part));
        }
    };
    const auto with = [](const std::string& pointer, const nlohmann::json& value) {
        nlohmann::json doc = sf_small_doc();
        doc[Ptr(pointer)] = value;
        return doc;
    };
    const auto without = [](const std::string& parent, const std::string& key) {
        nlohmann::json doc = sf_small_doc();
        doc[Ptr(parent)].erase(key);
        return doc;
    };

    SECTION("missing keys and wrong types")
    {
        check_error(without("/bodies/0", "type"), { "missing required key /bodies/0/type" });
        check_error(without("", "bodies"), { "missing required key /bodies" });
        check_error(without("", "format"), { "missing required key /format" });
        check_error(with("/bodies/0/material/density", "abc"),
            { "expected a number at /bodies/0/material/density" });
        check_error(with("/bodies/0/vertices", 5), { "expected an array at /bodies/0/vertices" });
        check_error(with("/bodies/0/faces/0", nlohmann::json::array({ 0, 1 })),
            { "/bodies/0/faces/0", "3 vertex indices" });
        check_error(with("/frames", 2.5), { "expected an integer at /frames" });
        check_error(with("/frames", 10000000000LL), { "/frames", "out of the range" });
        check_error(with("/fixed/0/vertices/0", -10000000000LL), { "/fixed/0/vertices/0", "out of the range" });
        check_error(with("/format", "other"), { "/format" });
        check_error(with("/version", 2), { "/version" });
        check_error(with("/physics/termination", "sometimes"), { "/physics/termination" });
        check_error(with("/bodies/2/material/model", "rubber"), { "/bodies/2/material/model", "rubber" });
    }
    SECTION("values out of range")
    {
        check_error(with("/bodies/0/material/density", -1), { "/bodies/0/material/density must be > 0" });
        check_error(with("/bodies/0/material/thickness", 0), { "/bodies/0/material/thickness must be > 0" });
        check_error(with("/bodies/2/material/young", -5), { "/bodies/2/material/young must be > 0" });
        check_error(with("/bodies/2/material/poisson", 0.5), { "/bodies/2/material/poisson", "(-1, 0.5)" });
        check_error(with("/bodies/0/material/poisson", -1), { "/bodies/0/material/poisson", "(-1, 0.5)" });
        check_error(with("/physics/dt", 0), { "/physics/dt must be > 0" });
        check_error(with("/physics/dt", -0.01), { "/physics/dt must be > 0" });
        check_error(with("/frames", 0), { "/frames must be >= 1" });
        check_error(with("/bodies/0/contact_radius", -1e-3), { "/bodies/0/contact_radius must be >= 0" });
        check_error(with("/shapes/0/normal", nlohmann::json::array({ 0, 0, 0 })), { "/shapes/0", "normal" });
        check_error(with("/scripted/0/motion/0/begin", 0.5), { "/scripted/0/motion/0", "begin < end" });
    }
    SECTION("non-finite numbers")
    {
        check_error(with("/bodies/0/vertices/1/1", std::numeric_limits<double>::infinity()),
            { "expected a finite number at /bodies/0/vertices/1/1" });
        check_error(with("/physics/dt", std::numeric_limits<double>::quiet_NaN()),
            { "expected a finite number at /physics/dt" });
    }
    SECTION("indices out of range")
    {
        check_error(with("/bodies/0/faces/1/2", 9), { "/bodies/0/faces/1/2", "vertex index 9", "4 vertices" });
        check_error(with("/bodies/2/tets/0/3", -1), { "/bodies/2/tets/0/3", "vertex index -1" });
        check_error(with("/fixed/0/body", 7), { "/fixed/0/body", "body 7", "3 bodies" });
        check_error(with("/fixed/0/vertices/0", 4), { "/fixed/0/vertices/0", "vertex 4", "body 0", "4 vertices" });
        check_error(with("/scripted/0", nlohmann::json::parse(R"({"vertices": [12], "motion": []})")),
            { "/scripted/0/vertices/0", "vertex 12", "the scene (12 vertices)" });
        check_error(with("/fixed/0", nlohmann::json::parse(R"({"body": 0, "box": {"min": [5, 5, 5], "max": [6, 6, 6]}})")),
            { "/fixed/0/box", "no vertex" });
    }
    SECTION("unknown names")
    {
        check_error(with("/bodies/0/type", "clothh"), { "unknown body type", "clothh", "/bodies/0/type" });
        nlohmann::json typo = sf_small_doc();
        typo["bodies"][0]["materal"] = typo["bodies"][0]["material"];
        check_error(typo, { "unknown key /bodies/0/materal" });
        check_error(with("/physics/time_step", 0.01), { "unknown key /physics/time_step" });
        check_error(with("/bodies/1/material", nlohmann::json::object()), { "unknown key /bodies/1/material" });
        check_error(with("/shapes/0/type", "torus"), { "/shapes/0/type", "torus" });
    }
    SECTION("mesh files")
    {
        nlohmann::json doc = sf_small_doc();
        doc["bodies"][0].erase("vertices");
        doc["bodies"][0].erase("faces");
        doc["bodies"][0]["mesh"] = "no_such_cloth.obj";
        check_error(doc, { "/bodies/0/mesh", "no_such_cloth.obj" });
        doc["bodies"][0]["mesh"] = "cloth.msh";
        check_error(doc, { "/bodies/0/mesh", ".obj" });
        const std::filesystem::path dir = sf_temp_folder("badmesh");
        sf_write_text(dir / "broken.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 7\n");
        doc["bodies"][0]["mesh"] = "broken.obj";
        const std::string message = sf_error_of(doc, dir);
        CHECK_THAT(message, Contains("bad_scene.json") && Contains("/bodies/0/mesh") && Contains("broken.obj"));
        // Both a mesh and inline vertices.
        doc["bodies"][0]["vertices"] = sf_small_doc()["bodies"][0]["vertices"];
        check_error(doc, { "/bodies/0", "both" });
        std::filesystem::remove_all(dir);
    }
    SECTION("errors of the model and intersections")
    {
        // A degenerate (zero-area) triangle: vertex 2 on the line through 0 and 1.
        check_error(with("/bodies/0/vertices/2", nlohmann::json::array({ 0.5, 0.1, 0 })), { "/bodies/0:" });
        // The tetrahedron pierces the cloth.
        check_error(with("/bodies/2/vertices", nlohmann::json::parse("[[0.2, 0.05, 0.2], [0.5, 0.05, 0.2], [0.2, 0.3, 0.2], [0.2, 0.05, 0.5]]")),
            { "intersect in the initial configuration" });
    }
    SECTION("files on disk")
    {
        const std::filesystem::path dir = sf_temp_folder("badfile");
        const std::string broken = (dir / "broken.json").string();
        sf_write_text(broken, "{ \"format\": \"ipc-scene\", ");
        try {
            read_scene_file(broken);
            FAIL("no error");
        } catch (const ipc::invalid_argument& e) {
            CHECK_THAT(std::string(e.what()), Contains("broken.json") && Contains("JSON"));
        }
        const std::string wrong = (dir / "wrong.json").string();
        sf_write_text(wrong, with("/bodies/0/material/density", "abc").dump(2));
        try {
            read_scene_file(wrong);
            FAIL("no error");
        } catch (const ipc::invalid_argument& e) {
            CHECK_THAT(std::string(e.what()), Contains(wrong) && Contains("/bodies/0/material/density"));
        }
        CHECK_THROWS_AS(read_scene_file((dir / "absent.json").string()), ipc::invalid_argument);
        std::filesystem::remove_all(dir);
    }
}
