// Normal and tangential adhesion: the profile's kernels, stencil and mesh
// derivatives against finite differences, PSD projection, the lagged
// tangential set, a hanging point held up to the analytic load and let go
// above it, validation.

#include <test_vectors.hpp>

#include <ipc/adhesion/normal_adhesion.hpp>
#include <ipc/adhesion/tangential_adhesion_mollifier.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/normal_adhesion_potential.hpp>
#include <ipc/potentials/tangential_adhesion_potential.hpp>

#include <catch2/catch.hpp>
#include <finite_differences.hpp>
#include <reference_eigen.hpp>

#include <cmath>
#include <limits>
#include <random>

using Eigen::Vector3d;

namespace adhesion_test {

constexpr double dhat_p = 0.01, dhat_a = 0.03, Y = 2.0;

template <typename Collision, int N>
void check_stencil(const ipc::NormalAdhesionPotential& potential, const Collision& c,
                   const Eigen::Matrix<double, 3 * N, 1>& x)
{
    const double h = 1e-8;
    const Eigen::VectorXd g = potential.stencil_gradient(c, x);
    const Eigen::MatrixXd H = potential.stencil_hessian(c, x);
    const Eigen::VectorXd fd_g = ipc::test::fd_gradient(
        [&](const Eigen::VectorXd& y) { return potential.stencil_energy(c, Eigen::Matrix<double, 3 * N, 1>(y)); }, x,
        h);
    const Eigen::MatrixXd fd_H = ipc::test::fd_jacobian(
        [&](const Eigen::VectorXd& y) {
            return Eigen::VectorXd(potential.stencil_gradient(c, Eigen::Matrix<double, 3 * N, 1>(y)));
        },
        x, h);
    const double scale = std::max(1e-300, g.cwiseAbs().maxCoeff());
    CHECK(ipc::test::fd_close(g / scale, fd_g / scale, 1e-6));
    const double hessian_scale = std::max(1e-300, H.cwiseAbs().maxCoeff());
    CHECK(ipc::test::fd_close(H / hessian_scale, fd_H / hessian_scale, 1e-5));
    const Eigen::MatrixXd P = potential.stencil_hessian(c, x, ipc::PSDProjection::clamp);
    const Eigen::VectorXd eigenvalues = ipc::test::reference_eigenvalues(P);
    CHECK(eigenvalues.minCoeff() >= -1e-10 * std::max(1e-300, eigenvalues.cwiseAbs().maxCoeff()));
    // Projection changes nothing where the exact Hessian is PSD.
    if (ipc::test::reference_eigenvalues(H).minCoeff() >= 1e-9 * hessian_scale) {
        CHECK(ipc::test::fd_close(P / hessian_scale, H / hessian_scale, 1e-9));
    }
}

// Ground square (0-3, z = 0) and a triangle (4-6) whose vertices are at
// heights spanning both branches of the profile.
struct Scene {
    ipc::CollisionMesh mesh;
    Eigen::MatrixXd V;
};

inline Scene scene()
{
    Eigen::MatrixXd V(7, 3);
    V << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, //
        0.3, 0.25, 0.006, 0.7, 0.35, 0.017, 0.35, 0.7, 0.024;
    Eigen::MatrixXi F(3, 3);
    F << 0, 1, 2, 0, 2, 3, 4, 5, 6;
    return { ipc::CollisionMesh(V, Eigen::MatrixXi(0, 2), F), V };
}

} // namespace adhesion_test

