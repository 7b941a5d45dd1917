#include <catch2/catch.hpp>

#include <common/ipc_script.hpp>
#include <common/mesh_files.hpp>

#include <ipc/ipc_scenes.hpp>
#include <ipc/solver.hpp>

#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/core/math.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace ipc::examples;

namespace {

namespace ipcs_fs = std::filesystem;

/// The paper data folder, or empty (with a WARN) when IPC_PAPER_SCENES is
/// unset or missing.
std::string ipcs_paper_dir()
{
    const char* env = std::getenv("IPC_PAPER_SCENES");
    if (env == nullptr || !ipcs_fs::is_directory(ipcs_fs::path(env) / "input" / "paperExamples")) {
        return {};
    }
    return env;
}

/// A temporary folder, removed at the end of the test.
struct IpcsTempDir {
    ipcs_fs::path path;
    IpcsTempDir()
    {
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        path = ipcs_fs::temp_directory_path() / ("ipc_script_test_" + std::to_string(stamp));
        ipcs_fs::create_directories(path);
    }
    ~IpcsTempDir()
    {
        std::error_code ec;
        ipcs_fs::remove_all(path, ec);
    }
    std::string write(const std::string& name, const std::string& text) const
    {
        const ipcs_fs::path p = path / name;
        ipcs_fs::create_directories(p.parent_path());
        std::ofstream(p) << text;
        return p.string();
    }
};

const char* const ipcs_tet_msh = R"($MeshFormat
4.1 0 8
$EndMeshFormat
$Nodes
1 4 1 4
3 0 0 4
1
2
3
4
0 0 0
1 0 0
0 0 1
0 1 0
$EndNodes
$Elements
1 1 1 1
3 0 4 1
1 1 4 3 2
$EndElements
$Surface
4
1 3 4
1 2 3
1 4 2
2 4 3
$EndSurface
)";

const char* const ipcs_triangle_obj = "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 3 2\n";
const char* const ipcs_edge_seg = "v 0 0 0\nv 1 0 0\ns 1 2\n";

/// Writes the tiny meshes into dir/meshes.
void ipcs_write_meshes(const IpcsTempDir& dir)
{
    dir.write("meshes/tet.msh", ipcs_tet_msh);
    dir.write("meshes/tri.obj", ipcs_triangle_obj);
    dir.write("meshes/edge.seg", ipcs_edge_seg);
    dir.write("meshes/fallback.obj", ipcs_triangle_obj);
}

/// Rows [first, first + count) of the model's positions.
Eigen::MatrixXd ipcs_body_positions(const Model& model, std::size_t body)
{
    const auto& b = model.bodies.at(body);
    return model.positions.middleRows(b.first_vertex, b.num_vertices);
}

const ScriptedMotion* ipcs_motion_of(const Model& model, ipc::Index v)
{
    for (const auto& s : model.scripted) {
        if (s.vertex == v) {
            return &s.motion;
        }
    }
    return nullptr;
}

