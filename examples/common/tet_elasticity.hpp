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
/// lambda = lambda0 + mu0 reproduce it at small strain (see
/// stable_neo_hookean_from).
///
/// Two more densities, those of the IPC paper's scene scripts, take the
/// plain Lame pair (mu, lambda):
///   neo-Hookean      psi(F) = mu/2 (|F|^2 - 3) - mu ln J + lambda/2 (ln J)^2,
///                    +infinity for J <= 0 (inversion-proof);
///   fixed corotated  psi(F) = mu sum_i (sigma_i - 1)^2 + lambda/2 (J - 1)^2
///                           = mu |F - R|^2 + lambda/2 (J - 1)^2,
///                    sigma_i the signed singular values and R the rotation
///                    of the polar decomposition; finite when inverted.
/// TetMaterial picks one of the three at run time (VolumeModel).

#include "small_matrix.hpp"

#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/SVD>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
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

/// The volumetric densities available at run time (see the file comment).
enum class VolumeModel {
    stable_neo_hookean, ///< Smith et al. 2018; finite when inverted
    neo_hookean,        ///< classic, with ln J; +infinity for J <= 0
    fixed_corotated,    ///< Stomakhin et al. 2012; finite when inverted
};

/// A volumetric material: the model and its two parameters (Pa). For
/// stable_neo_hookean they are StableNeoHookean's (lambda already includes
/// mu); for neo_hookean and fixed_corotated, the plain Lame pair.
template <typename Scalar> struct TetMaterial {
    VolumeModel model = VolumeModel::stable_neo_hookean;
    Scalar mu;
    Scalar lambda;
};

/// Material of the given model from Young's modulus E (Pa) and Poisson ratio
/// nu: stable neo-Hookean gets (mu, lambda + mu) exactly as
/// stable_neo_hookean_from, neo-Hookean and fixed corotated the plain Lame
/// pair. Throws ipc::invalid_argument as lame_parameters does.
template <typename Scalar> TetMaterial<Scalar> tet_material_from(VolumeModel model, Scalar E, Scalar nu)
{
    if (model == VolumeModel::stable_neo_hookean) {
        const StableNeoHookean<Scalar> s = stable_neo_hookean_from(E, nu);
        return { model, s.mu, s.lambda };
    }
    const auto [mu, lambda] = lame_parameters(E, nu);
    return { model, mu, lambda };
}

/// "stable_neo_hookean", "neo_hookean" or "fixed_corotated".
inline const char* volume_model_name(VolumeModel model)
{
    switch (model) {
    case VolumeModel::stable_neo_hookean: return "stable_neo_hookean";
    case VolumeModel::neo_hookean: return "neo_hookean";
    case VolumeModel::fixed_corotated: return "fixed_corotated";
    }
    return "unknown";
}

