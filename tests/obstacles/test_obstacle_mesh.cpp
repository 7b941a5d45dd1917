// obstacle_mesh: vertices on the surface, triangles inside the obstacle,
// closed and outward oriented (edges, Euler characteristic, volume, winding
// numbers), and the volume converging to the analytic one.

#include "helpers.hpp"

#include <ipc/obstacles/sdf_obstacle.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <utility>

using namespace ipc;
using namespace ipc::test;

namespace {

/// Enclosed volume by the divergence theorem (positive when outward oriented).
double mesh_volume(const ObstacleMesh& mesh)
{
    double six_volume = 0;
    for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
        const Eigen::Vector3d a = mesh.vertices.row(mesh.faces(f, 0)).transpose();
        const Eigen::Vector3d b = mesh.vertices.row(mesh.faces(f, 1)).transpose();
        const Eigen::Vector3d c = mesh.vertices.row(mesh.faces(f, 2)).transpose();
        six_volume += a.dot(b.cross(c));
    }
    return six_volume / 6;
}

/// Winding number of the mesh around p (sum of signed solid angles / 4 pi).
double winding_number(const ObstacleMesh& mesh, const Eigen::Vector3d& p)
{
    double total = 0;
    for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
        const Eigen::Vector3d a = mesh.vertices.row(mesh.faces(f, 0)).transpose() - p;
        const Eigen::Vector3d b = mesh.vertices.row(mesh.faces(f, 1)).transpose() - p;
        const Eigen::Vector3d c = mesh.vertices.row(mesh.faces(f, 2)).transpose() - p;
        const double la = a.norm(), lb = b.norm(), lc = c.norm();
        const double numerator = a.dot(b.cross(c));
        const double denominator = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
        total += 2 * std::atan2(numerator, denominator);
    }
    return total / (4 * pi);
}

/// Every face has three distinct valid indices, every directed edge appears
/// once and its reverse once (closed, consistently oriented 2-manifold), and
/// V - E + F = 2 (a sphere). Returns the problem, or an empty string.
std::string closed_surface_problem(const ObstacleMesh& mesh)
{
    std::map<std::pair<int, int>, int> directed;
    const Eigen::Index nv = mesh.vertices.rows();
    for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
        for (int k = 0; k < 3; ++k) {
            const int i = mesh.faces(f, k), j = mesh.faces(f, (k + 1) % 3);
            if (i < 0 || i >= nv || i == j) {
                return "face " + std::to_string(f) + " has a bad or repeated index";
            }
            ++directed[{ i, j }];
        }
    }
    for (const auto& [edge, count] : directed) {
        if (count != 1) {
            return "directed edge " + std::to_string(edge.first) + "-" + std::to_string(edge.second)
                + " appears " + std::to_string(count) + " times";
        }
        if (directed.count({ edge.second, edge.first }) != 1) {
            return "edge " + std::to_string(edge.first) + "-" + std::to_string(edge.second)
                + " has no opposite half-edge";
        }
    }
    const long edges = long(directed.size()) / 2;
    const long euler = long(nv) - edges + long(mesh.faces.rows());
    if (euler != 2) {
        return "Euler characteristic " + std::to_string(euler);
    }
    return {};
}

double analytic_volume(const SdfObstacle& obstacle)
{
    if (const auto* sphere = std::get_if<SphereObstacle>(&obstacle)) {
        return 4.0 / 3 * pi * std::pow(sphere->radius, 3);
    }
    if (const auto* capsule = std::get_if<CapsuleObstacle>(&obstacle)) {
        const double r = capsule->radius;
        return pi * r * r * (capsule->b - capsule->a).norm() + 4.0 / 3 * pi * r * r * r;
    }
    const auto& box = std::get<BoxObstacle>(obstacle);
    const Eigen::Vector3d& h = box.half_extents;
    const double r = box.rounding;
    // Steiner's formula: box, face slabs, quarter-cylinder edges, corner octants.
    return 8 * h.prod() + 8 * r * (h[0] * h[1] + h[1] * h[2] + h[2] * h[0]) + 2 * pi * r * r * h.sum()
        + 4.0 / 3 * pi * r * r * r;
}

} // namespace

