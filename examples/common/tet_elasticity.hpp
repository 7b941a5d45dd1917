#pragma once
/// @file
/// Volumetric elasticity of linear tetrahedra: the stable neo-Hookean energy
/// (Smith, de Goes and Kim 2018, without the log term), value, gradient and
/// Hessian side by side, per element.
///
/// Energy density (J/m^3) with F the 3x3 deformation gradient, J = det F:
///   psi(F) = mu/2 (|F|^2 - 3) + lambda/2 (J - a)^2 - lambda/2 (1 - a)^2,
///   a = 1 + mu / lambda,
/// so psi(I) = 0 and its gradient vanishes at rest. Inverted elements have
/// finite energy (the model is inversion-robust, not inversion-proof).
/// With Lame parameters (mu0, lambda0) of linear elasticity, mu = mu0 and
/// lambda = lambda0 + mu0 reproduce it at small strain (see lame_to_stable).

#include "small_matrix.hpp"

#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>

#include <cmath>
#include <utility>

namespace ipc::examples {

/// Parameters of the stable neo-Hookean density, in pascals.
template <typename Scalar> struct StableNeoHookean {
    Scalar mu;
    Scalar lambda;
};

/// Lame parameters (pascals) from Young's modulus E (Pa) and Poisson ratio nu.
template <typename Scalar> std::pair<Scalar, Scalar> lame_parameters(Scalar E, Scalar nu)
{
    require(E > Scalar(0) && nu > Scalar(-1) && nu < Scalar(0.5),
        "Young's modulus ", double(E), " must be positive and Poisson ratio ", double(nu),
        " in (-1, 0.5)");
    const Scalar mu = E / (Scalar(2) * (Scalar(1) + nu));
    const Scalar lambda = E * nu / ((Scalar(1) + nu) * (Scalar(1) - Scalar(2) * nu));
    return { mu, lambda };
}

/// Stable neo-Hookean parameters matching linear elasticity with Young's
/// modulus E (Pa) and Poisson ratio nu at small strain.
template <typename Scalar> StableNeoHookean<Scalar> stable_neo_hookean_from(Scalar E, Scalar nu)
{
    const auto [mu, lambda] = lame_parameters(E, nu);
    return { mu, lambda + mu };
}

/// Rest data of one tetrahedron: inverse of the rest edge matrix
/// [X1-X0, X2-X0, X3-X0] and the rest volume (m^3).
template <typename Scalar> struct TetRest {
    Matrix<Scalar, 3> rest_inverse;
    Scalar volume;
};

/// Rest data from the four rest positions (metres). Throws
/// ipc::degenerate_geometry for a flat or inverted rest tetrahedron.
template <typename Scalar>
TetRest<Scalar> tet_rest(
    const Vector3<Scalar>& X0, const Vector3<Scalar>& X1, const Vector3<Scalar>& X2,
    const Vector3<Scalar>& X3)
{
    Matrix<Scalar, 3> D;
    D << X1 - X0, X2 - X0, X3 - X0;
    const Scalar det = D.determinant();
    require<degenerate_geometry>(
        det > Scalar(0), "tetrahedron rest volume ", double(det / 6), " is not positive");
    return { D.inverse(), det / Scalar(6) };
}

namespace detail {
    /// d vec(F) / d x (9 x 12, column-major vec) for F = [x1-x0, x2-x0, x3-x0] B.
    template <typename Scalar> Matrix<Scalar, 9, 12> tet_deformation_map(const Matrix<Scalar, 3>& B)
    {
        Matrix<Scalar, 9, 12> A = Matrix<Scalar, 9, 12>::Zero();
        for (int j = 0; j < 3; ++j) {
            const Scalar c0 = -(B(0, j) + B(1, j) + B(2, j));
            for (int i = 0; i < 3; ++i) {
                A(i + 3 * j, i) = c0;
                for (int k = 0; k < 3; ++k) {
                    A(i + 3 * j, 3 * (k + 1) + i) = B(k, j);
                }
            }
        }
        return A;
    }

    template <typename Scalar>
    Matrix<Scalar, 3> tet_deformation_gradient(
        const Vector<Scalar, 12>& x, const Matrix<Scalar, 3>& B)
    {
        Matrix<Scalar, 3> D;
        D << x.template segment<3>(3) - x.template segment<3>(0),
            x.template segment<3>(6) - x.template segment<3>(0),
            x.template segment<3>(9) - x.template segment<3>(0);
        return D * B;
    }

