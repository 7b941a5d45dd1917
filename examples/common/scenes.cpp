// The example scenes (declared and described in scenes.hpp).

#include "scenes.hpp"

#include <common/scene_builders.hpp>

#include <ipc/core/error.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <string>
#include <vector>

namespace ipc::examples {

namespace {
    ScenePhysics cloth_physics(double dt, double gap, double mu)
    {
        ScenePhysics p;
        p.dt = dt;
        p.contact_gap = gap;
        p.friction = mu;
        p.eps_v = 1e-3;
        p.strain_limit = 1.0608;
        return p;
    }

    /// Soft bodies in contact: time step dt, friction mu, dhat/delta 1 mm.
    ScenePhysics soft_physics(double dt, double mu)
    {
        ScenePhysics p;
        p.dt = dt;
        p.friction = mu;
        p.eps_v = 1e-3;
        return p;
    }

    /// Motion by a piecewise linear offset through the keys (time in s,
    /// offset in m; the first offset is zero), held after the last key.
    ScriptedMotion offset_path(const std::vector<std::pair<double, Eigen::Vector3d>>& keys)
    {
        require(!keys.empty() && keys.front().second.isZero(), "offset_path: the first offset must be zero");
        ScriptedMotion motion;
        for (std::size_t i = 1; i < keys.size(); ++i) {
            MotionSegment s;
            s.begin = keys[i - 1].first;
            s.end = keys[i].first;
            s.velocity = (keys[i].second - keys[i - 1].second) / (s.end - s.begin);
            motion.segments.push_back(s);
        }
        return motion;
    }

