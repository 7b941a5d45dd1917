// check_obstacle, min_curvature_radius and obstacle_name.

#include <ipc/obstacles/sdf_obstacle.hpp>

#include <catch2/catch.hpp>

#include <limits>
#include <string>

using namespace ipc;

namespace {

/// The message of the ipc::invalid_argument that check_obstacle throws, or
/// "no throw".
std::string rejection(const SdfObstacle& obstacle)
{
    try {
        check_obstacle(obstacle);
    } catch (const ipc::invalid_argument& e) {
        return e.what();
    }
    return "no throw";
}

bool mentions(const std::string& message, const std::string& word)
{
    return message.find(word) != std::string::npos;
}

} // namespace

TEST_CASE("check_obstacle accepts valid obstacles", "[obstacles][check]")
{
    CHECK_NOTHROW(check_obstacle(PlaneObstacle {}));
    CHECK_NOTHROW(check_obstacle(PlaneObstacle { Eigen::Vector3d(1, 2, 3), Eigen::Vector3d(0, 1e-30, 0) }));
    CHECK_NOTHROW(check_obstacle(SphereObstacle { Eigen::Vector3d(1, 2, 3), 1e-6 }));
    CHECK_NOTHROW(check_obstacle(BoxObstacle { Eigen::Vector3d::Zero(), Eigen::Vector3d(1, 0, 2), 0 }));
    CHECK_NOTHROW(check_obstacle(BoxObstacle { Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(), 0.5 }));
    // a == b: a sphere.
    CHECK_NOTHROW(check_obstacle(CapsuleObstacle { Eigen::Vector3d(1, 1, 1), Eigen::Vector3d(1, 1, 1), 0.1 }));
    CHECK_NOTHROW(check_obstacle(SdfObstacle(CapsuleObstacle {})));
}

TEST_CASE("check_obstacle rejects bad values and names them", "[obstacles][check]")
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const Eigen::Vector3d o = Eigen::Vector3d::Zero();

    // Planes: non-finite point or normal, zero normal.
    CHECK(mentions(rejection(PlaneObstacle { Eigen::Vector3d(nan, 0, 0), Eigen::Vector3d::UnitZ() }), "point"));
    CHECK(mentions(rejection(PlaneObstacle { o, Eigen::Vector3d(0, inf, 0) }), "normal"));
    CHECK(mentions(rejection(PlaneObstacle { o, Eigen::Vector3d(0, nan, 1) }), "normal"));
    CHECK(mentions(rejection(PlaneObstacle { o, Eigen::Vector3d::Zero() }), "nonzero"));
    PlaneObstacle assigned;
    assigned.normal.setZero();
    CHECK(mentions(rejection(assigned), "plane obstacle: normal"));

    // Spheres: centre, radius <= 0 or not finite.
    CHECK(mentions(rejection(SphereObstacle { Eigen::Vector3d(0, 0, nan), 1 }), "center"));
    CHECK(mentions(rejection(SphereObstacle { o, -1 }), "radius"));
    CHECK(mentions(rejection(SphereObstacle { o, 0 }), "radius"));
    CHECK(mentions(rejection(SphereObstacle { o, nan }), "radius"));
    CHECK(mentions(rejection(SphereObstacle { o, inf }), "radius"));

    // Boxes: centre, negative or non-finite half-extents, negative rounding.
    CHECK(mentions(rejection(BoxObstacle { Eigen::Vector3d(inf, 0, 0), Eigen::Vector3d::Ones(), 0 }), "center"));
    CHECK(mentions(rejection(BoxObstacle { o, Eigen::Vector3d(1, -0.1, 1), 0 }), "half_extents"));
    CHECK(mentions(rejection(BoxObstacle { o, Eigen::Vector3d(1, nan, 1), 0 }), "half_extents"));
    CHECK(mentions(rejection(BoxObstacle { o, Eigen::Vector3d::Ones(), -0.01 }), "rounding"));
    CHECK(mentions(rejection(BoxObstacle { o, Eigen::Vector3d::Ones(), nan }), "rounding"));

    // Capsules: either end, radius.
    CHECK(mentions(rejection(CapsuleObstacle { Eigen::Vector3d(nan, 0, 0), o, 1 }), "capsule obstacle: a"));
    CHECK(mentions(rejection(CapsuleObstacle { o, Eigen::Vector3d(0, -inf, 0), 1 }), "capsule obstacle: b"));
    CHECK(mentions(rejection(CapsuleObstacle { o, Eigen::Vector3d::UnitX(), -2 }), "radius"));
    CHECK(mentions(rejection(CapsuleObstacle { o, Eigen::Vector3d::UnitX(), 0 }), "radius"));

    // The shape overloads throw the same.
    CHECK_THROWS_AS(check_obstacle(SphereObstacle { o, -1 }), ipc::invalid_argument);
    CHECK_THROWS_AS(check_obstacle(BoxObstacle { o, Eigen::Vector3d(-1, 1, 1), 0 }), ipc::error);
}

TEST_CASE("min_curvature_radius and obstacle_name", "[obstacles][check]")
{
    const PlaneObstacle plane {};
    const SphereObstacle sphere { Eigen::Vector3d::Zero(), 0.3 };
    const BoxObstacle sharp { Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones(), 0 };
    const BoxObstacle rounded { Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones(), 0.02 };
    const CapsuleObstacle capsule { Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY(), 0.05 };
    CHECK(min_curvature_radius(SdfObstacle(plane)) == std::numeric_limits<double>::infinity());
    CHECK(min_curvature_radius(SdfObstacle(sphere)) == 0.3);
    CHECK(min_curvature_radius(SdfObstacle(sharp)) == 0);
    CHECK(min_curvature_radius(SdfObstacle(rounded)) == 0.02);
    CHECK(min_curvature_radius(SdfObstacle(capsule)) == 0.05);
    CHECK(std::string(obstacle_name(SdfObstacle(plane))) == "plane");
    CHECK(std::string(obstacle_name(SdfObstacle(sphere))) == "sphere");
    CHECK(std::string(obstacle_name(SdfObstacle(rounded))) == "box");
    CHECK(std::string(obstacle_name(SdfObstacle(capsule))) == "capsule");
}