bool ipcs_has_warning(const IpcScriptImport& r, const std::string& part)
{
    return std::any_of(r.warnings.begin(), r.warnings.end(),
        [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

} // namespace

TEST_CASE("IPC paper scripts load with the spec's check values", "[ipc_script]")
{
    const std::string root = ipcs_paper_dir();
    if (root.empty()) {
        WARN("IPC_PAPER_SCENES is unset or has no input/paperExamples: paper scripts skipped");
        return;
    }
    struct Check {
        double f, f_tol, lift, lift_tol, l, l_tol;
    };
    const Check spike { 1.0 / 3, 5e-6, 0.5528, 5e-5, 1.10554, 5e-6 };
    const Check wedge { 1.0 / 3, 5e-6, 0.6236, 5e-5, 1.24722, 5e-6 };
    const Check cube { 1.0, 5e-6, 0.8660, 5e-5, 1.73205, 5e-6 };
    const std::map<std::string, Check> table {
        { "10_cubeStack", { 0.19841, 5e-6, 0.5193, 5e-5, 1.03862, 5e-6 } },
        { "10_tetTet", { 0.47619, 5e-6, 0.6028, 5e-5, 1.20562, 5e-6 } },
        { "12_matOnBoard", { 0.49751, 5e-6, 0.5594, 5e-5, 1.1187, 5e-5 } },
        { "2_matKnives", { 0.71429, 5e-6, 0, 0, 1.21221, 5e-6 } },
        { "4_rodsTwist", { 1, 5e-6, 0, 0, 1.05600, 5e-6 } },
        { "8_rollerBall", { 1, 5e-6, 0, 0, 1.73123, 5e-6 } },
        { "17_pinCushionBall", { 0.23810, 5e-6, 0, 0, 1.64879, 5e-6 } },
        { "20_pencilStickSlip", { 0.09997, 5e-6, 0, 0, 0.10020, 5e-6 } },
        { "spikeCrackCO", spike }, { "spikeHoleCO", spike }, { "spikePlaneCO", spike }, { "spikeSpikeCO", spike },
        { "spikeWedgeCO", spike }, { "17_ErlebenSpikes", spike }, { "18_ErlebenSpikeWedge", spike },
        { "20_ErlebenSpikeHole", spike }, { "21_ErlebenSpikeCrack", spike }, { "23_ErlebenSlidingSpike", spike },
        { "wedgeCrackCO", wedge }, { "wedgePlaneCO", wedge }, { "wedgeWedgoCO", wedge },
        { "19_ErlebenWedges", wedge }, { "22_ErlebenWedgeCrack", wedge }, { "24_ErlebenSlidingWedge", wedge },
        { "cubeCliffCO", cube }, { "cubeInternalEdgesCO", cube }, { "25_ErlebenCliffEdges", cube },
        { "26_ErlebenInternalEdges", cube },
    };
    std::vector<std::string> files;
    for (const auto& e : ipcs_fs::recursive_directory_iterator(ipcs_fs::path(root) / "input" / "paperExamples")) {
        if (e.is_regular_file() && e.path().extension() == ".txt") {
            files.push_back(e.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    CHECK(files.size() == 48);
    std::size_t checked = 0;
    for (const std::string& file : files) {
        INFO(file);
        IpcScriptImport r;
        REQUIRE_NOTHROW(r = import_ipc_script(file));
        const std::string stem = ipcs_fs::path(file).stem().string();
        CHECK(r.scene.name == stem);
        CHECK(r.scene.frames == int(std::ceil(r.duration / r.scene.physics.dt - 1e-9)));
        CHECK(r.scene.physics.contact_gap > 0);
        CHECK(r.volume_nodes > 0);
        const auto it = table.find(stem);
        if (it == table.end()) {
            continue;
        }
        ++checked;
        const Check& c = it->second;
        CHECK(r.scale == Approx(c.f).margin(c.f_tol));
        CHECK(r.lift == Approx(c.lift).margin(c.lift_tol + 1e-12));
        CHECK(r.tolerance_length == Approx(c.l).margin(c.l_tol));
        CHECK(r.scene.physics.contact_gap == Approx(1e-3 * r.tolerance_length));
        // Fig. 23 counts (nodes, tets, faces) at the spec's rounding; faces
        // and nodes there include the codim shapes.
        ipc::Index codim_faces = 0;
        for (const auto& b : r.scene.model.bodies) {
            if (b.kind == Model::BodyKind::obstacle) {
                codim_faces += b.elements.rows();
            }
        }
        if (stem == "2_matKnives") {
            CHECK(std::abs(double(r.volume_nodes) / 1000 - 3.2) <= 0.05);
            CHECK(std::abs(double(r.volume_tets) / 1000 - 9.1) <= 0.05);
            CHECK(std::abs(double(r.volume_faces) / 1000 - 6.4) <= 0.05);
        }
        if (stem == "17_pinCushionBall") {
            CHECK(std::abs(double(r.scene.model.num_vertices()) / 1000 - 9) <= 0.5);
            CHECK(std::abs(double(r.volume_tets) / 1000 - 28) <= 0.5);
            CHECK(std::abs(double(r.volume_faces) / 1000 - 10) <= 0.5);
        }
        if (stem == "8_rollerBall") {
            CHECK(std::abs(double(r.volume_nodes) / 1000 - 7) <= 0.5);
            CHECK(std::abs(double(r.volume_tets) / 1000 - 28) <= 0.5);
            CHECK(std::abs(double(r.volume_faces + codim_faces) / 1000 - 11) <= 0.5);
        }
        if (stem == "4_rodsTwist") {
            CHECK(r.volume_nodes == 4 * 13333);
            CHECK(std::abs(double(r.volume_tets) / 1000 - 202) <= 0.5);
            CHECK(std::abs(double(r.volume_faces) / 1000 - 80) <= 0.5);
            CHECK(r.script_name == "twist");
            CHECK(r.scene.model.gravity.norm() == 0);
        }
        if (stem == "10_cubeStack") {
            CHECK(ipcs_body_positions(r.scene.model, 0).col(1).minCoeff() == Approx(0.5193).margin(5e-5));
            CHECK(r.scene.model.gravity.y() == -9.80665);
        }
        if (stem == "10_tetTet") {
            CHECK(ipcs_body_positions(r.scene.model, 0).col(1).minCoeff() == Approx(0.6028).margin(5e-5));
        }
        if (stem == "17_pinCushionBall") {
            CHECK(r.scene.model.bodies.size() == 883);
            CHECK(r.script_name == "DCOSegBedSquash");
        }
        if (stem == "20_pencilStickSlip") {
            CHECK(std::abs(ipcs_body_positions(r.scene.model, 0).col(1).minCoeff()) < 1e-12);
            CHECK(r.scene.physics.friction == 0.35);
            CHECK(r.scene.physics.eps_v == Approx(1e-6 * r.tolerance_length));
            CHECK(*r.scene.physics.newton_tolerance == Approx(1e-4 * r.tolerance_length));
            CHECK(r.scene.model.scripted.size() == 1);
            CHECK(r.scene.model.analytic_obstacles.size() == 1); // the ground
        }
        if (stem == "2_matKnives") {
            // The QP section closed by a bare `section` is skipped to the end.
            CHECK(r.duration == 6);
            CHECK(ipcs_has_warning(r, "to the end of the file"));
            CHECK(r.scene.model.bodies.size() == 10); // mat, 9 knives
            CHECK(r.scene.model.analytic_obstacles.size() == 1); // the ground
        }
        if (stem == "8_rollerBall") {
            CHECK(r.scene.model.scripted.size() == std::size_t(r.scene.model.bodies[0].num_vertices * 4));
            CHECK(r.scene.physics.friction == 0.5);
        }
    }
    CHECK(checked == table.size());
}

TEST_CASE("IPC scripts: twist, rotating cylinders and DCO motions", "[ipc_script]")
{
    IpcsTempDir dir;
    ipcs_write_meshes(dir);

    SECTION("twist turns the end sets by 72 degrees per second about x")
    {
        const std::string file = dir.write("twist.txt",
            "script twist\nturnOffGravity\ntime 2 0.5\nshapes input 1\nmeshes/tet.msh 0 0 0  0 0 0  1 1 1\n");
        const IpcScriptImport r = import_ipc_script(file);
        const Model& m = r.scene.model;
        REQUIRE(m.scripted.size() == 4);
        const Eigen::Vector3d c(0.5, 0.5, 0.5);
        for (const auto& s : m.scripted) {
            const Eigen::Vector3d x0 = m.positions.row(s.vertex).transpose();
            const Eigen::Vector3d x1 = s.motion(1.0, x0);
            const Eigen::Vector3d a = x0 - c, b = x1 - c;
            CHECK(x1.x() == Approx(x0.x()));
            const double angle = std::atan2(a.y() * b.z() - a.z() * b.y(), a.y() * b.y() + a.z() * b.z());
            const double expected = (x0.x() < 0.5 ? -72.0 : 72.0) * 3.14159265358979323846 / 180;
            CHECK(angle == Approx(expected));
        }
        CHECK(r.scene.frames == 4);
        CHECK(r.volume_faces == 4);
        CHECK(r.volume_tets == 1);
    }

    SECTION("DCORotCylinders spins the first four shapes about their AABB centres")
    {
        const std::string file = dir.write("rot.txt",
            "script DCORotCylinders\nselfFric 0.5\nshapes input 5\n"
            "meshes/tri.obj 0 0 0  0 0 0  1 1 1\nmeshes/tri.obj 2 0 0  0 0 0  1 1 1\n"
            "meshes/tri.obj 4 0 0  0 0 0  1 1 1\nmeshes/tri.obj 6 0 0  0 0 0  1 1 1\n"
            "meshes/tet.msh 0 2 0  0 0 0  1 1 1\n");
        const IpcScriptImport r = import_ipc_script(file);
        const Model& m = r.scene.model;
        REQUIRE(m.scripted.size() == 12);
        // Component 0: +pi/2 about x through (0.5, 0, 0.5): (0,0,1) -> (0,-0.5,0.5) after 1 s.
        const ScriptedMotion* s0 = ipcs_motion_of(m, 2);
        REQUIRE(s0 != nullptr);
        const Eigen::Vector3d p0 = (*s0)(1.0, m.positions.row(2).transpose());
        CHECK((p0 - Eigen::Vector3d(0, -0.5, 0.5)).norm() < 1e-12);
        // Component 2: -pi/2 about z through (4.5, 0, 0.5): (5,0,0) -> (4.5,-0.5,0).
        const ScriptedMotion* s2 = ipcs_motion_of(m, 7);
        REQUIRE(s2 != nullptr);
        const Eigen::Vector3d p2 = (*s2)(1.0, m.positions.row(7).transpose());
        CHECK((p2 - Eigen::Vector3d(4.5, -0.5, 0)).norm() < 1e-12);
        CHECK(r.scene.physics.friction == 0.5);
        for (std::size_t k = 12; k < 16; ++k) {
            CHECK_FALSE(m.held()[k]); // the tet is free
        }
    }

    SECTION("DCOSquash6 reverses the walls once the x-gap is below 0.1 m")
    {
        std::string text = "script DCOSquash6\ntime 1 0.125\nshapes input 8\n"
                           "meshes/tri.obj 0 0 0  0 0 90  1 1 1\nmeshes/tri.obj 1 0 0  0 0 90  1 1 1\n";
        for (int k = 0; k < 4; ++k) {
            text += "meshes/tri.obj 10 " + std::to_string(3 * k) + " 0  0 0 0  1 1 1\n";
        }
        text += "meshes/tet.msh 0.2 0.1 0.1  0 0 0  0.1 0.1 0.1\nmeshes/tet.msh 0.5 0.1 0.1  0 0 0  0.1 0.1 0.1\n";
        const IpcScriptImport r = import_ipc_script(dir.write("squash.txt", text));
        const Model& m = r.scene.model;
        REQUIRE(m.scripted.size() == 18);
        const ScriptedMotion* s0 = ipcs_motion_of(m, 0);
        const ScriptedMotion* s1 = ipcs_motion_of(m, 3);
        const ScriptedMotion* s3 = ipcs_motion_of(m, 9);
        REQUIRE((s0 && s1 && s3));
        const Eigen::Vector3d x0 = m.positions.row(0).transpose();
        const Eigen::Vector3d x1 = m.positions.row(3).transpose();
        const Eigen::Vector3d x3 = m.positions.row(9).transpose();
        // Gaps at step starts: 1, 0.75, 0.5, 0.25, 0 -> reversal at t = 0.5.
        CHECK((*s0)(0.5, x0).x() == Approx(0.5));
        CHECK((*s0)(0.75, x0).x() == Approx(0.25));
        CHECK((*s1)(0.5, x1).x() == Approx(0.5));
        CHECK((*s1)(1.0, x1).x() == Approx(1.0));
        CHECK((*s3)(0.5, x3).y() == Approx(x3.y() - 0.5));
        CHECK((*s3)(1.0, x3).y() == Approx(x3.y()));
    }

    SECTION("DCOSegBedSquash stops the upper bed at a 0.1 m gap; a missing .seg falls back to the .obj")
    {
        const std::string file = dir.write("bed.txt",
            "script DCOSegBedSquash\ntime 3 0.125\nshapes input 3\n"
            "meshes/tet.msh 5 0 0  0 0 0  1 1 1\nmeshes/edge.seg 0 0 0  0 0 0  1 1 1\n"
            "meshes/fallback.seg 0 1 0  0 0 0  1 1 1\n");
        const IpcScriptImport r = import_ipc_script(file);
        const Model& m = r.scene.model;
        REQUIRE(m.bodies.size() == 3);
        CHECK(m.bodies[1].kind == Model::BodyKind::obstacle_segments);
        CHECK(m.bodies[1].elements.rows() == 1);
        CHECK(m.bodies[2].kind == Model::BodyKind::obstacle_segments);
        CHECK(m.bodies[2].elements.rows() == 3); // the triangle's unique edges
        CHECK(ipcs_has_warning(r, "fallback.obj"));
        REQUIRE(m.scripted.size() == 3);
        const ipc::Index v = m.bodies[2].first_vertex;
        const ScriptedMotion* s = ipcs_motion_of(m, v);
        REQUIRE(s != nullptr);
        const Eigen::Vector3d x = m.positions.row(v).transpose();
        // Gaps 1, 0.875, ..., 0.125 (moves), then 0 at t = 1: stops there.
        CHECK((*s)(0.5, x).y() == Approx(0.5));
        CHECK((*s)(1.0, x).y() == Approx(0).margin(1e-12));
        CHECK((*s)(3.0, x).y() == Approx(0).margin(1e-12));
        CHECK(m.fixed[std::size_t(m.bodies[1].first_vertex)]);
    }
}

TEST_CASE("IPC scripts: sections, shapeMatrix, tuning, size and meshCO", "[ipc_script]")
{
    IpcsTempDir dir;
    ipcs_write_meshes(dir);

    SECTION("sections for other solvers are skipped, a bare section runs to the end of the file")
    {
        const std::string file = dir.write("sections.txt",
            "shapes input 1\nmeshes/tet.msh 0 0 0  0 0 0  1 1 1\nconstraintSolver IP\n"
            "section SQP QP\ntime 10 5e-3\nnotACommand\nsection end\n"
            "section IP\ntime 2 0.25\nsection end\n"
            "section QP\ntime 9 9\nsection\nalsoNotACommand 1\n");
        const IpcScriptImport r = import_ipc_script(file);
        CHECK(r.duration == 2);
        CHECK(r.scene.physics.dt == 0.25);
        CHECK(r.scene.frames == 8);
        CHECK(ipcs_has_warning(r, "sections.txt:4: section SQP QP skipped"));
        CHECK(ipcs_has_warning(r, "sections.txt:11: section QP skipped"));
        CHECK(ipcs_has_warning(r, "to the end of the file"));
    }

    SECTION("shapeMatrix creates nx ny nz instances, i outermost")
    {
        const std::string file = dir.write("matrix.txt",
            "script DCOFix\nshapes input 1\nmeshes/tet.msh 0 5 0  0 0 0  1 1 1\n"
            "shapeMatrix input 2 1 3  10 0 0\nmeshes/tri.obj 1 0 2  0 0 0  1 1 1\n");
        const IpcScriptImport r = import_ipc_script(file);
        const Model& m = r.scene.model;
        REQUIRE(m.bodies.size() == 7);
        int b = 1;
        for (int i = 0; i < 2; ++i) {
            for (int k = 0; k < 3; ++k, ++b) {
                CHECK(m.bodies[std::size_t(b)].kind == Model::BodyKind::obstacle);
                const Eigen::Vector3d first = m.positions.row(m.bodies[std::size_t(b)].first_vertex).transpose();
                CHECK((first - Eigen::Vector3d(10 + i, 0, 2 * k)).norm() < 1e-12);
            }
        }
    }

    SECTION("tuning and tol read the next tokens; the rest of a line is read again")
    {
        const std::string file = dir.write("tuning.txt",
            "shapes input 1\nmeshes/tet.msh 0 0 0  0 0 0  1 1 1\n"
            "tuning 3\n1e6\n2e-3\n  3e-3 time 2 0.5\ntol 2\n1e-4\n1e-3\nfricIterAmt 0\nselfFric 0.2\n");
        const IpcScriptImport r = import_ipc_script(file);
        const double l = r.tolerance_length;
        CHECK(l == Approx(std::sqrt(3.0)));
        CHECK(r.duration == 2);
        CHECK(r.scene.physics.dt == 0.5);
        CHECK(r.scene.physics.contact_gap == Approx(3e-3 * l));
        CHECK(*r.scene.physics.barrier_stiffness == 1e6);
        CHECK(*r.scene.physics.newton_tolerance == Approx(1e-4 * l));
        CHECK(*r.scene.physics.termination == "max_norm");
        CHECK(r.scene.physics.friction_iterations == 20);
        CHECK(r.scene.physics.friction == 0.2);
        CHECK(ipcs_has_warning(r, "continuation"));
        CHECK(ipcs_has_warning(r, "only the first"));
    }

    SECTION("size rescales the initial AABB to start at the origin with longest side s")
    {
        const std::string file = dir.write("size.txt",
            "script fallNoShift\nsize 2\nenergy FCR\nshapes input 1\nmeshes/tet.msh 3 4 5  0 0 0  4 4 4 material 500 2e5 0.3\n");
        const IpcScriptImport r = import_ipc_script(file);
        CHECK(r.scale == 0.5);
        const Model& m = r.scene.model;
        CHECK(m.positions.colwise().minCoeff().norm() < 1e-12);
        CHECK(m.positions.colwise().maxCoeff().maxCoeff() == Approx(2));
        const auto& mat = std::get<VolumeMaterial>(m.bodies[0].material);
        CHECK(mat.density == 500);
        CHECK(mat.young == 2e5);
        CHECK(mat.model == VolumeModel::fixed_corotated);
        CHECK(r.lift == 0);
    }

    SECTION("meshCO: centroid, rotation, scale by s / L0, translation")
    {
        dir.write("meshes/co.obj", "v 0 0 0\nv 2 0 0\nv 0 1 0\nf 1 2 3\n");
        const std::string file = dir.write("meshco.txt",
            "script fall\nshapes input 1\nmeshes/tet.msh 0 5 0  0 0 0  1 1 1\n"
            "meshCO meshes/co.obj 1 2 3  4  50 0 rotate 0 0 90\nhalfSpace 0 -1 0  0 1 0  50 0.3\n");
        const IpcScriptImport r = import_ipc_script(file);
        const Model& m = r.scene.model;
        REQUIRE(m.bodies.size() == 2); // tet, meshCO
        const Eigen::MatrixXd P = ipcs_body_positions(m, 1);
        // (0,0,0) - centroid (2/3, 1/3, 0) = (-2/3, -1/3, 0); Rz(90): (1/3, -2/3, 0); x2; + (1,2,3).
        CHECK((P.row(0).transpose() - Eigen::Vector3d(5.0 / 3, 2.0 / 3, 3)).norm() < 1e-12);
        CHECK((P.row(1).transpose() - Eigen::Vector3d(5.0 / 3, 2.0 / 3 + 4, 3)).norm() < 1e-12);
        REQUIRE(m.analytic_obstacles.size() == 1);
        const auto& plane = std::get<ipc::PlaneObstacle>(m.analytic_obstacles[0].shape);
        CHECK(plane.point.y() == -1);
        CHECK(plane.normal.y() == 1);
        CHECK(m.analytic_obstacles[0].board_extent >= 5); // 5 x max(AABB diagonal, 1 m)
        // One volumetric shape and no codim shape: the halfSpace's mu is used.
        CHECK(r.scene.physics.friction == 0.3);
        CHECK(ipcs_has_warning(r, "meshco.txt:5: one friction coefficient"));
    }

    SECTION("script null: initVel, linearVelocity, comments and line continuation")
    {
        const std::string file = dir.write("null.txt",
            "script null\nturnOffGravity\nshapes input 2\n"
            "meshes/tet.msh 0 0 0  0 0 0  1 1 1 initVel 1 0 0  0 0 90 # spin about z\n"
            "\n# a comment line between shapes\n"
            "meshes/tri.obj 0 3 0  0 0 0  1 1 1 \\\n   linearVelocity 0 -1 0\n");
        const IpcScriptImport r = import_ipc_script(file);
        const Model& m = r.scene.model;
        REQUIRE(m.bodies.size() == 2);
        CHECK(m.gravity.norm() == 0);
        const double q = 3.14159265358979323846 / 4;
        CHECK((m.velocities.row(0).transpose() - Eigen::Vector3d(1 + q, -q, 0)).norm() < 1e-12);
        REQUIRE(m.scripted.size() == 3);
        for (const auto& s : m.scripted) {
            const Eigen::Vector3d x = m.positions.row(s.vertex).transpose();
            CHECK((s.motion(1.0, x) - (x - Eigen::Vector3d(0, 1, 0))).norm() < 1e-12);
        }
    }

    SECTION("mesh readers: MSH 2.2, general tags, OBJ polygons and relative indices")
    {
        const std::string msh22 = dir.write("m22.msh",
            "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n10 0 0 0\n20 1 0 0\n30 0 1 0\n40 0 0 1\n$EndNodes\n"
            "$Elements\n2\n1 2 2 0 1 10 20 30\n2 4 2 0 1 10 20 30 40\n$EndElements\n");
        const TetMesh t = read_msh(msh22);
        CHECK(t.vertices.rows() == 4);
        REQUIRE(t.tets.rows() == 1);
        CHECK(t.tets.row(0) == Eigen::RowVector4i(0, 1, 2, 3));
        CHECK(boundary_faces(t.tets).rows() == 4);
        const std::string obj = dir.write("quad.obj", "o q\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1/1/1 2//1 -2 -1\n");
        const TriangleMesh q = read_obj(obj);
        REQUIRE(q.faces.rows() == 2);
        CHECK(q.faces.row(1) == Eigen::RowVector3i(0, 2, 3));
    }
}

TEST_CASE("IPC scripts: bad files throw with file, line and reason", "[ipc_script]")
{
    IpcsTempDir dir;
    ipcs_write_meshes(dir);
    const std::string shapes = "shapes input 1\nmeshes/tet.msh 0 0 0  0 0 0  1 1 1\n";
    using Catch::Contains;

    const std::string unknown = dir.write("unknown.txt", shapes + "time 1 0.1\nfrobnicate 3\n");
    REQUIRE_THROWS_AS(import_ipc_script(unknown), ipc::invalid_argument);
    REQUIRE_THROWS_WITH(import_ipc_script(unknown),
        Contains("unknown.txt") && Contains(":4") && Contains("frobnicate"));

    const std::string missing = dir.write("missing.txt", "shapes input 1\nmeshes/nothere.msh 0 0 0  0 0 0  1 1 1\n");
    REQUIRE_THROWS_WITH(import_ipc_script(missing), Contains("cannot open mesh file meshes/nothere.msh")
            && Contains("missing.txt:2"));

    dir.write("meshes/bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n# comment\nf 1 2 7\n");
    const std::string bad_index = dir.write("badindex.txt",
        shapes + "script DCOFix\nshapes input 1\nmeshes/bad.obj 0 0 0  0 0 0  1 1 1\n");
    REQUIRE_THROWS_AS(import_ipc_script(bad_index), ipc::invalid_argument);
    REQUIRE_THROWS_WITH(import_ipc_script(bad_index), Contains("bad.obj:5") && Contains("7") && Contains("3 vertices"));

    const std::string nan_arg = dir.write("nonnumeric.txt", shapes + "time 1 abc\n");
    REQUIRE_THROWS_WITH(import_ipc_script(nan_arg), Contains("nonnumeric.txt:3") && Contains("'abc'"));

    const std::string few = dir.write("few.txt", shapes + "stiffness 1e5\n");
    REQUIRE_THROWS_WITH(import_ipc_script(few), Contains("few.txt:3") && Contains("missing argument"));

    const std::string few_shape = dir.write("fewshape.txt", "shapes input 1\nmeshes/tet.msh 0 0 0  0 0\n");
    REQUIRE_THROWS_WITH(import_ipc_script(few_shape), Contains("fewshape.txt:2") && Contains("missing argument"));

    dir.write("meshes/notets.msh",
        "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 3 1 3\n2 0 0 3\n1\n2\n3\n0 0 0\n1 0 0\n0 1 0\n$EndNodes\n"
        "$Elements\n1 1 1 1\n2 0 2 1\n1 1 2 3\n$EndElements\n");
    const std::string no_tets = dir.write("notets.txt", "shapes input 1\nmeshes/notets.msh 0 0 0  0 0 0  1 1 1\n");
    REQUIRE_THROWS_AS(import_ipc_script(no_tets), ipc::invalid_argument);
    REQUIRE_THROWS_WITH(import_ipc_script(no_tets), Contains("notets.msh") && Contains("no tetrahedra"));

    dir.write("meshes/nan.obj", "v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    REQUIRE_THROWS_WITH(read_obj((dir.path / "meshes/nan.obj").string()), Contains("nan.obj:1") && Contains("finite"));
    dir.write("meshes/binary.msh", "$MeshFormat\n4.1 1 8\n$EndMeshFormat\n");
    REQUIRE_THROWS_WITH(read_msh((dir.path / "meshes/binary.msh").string()), Contains("binary"));

    const std::string bad_script = dir.write("badscript.txt", shapes + "script hang\n");
    REQUIRE_THROWS_WITH(import_ipc_script(bad_script), Contains("badscript.txt:3") && Contains("hang"));
}

TEST_CASE("IPC paper scripts run a few steps with the reference solver", "[ipc_script]")
{
    const std::string root = ipcs_paper_dir();
    if (root.empty()) {
        WARN("IPC_PAPER_SCENES is unset or has no input/paperExamples: solver runs skipped");
        return;
    }
    for (const char* name : { "input/paperExamples/10_tetTet.txt",
             "input/paperExamples/supplementB/SQPBenchmark/07_cubePlaneCO.txt" }) {
        INFO(name);
        const IpcScriptImport r = import_ipc_script((ipcs_fs::path(root) / name).string());
        const Scene& scene = r.scene;
        const SolverParameters p = ipc_parameters(scene);
        Simulator sim(scene.model, p);
        const double y0 = sim.positions().col(1).minCoeff();
        for (int s = 0; s < 3; ++s) {
            INFO("step " << s);
            const StepStats stats = sim.step();
            CHECK(ipc::all_finite(sim.positions()));
            CHECK_FALSE(ipc::has_intersections(sim.collision_mesh(), sim.positions()));
            CHECK(ipc::minimum_distance(sim.collision_mesh(), sim.positions()) > 0);
            if (stats.min_gap) {
                CHECK(*stats.min_gap > 0);
            }
        }
        // The bodies fall.
        const auto& b = scene.model.bodies[0];
        CHECK(sim.positions().middleRows(b.first_vertex, b.num_vertices).col(1).minCoeff()
            < scene.model.positions.middleRows(b.first_vertex, b.num_vertices).col(1).minCoeff());
        (void)y0;
    }
}
