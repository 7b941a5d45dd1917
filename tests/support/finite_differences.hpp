#pragma once
// Central finite differences for checking closed-form derivatives in tests.

#include <Eigen/Core>

#include <algorithm>
#include <functional>

namespace ipc::test {

/// Central-difference gradient of f at x with step h.
inline Eigen::VectorXd fd_gradient(
    const std::function<double(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& x,
    double h = 1e-6)
{
    Eigen::VectorXd g(x.size());
    Eigen::VectorXd y = x;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        y[i] = x[i] + h;
        const double fp = f(y);
        y[i] = x[i] - h;
        const double fm = f(y);
        y[i] = x[i];
        g[i] = (fp - fm) / (2 * h);
    }
    return g;
}

/// Central-difference Jacobian of a vector function (rows: outputs).
inline Eigen::MatrixXd fd_jacobian(
    const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f, const Eigen::VectorXd& x,
    double h = 1e-6)
{
    const Eigen::VectorXd f0 = f(x);
    Eigen::MatrixXd J(f0.size(), x.size());
    Eigen::VectorXd y = x;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        y[i] = x[i] + h;
        const Eigen::VectorXd fp = f(y);
        y[i] = x[i] - h;
        const Eigen::VectorXd fm = f(y);
        y[i] = x[i];
        J.col(i) = (fp - fm) / (2 * h);
    }
    return J;
}

/// True when a and b agree to a relative tolerance scaled by their magnitude:
/// |a - b| <= tol * max(1, |a|, |b|) in the infinity norm.
inline bool fd_close(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tol)
{
    const double scale = std::max({ 1.0, a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff() });
    return (a - b).cwiseAbs().maxCoeff() <= tol * scale;
}

} // namespace ipc::test
