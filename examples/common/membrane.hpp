#pragma once
/// @file
/// Membrane (in-plane) elasticity of a triangle in 3D: the St. Venant-Kirchhoff
/// energy of its 3x2 deformation gradient, value, gradient and Hessian.
///
/// With F = [x1-x0, x2-x0] B (B the inverse of the rest edge matrix in a
/// rest-plane frame) and Green strain E = (F^T F - I)/2, the density is
///   psi(F) = mu tr(E^2) + lambda/2 tr(E)^2     (J/m^3),
/// which equals the Koiter membrane term 1/4 (lambda/2 tr^2 M + mu tr M^2)
/// with M = 2E. The element energy is rest area x thickness x psi.

#include "small_matrix.hpp"

#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>
#include <ipc/strain_limit/svd_3x2.hpp>

#include <array>
#include <cmath>
#include <utility>

namespace ipc::examples {

/// Rest data of one membrane triangle: B (2x2 inverse rest edge matrix in a
/// frame of the rest plane) and the rest area (m^2).
template <typename Scalar> struct TriangleRest {
    Matrix<Scalar, 2> rest_inverse;
    Scalar area;
};

/// Rest data from three rest positions (metres). Throws
/// ipc::degenerate_geometry for a zero-area triangle.
template <typename Scalar>
TriangleRest<Scalar> triangle_rest(
    const Vector3<Scalar>& X0, const Vector3<Scalar>& X1, const Vector3<Scalar>& X2)
{
    using std::sqrt;
    const Vector3<Scalar> e1 = X1 - X0, e2 = X2 - X0;
    const Vector3<Scalar> n = e1.cross(e2);
    const Scalar twice_area = n.norm();
    require<degenerate_geometry>(twice_area > Scalar(0) && e1.norm() > Scalar(0),
        "triangle has zero rest area");
    const Vector3<Scalar> t1 = e1 / e1.norm();
    const Vector3<Scalar> t2 = (n / twice_area).cross(t1);
    Matrix<Scalar, 2> D;
    D << e1.dot(t1), e2.dot(t1), e1.dot(t2), e2.dot(t2);
    return { D.inverse(), twice_area / Scalar(2) };
}

namespace detail {
    /// d vec(F) / d x (6 x 9) for F = [x1-x0, x2-x0] B.
    template <typename Scalar> Matrix<Scalar, 6, 9> triangle_deformation_map(const Matrix<Scalar, 2>& B)
    {
        Matrix<Scalar, 6, 9> A = Matrix<Scalar, 6, 9>::Zero();
        for (int j = 0; j < 2; ++j) {
            const Scalar c0 = -(B(0, j) + B(1, j));
            for (int i = 0; i < 3; ++i) {
                A(i + 3 * j, i) = c0;
                A(i + 3 * j, 3 + i) = B(0, j);
                A(i + 3 * j, 6 + i) = B(1, j);
            }
        }
        return A;
    }
} // namespace detail

/// The 3x2 deformation gradient of a triangle; x stacks its three current
/// positions (metres).
template <typename Scalar>
Matrix<Scalar, 3, 2> triangle_deformation_gradient(
    const Vector<Scalar, 9>& x, const Matrix<Scalar, 2>& rest_inverse)
{
    Matrix<Scalar, 3, 2> D;
    D << x.template segment<3>(3) - x.template segment<3>(0),
        x.template segment<3>(6) - x.template segment<3>(0);
    return D * rest_inverse;
}

/// Membrane material: Lame parameters (Pa) and material thickness (m).
template <typename Scalar> struct MembraneMaterial {
    Scalar mu;
    Scalar lambda;
    Scalar thickness;
};

/// StVK density psi(F) (J/m^3).
template <typename Scalar>
Scalar stvk_density(const Matrix<Scalar, 3, 2>& F, Scalar mu, Scalar lambda)
{
    const Matrix<Scalar, 2> E = (F.transpose() * F - Matrix<Scalar, 2>::Identity()) / Scalar(2);
    const Scalar tr = E.trace();
    return mu * E.squaredNorm() + lambda / 2 * tr * tr;
}

/// StVK stress dpsi/dF (Pa), 3x2.
template <typename Scalar>
Matrix<Scalar, 3, 2> stvk_stress(const Matrix<Scalar, 3, 2>& F, Scalar mu, Scalar lambda)
{
    const Matrix<Scalar, 2> E = (F.transpose() * F - Matrix<Scalar, 2>::Identity()) / Scalar(2);
    const Matrix<Scalar, 2> S = Scalar(2) * mu * E + lambda * E.trace() * Matrix<Scalar, 2>::Identity();
    return F * S;
}

/// d^2 psi / d vec(F)^2 (6x6, column-major vec), not projected.
template <typename Scalar>
Matrix<Scalar, 6> stvk_stress_derivative(const Matrix<Scalar, 3, 2>& F, Scalar mu, Scalar lambda)
{
    const Matrix<Scalar, 2> I = Matrix<Scalar, 2>::Identity();
    const Matrix<Scalar, 2> E = (F.transpose() * F - I) / Scalar(2);
    const Matrix<Scalar, 2> S = Scalar(2) * mu * E + lambda * E.trace() * I;
    Matrix<Scalar, 6> H;
    for (int k = 0; k < 6; ++k) {
        Matrix<Scalar, 3, 2> dF = Matrix<Scalar, 3, 2>::Zero();
        dF(k % 3, k / 3) = Scalar(1);
        const Matrix<Scalar, 2> dE = (dF.transpose() * F + F.transpose() * dF) / Scalar(2);
        const Matrix<Scalar, 2> dS = Scalar(2) * mu * dE + lambda * dE.trace() * I;
        const Matrix<Scalar, 3, 2> dP = dF * S + F * dS;
        H.col(k) = Eigen::Map<const Vector<Scalar, 6>>(dP.data());
    }
    return H;
}

/// Membrane energy (J) of one triangle. No validation (hot kernel).
template <typename Scalar>
Scalar membrane_energy(
    const Vector<Scalar, 9>& x, const TriangleRest<Scalar>& rest, const MembraneMaterial<Scalar>& m)
{
    return rest.area * m.thickness
        * stvk_density(triangle_deformation_gradient(x, rest.rest_inverse), m.mu, m.lambda);
}

/// Gradient of membrane_energy with respect to x (N per coordinate).
template <typename Scalar>
Vector<Scalar, 9> membrane_energy_gradient(
    const Vector<Scalar, 9>& x, const TriangleRest<Scalar>& rest, const MembraneMaterial<Scalar>& m)
{
    // With F = [x1 - x0, x2 - x0] B, dE/d[x1 - x0, x2 - x0] = P B^T.
    const Matrix<Scalar, 3, 2> G = rest.area * m.thickness
        * stvk_stress(triangle_deformation_gradient(x, rest.rest_inverse), m.mu, m.lambda)
        * rest.rest_inverse.transpose();
    Vector<Scalar, 9> g;
    g << -(G.col(0) + G.col(1)), G.col(0), G.col(1);
    return g;
}

/// stvk_stress_derivative projected by `projection` (clamp or abs; none
/// returns it unprojected) through its analytic eigensystem, without a
/// numerical eigensolve. With F = U diag(s1, s2) V^T and n the normal, StVK
/// is psi = mu/4 sum (s_i^2 - 1)^2 + lambda/8 (s1^2 + s2^2 - 2)^2, and the
/// six eigenpairs of the F-space Hessian are:
///  - a 2x2 stretch block on u_i v_i^T: entries psi_ii = mu (3 s_i^2 - 1) +
///    t + lambda s_i^2 and psi_12 = lambda s1 s2, with t = lambda/2 (s1^2 +
///    s2^2 - 2);
///  - twist (u1 v2^T - u2 v1^T)/sqrt2: (psi_1 + psi_2)/(s1 + s2) = mu (s1^2 -
///    s1 s2 + s2^2 - 1) + t;
///  - flip (u1 v2^T + u2 v1^T)/sqrt2: (psi_1 - psi_2)/(s1 - s2) = mu (s1^2 +
///    s1 s2 + s2^2 - 1) + t;
///  - out of plane n v_i^T: psi_i / s_i = mu (s_i^2 - 1) + t.
/// All are polynomials in s1, s2, so repeated and zero singular values need
/// no special case. Equal to project_to_psd(stvk_stress_derivative(F)) up to
/// round-off (tested).
template <typename Scalar>
Matrix<Scalar, 6> stvk_stress_derivative_projected(
    const Matrix<Scalar, 3, 2>& F, Scalar mu, Scalar lambda, PSDProjection projection)
{
    if (projection == PSDProjection::none) {
        return stvk_stress_derivative(F, mu, lambda);
    }
    using std::atan2;
    using std::cos;
    using std::sin;
    using std::sqrt;
    const SingularValueDecomposition3x2<Scalar> svd = singular_value_decomposition_3x2(F);
    const Scalar s1 = svd.singular_values[0], s2 = svd.singular_values[1];
    const Scalar a = s1 * s1, b = s2 * s2, c = s1 * s2;
    const Scalar t = lambda / 2 * (a + b - Scalar(2));
    const auto mode = [&](const Vector3<Scalar>& u, int j) {
        Vector<Scalar, 6> m;
        m.template head<3>() = svd.V(0, j) * u;
        m.template tail<3>() = svd.V(1, j) * u;
        return m;
    };
    const Vector3<Scalar> u1 = svd.U.col(0), u2 = svd.U.col(1);
    const Vector<Scalar, 6> stretch1 = mode(u1, 0), stretch2 = mode(u2, 1);
    // The stretch block's eigenvectors: rotation by half the angle of
    // (psi_11 - psi_22, 2 psi_12); the first belongs to the larger value.
    const Scalar h11 = mu * (Scalar(3) * a - Scalar(1)) + t + lambda * a;
    const Scalar h22 = mu * (Scalar(3) * b - Scalar(1)) + t + lambda * b;
    const Scalar h12 = lambda * c;
    const Scalar mean = (h11 + h22) / Scalar(2), half = (h11 - h22) / Scalar(2);
    const Scalar radius = sqrt(half * half + h12 * h12);
    const Scalar angle = atan2(h12, half) / Scalar(2);
    const Scalar inverse_root2 = Scalar(1) / sqrt(Scalar(2));
    const std::array<std::pair<Scalar, Vector<Scalar, 6>>, 6> modes { {
        { mean + radius, cos(angle) * stretch1 + sin(angle) * stretch2 },
        { mean - radius, cos(angle) * stretch2 - sin(angle) * stretch1 },
        { mu * (a - c + b - Scalar(1)) + t, inverse_root2 * (mode(u1, 1) - mode(u2, 0)) },
        { mu * (a + c + b - Scalar(1)) + t, inverse_root2 * (mode(u1, 1) + mode(u2, 0)) },
        { mu * (a - Scalar(1)) + t, mode(svd.normal, 0) },
        { mu * (b - Scalar(1)) + t, mode(svd.normal, 1) },
    } };
    Matrix<Scalar, 6> H = Matrix<Scalar, 6>::Zero();
    for (const auto& [value, vector] : modes) {
        const Scalar kept = projected_eigenvalue(value, projection);
        if (kept != Scalar(0)) {
            H.noalias() += kept * vector * vector.transpose();
        }
    }
    return H;
}

/// Hessian of membrane_energy (N/m); the 6x6 stress derivative is projected
/// to PSD (projection) before the change of variables, through its analytic
/// eigensystem (stvk_stress_derivative_projected).
template <typename Scalar>
Matrix<Scalar, 9> membrane_energy_hessian(
    const Vector<Scalar, 9>& x, const TriangleRest<Scalar>& rest, const MembraneMaterial<Scalar>& m,
    PSDProjection projection = PSDProjection::clamp)
{
    const Matrix<Scalar, 6> H = stvk_stress_derivative_projected(
        triangle_deformation_gradient(x, rest.rest_inverse), m.mu, m.lambda, projection);
    const Matrix<Scalar, 6, 9> A = detail::triangle_deformation_map(rest.rest_inverse);
    return rest.area * m.thickness * A.transpose() * H * A;
}

} // namespace ipc::examples
