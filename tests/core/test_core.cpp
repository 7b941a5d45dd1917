#include <catch2/catch.hpp>

#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/psd_projection.hpp>

#include <Eigen/Dense>

#include <limits>
#include <vector>

TEST_CASE("require throws ipc errors with the message", "[core]")
{
    CHECK_NOTHROW(ipc::require(true, "never"));
    try {
        ipc::require(false, "value ", 3.5, " is out of range");
        FAIL("require(false) did not throw");
    } catch (const ipc::invalid_argument& e) {
        CHECK(std::string(e.what()) == "ipc: value 3.5 is out of range");
    }
    CHECK_THROWS_AS(
        ipc::require<ipc::degenerate_geometry>(false, "edge 3 has zero length"), ipc::error);
}

TEST_CASE("all_finite detects NaN and infinity", "[core]")
{
    Eigen::Vector3d v(1, 2, 3);
    CHECK(ipc::all_finite(v));
    v[1] = std::numeric_limits<double>::quiet_NaN();
    CHECK_FALSE(ipc::all_finite(v));
    v[1] = std::numeric_limits<double>::infinity();
    CHECK_FALSE(ipc::all_finite(v));
}

TEST_CASE("project_to_psd", "[core]")
{
    Eigen::Matrix3d A = Eigen::Matrix3d::Random();
    A = (A + A.transpose()).eval();
    const Eigen::Matrix3d P = ipc::project_to_psd(A);
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(P);
    CHECK(eig.eigenvalues().minCoeff() >= -1e-12);

    // Clamping keeps the nonnegative part of the spectrum unchanged.
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigA(A);
    const Eigen::Vector3d clamped = eigA.eigenvalues().cwiseMax(0.0);
    CHECK((eig.eigenvalues() - clamped).cwiseAbs().maxCoeff() < 1e-12);

    // abs flips negative eigenvalues.
    const Eigen::Matrix3d Q = ipc::project_to_psd(A, ipc::PSDProjection::abs);
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigQ(Q);
    Eigen::Vector3d expected = eigA.eigenvalues().cwiseAbs();
    std::sort(expected.data(), expected.data() + 3);
    CHECK((eigQ.eigenvalues() - expected).cwiseAbs().maxCoeff() < 1e-12);

    // A PSD matrix comes back unchanged.
    const Eigen::Matrix3d S = A * A.transpose();
    CHECK(ipc::project_to_psd(S) == S);
}

TEST_CASE("parallel_for visits every index once", "[core]")
{
    std::vector<int> hits(1000, 0);
    ipc::parallel_for(0, 1000, [&](std::ptrdiff_t i) { hits[size_t(i)] += 1; });
    for (int h : hits) {
        CHECK(h == 1);
    }
}
