// The AL paper's 1D bar (Fig. 7): a vertical chain of linear springs and
// lumped masses hitting rigid ground, under both example solvers, against
// the exact solution of the same spatial discretization. That reference
// integrates the chain with RK4 at a step 1000 times finer than the finest
// solver step, with the contact events located by bisection: the lowest
// node stops when it reaches the ground (an inelastic point contact, the
// limit of implicit Euler with a hard constraint) and lifts off when the
// ground would have to pull it. The solvers' top-node height and velocity
// errors, accumulated over the run, must fall like h.

#include <catch2/catch.hpp>

#include <al/al_scenes.hpp>
#include <ipc/ipc_scenes.hpp>

#include <cmath>
#include <vector>

using namespace ipc::examples;

namespace {

/// Heights and vertical velocities of the bar's nodes (bottom first).
struct BarState {
    Eigen::VectorXd y, v;
};

/// The semi-discrete bar: masses m, springs k with rest lengths L, gravity g.
class ReferenceBar {
public:
    ReferenceBar(const Scene& scene, ipc::Index first, int nodes)
    {
        const Model& model = scene.model;
        m_ = model.mass.segment(first, nodes);
        g_ = -model.gravity.y();
        for (const auto& s : model.rod_segments) {
            k_.push_back(s.rest.stiffness / s.rest.length);
            L_.push_back(s.rest.length);
        }
        state_.y = model.positions.col(1).segment(first, nodes);
        state_.v = model.velocities.col(1).segment(first, nodes);
    }

    const BarState& state() const { return state_; }

    /// Advances to time t_end with steps of at most dt.
    void advance(double t_end, double dt)
    {
        while (t_ < t_end - 1e-15) {
            const double step = std::min(dt, t_end - t_);
            const BarState next = rk4(state_, step);
            if (!contact_ && next.y[0] < 0) {
                // Bisect for the impact, then stop the lowest node.
                const double f = event(step, [&](const BarState& s) { return s.y[0]; });
                state_ = rk4(state_, f * step);
                state_.y[0] = 0;
                state_.v[0] = 0;
                contact_ = true;
                t_ += f * step;
            } else if (contact_ && ground_force(next) < 0) {
                const double f = event(step, [&](const BarState& s) { return ground_force(s); });
                state_ = rk4(state_, f * step);
                contact_ = false;
                t_ += f * step;
            } else {
                state_ = next;
                t_ += step;
            }
        }
    }

private:
    /// Force the ground must exert on the pinned lowest node (N).
    double ground_force(const BarState& s) const { return m_[0] * g_ - k_[0] * (s.y[1] - s.y[0] - L_[0]); }

    /// Fraction of step at which value(state after it) crosses 0 (bisection).
    template <typename Value> double event(double step, const Value& value) const
    {
        double lo = 0, hi = 1;
        for (int i = 0; i < 60; ++i) {
            const double mid = (lo + hi) / 2;
            (value(rk4(state_, mid * step)) > 0 ? lo : hi) = mid;
        }
        return hi;
    }

    Eigen::VectorXd acceleration(const Eigen::VectorXd& y) const
    {
        Eigen::VectorXd a = Eigen::VectorXd::Constant(y.size(), -g_);
        for (std::size_t i = 0; i < k_.size(); ++i) {
            const double f = k_[i] * (y[Eigen::Index(i) + 1] - y[Eigen::Index(i)] - L_[i]); // tension
            a[Eigen::Index(i)] += f / m_[Eigen::Index(i)];
            a[Eigen::Index(i) + 1] -= f / m_[Eigen::Index(i) + 1];
        }
        if (contact_) {
            a[0] = 0;
        }
        return a;
    }

