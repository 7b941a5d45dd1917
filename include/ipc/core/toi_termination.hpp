#pragma once
/// @file
/// Cumulative time-of-impact termination (Zheng et al. 2025, Eq. 9) for
/// Newton-type solvers whose iterations are cut short by CCD. With alpha_k
/// the step fraction accepted at iteration k (after any backtracking), the
/// weight left on the first k_min iterates is
///     beta = prod over k >= k_min of (1 - alpha_k),
/// and the solve stops once beta < eps. So it always runs at least k_min
/// iterations, exactly k_min when every step is full (alpha = 1), and keeps
/// going while contact cuts the steps short. There is no residual test.
/// The paper uses eps = 1e-3 with k_min = 6 for scenes with friction or
/// cloth and k_min = 2 otherwise.

#include <ipc/core/error.hpp>

#include <cmath>

namespace ipc {

/// Tracks beta over the iterations of one solve.
class CumulativeToiTermination {
public:
    /// k_min >= 1 iterations at least; stop once beta < eps (0 < eps <= 1).
    explicit CumulativeToiTermination(int k_min = 2, double eps = 1e-3)
        : k_min_(k_min)
        , eps_(eps)
    {
        require(k_min >= 1, "CumulativeToiTermination: k_min must be >= 1, got ", k_min);
        require(std::isfinite(eps) && eps > 0 && eps <= 1, "CumulativeToiTermination: eps must be in (0, 1], got ",
                eps);
    }

    /// Records an iteration whose accepted step fraction was alpha in [0, 1].
    void accept(double alpha)
    {
        require(std::isfinite(alpha) && alpha >= 0 && alpha <= 1,
                "CumulativeToiTermination::accept: alpha must be in [0, 1], got ", alpha);
        ++iterations_;
        if (iterations_ >= k_min_) {
            beta_ *= 1 - alpha;
        }
    }

    /// True once beta < eps.
    bool done() const { return beta_ < eps_; }
    /// Weight still on the first k_min iterates.
    double beta() const { return beta_; }
    /// Iterations recorded.
    int iterations() const { return iterations_; }
    /// Fewest iterations of a solve, as given to the constructor.
    int k_min() const { return k_min_; }
    /// Threshold on beta below which the solve stops, as given to the constructor.
    double eps() const { return eps_; }
    /// Starts a new solve.
    void reset()
    {
        beta_ = 1;
        iterations_ = 0;
    }

private:
    int k_min_;
    double eps_;
    double beta_ = 1;
    int iterations_ = 0;
};

} // namespace ipc