    /// Adds a plate (a board facing down when facing_down, else up) whose
    /// vertices follow path (an obstacle of 2 x 2 quads).
    void add_moving_plate(Model& model, const Eigen::Vector3d& center, double size, bool facing_down, const ScriptedMotion& path)
    {
        const Eigen::Vector3d X(size, 0, 0), Z(0, 0, size);
        const Eigen::Vector3d lo = center - X / 2 - Z / 2;
        const TriangleMesh plate = facing_down ? quad_patch(lo, X, Z, 2, 2) : quad_patch(lo, Z, X, 2, 2);
        const Index base = model.add_obstacle(plate.vertices, plate.faces);
        for (Index i = 0; i < plate.vertices.rows(); ++i) {
            model.script(base + i, path);
        }
    }
    /// The resolution n >= 1 whose vertex count count(n) (growing with n)
    /// is nearest target, as a ratio.
    template <typename Count> int nearest_resolution(Index target, const Count& count)
    {
        int lo = 1, hi = 1; // double hi until it reaches the target, then bisect
        while (count(hi) < target) {
            lo = hi + 1;
            hi *= 2;
        }
        while (lo < hi) { // the least n with count(n) >= target
            const int mid = lo + (hi - lo) / 2;
            if (count(mid) >= target) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        if (lo > 1 && double(target) * double(target) < double(count(lo)) * double(count(lo - 1))) {
            return lo - 1;
        }
        return lo;
    }

    /// The resolution of a sized scene: small_n or paper_n for those sizes,
    /// else the one nearest the paper's vertex count (full) or the count
    /// asked, where count(n) is the scene's vertex count at resolution n.
    template <typename Count>
    int resolution_for(const SceneSize& size, int small_n, int paper_n, Index paper_vertices, const Count& count)
    {
        switch (size.kind) {
        case SceneSize::Kind::small:
            return small_n;
        case SceneSize::Kind::paper:
            return paper_n;
        case SceneSize::Kind::full:
            return nearest_resolution(paper_vertices, count);
        case SceneSize::Kind::vertices:
            break;
        }
        return nearest_resolution(size.vertices, count);
    }

    Index ball_vertices(int n) { return ball_tet_mesh({ 0, 0, 0 }, 1, n).vertices.rows(); }
} // namespace

SceneSize SceneSize::about(Index n)
{
    require(n > 0 && n <= 100'000'000, "SceneSize: a scene of ", n, " vertices; ask for 1 to 100,000,000");
    return { Kind::vertices, n };
}

SceneSize SceneSize::parse(const std::string& text)
{
    if (text == "small") {
        return small();
    }
    if (text == "paper") {
        return paper();
    }
    if (text == "full") {
        return full();
    }
    const bool digits = !text.empty() && text.size() <= 9
        && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    require(digits && std::stoll(text) > 0 && std::stoll(text) <= 100'000'000, "scene size '", text,
        "': give small, paper, full or a number of vertices from 1 to 100000000");
    return about(Index(std::stoll(text)));
}

std::string SceneSize::label() const
{
    switch (kind) {
    case Kind::small:
        return "small";
    case Kind::paper:
        return "paper";
    case Kind::full:
        return "full";
    case Kind::vertices:
        break;
    }
    return std::to_string(vertices);
}

std::vector<std::string> sized_scene_names() { return { "chains", "press", "well" }; }

std::vector<std::string> scene_names()
{
    return { "cloth_on_sphere", "cloth_stack", "noodles", "granules", "all_in", "incline", "hanging_cloth", "bar_drop",
        "momentum", "arch", "chains", "press", "well", "compress", "twist_cloth", "free_fall", "pile" };
}

Scene cloth_on_sphere(bool paper)
{
    Scene s;
    s.name = "cloth_on_sphere";
    s.description = "a square cotton sheet drapes over a fixed sphere above the ground";
    s.physics = cloth_physics(0.04, 1e-3, 0.4);
    const int n = paper ? 99 : 16; // paper: 10K nodes
    s.model.add_shell(grid_cloth({ 0, 0.32, 0 }, 1, 1, n, n).vertices, grid_cloth({ 0, 0.32, 0 }, 1, 1, n, n).faces,
        ShellMaterial {}, 0);
    const TriangleMesh sphere = sphere_mesh({ 0, 0, 0 }, 0.3, paper ? 24 : 12, paper ? 48 : 24);
    s.model.add_obstacle(sphere.vertices, sphere.faces);
    s.model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, -0.31, 0 }, { 0, 1, 0 } }, 1.25); // the ground
    s.shapes = { { ipc::SphereObstacle { { 0, 0, 0 }, 0.3 } } };
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
    s.physics = cloth_physics(0.02, 1e-3, 0.1);
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
    // The board as a slab whose top is the board and whose rim is rounded
    // (2 cm radius), so that cloth can drape over its edges.
    s.shapes = { { ipc::BoxObstacle { { 0, -0.02, 0 }, { 0.18, 0, 0.18 }, 0.02 } } };
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
    s.physics.dt = 0.02;
    s.physics.contact_gap = 5e-4;
    s.physics.friction = 0.4;
    s.physics.eps_v = 1e-5;
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
    s.physics = cloth_physics(0.01, 1e-3, 0.05);
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
    s.physics = cloth_physics(0.02, 1e-3, 0.2);
    s.offset = 5e-4;
    const double r = s.offset / 2;
    s.model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, 0, 0 }, { 0, 1, 0 } }, 0.5); // the ground
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
    s.physics.dt = 0.01;
    s.physics.contact_gap = 1e-3;
    s.physics.friction = mu;
    s.physics.eps_v = 1e-5;
    // The slope (a plane) and the block tilted about z; the normal is R (0, 1, 0).
    const Eigen::Matrix3d R = Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    s.model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, 0, 0 }, R * Eigen::Vector3d::UnitY() }, 0.5);
    TetMesh block = box_tet_mesh({ -0.05, 0.0015, -0.05 }, { 0.05, 0.0515, 0.05 }, 2, 1, 2);
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
    s.physics = cloth_physics(0.04, 1e-3, 0);
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

Scene bar_drop(int problem)
{
    require(problem == 1 || problem == 2, "bar_drop: problem ", problem, " is not 1 or 2");
    Scene s;
    s.name = "bar_drop";
    s.description = "a vertical elastic bar thrown down onto a board without gravity (AL paper Fig. 7)";
    s.physics.dt = 1e-3;
    s.physics.contact_gap = 1e-6;
    s.model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, 0, 0 }, { 0, 1, 0 } }, 0.1); // the board
    // Away from the drawn board's diagonal and edges.
    const double bottom = problem == 1 ? 0.05 : 0.02;
    RodMaterial material;
    material.young = 1e4;
    const Index base = s.model.add_rod(rod_polyline({ -0.05, bottom, -0.05 }, { -0.05, bottom + 0.5, -0.05 }, 10), material, 0);
    if (problem == 1) {
        s.model.gravity.setZero();
        for (Index v = base; v < s.model.num_vertices(); ++v) {
            s.model.velocities.row(v) = Eigen::RowVector3d(0, -1, 0);
        }
    }
    s.frames = 300;
    s.eye = { 0.6, 0.4, 0.9 };
    s.target = { 0, 0.2, 0 };
    return s;
}