    BarState rk4(const BarState& s, double h) const
    {
        const Eigen::VectorXd a1 = acceleration(s.y);
        const Eigen::VectorXd a2 = acceleration(s.y + h / 2 * s.v);
        const Eigen::VectorXd a3 = acceleration(s.y + h / 2 * s.v + h * h / 4 * a1);
        const Eigen::VectorXd a4 = acceleration(s.y + h * s.v + h * h / 2 * a2);
        BarState out;
        out.y = s.y + h * s.v + h * h / 6 * (a1 + a2 + a3);
        out.v = s.v + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4);
        if (contact_) {
            out.y[0] = s.y[0];
            out.v[0] = 0;
        }
        return out;
    }

    Eigen::VectorXd m_;
    std::vector<double> k_, L_;
    double g_ = 0;
    BarState state_;
    double t_ = 0;
    bool contact_ = false;
};

/// Accumulated errors (integral over time of |error|) of the top node's
/// height and velocity, sampled every `sample` seconds up to t_end.
struct BarErrors {
    double height = 0, velocity = 0;
};

template <typename Sim>
BarErrors bar_errors(Sim& sim, const Scene& scene, double h, double sample, double t_end)
{
    const ipc::Index nodes = 11, first = scene.model.num_vertices() - nodes; // the bar comes last
    ReferenceBar reference(scene, first, int(nodes));
    BarErrors e;
    const int steps_per_sample = int(std::lround(sample / h));
    for (double t = sample; t <= t_end + 1e-12; t += sample) {
        for (int s = 0; s < steps_per_sample; ++s) {
            sim.step();
        }
        reference.advance(t, 1e-6);
        const ipc::Index top = first + nodes - 1;
        e.height += sample * std::abs(sim.positions()(top, 1) - reference.state().y[nodes - 1]);
        e.velocity += sample * std::abs(sim.velocities()(top, 1) - reference.state().v[nodes - 1]);
        INFO("t = " << t);
        CHECK(sim.positions().col(1).segment(first, nodes).minCoeff() > 0); // above the board
    }
    return e;
}

/// log2 of the error ratio between successive halvings of h.
double slope(double coarse, double fine) { return std::log2(coarse / fine); }

} // namespace

TEST_CASE("the 1D bar's errors against the exact discrete solution fall like h", "[examples][bar]")
{
    for (const int problem : { 1, 2 }) {
        const Scene scene = bar_drop(problem);
        const double t_end = 0.2, sample = 2e-3;
        std::vector<BarErrors> al, ipc;
        for (const double h : { 2e-3, 1e-3, 5e-4 }) {
            AlParameters pa = al_parameters(scene);
            pa.dt = h;
            pa.cg_tolerance = 1e-10;
            // Enough outer iterations for the multipliers to converge: the
            // study is of h alone (Eq. 9 stops after k_min full steps).
            pa.k_min = 10;
            AlSimulator a(scene.model, pa);
            al.push_back(bar_errors(a, scene, h, sample, t_end));
            SolverParameters pi = ipc_parameters(scene);
            pi.dt = h;
            pi.newton_tolerance = 1e-6;
            Simulator b(scene.model, pi);
            ipc.push_back(bar_errors(b, scene, h, sample, t_end));
        }
        for (std::size_t i = 0; i + 1 < al.size(); ++i) {
            INFO("problem " << problem << ", h halving " << i << ": AL errors " << al[i].height << " -> "
                            << al[i + 1].height << " (height), " << al[i].velocity << " -> " << al[i + 1].velocity
                            << " (velocity); IPC " << ipc[i].height << " -> " << ipc[i + 1].height << ", "
                            << ipc[i].velocity << " -> " << ipc[i + 1].velocity);
            CHECK(slope(al[i].height, al[i + 1].height) == Approx(1).margin(0.25));
            CHECK(slope(al[i].velocity, al[i + 1].velocity) == Approx(1).margin(0.25));
            CHECK(slope(ipc[i].height, ipc[i + 1].height) == Approx(1).margin(0.25));
            CHECK(slope(ipc[i].velocity, ipc[i + 1].velocity) == Approx(1).margin(0.25));
        }
    }
}
