#include <ipc/strain_limit/strain_limit_feasibility.hpp>
#include <ipc/strain_limit/strain_limit_stiffness.hpp>

#include <catch2/catch.hpp>

#include "strain_limit_test_helpers.hpp"

#include <limits>
#include <random>
#include <vector>

using namespace ipc;
using namespace ipc::test;

TEST_CASE("strain-limit stiffness adaptation", "[strain_limit][stiffness]")
{
    const double limit = 1.0608, threshold = 1.0;
    const double near = limit - 0.5e-4 * (limit - threshold); // gap below 1e-4 (s - s_hat)
    const double far = limit - 2e-4 * (limit - threshold);
    CHECK(is_near_strain_limit(near, limit, threshold));
    CHECK(!is_near_strain_limit(far, limit, threshold));

    StrainLimitStiffness<double> kappa;
    CHECK(kappa.stiffness() == 1e3); // C-IPC: 1 kPa
    CHECK(kappa.maximum() == 1e5);   // C-IPC: 0.1 MPa

    Eigen::VectorXd sigma(3);
    sigma << 1.0, near, 1.02;
    CHECK(!kappa.update(sigma, limit, threshold)); // first iteration near: wait
    CHECK(kappa.stiffness() == 1e3);
    CHECK(kappa.update(sigma, limit, threshold)); // second consecutive: double
    CHECK(kappa.stiffness() == 2e3);

    // Near on alternate iterations only: no doubling.
    sigma << 1.0, far, 1.02;
    CHECK(!kappa.update(sigma, limit, threshold));
    sigma << 1.0, near, 1.02;
    CHECK(!kappa.update(sigma, limit, threshold));
    sigma << 1.0, far, 1.02;
    CHECK(!kappa.update(sigma, limit, threshold));
    CHECK(kappa.stiffness() == 2e3);

    // Different triangles near in consecutive iterations: not the same triangle.
    sigma << near, far, 1.0;
    CHECK(!kappa.update(sigma, limit, threshold));
    sigma << far, near, 1.0;
    CHECK(!kappa.update(sigma, limit, threshold));
    CHECK(kappa.stiffness() == 2e3);

    // Staying near keeps doubling up to the cap, which is never exceeded.
    sigma << near, near, near;
    int doublings = 0;
    for (int i = 0; i < 20; ++i) {
        doublings += kappa.update(sigma, limit, threshold) ? 1 : 0;
        CHECK(kappa.stiffness() <= 1e5);
    }
    CHECK(kappa.stiffness() == 1e5);
    CHECK(doublings == 6); // 2 kPa -> 64 kPa in five doublings, then the cap

    // Mismatched triangle counts and bad input are reported.
    Eigen::VectorXd other(2);
    other << 1.0, 1.0;
    CHECK_THROWS_AS(kappa.update(other, limit, threshold), ipc::invalid_argument);
    kappa.forget_history();
    CHECK_NOTHROW(kappa.update(other, limit, threshold));
    other[0] = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(kappa.update(other, limit, threshold), ipc::invalid_argument);
    CHECK_THROWS_AS(StrainLimitStiffness<double>(-1.0), ipc::invalid_argument);
    CHECK_THROWS_AS(StrainLimitStiffness<double>(1e6, 1e5), ipc::invalid_argument);

    StrainLimitStiffness<float> single;
    Eigen::VectorXf one(1);
    one << float(near);
    single.update(one, float(limit), float(threshold));
    CHECK(single.update(one, float(limit), float(threshold)));
    CHECK(single.stiffness() == 2e3f);
}

TEST_CASE("strain-limit feasibility for line search", "[strain_limit][feasibility]")
{
    const double limit = 1.0608;
    std::mt19937 rng(53);
    const auto inside = random_stretched_triangle(rng, 1.05, 1.01);
    const auto outside = random_stretched_triangle(rng, 1.07, 0.9);
    CHECK(triangle_largest_singular_value(inside.x0, inside.x1, inside.x2,
              inside.rest.inverse_rest_matrix)
        == Approx(1.05));
    CHECK(is_strain_feasible(inside.x0, inside.x1, inside.x2, inside.rest.inverse_rest_matrix, limit));
    CHECK(!is_strain_feasible(
        outside.x0, outside.x1, outside.x2, outside.rest.inverse_rest_matrix, limit));
    const Vec3 nan_point(std::numeric_limits<double>::quiet_NaN(), 0, 0);
    CHECK(!is_strain_feasible(nan_point, inside.x1, inside.x2, inside.rest.inverse_rest_matrix, limit));

    // A strip of two triangles sharing an edge, at rest.
    Eigen::MatrixXd positions(4, 3);
    positions << 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0;
    Eigen::MatrixXi faces(2, 3);
    faces << 0, 1, 2, 1, 3, 2;
    std::vector<TriangleRestShape<double>> rest;
    for (int f = 0; f < 2; ++f) {
        const Vec3 X0 = positions.row(faces(f, 0)).transpose();
        const Vec3 X1 = positions.row(faces(f, 1)).transpose();
        const Vec3 X2 = positions.row(faces(f, 2)).transpose();
        rest.push_back(triangle_rest_shape(X0, X1, X2));
    }
    CHECK(is_strain_feasible(positions, faces, rest, limit));

    // Step that pulls vertex 3 away by 0.16 m along edge 1-3: stretches
    // face 1 by about 10 % at alpha = 1/2 and 5 % at alpha = 1/4.
    Eigen::MatrixXd direction = Eigen::MatrixXd::Zero(4, 3);
    direction(3, 1) = 0.16;
    CHECK(!is_step_strain_feasible(positions, direction, 1.0, faces, rest, limit));
    CHECK(is_step_strain_feasible(positions, direction, 0.0, faces, rest, limit));
    // Backtracking by halving, as C-IPC's line search does, ends feasible.
    double alpha = 1.0;
    int halvings = 0;
    while (!is_step_strain_feasible(positions, direction, alpha, faces, rest, limit)) {
        alpha /= 2;
        ++halvings;
        REQUIRE(halvings < 20);
    }
    CHECK(halvings == 2);
    const Eigen::MatrixXd trial = positions + alpha * direction;
    CHECK(is_strain_feasible(trial, faces, rest, limit));

    // Bad indices and shapes are reported.
    Eigen::MatrixXi bad_faces = faces;
    bad_faces(1, 1) = 7;
    CHECK_THROWS_AS(is_strain_feasible(positions, bad_faces, rest, limit), ipc::invalid_argument);
    bad_faces(1, 1) = -1;
    CHECK_THROWS_AS(is_strain_feasible(positions, bad_faces, rest, limit), ipc::invalid_argument);
    std::vector<TriangleRestShape<double>> short_rest(1, rest[0]);
    CHECK_THROWS_AS(is_strain_feasible(positions, faces, short_rest, limit), ipc::invalid_argument);
    CHECK_THROWS_AS(is_step_strain_feasible(positions, Eigen::MatrixXd::Zero(3, 3), 1.0, faces, rest, limit),
        ipc::invalid_argument);
}