Scene momentum(bool paper)
{
    Scene s;
    s.name = "momentum";
    s.description = "a soft block thrown into a lighter one without gravity, mu = 0.5 (momentum is kept)";
    s.physics = soft_physics(0.01, 0.5);
    s.model.gravity.setZero();
    const int n = paper ? 6 : 2;
    const TetMesh a = box_tet_mesh({ -0.12, 0, 0 }, { -0.02, 0.1, 0.1 }, n, n, n);
    const TetMesh b = box_tet_mesh({ 0.02, 0.03, 0.02 }, { 0.12, 0.13, 0.12 }, n, n, n);
    s.model.add_volume(a.vertices, a.tets, VolumeMaterial { 1000, 1e5, 0.3 }, 0);
    const Index second = s.model.add_volume(b.vertices, b.tets, VolumeMaterial { 500, 1e5, 0.3 }, 0);
    for (Index v = 0; v < s.model.num_vertices(); ++v) {
        s.model.velocities.row(v) = v < second ? Eigen::RowVector3d(2, 0.3, 0) : Eigen::RowVector3d(-1, 0, 0);
    }
    s.frames = 30;
    s.eye = { 0.1, 0.3, 0.5 };
    s.target = { 0.05, 0.05, 0.05 };
    return s;
}

Scene arch(bool paper, double mu)
{
    Scene s;
    s.name = "arch";
    s.description = "a semicircular arch of stiff blocks, the two bottom ones fixed: stands with mu = 0.5";
    s.physics.dt = 0.01;
    s.physics.friction = mu;
    s.physics.eps_v = 1e-5;
    const int blocks = paper ? 21 : 11;
    for (int k = 0; k < blocks; ++k) {
        const TetMesh block = voussoir_tet_mesh({ 0, 0, 0 }, 0.5, 0.65, 0.2, blocks, k, 2e-3);
        const Index base = s.model.add_volume(block.vertices, block.tets, VolumeMaterial { 2000, 1e8, 0.3 }, 0);
        if (k == 0 || k == blocks - 1) {
            for (Index v = 0; v < block.vertices.rows(); ++v) {
                s.model.fix(base + v);
            }
        }
    }
    s.frames = 50;
    s.eye = { 0.4, 0.6, 1.8 };
    s.target = { 0, 0.3, 0 };
    return s;
}