TEST_CASE("obstacle meshes are closed, outward and inscribed", "[obstacles][mesh]")
{
    std::mt19937_64 rng(21);
    for (const SdfObstacle& obstacle : test_obstacles()) {
        if (std::holds_alternative<PlaneObstacle>(obstacle)) {
            continue;
        }
        const double scale = obstacle_scale(obstacle);
        const double exact_volume = analytic_volume(obstacle);
        for (const int resolution : { 8, 12, 24, 64 }) {
            INFO(obstacle_name(obstacle) << " at resolution " << resolution);
            const ObstacleMesh mesh = obstacle_mesh(obstacle, resolution);
            REQUIRE(mesh.vertices.cols() == 3);
            REQUIRE(mesh.faces.cols() == 3);
            CHECK(closed_surface_problem(mesh).empty());
            CAPTURE(closed_surface_problem(mesh));

            // Every vertex on the surface.
            double worst = 0;
            for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
                const Eigen::Vector3d x = mesh.vertices.row(v).transpose();
                worst = std::max(worst, std::abs(signed_distance(obstacle, x)));
                if (resolution <= 24) {
                    worst = std::max(worst, std::abs(reference_distance(obstacle, x)));
                }
            }
            CHECK(worst <= 1e-12 * scale);

            // Random points of every face inside the closed obstacle (the
            // library's signed distance, checked against the references in
            // test_signed_distance.cpp, keeps this fast).
            double highest = -std::numeric_limits<double>::infinity();
            for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
                for (int k = 0; k < 3; ++k) {
                    double u = uniform(rng, 0, 1), v = uniform(rng, 0, 1);
                    if (u + v > 1) {
                        u = 1 - u;
                        v = 1 - v;
                    }
                    const Eigen::Vector3d x = (1 - u - v) * mesh.vertices.row(mesh.faces(f, 0)).transpose()
                        + u * mesh.vertices.row(mesh.faces(f, 1)).transpose()
                        + v * mesh.vertices.row(mesh.faces(f, 2)).transpose();
                    highest = std::max(highest, signed_distance(obstacle, x));
                }
            }
            CHECK(highest <= 1e-12 * scale);

            // Positive volume no larger than the obstacle's (inscribed), close
            // to it at fine resolution.
            const double volume = mesh_volume(mesh);
            CHECK(volume > 0);
            CHECK(volume <= exact_volume * (1 + 1e-12));
            if (resolution == 64) {
                CHECK(volume >= 0.99 * exact_volume);
            }

            // No two vertices coincide.
            if (resolution == 24) {
                double closest = std::numeric_limits<double>::infinity();
                for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i) {
                    for (Eigen::Index j = i + 1; j < mesh.vertices.rows(); ++j) {
                        closest = std::min(closest, (mesh.vertices.row(i) - mesh.vertices.row(j)).norm());
                    }
                }
                CHECK(closest > 1e-6 * scale);
            }

            // Winding number 1 deep inside, 0 outside the obstacle.
            if (resolution == 12) {
                const Eigen::Vector3d c = obstacle_centre(obstacle);
                CHECK(winding_number(mesh, c) == Approx(1).margin(1e-9));
                const double reach = obstacle_reach(obstacle);
                int outside = 0;
                for (int k = 0; k < 80; ++k) {
                    const Eigen::Vector3d p = random_point(rng, c, 1.5 * reach);
                    if (signed_distance(obstacle, p) > 1e-9 * scale) {
                        ++outside;
                        CHECK(std::abs(winding_number(mesh, p)) < 1e-9);
                    }
                }
                CHECK(outside > 10);
            }
        }
    }
}

TEST_CASE("obstacle mesh volume converges to the analytic volume", "[obstacles][mesh]")
{
    for (const SdfObstacle& obstacle : test_obstacles()) {
        if (std::holds_alternative<PlaneObstacle>(obstacle)) {
            continue;
        }
        INFO(obstacle_name(obstacle));
        const double exact_volume = analytic_volume(obstacle);
        double previous = std::numeric_limits<double>::infinity();
        double first = 0;
        for (const int resolution : { 8, 16, 32, 64, 128 }) {
            const double error = std::abs(mesh_volume(obstacle_mesh(obstacle, resolution)) - exact_volume) / exact_volume;
            CAPTURE(resolution, error);
            const bool sharp = std::holds_alternative<BoxObstacle>(obstacle)
                && std::get<BoxObstacle>(obstacle).rounding == 0;
            if (sharp) {
                CHECK(error < 1e-14);
                continue;
            }
            CHECK(error < previous);
            if (resolution == 8) {
                first = error;
            }
            previous = error;
        }
        // Second order: a sixteenth of the error per 16-fold refinement, with room.
        const bool sharp = std::holds_alternative<BoxObstacle>(obstacle)
            && std::get<BoxObstacle>(obstacle).rounding == 0;
        if (!sharp) {
            CHECK(previous < first / 50);
            CHECK(previous < 2e-3);
        }
    }
}

