#pragma once
/// @file
/// Elasticity of the 2D example scenes (plane strain, every quantity per
/// metre of depth: energies in J/m, stiffnesses in N/m^2 = Pa):
///
/// - linear triangles with a stable neo-Hookean energy density
///     Psi(F) = mu/2 (|F|^2 - 2) + l/2 (J - a)^2 - l/2 (1 - a)^2,
///   F the 2 x 2 deformation gradient, J = det F, l = lambda + mu and
///   a = 1 + mu / l. It is zero with zero gradient at rest, invariant under
///   rotations, finite for inverted elements (no log J), and its
///   linearisation at F = I is linear elasticity with the Lame parameters
///   (mu, lambda) (the reparametrisation of Smith et al. 2018, worked out in
///   2D); element energy = rest area * Psi(F);
/// - springs (rope segments): E = k / (2 L) (|x1 - x0| - L)^2 with axial
///   stiffness k (N) and rest length L (m).
///
/// Stencil positions are stacked per vertex (x, y): 6 entries for a
/// triangle, 4 for a spring. The Hessians are exact (not projected); a
/// Newton solver projects them per element (ipc::project_to_psd).

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Core>
#include <Eigen/LU>

#include <algorithm>
#include <cmath>

namespace ipc::examples {

/// Plane-strain Lame parameters (Pa) of a material with Young's modulus E
/// (Pa, > 0) and Poisson ratio nu (in [0, 0.5)): mu = E / (2 (1 + nu)),
/// lambda = E nu / ((1 + nu) (1 - 2 nu)). Throws ipc::invalid_argument for
/// values out of range or not finite.
inline Eigen::Vector2d lame_parameters_2d(double E, double nu)
{
    require(std::isfinite(E) && E > 0, "lame_parameters_2d: Young's modulus E must be positive, got ", E);
    require(std::isfinite(nu) && nu >= 0 && nu < 0.5, "lame_parameters_2d: Poisson ratio nu must be in [0, 0.5), got ",
        nu);
    return { E / (2 * (1 + nu)), E * nu / ((1 + nu) * (1 - 2 * nu)) };
}

/// Rest shape of a linear triangle: the inverse of its rest edge matrix
/// Dm = [X1 - X0, X2 - X0] and its rest area (m^2).
template <typename Scalar> struct TriangleRest2D {
    Matrix<Scalar, 2, 2> rest_inverse;
    Scalar area;
};

/// The rest shape of triangle (X0, X1, X2) (m; either orientation).
/// Throws ipc::invalid_argument for non-finite corners or a degenerate
/// triangle (twice its area at most 1e-12 times its longest edge squared).
template <typename Scalar>
TriangleRest2D<Scalar> triangle_rest_2d(
    const Vector<Scalar, 2>& X0, const Vector<Scalar, 2>& X1, const Vector<Scalar, 2>& X2)
{
    using std::abs;
    using std::isfinite;
    require(isfinite(X0.sum()) && isfinite(X1.sum()) && isfinite(X2.sum()),
        "triangle_rest_2d: corners must be finite, got (", X0.transpose(), "), (", X1.transpose(), "), (",
        X2.transpose(), ")");
    Matrix<Scalar, 2, 2> Dm;
    Dm.col(0) = X1 - X0;
    Dm.col(1) = X2 - X0;
    const Scalar det = Dm.determinant();
    const Scalar longest = std::max({ (X1 - X0).squaredNorm(), (X2 - X0).squaredNorm(), (X2 - X1).squaredNorm() });
    require(abs(det) > Scalar(1e-12) * longest && longest > Scalar(0),
        "triangle_rest_2d: degenerate triangle, twice its area is ", det, " with longest edge squared ", longest);
    return { Dm.inverse(), abs(det) / Scalar(2) };
}

namespace detail {
    /// d vec(F) / d x (4 x 6, vec column-major) of a linear triangle.
    template <typename Scalar> Matrix<Scalar, 4, 6> deformation_jacobian_2d(const Matrix<Scalar, 2, 2>& B)
    {
        // F = Ds B with Ds = [x1 - x0, x2 - x0]: dF_ij / d(x_a)_i = w_a(j).
        Matrix<Scalar, 4, 6> D = Matrix<Scalar, 4, 6>::Zero();
        for (int j = 0; j < 2; ++j) {
            const Scalar w[3] = { -B(0, j) - B(1, j), B(0, j), B(1, j) };
            for (int a = 0; a < 3; ++a) {
                for (int i = 0; i < 2; ++i) {
                    D(i + 2 * j, 2 * a + i) = w[a];
                }
            }
        }
        return D;
    }

    /// F of the triangle at stacked positions x.
    template <typename Scalar>
    Matrix<Scalar, 2, 2> deformation_gradient_2d(const Vector<Scalar, 6>& x, const Matrix<Scalar, 2, 2>& B)
    {
        Matrix<Scalar, 2, 2> Ds;
        Ds.col(0) = x.template segment<2>(2) - x.template segment<2>(0);
        Ds.col(1) = x.template segment<2>(4) - x.template segment<2>(0);
        return Ds * B;
    }