TEST_CASE("Normal adhesion profile is C1 with peak force Y", "[adhesion][normal]")
{
    using namespace adhesion_test;
    const double h = 1e-9;
    for (double s : { 0.001, 0.005, 0.0099, 0.0101, 0.02, 0.0299, 0.0301, 0.05 }) {
        INFO("s = " << s);
        const double fd_a = (ipc::normal_adhesion_potential(s + h, dhat_p, dhat_a, Y)
                                - ipc::normal_adhesion_potential(s - h, dhat_p, dhat_a, Y))
            / (2 * h);
        CHECK(fd_a == Approx(ipc::normal_adhesion_force(s, dhat_p, dhat_a, Y)).margin(1e-6));
        const double fd_da = (ipc::normal_adhesion_force(s + h, dhat_p, dhat_a, Y)
                                 - ipc::normal_adhesion_force(s - h, dhat_p, dhat_a, Y))
            / (2 * h);
        CHECK(fd_da == Approx(ipc::normal_adhesion_force_derivative(s, dhat_p, dhat_a, Y)).margin(1e-4));
        // The same through the squared distance (offset xi).
        const double xi = 0.002, d = s + xi, hq = 1e-12;
        const double fd_q = (ipc::normal_adhesion_potential(std::sqrt(d * d + hq) - xi, dhat_p, dhat_a, Y)
                                - ipc::normal_adhesion_potential(std::sqrt(d * d - hq) - xi, dhat_p, dhat_a, Y))
            / (2 * hq);
        CHECK(fd_q == Approx(ipc::normal_adhesion_first_derivative(d * d, xi, dhat_p, dhat_a, Y)).epsilon(1e-5));
        const double fd_qq = (ipc::normal_adhesion_first_derivative(d * d + hq, xi, dhat_p, dhat_a, Y)
                                 - ipc::normal_adhesion_first_derivative(d * d - hq, xi, dhat_p, dhat_a, Y))
            / (2 * hq);
        CHECK(fd_qq
              == Approx(ipc::normal_adhesion_second_derivative(d * d, xi, dhat_p, dhat_a, Y)).epsilon(1e-4));
    }
    // Continuity at the knots, the peak and the depth.
    for (double knot : { dhat_p, dhat_a }) {
        CHECK(ipc::normal_adhesion_potential(knot * (1 - 1e-13), dhat_p, dhat_a, Y)
              == Approx(ipc::normal_adhesion_potential(knot, dhat_p, dhat_a, Y)).margin(1e-12));
        CHECK(ipc::normal_adhesion_force(knot * (1 - 1e-13), dhat_p, dhat_a, Y)
              == Approx(ipc::normal_adhesion_force(knot, dhat_p, dhat_a, Y)).margin(1e-9));
    }
    CHECK(ipc::normal_adhesion_force(dhat_p, dhat_p, dhat_a, Y) == Y);
    CHECK(ipc::normal_adhesion_potential(0.0, dhat_p, dhat_a, Y) == Approx(-Y * dhat_a / 2));
    CHECK(ipc::normal_adhesion_potential(dhat_a, dhat_p, dhat_a, Y) == 0.0);
    double peak = 0;
    for (int i = 0; i <= 3000; ++i) {
        peak = std::max(peak, ipc::normal_adhesion_force(i * 1e-5, dhat_p, dhat_a, Y));
    }
    CHECK(peak == Y);
}

TEST_CASE("Normal adhesion stencils match finite differences", "[adhesion][normal]")
{
    using namespace adhesion_test;
    const ipc::NormalAdhesionPotential potential(dhat_p, dhat_a, Y);
    for (double z : { 0.004, 0.008, 0.015, 0.028, 0.035 }) {
        INFO("height = " << z);
        ipc::VertexVertexCollision vv;
        vv.vertices = { { 0, 1 } };
        vv.offset = 0.001;
        vv.weight = 2;
        Eigen::Matrix<double, 6, 1> x_vv;
        x_vv << 0.01, -0.02, z, 0, 0, 0;
        check_stencil<ipc::VertexVertexCollision, 2>(potential, vv, x_vv);
        ipc::EdgeVertexCollision ev;
        ev.vertices = { { 0, 1, 2 } };
        ev.offset = 0.001;
        Eigen::Matrix<double, 9, 1> x_ev;
        x_ev << 0.3, 0.5 * z, 0.8 * z, 0, 0, 0, 1, 0.01, 0;
        check_stencil<ipc::EdgeVertexCollision, 3>(potential, ev, x_ev);
        ipc::FaceVertexCollision fv;
        fv.vertices = { { 0, 1, 2, 3 } };
        Eigen::Matrix<double, 12, 1> x_fv;
        x_fv << 0.2, 0.3, z, 0, 0, 0, 1, 0, 0.002, 0, 1, -0.001;
        check_stencil<ipc::FaceVertexCollision, 4>(potential, fv, x_fv);
        ipc::EdgeEdgeCollision ee;
        ee.vertices = { { 0, 1, 2, 3 } };
        ee.type = ipc::EdgeEdgeDistanceType::EA_EB;
        Eigen::Matrix<double, 12, 1> x_ee;
        x_ee << 0.2, 0.5, z, 0.8, 0.4, z, 0.5, 0, 0, 0.45, 1, 0;
        check_stencil<ipc::EdgeEdgeCollision, 4>(potential, ee, x_ee);
    }
}

