#pragma once
// Shared helpers of the distance tests: random stencils and adapters that
// expose a kernel as a function of one flat coordinate vector.

#include <Eigen/Core>

#include <random>

namespace ipc::test {

/// Uniform random flat coordinate vector in [-1, 1]^n.
inline Eigen::VectorXd random_coordinates(std::mt19937_64& rng, int n)
{
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    Eigen::VectorXd x(n);
    for (int i = 0; i < n; ++i) {
        x[i] = uniform(rng);
    }
    return x;
}

/// Point i (DIM coordinates) of a flat coordinate vector, as a fixed-size vector.
template <int DIM> Eigen::Matrix<double, DIM, 1> point(const Eigen::VectorXd& x, int i)
{
    return x.segment<DIM>(i * DIM);
}

} // namespace ipc::test