/// Inverse of volume_model_name. Throws ipc::invalid_argument naming the
/// accepted names for anything else.
inline VolumeModel volume_model_from_name(const std::string& name)
{
    constexpr std::array<VolumeModel, 3> models { VolumeModel::stable_neo_hookean,
        VolumeModel::neo_hookean, VolumeModel::fixed_corotated };
    for (const VolumeModel m : models) {
        if (name == volume_model_name(m)) {
            return m;
        }
    }
    require(false, "unknown volume model '", name,
        "'; expected stable_neo_hookean, neo_hookean or fixed_corotated");
    return VolumeModel::stable_neo_hookean; // not reached
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

    /// Adds w * d^2(det F) / d vec(F)^2 to H: block (a, b) is
    /// w * d(cofactor column a) / d(column b).
    template <typename Scalar>
    void add_determinant_hessian(Matrix<Scalar, 9>& H, const Matrix<Scalar, 3>& F, Scalar w)
    {
        const Vector3<Scalar> f0 = F.col(0), f1 = F.col(1), f2 = F.col(2);
        H.template block<3, 3>(0, 3) -= w * cross_matrix(f2);
        H.template block<3, 3>(0, 6) += w * cross_matrix(f1);
        H.template block<3, 3>(3, 0) += w * cross_matrix(f2);
        H.template block<3, 3>(3, 6) -= w * cross_matrix(f0);
        H.template block<3, 3>(6, 0) -= w * cross_matrix(f1);
        H.template block<3, 3>(6, 3) += w * cross_matrix(f0);
    }

    /// Signed SVD F = U diag(sigma) V^T: U and V rotations, |sigma| in
    /// decreasing order, the last one carrying the sign of det F.
    template <typename Scalar> struct SignedSvd {
        Matrix<Scalar, 3> U;
        Matrix<Scalar, 3> V;
        Vector3<Scalar> sigma;
    };

    template <typename Scalar> SignedSvd<Scalar> signed_svd(const Matrix<Scalar, 3>& F)
    {
        const Eigen::JacobiSVD<Matrix<Scalar, 3>> svd(F, Eigen::ComputeFullU | Eigen::ComputeFullV);
        SignedSvd<Scalar> r { svd.matrixU(), svd.matrixV(), svd.singularValues() };
        if (r.U.determinant() < Scalar(0)) {
            r.U.col(2) *= Scalar(-1);
            r.sigma(2) *= Scalar(-1);
        }
        if (r.V.determinant() < Scalar(0)) {
            r.V.col(2) *= Scalar(-1);
            r.sigma(2) *= Scalar(-1);
        }
        return r;
    }

    /// Gradient of a tet's energy (N per coordinate) from the first
    /// Piola-Kirchhoff stress P: volume * (d vec F / d x)^T vec P.
    template <typename Scalar>
    Vector<Scalar, 12> tet_gradient_from_stress(const Matrix<Scalar, 3>& P, const TetRest<Scalar>& rest)
    {
        const Eigen::Map<const Vector<Scalar, 9>> p(P.data());
        return rest.volume * tet_deformation_map(rest.rest_inverse).transpose() * p;
    }

    /// Hessian of a tet's energy (N/m) from d^2 psi / d vec(F)^2 (already
    /// projected when it should be): volume * A^T H A.
    template <typename Scalar>
    Matrix<Scalar, 12> tet_hessian_from_stress_derivative(const Matrix<Scalar, 9>& H, const TetRest<Scalar>& rest)
    {
        const Matrix<Scalar, 9, 12> A = tet_deformation_map(rest.rest_inverse);
        return rest.volume * A.transpose() * H * A;
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

namespace detail {
    /// J as used in the neo-Hookean stress and its derivative: J itself, or
    /// machine epsilon below it (inverted or flat elements, where the energy
    /// is +infinity), so those stay finite and push toward larger volume.
    template <typename Scalar> Scalar neo_hookean_volume(const Matrix<Scalar, 3>& F)
    {
        return std::max(F.determinant(), std::numeric_limits<Scalar>::epsilon());
    }
} // namespace detail

/// Neo-Hookean energy density psi(F) (J/m^3) for Lame parameters mu and
/// lambda (Pa); +infinity for J = det F <= 0.
template <typename Scalar>
Scalar neo_hookean_density(const Matrix<Scalar, 3>& F, Scalar mu, Scalar lambda)
{
    const Scalar J = F.determinant();
    if (J <= Scalar(0)) {
        return std::numeric_limits<Scalar>::infinity();
    }
    const Scalar log_J = std::log(J);
    return mu / 2 * (F.squaredNorm() - Scalar(3)) - mu * log_J + lambda / 2 * log_J * log_J;
}

/// Neo-Hookean first Piola-Kirchhoff stress dpsi/dF (Pa). Exact for J > 0;
/// see detail::neo_hookean_volume for J <= 0.
template <typename Scalar>
Matrix<Scalar, 3> neo_hookean_stress(const Matrix<Scalar, 3>& F, Scalar mu, Scalar lambda)
{
    const Scalar J = detail::neo_hookean_volume(F);
    return mu * F + (lambda * std::log(J) - mu) / J * detail::cofactor(F);
}

/// Neo-Hookean d^2 psi / d vec(F)^2 (9 x 9, column-major vec of F), not
/// projected. Exact for J > 0; see detail::neo_hookean_volume for J <= 0.
template <typename Scalar>
Matrix<Scalar, 9> neo_hookean_stress_derivative(const Matrix<Scalar, 3>& F, Scalar mu, Scalar lambda)
{
    const Scalar J = detail::neo_hookean_volume(F);
    const Scalar log_J = std::log(J);
    const Matrix<Scalar, 3> C = detail::cofactor(F);
    const Eigen::Map<const Vector<Scalar, 9>> g(C.data());
    // P = mu F + c(J) cof F with c(J) = (lambda ln J - mu) / J, so
    // dP/dF = mu I + c'(J) g g^T + c(J) d^2 J / dF^2.
    Matrix<Scalar, 9> H = mu * Matrix<Scalar, 9>::Identity()
        + (mu + lambda * (Scalar(1) - log_J)) / (J * J) * g * g.transpose();
    detail::add_determinant_hessian(H, F, (lambda * log_J - mu) / J);
    return H;
}

/// Fixed-corotated energy density psi(F) (J/m^3) for Lame parameters mu and
/// lambda (Pa); finite for inverted F.
template <typename Scalar>
Scalar fixed_corotated_density(const Matrix<Scalar, 3>& F, Scalar mu, Scalar lambda)
{
    const Vector3<Scalar> sigma = detail::signed_svd(F).sigma;
    const Scalar J = F.determinant();
    return mu * (sigma.array() - Scalar(1)).square().sum() + lambda / 2 * (J - Scalar(1)) * (J - Scalar(1));
}

/// Fixed-corotated first Piola-Kirchhoff stress
/// dpsi/dF = 2 mu (F - R) + lambda (J - 1) cof F (Pa), R = U V^T.
template <typename Scalar>
Matrix<Scalar, 3> fixed_corotated_stress(const Matrix<Scalar, 3>& F, Scalar mu, Scalar lambda)
{
    const detail::SignedSvd<Scalar> svd = detail::signed_svd(F);
    return Scalar(2) * mu * (F - svd.U * svd.V.transpose())
        + lambda * (F.determinant() - Scalar(1)) * detail::cofactor(F);
}

/// Fixed-corotated d^2 psi / d vec(F)^2 (9 x 9, column-major vec of F), not
/// projected. dR/dF acts on the twist modes T_ij = u_i v_j^T - u_j v_i^T only,
/// dR[T_ij] = 2 / (sigma_i + sigma_j) T_ij, so
///   d^2 psi = 2 mu (I - sum_{i<j} 2/(sigma_i + sigma_j) t_ij t_ij^T / 2)
///           + lambda g g^T + lambda (J - 1) d^2 J,
/// t_ij = vec(T_ij), g = vec(cof F). sigma_i + sigma_j >= 0 with the signed
/// SVD; it is floored at sqrt(machine epsilon) where R is not differentiable
/// (an inverted element with two opposite singular values).
template <typename Scalar>
Matrix<Scalar, 9> fixed_corotated_stress_derivative(const Matrix<Scalar, 3>& F, Scalar mu, Scalar lambda)
{
    const detail::SignedSvd<Scalar> svd = detail::signed_svd(F);
    const Scalar floor = std::sqrt(std::numeric_limits<Scalar>::epsilon());
    Matrix<Scalar, 9> H = Scalar(2) * mu * Matrix<Scalar, 9>::Identity();
    constexpr std::array<std::pair<int, int>, 3> pairs { { { 0, 1 }, { 0, 2 }, { 1, 2 } } };
    for (const auto& [i, j] : pairs) {
        const Matrix<Scalar, 3> T = svd.U.col(i) * svd.V.col(j).transpose() - svd.U.col(j) * svd.V.col(i).transpose();
        const Eigen::Map<const Vector<Scalar, 9>> t(T.data());
        const Scalar sum = std::max(svd.sigma(i) + svd.sigma(j), floor);
        H -= Scalar(2) * mu / sum * t * t.transpose();
    }
    const Matrix<Scalar, 3> C = detail::cofactor(F);
    const Eigen::Map<const Vector<Scalar, 9>> g(C.data());
    H += lambda * g * g.transpose();
    detail::add_determinant_hessian(H, F, lambda * (F.determinant() - Scalar(1)));
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
    return detail::tet_gradient_from_stress(
        stable_neo_hookean_stress(detail::tet_deformation_gradient(x, rest.rest_inverse), m), rest);
}

/// Hessian of tet_energy (N/m); the 9x9 stress derivative is projected to PSD
/// before the change of variables, so any projection other than none gives a
/// PSD 12x12 matrix.
template <typename Scalar>
Matrix<Scalar, 12> tet_energy_hessian(
    const Vector<Scalar, 12>& x, const TetRest<Scalar>& rest, const StableNeoHookean<Scalar>& m,
    PSDProjection projection = PSDProjection::clamp)
{
    return detail::tet_hessian_from_stress_derivative(
        project_to_psd(
            stable_neo_hookean_stress_derivative(detail::tet_deformation_gradient(x, rest.rest_inverse), m),
            projection),
        rest);
}

// The same three functions for a run-time model (TetMaterial). The stable
// neo-Hookean model calls the StableNeoHookean overloads above, so its
// results are bit-identical to theirs.

/// Elastic energy (J) of one tetrahedron of material m; +infinity for an
/// inverted neo-Hookean element. No validation (hot kernel).
template <typename Scalar>
Scalar tet_energy(
    const Vector<Scalar, 12>& x, const TetRest<Scalar>& rest, const TetMaterial<Scalar>& m)
{
    if (m.model == VolumeModel::stable_neo_hookean) {
        return tet_energy(x, rest, StableNeoHookean<Scalar> { m.mu, m.lambda });
    }
    const Matrix<Scalar, 3> F = detail::tet_deformation_gradient(x, rest.rest_inverse);
    return rest.volume
        * (m.model == VolumeModel::neo_hookean ? neo_hookean_density(F, m.mu, m.lambda)
                                               : fixed_corotated_density(F, m.mu, m.lambda));
}

/// Gradient of tet_energy with respect to x (N per coordinate).
template <typename Scalar>
Vector<Scalar, 12> tet_energy_gradient(
    const Vector<Scalar, 12>& x, const TetRest<Scalar>& rest, const TetMaterial<Scalar>& m)
{
    if (m.model == VolumeModel::stable_neo_hookean) {
        return tet_energy_gradient(x, rest, StableNeoHookean<Scalar> { m.mu, m.lambda });
    }
    const Matrix<Scalar, 3> F = detail::tet_deformation_gradient(x, rest.rest_inverse);
    return detail::tet_gradient_from_stress(m.model == VolumeModel::neo_hookean
            ? neo_hookean_stress(F, m.mu, m.lambda)
            : fixed_corotated_stress(F, m.mu, m.lambda),
        rest);
}

/// Hessian of tet_energy (N/m), projected as for StableNeoHookean.
template <typename Scalar>
Matrix<Scalar, 12> tet_energy_hessian(
    const Vector<Scalar, 12>& x, const TetRest<Scalar>& rest, const TetMaterial<Scalar>& m,
    PSDProjection projection = PSDProjection::clamp)
{
    if (m.model == VolumeModel::stable_neo_hookean) {
        return tet_energy_hessian(x, rest, StableNeoHookean<Scalar> { m.mu, m.lambda }, projection);
    }
    const Matrix<Scalar, 3> F = detail::tet_deformation_gradient(x, rest.rest_inverse);
    return detail::tet_hessian_from_stress_derivative(project_to_psd(m.model == VolumeModel::neo_hookean
                                                              ? neo_hookean_stress_derivative(F, m.mu, m.lambda)
                                                              : fixed_corotated_stress_derivative(F, m.mu, m.lambda),
                                                          projection),
        rest);
}

} // namespace ipc::examples
