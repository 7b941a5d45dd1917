// The barrier stencil Hessian projected to PSD in the subspace of its
// distance-Hessian factors equals the dense eigenvalue projection of the full
// stencil Hessian, for every stencil type and region, near-degenerate
// configurations included; the unprojected stencil Hessian (formed from the
// same factors, with the mollified edge-edge terms added) matches finite
// differences of the stencil gradient and is exactly symmetric.

#include <ipc/collisions/collisions.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <catch2/catch.hpp>
#include <finite_differences.hpp>
#include <reference_eigen.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <random>

namespace {

template <int N> using Square = Eigen::Matrix<double, N, N>;

/// Checks a stencil's projected Hessians against the dense projection of its
/// Hessian or, with finite_differences set, the unprojected Hessian against
/// central differences of the stencil gradient and its exact symmetry.
struct Checker {
    ipc::BarrierPotential<> barrier { 1.0, 3.0 }; // dhat 1: random stencils below are active
    bool finite_differences = false;
    int compared = 0;

    template <typename Collision, int N>
    void operator()(const Collision& c, const Eigen::Matrix<double, N, 1>& x, const char* what)
    {
        const Square<N> H = barrier.stencil_hessian(c, x);
        if (H.norm() == 0) {
            return;
        }
        if (finite_differences) {
            INFO(what);
            CHECK((H.array() == H.transpose().array()).all());
            const auto gradient = [&](const Eigen::VectorXd& y) {
                return Eigen::VectorXd(barrier.stencil_gradient(c, Eigen::Matrix<double, N, 1>(y)));
            };
            const Eigen::MatrixXd fd = ipc::test::fd_jacobian(gradient, Eigen::VectorXd(x), 1e-6);
            CHECK((Eigen::MatrixXd(H) - fd).cwiseAbs().maxCoeff() <= 1e-5 * std::max(1.0, H.cwiseAbs().maxCoeff()));
            ++compared;
            return;
        }
        for (const auto method : { ipc::PSDProjection::clamp, ipc::PSDProjection::abs }) {
            const Square<N> expected = ipc::project_to_psd(H, method);
            const Square<N> actual = barrier.stencil_hessian(c, x, method);
            INFO(what << ", method " << int(method));
            CHECK((actual - expected).norm() <= 1e-10 * H.norm());
            const double smallest = ipc::test::smallest_eigenvalue(actual);
            CHECK(smallest >= -1e-12 * H.norm());
            ++compared;
        }
    }
};

Eigen::Vector3d random_point(std::mt19937_64& rng, double scale)
{
    std::uniform_real_distribution<double> uniform(-scale, scale);
    return { uniform(rng), uniform(rng), uniform(rng) };
}

} // namespace