Scene chains(const SceneSize& size)
{
    Scene s;
    s.name = "chains";
    s.description = "three chains of soft interlocked rings in a box, crushed by a lid that comes down and goes up "
                    "(AL paper Fig. 3 setup: --size paper is 2,050 vertices, 1/25 of the paper's, full 99 %)";
    // AL paper Table 2: corotated, rho 1e3, E 1e5, nu 0.3, h 0.02, delta 2e-4, frictionless.
    s.physics = soft_physics(0.02, 0);
    s.physics.contact_gap = 2e-4;
    const VolumeMaterial material { 1000, 1e5, 0.3, VolumeModel::fixed_corotated };
    const double R = 0.03, half_side = 0.004, pitch = 1.5 * R;
    const bool small = size.kind == SceneSize::Kind::small;
    const int rings = small ? 5 : 7;
    // Resolution n: a cross-section of n x n squares and 24 n segments
    // (about cubic cells); 21 rings of 24 n (n + 1)^2 vertices, plus the
    // box's 25 and the lid's 9.
    const int n = resolution_for(size, 1, 1, 51'000, [](int k) { return Index(21) * 24 * k * (k + 1) * (k + 1) + 34; });
    const int segments = small ? 12 : 24 * n;
    const Eigen::Vector3d X = Eigen::Vector3d::UnitX(), Y = Eigen::Vector3d::UnitY(), Z = Eigen::Vector3d::UnitZ();
    for (int c = 0; c < 3; ++c) {
        // Chains at three heights, the middle one across the other two.
        const Eigen::Vector3d along = c == 1 ? Z : X, side = c == 1 ? X : Z;
        const double y = 0.045 + 0.075 * c;
        for (int r = 0; r < rings; ++r) {
            const Eigen::Vector3d center = Eigen::Vector3d(0, y, 0) + (r - (rings - 1) / 2.0) * pitch * along;
            // Alternately lying flat and standing up, each through its neighbours' holes.
            const TetMesh ring = ring_tet_mesh(center, along, r % 2 == 0 ? side : Y, R, half_side, segments, n);
            s.model.add_volume(ring.vertices, ring.tets, material, 0);
        }
    }
    const double box = pitch * (rings - 1) + 2 * R + 0.06;
    const TriangleMesh walls = open_box_mesh({ 0, 0, 0 }, box, box, 0.3, 2);
    s.model.add_obstacle(walls.vertices, walls.faces);
    // The lid comes down to 6 cm above the floor, stays, and goes back up.
    add_moving_plate(s.model, { 0, 0.25, 0 }, box - 0.01, true,
        offset_path({ { 0.05, { 0, 0, 0 } }, { 0.35, { 0, -0.19, 0 } }, { 0.5, { 0, -0.19, 0 } }, { 0.7, { 0, 0, 0 } } }));
    s.frames = 40;
    s.eye = { 0.35, 0.45, 0.5 };
    s.target = { 0, 0.06, 0 };
    return s;
}

Scene chains(bool paper) { return chains(paper ? SceneSize::paper() : SceneSize::small()); }

Scene press(const SceneSize& size)
{
    Scene s;
    s.name = "press";
    s.description = "soft balls on the ground crushed by a moving plate to a third of their height, then released "
                    "(AL paper Fig. 1 setup: --size paper is 2,314 vertices, 1/376 of the paper's, full 101 %)";
    // AL paper Table 2: corotated, rho 1e2, E 1e4, nu 0.4, h 0.01, delta 1e-3, frictionless.
    s.physics = soft_physics(0.01, 0);
    const VolumeMaterial material { 100, 1e4, 0.4, VolumeModel::fixed_corotated };
    const double r = 0.05;
    const int balls = size.kind == SceneSize::Kind::small ? 4 : 5;
    // Resolution n: blocky balls from an n^3 grid; 5 balls and the plate's 9 vertices.
    const int n = resolution_for(size, 4, 8, 870'000, [](int k) { return 5 * ball_vertices(k) + 9; });
    for (int b = 0; b < balls; ++b) {
        const TetMesh ball = ball_tet_mesh({ (b - (balls - 1) / 2.0) * 2.2 * r, r + 2e-3, 0 }, r, n);
        s.model.add_volume(ball.vertices, ball.tets, material, 0);
    }
    s.model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, 0, 0 }, { 0, 1, 0 } }, 0.3); // the ground
    const double top = 2 * r + 0.012;
    add_moving_plate(s.model, { 0, top, 0 }, 0.5, true,
        offset_path({ { 0.0, { 0, 0, 0 } }, { 0.3, { 0, 2 * r / 3 - top, 0 } }, { 0.4, { 0, 2 * r / 3 - top, 0 } },
            { 0.6, { 0, 0, 0 } } }));
    s.frames = 70;
    s.eye = { 0.25, 0.3, 0.45 };
    s.target = { 0, 0.03, 0 };
    return s;
}

Scene press(bool paper) { return press(paper ? SceneSize::paper() : SceneSize::small()); }

