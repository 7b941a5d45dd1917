#pragma once
// Shared helpers for the strain-limit tests: random triangles with
// prescribed singular values, and relative comparisons.

#include <ipc/strain_limit/triangle_rest_shape.hpp>

#include <Eigen/Geometry>

#include <cmath>
#include <random>

namespace ipc::test {

using Vec3 = Eigen::Vector3d;
using Vec9 = Eigen::Matrix<double, 9, 1>;
using Mat32 = Eigen::Matrix<double, 3, 2>;

struct StretchedTriangle {
    Vec3 x0, x1, x2;
    TriangleRestShape<double> rest;
    Vec9 stacked() const
    {
        Vec9 x;
        x << x0, x1, x2;
        return x;
    }
};

inline double uniform(std::mt19937& rng, double low, double high)
{
    return std::uniform_real_distribution<double>(low, high)(rng);
}

inline Vec3 random_vector(std::mt19937& rng, double scale = 1.0)
{
    return Vec3(uniform(rng, -scale, scale), uniform(rng, -scale, scale), uniform(rng, -scale, scale));
}

inline Eigen::Matrix3d random_rotation(std::mt19937& rng)
{
    Eigen::Quaterniond q(uniform(rng, -1, 1), uniform(rng, -1, 1), uniform(rng, -1, 1),
        uniform(rng, -1, 1));
    q.normalize();
    return q.toRotationMatrix();
}

/// A 3x2 matrix with the given singular values and random singular vectors.
inline Mat32 random_F(std::mt19937& rng, double sigma1, double sigma2)
{
    const Eigen::Matrix3d R = random_rotation(rng);
    const double angle = uniform(rng, 0, 6.283185307179586);
    Eigen::Matrix2d V;
    V << std::cos(angle), -std::sin(angle), std::sin(angle), std::cos(angle);
    Mat32 sigma = Mat32::Zero();
    sigma(0, 0) = sigma1;
    sigma(1, 1) = sigma2;
    return R * sigma * V.transpose();
}

/// A random, well-shaped rest triangle (3D) deformed so that its
/// deformation gradient has the given singular values.
inline StretchedTriangle random_stretched_triangle(std::mt19937& rng, double sigma1, double sigma2)
{
    StretchedTriangle t;
    Vec3 X0, X1, X2;
    do {
        X0 = random_vector(rng);
        X1 = random_vector(rng);
        X2 = random_vector(rng);
    } while ((X1 - X0).cross(X2 - X0).norm() < 0.3);
    t.rest = triangle_rest_shape(X0, X1, X2);
    const Eigen::Matrix2d rest_matrix = t.rest.inverse_rest_matrix.inverse();
    const Mat32 edges = random_F(rng, sigma1, sigma2) * rest_matrix;
    t.x0 = random_vector(rng);
    t.x1 = t.x0 + edges.col(0);
    t.x2 = t.x0 + edges.col(1);
    return t;
}

/// |a - b|_inf <= tol * max(|a|_inf, |b|_inf, floor).
inline bool relative_close(
    const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tol, double floor = 1e-300)
{
    const double scale = std::max({ a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff(), floor });
    return (a - b).cwiseAbs().maxCoeff() <= tol * scale;
}

} // namespace ipc::test