TEST_CASE("sharp box mesh is its 8 corners", "[obstacles][mesh]")
{
    const BoxObstacle box { Eigen::Vector3d(1, 2, 3), Eigen::Vector3d(0.5, 0.25, 2), 0 };
    const ObstacleMesh mesh = obstacle_mesh(box, 48);
    CHECK(mesh.vertices.rows() == 8);
    CHECK(mesh.faces.rows() == 12);
    CHECK(mesh_volume(mesh) == Approx(8 * 0.5 * 0.25 * 2).epsilon(1e-14));
    CHECK(closed_surface_problem(mesh).empty());
    for (Eigen::Index v = 0; v < 8; ++v) {
        const Eigen::Vector3d u = mesh.vertices.row(v).transpose() - box.center;
        CHECK(u.cwiseAbs().isApprox(box.half_extents));
    }
    // A flat sharp box (zero half-extent) still gives a closed, empty mesh.
    const BoxObstacle flat { Eigen::Vector3d::Zero(), Eigen::Vector3d(1, 0, 1), 0 };
    const ObstacleMesh flat_mesh = obstacle_mesh(flat);
    CHECK(flat_mesh.faces.rows() == 12);
    CHECK(mesh_volume(flat_mesh) == 0);
}

TEST_CASE("mesh sizes follow the resolution", "[obstacles][mesh]")
{
    // About `resolution` segments around the sphere's equator.
    const SphereObstacle sphere { Eigen::Vector3d::Zero(), 1 };
    for (const int resolution : { 8, 24, 40 }) {
        const ObstacleMesh mesh = obstacle_mesh(sphere, resolution);
        int equator = 0;
        for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
            equator += std::abs(mesh.vertices(v, 2)) < 1e-12 ? 1 : 0;
        }
        CHECK(equator == resolution);
    }
    const CapsuleObstacle capsule { Eigen::Vector3d::Zero(), Eigen::Vector3d(1, 2, 3), 0.1 };
    CHECK(obstacle_mesh(capsule, 8).faces.rows() < obstacle_mesh(capsule, 24).faces.rows());
}

TEST_CASE("plane mesh is a square board", "[obstacles][mesh]")
{
    const PlaneObstacle plane { Eigen::Vector3d(0.5, -0.31, 0.25), Eigen::Vector3d(1, 2, 0.5) };
    const double extent = 1.25;
    const ObstacleMesh mesh = obstacle_mesh(SdfObstacle(plane), 24, extent);
    REQUIRE(mesh.faces.rows() >= 2);
    double area = 0;
    for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
        const Eigen::Vector3d a = mesh.vertices.row(mesh.faces(f, 0)).transpose();
        const Eigen::Vector3d b = mesh.vertices.row(mesh.faces(f, 1)).transpose();
        const Eigen::Vector3d c = mesh.vertices.row(mesh.faces(f, 2)).transpose();
        const Eigen::Vector3d n = (b - a).cross(c - a);
        area += 0.5 * n.norm();
        // Facing the outside of the half-space.
        CHECK(n.normalized().dot(plane.normal) == Approx(1).margin(1e-12));
    }
    CHECK(area == Approx(4 * extent * extent).epsilon(1e-12));
    Eigen::Vector3d mean = Eigen::Vector3d::Zero();
    for (Eigen::Index v = 0; v < mesh.vertices.rows(); ++v) {
        const Eigen::Vector3d x = mesh.vertices.row(v).transpose();
        CHECK(std::abs(signed_distance(plane, x)) <= 1e-14);
        // Square: every corner at extent * sqrt(2) from the centre.
        CHECK((x - plane.point).norm() == Approx(extent * std::sqrt(2.0)));
        mean += x;
    }
    CHECK((mean / double(mesh.vertices.rows()) - plane.point).norm() < 1e-14);
    CHECK_THROWS_AS(obstacle_mesh(plane, 24, 0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(obstacle_mesh(plane, 24, std::numeric_limits<double>::infinity()), ipc::invalid_argument);
}

TEST_CASE("obstacle_mesh rejects bad arguments", "[obstacles][mesh]")
{
    const SphereObstacle sphere { Eigen::Vector3d::Zero(), 1 };
    CHECK_THROWS_AS(obstacle_mesh(sphere, 7), ipc::invalid_argument);
    CHECK_THROWS_AS(obstacle_mesh(sphere, 10001), ipc::invalid_argument);
    CHECK_NOTHROW(obstacle_mesh(sphere, 8));
    CHECK_THROWS_AS(obstacle_mesh(SphereObstacle { Eigen::Vector3d::Zero(), -1 }), ipc::invalid_argument);
    CHECK_THROWS_AS(obstacle_mesh(SdfObstacle(BoxObstacle { Eigen::Vector3d::Zero(), Eigen::Vector3d(1, -1, 1), 0 })),
        ipc::invalid_argument);
    // The variant overload gives the same mesh as the shape's.
    const CapsuleObstacle capsule { Eigen::Vector3d(1, 0, 0), Eigen::Vector3d(0, 1, 0), 0.2 };
    CHECK(obstacle_mesh(SdfObstacle(capsule), 16).vertices == obstacle_mesh(capsule, 16).vertices);
    CHECK(obstacle_mesh(SdfObstacle(capsule), 16).faces == obstacle_mesh(capsule, 16).faces);
}