Scene well(const SceneSize& size)
{
    Scene s;
    s.name = "well";
    s.description = "a dozen soft balls and blocks thrown down a narrow well at 19.7 m/s "
                    "(AL paper Fig. 4 setup: --size paper is 3,541 vertices, 1/121 of the paper's, full 98 %)";
    // AL paper Table 2: stable neo-Hookean, rho 1e3, E 5e5, nu 0.3, h 0.01, delta 1e-3, frictionless.
    s.physics = soft_physics(0.01, 0);
    const VolumeMaterial material { 1000, 5e5, 0.3, VolumeModel::stable_neo_hookean };
    const double speed = 19.7; // the paper's top objects land at this speed
    const double width = 0.24;
    const TriangleMesh well_mesh = open_box_mesh({ 0, 0, 0 }, width, width, 1.0, 2);
    s.model.add_obstacle(well_mesh.vertices, well_mesh.faces);
    // Resolution n: balls from an n^3 grid, blocks of (n / 2)^3 cubes; 6 of
    // each and the well's 25 vertices.
    const auto block_cells = [](int k) { return std::max(1, k / 2); };
    const int n = resolution_for(size, 4, 8, 430'000, [&](int k) {
        const Index side = block_cells(k) + 1;
        return 6 * ball_vertices(k) + 6 * side * side * side + 25;
    });
    const int m = block_cells(n);
    const int levels = 6;
    for (int l = 0; l < levels; ++l) {
        for (int side = 0; side < 2; ++side) {
            const double across = side == 0 ? -0.06 : 0.06;
            const Eigen::Vector3d c = l % 2 == 0 ? Eigen::Vector3d(across, 0.07 + 0.13 * l, 0.01 * side)
                                                 : Eigen::Vector3d(0.01 * side, 0.07 + 0.13 * l, across);
            const TetMesh body = (l + side) % 2 == 0 ? ball_tet_mesh(c, 0.05, n)
                                                     : box_tet_mesh(c - Eigen::Vector3d::Constant(0.045),
                                                         c + Eigen::Vector3d::Constant(0.045), m, m, m);
            const Index base = s.model.add_volume(body.vertices, body.tets, material, 0);
            for (Index v = base; v < s.model.num_vertices(); ++v) {
                s.model.velocities.row(v) = Eigen::RowVector3d(0, -speed, 0);
            }
        }
    }
    s.frames = 30;
    s.eye = { 0.5, 1.1, 0.9 };
    s.target = { 0, 0.2, 0 };
    return s;
}

Scene well(bool paper) { return well(paper ? SceneSize::paper() : SceneSize::small()); }

Scene compress(bool paper)
{
    Scene s;
    s.name = "compress";
    s.description = "a soft sphere squeezed between two plates to 40% of its diameter, no gravity";
    s.physics.dt = 0.01;
    s.physics.contact_gap = 1e-3;
    s.model.gravity.setZero();
    const double r = 0.1;
    const TetMesh ball = ball_tet_mesh({ 0, 0, 0 }, r, paper ? 10 : 6);
    s.model.add_volume(ball.vertices, ball.tets, VolumeMaterial { 1000, 1e5, 0.45 }, 0);
    // The blocky ball spans [-r, r] in y; each plate starts 2 mm away.
    const double start = r + 2e-3, travel = start - 0.4 * r;
    add_moving_plate(s.model, { 0, start, 0 }, 0.5, true, offset_path({ { 0, { 0, 0, 0 } }, { 0.4, { 0, -travel, 0 } } }));
    add_moving_plate(s.model, { 0, -start, 0 }, 0.5, false, offset_path({ { 0, { 0, 0, 0 } }, { 0.4, { 0, travel, 0 } } }));
    s.frames = 50;
    s.eye = { 0.3, 0.25, 0.5 };
    return s;
}

Scene twist_cloth(bool paper)
{
    Scene s;
    s.name = "twist_cloth";
    s.description = "a square cloth whose left and right edges turn in opposite directions at 180 degrees/s";
    s.physics = cloth_physics(0.04, 1e-3, 0);
    s.physics.strain_limit.reset(); // the twist must stretch the cloth near its held edges
    s.model.gravity.setZero();
    const int n = paper ? 40 : 16;
    const TriangleMesh cloth = grid_cloth({ 0, 0, 0 }, 1, 1, n, n);
    const Index base = s.model.add_shell(cloth.vertices, cloth.faces, ShellMaterial {}, 0);
    for (const int side : { -1, 1 }) {
        const ScriptedMotion turn = rotation({ side * pi, 0, 0 }, Eigen::Vector3d::Zero());
        for (int j = 0; j <= n; ++j) {
            s.model.script(base + j * (n + 1) + (side < 0 ? 0 : n), turn);
        }
    }
    s.frames = 25;
    s.eye = { 0.6, 0.9, 1.6 };
    return s;
}