    /// Columns of the cofactor matrix (dJ/dF).
    template <typename Scalar> Matrix<Scalar, 3> cofactor(const Matrix<Scalar, 3>& F)
    {
        Matrix<Scalar, 3> C;
        C.col(0) = F.col(1).cross(F.col(2));
        C.col(1) = F.col(2).cross(F.col(0));
        C.col(2) = F.col(0).cross(F.col(1));
        return C;
    }
} // namespace detail

/// Energy density psi(F) (J/m^3).
template <typename Scalar>
Scalar stable_neo_hookean_density(const Matrix<Scalar, 3>& F, const StableNeoHookean<Scalar>& m)
{
    const Scalar a = Scalar(1) + m.mu / m.lambda;
    const Scalar J = F.determinant();
    return m.mu / 2 * (F.squaredNorm() - Scalar(3)) + m.lambda / 2 * (J - a) * (J - a)
        - m.lambda / 2 * (Scalar(1) - a) * (Scalar(1) - a);
}

/// First Piola-Kirchhoff stress dpsi/dF (Pa).
template <typename Scalar>
Matrix<Scalar, 3> stable_neo_hookean_stress(
    const Matrix<Scalar, 3>& F, const StableNeoHookean<Scalar>& m)
{
    const Scalar a = Scalar(1) + m.mu / m.lambda;
    return m.mu * F + m.lambda * (F.determinant() - a) * detail::cofactor(F);
}

/// d^2 psi / d vec(F)^2 (9 x 9, column-major vec of F), not projected.
template <typename Scalar>
Matrix<Scalar, 9> stable_neo_hookean_stress_derivative(
    const Matrix<Scalar, 3>& F, const StableNeoHookean<Scalar>& m)
{
    const Scalar a = Scalar(1) + m.mu / m.lambda;
    const Matrix<Scalar, 3> C = detail::cofactor(F);
    const Eigen::Map<const Vector<Scalar, 9>> g(C.data());
    Matrix<Scalar, 9> H = m.mu * Matrix<Scalar, 9>::Identity() + m.lambda * g * g.transpose();
    const Scalar w = m.lambda * (F.determinant() - a);
    const Vector3<Scalar> f0 = F.col(0), f1 = F.col(1), f2 = F.col(2);
    // Second derivative of det F: block (a, b) is d(cofactor column a)/d(column b).
    H.template block<3, 3>(0, 3) -= w * cross_matrix(f2);
    H.template block<3, 3>(0, 6) += w * cross_matrix(f1);
    H.template block<3, 3>(3, 0) += w * cross_matrix(f2);
    H.template block<3, 3>(3, 6) -= w * cross_matrix(f0);
    H.template block<3, 3>(6, 0) -= w * cross_matrix(f1);
    H.template block<3, 3>(6, 3) += w * cross_matrix(f0);
    return H;
}

/// Elastic energy (J) of one tetrahedron; x stacks the four current vertex
/// positions (metres). No validation (hot kernel).
template <typename Scalar>
Scalar tet_energy(
    const Vector<Scalar, 12>& x, const TetRest<Scalar>& rest, const StableNeoHookean<Scalar>& m)
{
    return rest.volume
        * stable_neo_hookean_density(detail::tet_deformation_gradient(x, rest.rest_inverse), m);
}

/// Gradient of tet_energy with respect to x (N per coordinate).
template <typename Scalar>
Vector<Scalar, 12> tet_energy_gradient(
    const Vector<Scalar, 12>& x, const TetRest<Scalar>& rest, const StableNeoHookean<Scalar>& m)
{
    const Matrix<Scalar, 3> P
        = stable_neo_hookean_stress(detail::tet_deformation_gradient(x, rest.rest_inverse), m);
    const Eigen::Map<const Vector<Scalar, 9>> p(P.data());
    return rest.volume * detail::tet_deformation_map(rest.rest_inverse).transpose() * p;
}

/// Hessian of tet_energy (N/m); the 9x9 stress derivative is projected to PSD
/// before the change of variables, so any projection other than none gives a
/// PSD 12x12 matrix.
template <typename Scalar>
Matrix<Scalar, 12> tet_energy_hessian(
    const Vector<Scalar, 12>& x, const TetRest<Scalar>& rest, const StableNeoHookean<Scalar>& m,
    PSDProjection projection = PSDProjection::clamp)
{
    const Matrix<Scalar, 9> H = project_to_psd(
        stable_neo_hookean_stress_derivative(
            detail::tet_deformation_gradient(x, rest.rest_inverse), m),
        projection);
    const Matrix<Scalar, 9, 12> A = detail::tet_deformation_map(rest.rest_inverse);
    return rest.volume * A.transpose() * H * A;
}

} // namespace ipc::examples