    /// vec(cof F) = d J / d vec(F).
    template <typename Scalar> Vector<Scalar, 4> cofactor_2d(const Matrix<Scalar, 2, 2>& F)
    {
        return Vector<Scalar, 4>(F(1, 1), -F(0, 1), -F(1, 0), F(0, 0));
    }
} // namespace detail

/// Stable neo-Hookean energy (J/m) of a triangle at stacked positions x
/// (x0, y0, x1, y1, x2, y2; m) with rest shape rest and Lame parameters mu,
/// lambda (Pa); see the file comment. Finite for every x.
template <typename Scalar>
Scalar neo_hookean_2d_energy(
    const Vector<Scalar, 6>& x, const TriangleRest2D<Scalar>& rest, const Scalar& mu, const Scalar& lambda)
{
    const Matrix<Scalar, 2, 2> F = detail::deformation_gradient_2d(x, rest.rest_inverse);
    const Scalar l = lambda + mu, a = Scalar(1) + mu / l;
    const Scalar J = F.determinant();
    return rest.area
        * (mu / 2 * (F.squaredNorm() - Scalar(2)) + l / 2 * (J - a) * (J - a) - l / 2 * (Scalar(1) - a) * (Scalar(1) - a));
}

/// Gradient (N/m, 6 entries) of neo_hookean_2d_energy with respect to x.
template <typename Scalar>
Vector<Scalar, 6> neo_hookean_2d_gradient(
    const Vector<Scalar, 6>& x, const TriangleRest2D<Scalar>& rest, const Scalar& mu, const Scalar& lambda)
{
    const Matrix<Scalar, 2, 2> F = detail::deformation_gradient_2d(x, rest.rest_inverse);
    const Scalar l = lambda + mu, a = Scalar(1) + mu / l;
    const Vector<Scalar, 4> f = Eigen::Map<const Vector<Scalar, 4>>(F.data());
    const Vector<Scalar, 4> P = mu * f + l * (F.determinant() - a) * detail::cofactor_2d(F);
    return rest.area * detail::deformation_jacobian_2d(rest.rest_inverse).transpose() * P;
}

/// Hessian (N/m^2, 6 x 6, symmetric, not projected) of
/// neo_hookean_2d_energy with respect to x.
template <typename Scalar>
Matrix<Scalar, 6, 6> neo_hookean_2d_hessian(
    const Vector<Scalar, 6>& x, const TriangleRest2D<Scalar>& rest, const Scalar& mu, const Scalar& lambda)
{
    const Matrix<Scalar, 2, 2> F = detail::deformation_gradient_2d(x, rest.rest_inverse);
    const Scalar l = lambda + mu, a = Scalar(1) + mu / l;
    const Vector<Scalar, 4> c = detail::cofactor_2d(F);
    Matrix<Scalar, 4, 4> HF = mu * Matrix<Scalar, 4, 4>::Identity() + l * c * c.transpose();
    const Scalar s = l * (F.determinant() - a); // times the constant Hessian of J
    HF(0, 3) += s;
    HF(3, 0) += s;
    HF(1, 2) -= s;
    HF(2, 1) -= s;
    const Matrix<Scalar, 4, 6> D = detail::deformation_jacobian_2d(rest.rest_inverse);
    return rest.area * D.transpose() * HF * D;
}

/// Spring energy k / (2 L) (|x1 - x0| - L)^2 (J/m) at stacked positions x
/// (x0, y0, x1, y1; m), rest length L (m) and axial stiffness k (N).
template <typename Scalar>
Scalar spring_2d_energy(const Vector<Scalar, 4>& x, const Scalar& rest_length, const Scalar& stiffness)
{
    const Scalar stretch = (x.template tail<2>() - x.template head<2>()).norm() - rest_length;
    return stiffness / (2 * rest_length) * stretch * stretch;
}

/// Gradient (N/m, 4 entries) of spring_2d_energy; the two ends must not
/// coincide (the direction is undefined there: NaN).
template <typename Scalar>
Vector<Scalar, 4> spring_2d_gradient(const Vector<Scalar, 4>& x, const Scalar& rest_length, const Scalar& stiffness)
{
    const Vector<Scalar, 2> d = x.template tail<2>() - x.template head<2>();
    const Scalar length = d.norm();
    const Vector<Scalar, 2> force = stiffness * (length - rest_length) / (rest_length * length) * d;
    Vector<Scalar, 4> g;
    g << -force, force;
    return g;
}

/// Hessian (N/m^2, 4 x 4, symmetric, not projected: indefinite when the
/// spring is compressed) of spring_2d_energy; the ends must not coincide.
template <typename Scalar>
Matrix<Scalar, 4, 4> spring_2d_hessian(const Vector<Scalar, 4>& x, const Scalar& rest_length, const Scalar& stiffness)
{
    const Vector<Scalar, 2> d = x.template tail<2>() - x.template head<2>();
    const Scalar length = d.norm();
    const Vector<Scalar, 2> u = d / length;
    const Matrix<Scalar, 2, 2> uu = u * u.transpose();
    const Matrix<Scalar, 2, 2> K = stiffness / rest_length
        * (uu + (length - rest_length) / length * (Matrix<Scalar, 2, 2>::Identity() - uu));
    Matrix<Scalar, 4, 4> H;
    H << K, -K, -K, K;
    return H;
}

} // namespace ipc::examples
