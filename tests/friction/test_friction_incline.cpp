// Behaviour: a point on an inclined triangle under gravity, integrated by a
// few implicit Euler steps of a tiny Newton solver on the incremental
// potential with the lagged friction of one point-triangle contact (normal
// force m g cos(theta), the point kept in the plane). It sticks when
// tan(theta) < mu_s, slides when tan(theta) > mu_s, and, with mu_s > mu_k, a
// slide once started continues at an angle with mu_k < tan(theta) < mu_s
// (stick-slip).

#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/friction_energy.hpp>
#include <ipc/friction/static_kinetic_friction.hpp>

#include <catch2/catch.hpp>

#include <cmath>

namespace incline_test {

struct Incline {
    double theta;           // slope angle (rad)
    double mu_s, mu_k;      // coefficients
    double mass = 1.0;      // kg
    double g = 9.81;        // m/s^2
    double h = 0.01;        // time step (s)
    double eps_v = 1e-3;    // friction velocity threshold (m/s)
};

// Runs `steps` implicit Euler steps from the in-plane down-slope speed v0
// (m/s) and returns the final down-slope speed (m/s).
inline double simulate(const Incline& setup, double v0, int steps)
{
    const double c = std::cos(setup.theta), s = std::sin(setup.theta);
    // The slope: plane through the origin with unit normal n; "down" is the
    // in-plane steepest descent direction.
    const Eigen::Vector3d n(0, -s, c), down(0, -c, -s), side(1, 0, 0);
    const Eigen::Vector3d t0(-2, 2 * c, 2 * s), t1(2, 2 * c, 2 * s), t2(0, -3 * c, -3 * s);
    const Eigen::Vector3d gravity(0, 0, -setup.g);
    const double eps = setup.eps_v * setup.h;
    Eigen::Vector3d x = 1e-3 * n; // just above the slope
    Eigen::Vector3d v = v0 * down;
    Eigen::Matrix<double, 3, 2> plane;
    plane << side, down;
    for (int step = 0; step < steps; ++step) {
        // Lagged contact at the start of the step.
        auto contact = ipc::point_triangle_friction_contact(
            x, t0, t1, t2, setup.mass * setup.g * c, setup.mu_k);
        ipc::set_static_kinetic_friction(contact, setup.mu_s, setup.mu_k, 1.0);
        // E(a) = m / (2 h^2) |P a - h v|^2 - m g . P a + D(P a), a in-plane.
        const auto stencil = [&](const Eigen::Vector2d& a) {
            Eigen::Matrix<double, 12, 1> dx = Eigen::Matrix<double, 12, 1>::Zero();
            dx.head<3>() = plane * a;
            return dx;
        };
        const double inertia = setup.mass / (setup.h * setup.h);
        const auto energy = [&](const Eigen::Vector2d& a) {
            const Eigen::Vector3d d = plane * a;
            return 0.5 * inertia * (d - setup.h * v).squaredNorm() - setup.mass * gravity.dot(d)
                + ipc::friction_energy(contact, stencil(a), eps);
        };
        Eigen::Vector2d a = plane.transpose() * (setup.h * v);
        for (int iteration = 0; iteration < 100; ++iteration) {
            const Eigen::Vector3d d = plane * a;
            const Eigen::Vector2d gradient = plane.transpose()
                * (inertia * (d - setup.h * v) - setup.mass * gravity
                    + ipc::friction_gradient(contact, stencil(a), eps).head<3>());
            if (gradient.norm() < 1e-9 * setup.mass * setup.g) {
                break;
            }
            const Eigen::Matrix2d hessian = inertia * Eigen::Matrix2d::Identity()
                + plane.transpose()
                    * ipc::friction_hessian(contact, stencil(a), eps, ipc::PSDProjection::clamp)
                          .topLeftCorner<3, 3>()
                    * plane;
            const Eigen::Vector2d direction = -hessian.ldlt().solve(gradient);
            double alpha = 1;
            const double e0 = energy(a);
            while (energy(a + alpha * direction) > e0 && alpha > 1e-12) {
                alpha /= 2;
            }
            a += alpha * direction;
        }
        const Eigen::Vector3d d = plane * a;
        v = d / setup.h;
        x += d;
    }
    return v.dot(down);
}

} // namespace incline_test

TEST_CASE("A point on an incline sticks below mu_s and slides above", "[friction][incline]")
{
    using incline_test::Incline;
    using incline_test::simulate;
    const double mu = 0.5;
    const double eps_v = 1e-3;
    // tan(theta) = 0.4 < mu: at rest it stays (creeps slower than eps_v).
    const double stick = simulate(Incline { std::atan(0.4), mu, mu }, 0.0, 20);
    CHECK(std::abs(stick) < eps_v);
    // tan(theta) = 0.6 > mu: it accelerates at g (sin - mu cos).
    const double theta = std::atan(0.6);
    const double slide = simulate(Incline { theta, mu, mu }, 0.0, 20);
    const double expected = 9.81 * (std::sin(theta) - mu * std::cos(theta)) * 20 * 0.01;
    CHECK(slide == Approx(expected).epsilon(0.02));
}

TEST_CASE("Static and kinetic friction give stick-slip on an incline", "[friction][incline]")
{
    using incline_test::Incline;
    using incline_test::simulate;
    const double mu_s = 0.6, mu_k = 0.3, eps_v = 1e-3;
    const double theta = std::atan(0.45); // mu_k < tan(theta) < mu_s
    // At rest: static friction holds it.
    CHECK(std::abs(simulate(Incline { theta, mu_s, mu_k }, 0.0, 20)) < eps_v);
    // Once sliding (v0 = 0.2 m/s): kinetic friction cannot stop it, it
    // accelerates at g (sin - mu_k cos).
    const double v = simulate(Incline { theta, mu_s, mu_k }, 0.2, 20);
    const double expected = 0.2 + 9.81 * (std::sin(theta) - mu_k * std::cos(theta)) * 20 * 0.01;
    CHECK(v == Approx(expected).epsilon(0.02));
    // Above mu_s it slides from rest too.
    CHECK(simulate(Incline { std::atan(0.7), mu_s, mu_k }, 0.0, 20) > 0.1);
    // With mu_s == mu_k == 0.6 the same moving start is stopped.
    CHECK(std::abs(simulate(Incline { theta, mu_s, mu_s }, 0.2, 40)) < eps_v);
}