TEST_CASE("Adhesion potentials over a mesh match finite differences", "[adhesion][mesh]")
{
    using namespace adhesion_test;
    const Scene s = scene();
    ipc::Collisions collisions;
    collisions.build(s.mesh, s.V, dhat_a);
    REQUIRE(collisions.face_vertex.size() >= 3);
    REQUIRE(!collisions.edge_edge.empty());
    const ipc::NormalAdhesionPotential normal(dhat_p, dhat_a, Y);
    // Tangential adhesion, lagged at V.
    const double mu_t = 0.7, eps_a = 1e-3;
    const ipc::FrictionCollisions tangential = ipc::tangential_adhesion_collisions(collisions, s.mesh, s.V, normal, mu_t);
    REQUIRE(tangential.size() == collisions.size()); // every stencil is within dhat_a here
    const ipc::TangentialAdhesionPotential tangential_potential(eps_a);
    std::mt19937 generator(2);
    for (int trial = 0; trial < 3; ++trial) {
        Eigen::VectorXd x(21), u(21);
        for (int i = 0; i < 7; ++i) {
            x.segment<3>(3 * i) = s.V.row(i).transpose() + 1e-3 * ipc::test::random_point(generator);
            u.segment<3>(3 * i) = (0.5 + trial) * eps_a * ipc::test::random_point(generator);
        }
        const auto check = [&](const auto& energy, const auto& gradient, const Eigen::MatrixXd& H,
                               const Eigen::VectorXd& at, double h) {
            const Eigen::VectorXd g = gradient(at);
            const Eigen::VectorXd fd_g = ipc::test::fd_gradient(energy, at, h);
            const Eigen::MatrixXd fd_H = ipc::test::fd_jacobian(gradient, at, h);
            const double scale = g.cwiseAbs().maxCoeff();
            REQUIRE(scale > 0);
            CHECK(ipc::test::fd_close(g / scale, fd_g / scale, 1e-6));
            const double hessian_scale = H.cwiseAbs().maxCoeff();
            CHECK(ipc::test::fd_close(H / hessian_scale, fd_H / hessian_scale, 1e-5));
        };
        INFO("trial " << trial);
        check([&](const Eigen::VectorXd& y) { return normal(collisions, s.mesh, ipc::test::rows_of(y)); },
              [&](const Eigen::VectorXd& y) { return normal.gradient(collisions, s.mesh, ipc::test::rows_of(y)); },
              Eigen::MatrixXd(normal.hessian(collisions, s.mesh, ipc::test::rows_of(x))), x, 1e-8);
        check([&](const Eigen::VectorXd& y) { return tangential_potential(tangential, s.mesh, ipc::test::rows_of(y)); },
              [&](const Eigen::VectorXd& y) {
                  return tangential_potential.gradient(tangential, s.mesh, ipc::test::rows_of(y));
              },
              Eigen::MatrixXd(tangential_potential.hessian(tangential, s.mesh, ipc::test::rows_of(u))), u,
              1e-7 * eps_a);
        for (const Eigen::MatrixXd& P :
             { Eigen::MatrixXd(normal.hessian(collisions, s.mesh, ipc::test::rows_of(x), ipc::PSDProjection::clamp)),
               Eigen::MatrixXd(tangential_potential.hessian(tangential, s.mesh, ipc::test::rows_of(u),
                                                            ipc::PSDProjection::clamp)) }) {
            const Eigen::VectorXd eigenvalues = ipc::test::reference_eigenvalues(P);
            CHECK(eigenvalues.minCoeff() >= -1e-10 * eigenvalues.cwiseAbs().maxCoeff());
        }
    }
    // The lagged tangential strengths are the stencils' adhesion forces.
    const auto& c = collisions.face_vertex[0];
    bool found = false;
    for (const auto& t : tangential.face_vertex) {
        if (t.vertices == c.vertices) {
            found = true;
            CHECK(t.contact.mu == mu_t);
            CHECK(t.contact.normal_force
                  == normal.stencil_force_magnitude(c, ipc::detail::gather_positions(s.V, c.vertices)));
        }
    }
    CHECK(found);
}