Scene free_fall(bool paper)
{
    Scene s;
    s.name = "free_fall";
    s.description = "a horizontal sheet falls freely for half a second (speed g t)";
    s.physics = cloth_physics(0.04, 1e-3, 0);
    const int n = paper ? 100 : 10;
    const TriangleMesh cloth = grid_cloth({ 0, 0, 0 }, 0.5, 0.5, n, n);
    s.model.add_shell(cloth.vertices, cloth.faces, ShellMaterial {}, 0);
    s.frames = 12;
    s.eye = { 0.8, 0.2, 1.8 };
    s.target = { 0, -0.6, 0 };
    return s;
}

Scene pile(bool paper)
{
    Scene s;
    s.name = "pile";
    s.description = "a long upright strip of cloth dropped onto the ground folds into a heap";
    s.physics = cloth_physics(0.02, 1e-3, 0.2);
    const double width = 0.2, length = paper ? 2.0 : 1.0;
    const int nw = paper ? 40 : 5, nl = paper ? 400 : 25;
    // Upright: the strip's long side along y, bottom edge 2 cm above the
    // ground, leaning 0.1 rad about z so that it folds one way.
    TriangleMesh strip = grid_cloth({ 0, 0, 0 }, width, length, nw, nl);
    const Eigen::Matrix3d upright = (Eigen::AngleAxisd(0.1, Eigen::Vector3d::UnitZ())
        * Eigen::AngleAxisd(-pi / 2, Eigen::Vector3d::UnitX())).toRotationMatrix();
    for (Index v = 0; v < strip.vertices.rows(); ++v) {
        strip.vertices.row(v) = (upright * strip.vertices.row(v).transpose()).transpose();
    }
    strip.vertices.col(1).array() += 0.02 - strip.vertices.col(1).minCoeff();
    s.model.add_shell(strip.vertices, strip.faces, ShellMaterial {}, 0);
    s.model.add_analytic_obstacle(ipc::PlaneObstacle { { 0, 0, 0 }, { 0, 1, 0 } }, 0.8); // the ground
    s.frames = paper ? 100 : 40;
    s.eye = { 1.0, 0.8, 1.4 };
    s.target = { 0, 0.1, 0 };
    return s;
}

Scene make_scene(const std::string& name, const SceneSize& size)
{
    if (name == "chains") {
        return chains(size);
    }
    if (name == "press") {
        return press(size);
    }
    if (name == "well") {
        return well(size);
    }
    if (size.kind == SceneSize::Kind::full || size.kind == SceneSize::Kind::vertices) {
        std::string sized;
        for (const auto& n : sized_scene_names()) {
            sized += " " + n;
        }
        // An unknown name is reported as such below.
        const auto names = scene_names();
        if (std::find(names.begin(), names.end(), name) != names.end()) {
            throw invalid_argument("scene '" + name + "' has the sizes small and paper; size '" + size.label()
                + "' (the paper's vertex count or a vertex count) is for the scenes:" + sized);
        }
    }
    return make_scene(name, size.kind == SceneSize::Kind::paper);
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
        return incline(std::atan(0.5), 0.5);
    }
    if (name == "hanging_cloth") {
        return hanging_cloth(paper);
    }
    if (name == "bar_drop") {
        return bar_drop(1);
    }
    if (name == "momentum") {
        return momentum(paper);
    }
    if (name == "arch") {
        return arch(paper);
    }
    if (name == "chains") {
        return chains(paper);
    }
    if (name == "press") {
        return press(paper);
    }
    if (name == "well") {
        return well(paper);
    }
    if (name == "compress") {
        return compress(paper);
    }
    if (name == "free_fall") {
        return free_fall(paper);
    }
    if (name == "pile") {
        return pile(paper);
    }
    if (name == "twist_cloth") {
        return twist_cloth(paper);
    }
    std::string known;
    for (const auto& n : scene_names()) {
        known += " " + n;
    }
    throw invalid_argument("unknown scene '" + name + "'; known scenes:" + known);
}

} // namespace ipc::examples
