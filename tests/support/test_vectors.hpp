#pragma once
// Small vector helpers shared by the test suites.

#include <Eigen/Core>

#include <random>

namespace ipc::test {

/// A point with coordinates uniform in [-1, 1].
inline Eigen::Vector3d random_point(std::mt19937& generator)
{
    std::uniform_real_distribution<double> uniform(-1, 1);
    return Eigen::Vector3d(uniform(generator), uniform(generator), uniform(generator));
}

/// The n x 3 matrix whose rows are the consecutive 3-blocks of x (3n).
inline Eigen::MatrixXd rows_of(const Eigen::VectorXd& x)
{
    Eigen::MatrixXd rows(x.size() / 3, 3);
    for (Eigen::Index i = 0; i < rows.rows(); ++i) {
        rows.row(i) = x.segment<3>(3 * i).transpose();
    }
    return rows;
}

} // namespace ipc::test