TEST_CASE("Tangential adhesion resists up to mu_t lambda_a and breaks by 2 eps_a", "[adhesion][tangential]")
{
    using Mollifier = ipc::TangentialAdhesionMollifier;
    const double eps = 1e-3, h = 1e-10;
    for (double t : { 0.0, 0.2, 0.7, 0.99, 1.01, 1.5, 1.99, 2.01, 3.0 }) {
        const double y = t * eps;
        INFO("y / eps_a = " << t);
        if (t > 0) {
            CHECK((Mollifier::f0(y + h, eps) - Mollifier::f0(y - h, eps)) / (2 * h)
                  == Approx(Mollifier::f1(y, eps)).margin(1e-6));
            CHECK((Mollifier::f1(y + h, eps) - Mollifier::f1(y - h, eps)) / (2 * h) * eps
                  == Approx(Mollifier::f1_derivative(y, eps) * eps).margin(1e-5));
            CHECK(Mollifier::f1_over_y(y, eps) * y == Approx(Mollifier::f1(y, eps)).margin(1e-14));
            CHECK((Mollifier::f1_over_y(y + h, eps) - Mollifier::f1_over_y(y - h, eps)) / (2 * h) * eps * eps
                  == Approx(Mollifier::f1_over_y_derivative(y, eps) * eps * eps).margin(1e-4));
        }
        CHECK(Mollifier::f1(y, eps) >= 0);
        CHECK(Mollifier::f1(y, eps) <= 1);
    }
    CHECK(Mollifier::f1(eps, eps) == 1.0);
    CHECK(Mollifier::f1(2 * eps, eps) == 0.0);
    CHECK(Mollifier::f0(5 * eps, eps) == Approx(7 * eps / 6));
    // Through a contact: the force peaks at mu_t lambda_a.
    const double lambda = 3.0, mu_t = 0.5;
    const auto contact = ipc::point_point_friction_contact(Vector3d(0, 0, 1e-2), Vector3d(0, 0, 0), lambda, mu_t);
    Eigen::Matrix<double, 6, 1> dx = Eigen::Matrix<double, 6, 1>::Zero();
    dx(0) = eps;
    CHECK(ipc::friction_gradient<Mollifier>(contact, dx, eps).head<3>().norm() == Approx(mu_t * lambda));
    dx(0) = 2.5 * eps;
    CHECK(ipc::friction_gradient<Mollifier>(contact, dx, eps).norm() == 0.0);
}

