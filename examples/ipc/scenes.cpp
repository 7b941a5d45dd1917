// The example scenes (declared and described in scenes.hpp).

#include "scenes.hpp"

#include <common/scene_builders.hpp>

#include <ipc/core/error.hpp>

#include <cmath>
#include <string>
#include <vector>

namespace ipc::examples {

namespace {
    SolverParameters cloth_parameters(double dt, double dhat, double mu)
    {
        SolverParameters p;
        p.dt = dt;
        p.dhat = dhat;
        p.mu = mu;
        p.eps_v = 1e-3;
        p.strain_limit = 1.0608;
        return p;
    }
} // namespace

std::vector<std::string> scene_names()
{
    return { "cloth_on_sphere", "cloth_stack", "noodles", "granules", "all_in", "incline", "hanging_cloth" };
}

Scene cloth_on_sphere(bool paper)
{
    Scene s;
    s.name = "cloth_on_sphere";
    s.description = "a square cotton sheet drapes over a fixed sphere above the ground";
    s.parameters = cloth_parameters(0.04, 1e-3, 0.4);
    const int n = paper ? 99 : 16; // paper: 10K nodes
    s.model.add_shell(grid_cloth({ 0, 0.32, 0 }, 1, 1, n, n).vertices, grid_cloth({ 0, 0.32, 0 }, 1, 1, n, n).faces,
        ShellMaterial {}, 0);
    const TriangleMesh sphere = sphere_mesh({ 0, 0, 0 }, 0.3, paper ? 24 : 12, paper ? 48 : 24);
    s.model.add_obstacle(sphere.vertices, sphere.faces);
    const TriangleMesh ground = board_mesh({ 0, -0.31, 0 }, 2.5, 4);
    s.model.add_obstacle(ground.vertices, ground.faces);
    s.frames = paper ? 100 : 20;
    s.eye = { 1.2, 1.0, 1.6 };
    s.target = { 0, -0.05, 0 };
    return s;
}

Scene cloth_stack(bool paper)
{
    Scene s;
    s.name = "cloth_stack";
    s.description = "sheets dropped one above the other onto a board, then a soft ball on top";
    s.parameters = cloth_parameters(0.02, 1e-3, 0.1);
    const int sheets = paper ? 8 : 3;
    const int n = paper ? 60 : 10;
    for (int i = 0; i < sheets; ++i) {
        const TriangleMesh cloth = grid_cloth({ 0.01 * i, 0.02 + 0.015 * i, -0.01 * i }, 0.5, 0.5, n, n);
        s.model.add_shell(cloth.vertices, cloth.faces, ShellMaterial {}, 0);
    }
    const TetMesh ball = ball_tet_mesh({ 0, 0.02 + 0.015 * sheets + 0.1, 0 }, 0.08, paper ? 8 : 4);
    s.model.add_volume(ball.vertices, ball.tets, VolumeMaterial { 1000, 2e5, 0.4 }, 0);
    const TriangleMesh board = board_mesh({ 0, 0, 0 }, 0.4, 2);
    s.model.add_obstacle(board.vertices, board.faces);
    s.frames = paper ? 150 : 30;
    s.eye = { 0.7, 0.5, 0.9 };
    s.target = { 0, 0.0, 0 };
    return s;
}

Scene noodles(bool paper)
{
    Scene s;
    s.name = "noodles";
    s.description = "thick rods dropped in crossing layers into a hemispherical bowl";
    s.parameters.dt = 0.02;
    s.parameters.dhat = 5e-4;
    s.parameters.mu = 0.4;
    s.parameters.eps_v = 1e-5;
    s.offset = 1e-3;
    const double radius = 0.06925; // 13.85 cm bowl
    const TriangleMesh bowl = bowl_mesh({ 0, 0, 0 }, radius, paper ? 16 : 8, paper ? 48 : 24);
    s.model.add_obstacle(bowl.vertices, bowl.faces, 0);
    const int layers = paper ? 25 : 4, per_layer = paper ? 25 : 3, segments = paper ? 200 : 16;
    const double length = paper ? 0.4 : 0.1;
    RodMaterial material;
    material.young = 5e5;
    for (int l = 0; l < layers; ++l) {
        for (int r = 0; r < per_layer; ++r) {
            const double across = 0.08 * ((r + 0.5) / per_layer - 0.5);
            const double y = 0.01 + 0.006 * l;
            Eigen::Vector3d a(-length / 2, y, across), b(length / 2, y, across);
            if (l % 2 == 1) {
                a = { across, y, -length / 2 };
                b = { across, y, length / 2 };
            }
            s.model.add_rod(rod_polyline(a, b, segments), material, s.offset / 2);
        }
    }
    s.frames = paper ? 150 : 30;
    s.eye = { 0.12, 0.18, 0.22 };
    s.target = { 0, -0.02, 0 };
    return s;
}

Scene granules(bool paper)
{
    Scene s;
    s.name = "granules";
    s.description = "a block of particles dropped onto a cloth held at its four corners";
    s.parameters = cloth_parameters(0.01, 1e-3, 0.05);
    s.offset = 2e-3;
    const int n = paper ? 80 : 12;
    const double size = 0.3;
    const TriangleMesh cloth = grid_cloth({ 0, 0, 0 }, size, size, n, n);
    const Index base = s.model.add_shell(cloth.vertices, cloth.faces, ShellMaterial {}, s.offset / 2);
    for (const Index corner : { Index(0), Index(n), Index(n * (n + 1)), Index((n + 1) * (n + 1) - 1) }) {
        s.model.fix(base + corner);
    }
    const int k = paper ? 30 : 5;
    const double spacing = 4e-3;
    s.model.add_particles(particle_lattice({ -spacing * (k - 1) / 2, 0.006, -spacing * (k - 1) / 2 }, spacing, k, paper ? 50 : 4, k),
        ParticleMaterial {}, s.offset / 2);
    s.frames = paper ? 200 : 30;
    s.eye = { 0.25, 0.22, 0.35 };
    s.target = { 0, -0.03, 0 };
    return s;
}

Scene all_in(bool paper)
{
    Scene s;
    s.name = "all_in";
    s.description = "a soft ball, a cloth, rods and particles dropped onto the ground together";
    s.parameters = cloth_parameters(0.02, 1e-3, 0.2);
    s.offset = 5e-4;
    const double r = s.offset / 2;
    const TriangleMesh ground = board_mesh({ 0, 0, 0 }, 1.0, 2);
    s.model.add_obstacle(ground.vertices, ground.faces, 0);
    const TetMesh ball = ball_tet_mesh({ 0, 0.07, 0 }, 0.06, paper ? 10 : 4);
    s.model.add_volume(ball.vertices, ball.tets, VolumeMaterial { 1000, 1e5, 0.4 }, r);
    const int n = paper ? 60 : 10;
    const TriangleMesh cloth = grid_cloth({ 0, 0.16, 0 }, 0.3, 0.3, n, n);
    s.model.add_shell(cloth.vertices, cloth.faces, ShellMaterial {}, r);
    RodMaterial rod;
    rod.radius = 1e-3;
    const int rods = paper ? 12 : 4;
    for (int i = 0; i < rods; ++i) {
        const double across = 0.2 * ((i + 0.5) / rods - 0.5);
        s.model.add_rod(rod_polyline({ -0.12, 0.19, across }, { 0.12, 0.19, across }, paper ? 60 : 12), rod, r);
        s.model.add_rod(rod_polyline({ across, 0.2, -0.12 }, { across, 0.2, 0.12 }, paper ? 60 : 12), rod, r);
    }
    const int k = paper ? 10 : 3;
    s.model.add_particles(particle_lattice({ -0.01, 0.22, -0.01 }, 0.01, k, paper ? 40 : 4, k), ParticleMaterial {}, r);
    s.frames = paper ? 200 : 40;
    s.eye = { 0.3, 0.27, 0.4 };
    s.target = { 0.02, 0.04, 0 };
    s.shell_opacity = 0.35; // the soft ball lies under the cloth
    return s;
}

Scene incline(double angle, double mu)
{
    Scene s;
    s.name = "incline";
    s.description = "a soft block resting on a tilted board, held by friction (for the tests)";
    s.parameters.dt = 0.01;
    s.parameters.dhat = 1e-3;
    s.parameters.mu = mu;
    s.parameters.eps_v = 1e-4;
    s.parameters.friction_iterations = 3;
    // Board and block tilted about z; the board's normal is R (0, 1, 0).
    const TriangleMesh board = board_mesh({ 0, 0, 0 }, 1.0, 2, angle);
    s.model.add_obstacle(board.vertices, board.faces);
    TetMesh block = box_tet_mesh({ -0.05, 0.0015, -0.05 }, { 0.05, 0.0515, 0.05 }, 2, 1, 2);
    const Eigen::Matrix3d R = Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    for (Index i = 0; i < block.vertices.rows(); ++i) {
        block.vertices.row(i) = (R * block.vertices.row(i).transpose()).transpose();
    }
    s.model.add_volume(block.vertices, block.tets, VolumeMaterial { 1000, 1e6, 0.3 }, 0);
    s.frames = 30;
    s.eye = { 0.3, 0.3, 0.5 };
    return s;
}

Scene hanging_cloth(bool paper)
{
    Scene s;
    s.name = "hanging_cloth";
    s.description = "a cloth pinned at two corners hanging under gravity, strain limited";
    s.parameters = cloth_parameters(0.04, 1e-3, 0);
    const int n = paper ? 40 : 8;
    const TriangleMesh cloth = grid_cloth({ 0, 0, 0 }, 0.4, 0.4, n, n);
    const Index base = s.model.add_shell(cloth.vertices, cloth.faces, ShellMaterial {}, 0);
    s.model.fix(base);
    s.model.fix(base + n);
    s.frames = 20;
    s.eye = { 0.5, 0.2, 0.8 };
    s.target = { 0, -0.2, 0 };
    return s;
}

Scene make_scene(const std::string& name, bool paper)
{
    if (name == "cloth_on_sphere") {
        return cloth_on_sphere(paper);
    }
    if (name == "cloth_stack") {
        return cloth_stack(paper);
    }
    if (name == "noodles") {
        return noodles(paper);
    }
    if (name == "granules") {
        return granules(paper);
    }
    if (name == "all_in") {
        return all_in(paper);
    }
    if (name == "incline") {
        return incline(0.3, 0.5);
    }
    if (name == "hanging_cloth") {
        return hanging_cloth(paper);
    }
    std::string known;
    for (const auto& n : scene_names()) {
        known += " " + n;
    }
    throw invalid_argument("unknown scene '" + name + "'; known scenes:" + known);
}

} // namespace ipc::examples