TEST_CASE("Structured barrier projection equals the dense projection on random stencils", "[potentials][barrier][psd]")
{
    std::mt19937_64 rng(99);
    Checker check;
    for (int trial = 0; trial < 100; ++trial) {
        const double spread = trial % 3 == 0 ? 0.05 : 0.4;
        const auto p = [&] { return random_point(rng, spread); };
        {
            ipc::VertexVertexCollision c;
            c.weight = 1 + trial % 3;
            Eigen::Matrix<double, 6, 1> x;
            x << p(), p();
            check(c, x, "vertex-vertex");
            x.tail<3>() = x.head<3>() + random_point(rng, 1e-9); // r ~ 0
            check(c, x, "vertex-vertex, nearly coincident");
        }
        {
            ipc::EdgeVertexCollision c;
            Eigen::Matrix<double, 9, 1> x;
            x << p(), p(), p();
            check(c, x, "edge-vertex");
            // Point nearly on the line (r ~ 0).
            x.head<3>() = x.segment<3>(3) + 0.3 * (x.segment<3>(6) - x.segment<3>(3)) + random_point(rng, 1e-10);
            check(c, x, "edge-vertex, point on the line");
        }
        {
            ipc::FaceVertexCollision c;
            Eigen::Matrix<double, 12, 1> x;
            x << p(), p(), p(), p();
            check(c, x, "face-vertex");
            // Point nearly in the plane (r ~ 0).
            x.head<3>() = 0.2 * x.segment<3>(3) + 0.3 * x.segment<3>(6) + 0.5 * x.segment<3>(9) + random_point(rng, 1e-10);
            check(c, x, "face-vertex, point in the plane");
            // Sliver triangle.
            x.segment<3>(9) = 0.4 * x.segment<3>(3) + 0.6 * x.segment<3>(6) + random_point(rng, 1e-6);
            check(c, x, "face-vertex, sliver triangle");
        }
        for (int type = 0; type <= int(ipc::EdgeEdgeDistanceType::EA_EB); ++type) {
            ipc::EdgeEdgeCollision c;
            c.type = ipc::EdgeEdgeDistanceType(type);
            Eigen::Matrix<double, 12, 1> x;
            x << p(), p(), p(), p();
            check(c, x, "edge-edge");
            // Nearly parallel edges.
            Eigen::Matrix<double, 12, 1> y = x;
            y.segment<3>(9) = y.segment<3>(6) + 0.7 * (y.segment<3>(3) - y.segment<3>(0)) + random_point(rng, 1e-5);
            check(c, y, "edge-edge, nearly parallel");
            // Nearly intersecting lines (r ~ 0).
            y = x;
            const Eigen::Vector3d shift = (y.segment<3>(0) + 0.5 * (y.segment<3>(3) - y.segment<3>(0)))
                - (y.segment<3>(6) + 0.5 * (y.segment<3>(9) - y.segment<3>(6))) + random_point(rng, 1e-11);
            y.segment<3>(6) += shift;
            y.segment<3>(9) += shift;
            check(c, y, "edge-edge, intersecting");
            // Active mollifier (dense path).
            c.mollifier_threshold = 10.0;
            check(c, x, "edge-edge, mollified");
        }
    }
    CHECK(check.compared > 2000);
}

TEST_CASE("Unprojected stencil Hessians match finite differences and are exactly symmetric",
          "[potentials][barrier]")
{
    std::mt19937_64 rng(7);
    Checker check;
    check.finite_differences = true;
    const auto p = [&] { return random_point(rng, 0.3); };
    for (int trial = 0; trial < 40; ++trial) {
        {
            ipc::VertexVertexCollision c;
            Eigen::Matrix<double, 6, 1> x;
            x << p(), p();
            check(c, x, "vertex-vertex");
        }
        {
            ipc::EdgeVertexCollision c;
            Eigen::Matrix<double, 9, 1> x;
            x << p(), p(), p();
            check(c, x, "edge-vertex");
        }
        {
            ipc::FaceVertexCollision c;
            c.weight = 2;
            Eigen::Matrix<double, 12, 1> x;
            x << p(), p(), p(), p();
            check(c, x, "face-vertex");
        }
        {
            // The pair's own region, without and with an active mollifier
            // (nearly parallel edges under the usual threshold, then a
            // threshold that every pair is under).
            ipc::EdgeEdgeCollision c;
            Eigen::Matrix<double, 12, 1> x;
            x << p(), p(), p(), p();
            const auto classify = [&] {
                c.type = ipc::edge_edge_distance_type(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9));
            };
            classify();
            check(c, x, "edge-edge");
            x.segment<3>(9) = x.segment<3>(6) + 0.8 * (x.segment<3>(3) - x.segment<3>(0)) + random_point(rng, 0.02);
            classify();
            c.mollifier_threshold = 1e-3 * (x.segment<3>(3) - x.segment<3>(0)).squaredNorm()
                * (x.segment<3>(9) - x.segment<3>(6)).squaredNorm();
            check(c, x, "edge-edge, nearly parallel");
            c.mollifier_threshold = 10.0;
            check(c, x, "edge-edge, mollified");
        }
    }
    CHECK(check.compared > 100);
}