TEST_CASE("A hanging point is held up to the peak adhesion force", "[adhesion][hanging]")
{
    using namespace adhesion_test;
    // A fixed triangle at z = 0 and a point of mass m hanging below it:
    // gravity pulls it away (potential m g z). Only the point's height moves.
    Eigen::MatrixXd V(4, 3);
    V << 0, 0, 0, 1, 0, 0, 0, 1, 0, 0.25, 0.25, -0.5 * dhat_p;
    Eigen::MatrixXi F(1, 3);
    F << 0, 1, 2;
    const ipc::CollisionMesh mesh(V, Eigen::MatrixXi(0, 2), F);
    const ipc::NormalAdhesionPotential potential(dhat_p, dhat_a, Y);
    const double g = 9.81;
    // Minimises the total energy over the gap by Newton steps with a
    // backtracking line search; returns the final gap (m), or a value >=
    // dhat_a when the point fell out of range.
    const auto hang = [&](double mass) {
        double s = 0.5 * dhat_p;
        const auto energy = [&](double gap) {
            Eigen::MatrixXd X = V;
            X(3, 2) = -gap;
            ipc::Collisions collisions;
            collisions.build(mesh, X, dhat_a);
            return potential(collisions, mesh, X) - mass * g * gap;
        };
        for (int iteration = 0; iteration < 200 && s < dhat_a; ++iteration) {
            Eigen::MatrixXd X = V;
            X(3, 2) = -s;
            ipc::Collisions collisions;
            collisions.build(mesh, X, dhat_a);
            // d/ds = -d/dz of the point.
            const double gradient = -potential.gradient(collisions, mesh, X)(11) - mass * g;
            const double curvature = Eigen::MatrixXd(potential.hessian(collisions, mesh, X))(11, 11);
            if (std::abs(gradient) < 1e-12 * Y) {
                break;
            }
            double step = curvature > 0 ? -gradient / curvature : (gradient < 0 ? dhat_p : -dhat_p);
            const double e0 = energy(s);
            while (s + step <= 0 || (energy(s + step) > e0 && std::abs(step) > 1e-15)) {
                step /= 2;
            }
            s += step;
        }
        return s;
    };
    // Held: the equilibrium on the rising branch, a(s) = m g, s = m g dhat_p / Y.
    for (double load : { 0.3, 0.9, 0.99 }) {
        const double mass = load * Y / g;
        INFO("load / Y = " << load);
        CHECK(hang(mass) == Approx(load * dhat_p).epsilon(1e-8));
    }
    // Let go: above the peak force no equilibrium is left.
    for (double load : { 1.01, 1.5 }) {
        INFO("load / Y = " << load);
        CHECK(hang(load * Y / g) >= dhat_a);
    }
}

TEST_CASE("Adhesion inputs are validated", "[adhesion][validation]")
{
    using namespace adhesion_test;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH(ipc::NormalAdhesionPotential(0.0, dhat_a, Y),
                      Catch::Contains("NormalAdhesionPotential") && Catch::Contains("dhat_p"));
    CHECK_THROWS_WITH(ipc::NormalAdhesionPotential(dhat_p, dhat_p, Y), Catch::Contains("dhat_a"));
    CHECK_THROWS_WITH(ipc::NormalAdhesionPotential(dhat_p, dhat_a, -1.0), Catch::Contains("Y") && Catch::Contains("-1"));
    CHECK_THROWS_AS(ipc::NormalAdhesionPotential(dhat_p, nan, Y), ipc::invalid_argument);
    const Scene s = scene();
    const ipc::NormalAdhesionPotential potential(dhat_p, dhat_a, Y);
    ipc::Collisions small;
    small.build(s.mesh, s.V, dhat_p);
    CHECK_THROWS_WITH(potential(small, s.mesh, s.V), Catch::Contains("dhat_a"));
    ipc::Collisions collisions;
    collisions.build(s.mesh, s.V, dhat_a);
    Eigen::MatrixXd bad = s.V;
    bad(4, 2) = nan;
    CHECK_THROWS_AS(potential.gradient(collisions, s.mesh, bad), ipc::invalid_argument);
    CHECK_THROWS_AS(potential(collisions, s.mesh, s.V.topRows(5)), ipc::invalid_argument);
    Eigen::MatrixXd through = s.V;
    through(4, 2) = 0.0; // on the ground: gap 0
    CHECK_THROWS_AS(potential(collisions, s.mesh, through), ipc::penetration);
    CHECK_THROWS_WITH(ipc::tangential_adhesion_collisions(collisions, s.mesh, s.V, potential, -0.5),
                      Catch::Contains("tangential_adhesion_collisions") && Catch::Contains("mu_t"));
}
