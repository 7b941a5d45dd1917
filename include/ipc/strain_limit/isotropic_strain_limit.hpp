#pragma once
/// @file
/// Isotropic constitutive strain limiting (C-IPC): a C2 clamped barrier on
/// each singular value sigma_i of a triangle's 3x2 deformation gradient,
///     psi(F) = sum_i b((threshold - sigma_i) / (limit - threshold)),
/// integrated as an energy density:
///     E(x) = stiffness * rest area * thickness * psi(F(x)).
/// psi and all its derivatives are exactly zero while every sigma_i <=
/// threshold, so the underlying membrane's rest state is untouched.
///
/// Derivatives are closed form through the 2x2 SVD. The F-space Hessian is
/// assembled from its analytic eigensystem: two stretch modes u_i v_i^T
/// (eigenvalues psi_ii), the in-plane twist and flip modes
/// (u1 v2^T -+ u2 v1^T)/sqrt2 (eigenvalues (psi_1 + psi_2)/(sigma_1 + sigma_2)
/// and (psi_1 - psi_2)/(sigma_1 - sigma_2)) and the two out-of-plane modes
/// n v_i^T (eigenvalues psi_i / sigma_i). Projection to PSD therefore only
/// touches these six numbers. Because b is convex and non-decreasing in
/// sigma, all six are non-negative in exact arithmetic; projection only
/// guards against round-off.
///
/// A singular value within 64 units in the last place of the threshold
/// counts as at the threshold, so a rest configuration (sigma = 1 = s_hat up to
/// the round-off of forming F) evaluates to exactly zero; the barrier there
/// is of order epsilon^3, far below anything representable next to it.

#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>
#include <ipc/strain_limit/strain_limit_barrier.hpp>
#include <ipc/strain_limit/svd_3x2.hpp>
#include <ipc/strain_limit/triangle_rest_shape.hpp>

#include <cmath>
#include <limits>

namespace ipc {

/// Parameters of the isotropic strain-limit potential, with C-IPC's defaults.
template <typename Scalar = double> struct StrainLimitParameters {
    /// Strain limit s: largest allowed singular value (stretch factor,
    /// dimensionless). 1.0608 is C-IPC's cotton limit (6.08 % stretch).
    Scalar limit = Scalar(1.0608);
    /// Activation threshold s_hat < s (dimensionless); the barrier is zero
    /// for sigma <= s_hat. C-IPC uses 1 (the rest stretch).
    Scalar threshold = Scalar(1);
    /// Material thickness (metres) multiplying the rest area to give the
    /// integration volume; 0.318 mm is C-IPC's cotton.
    Scalar thickness = Scalar(0.318e-3);
    /// Barrier stiffness kappa_s (pascals); C-IPC starts every scene at 1 kPa
    /// (see StrainLimitStiffness for its adaptation).
    Scalar stiffness = Scalar(1e3);

    /// Throws ipc::invalid_argument unless 0 < threshold < limit, thickness >
    /// 0 and stiffness >= 0, all finite.
    void validate() const
    {
        using std::isfinite;
        require(isfinite(limit) && isfinite(threshold) && threshold > Scalar(0)
                && threshold < limit,
            "StrainLimitParameters: need 0 < threshold < limit, got threshold = ", threshold,
            ", limit = ", limit);
        require(isfinite(thickness) && thickness > Scalar(0),
            "StrainLimitParameters: thickness must be positive (metres), got ", thickness);
        require(isfinite(stiffness) && stiffness >= Scalar(0),
            "StrainLimitParameters: stiffness must be non-negative (pascals), got ", stiffness);
    }
};

/// Analytic eigensystem of the F-space Hessian d2psi/dvec(F)^2:
/// eigenvalues[k] belongs to the unit (Frobenius) eigenvector
/// eigenvectors.col(k) = vec(M_k), vec stacking the two columns of F.
/// Order: stretch 1, stretch 2, twist, flip, out-of-plane 1, out-of-plane 2.
template <typename Scalar> struct StrainLimitEigensystem {
    /// The six eigenvalues, in the order above.
    Vector<Scalar, 6> eigenvalues = Vector<Scalar, 6>::Zero();
    /// The matching unit eigenvectors, one per column.
    Matrix<Scalar, 6, 6> eigenvectors = Matrix<Scalar, 6, 6>::Identity();
};

namespace detail {
    template <typename Scalar>
    void validate_strain_limit_bounds(const Scalar& limit, const Scalar& threshold, const char* where)
    {
        using std::isfinite;
        require(isfinite(limit) && isfinite(threshold) && threshold > Scalar(0)
                && threshold < limit,
            where, ": need 0 < threshold < limit, got threshold = ", threshold, ", limit = ", limit);
    }

    /// True when sigma is above the threshold by more than round-off.
    template <typename Scalar> bool is_above_threshold(const Scalar& sigma, const Scalar& threshold)
    {
        return sigma > threshold * (Scalar(1) + Scalar(64) * std::numeric_limits<Scalar>::epsilon());
    }

    /// Everything the isotropic kernels share: SVD, activity, and the first
    /// and second derivatives of psi with respect to each singular value.
    template <typename Scalar> struct IsotropicStrainLimitState {
        SingularValueDecomposition3x2<Scalar> svd;
        Scalar y[2] = { Scalar(0), Scalar(0) };
        Scalar first[2] = { Scalar(0), Scalar(0) };  ///< dpsi/dsigma_i
        Scalar second[2] = { Scalar(0), Scalar(0) }; ///< d2psi/dsigma_i^2
        bool active[2] = { false, false };
    };

    /// Checks sigma_1 against the limit (and catches NaN/inf in F).
    template <typename Scalar>
    void check_below_limit(const Scalar& sigma1, const Scalar& limit, const char* where)
    {
        using std::isfinite;
        require(isfinite(sigma1), where, ": deformation gradient is not finite (NaN/inf positions?)");
        require(sigma1 < limit, where, ": largest singular value ", sigma1,
            " is at or past the strain limit ", limit);
    }

    template <typename Scalar>
    IsotropicStrainLimitState<Scalar> isotropic_state(const Matrix<Scalar, 3, 2>& F,
        const Scalar& limit, const Scalar& threshold, bool need_second, const char* where)
    {
        IsotropicStrainLimitState<Scalar> state;
        state.svd = singular_value_decomposition_3x2(F);
        check_below_limit(state.svd.singular_values[0], limit, where);
        const Scalar width = limit - threshold;
        for (int i = 0; i < 2; ++i) {
            const Scalar sigma = state.svd.singular_values[i];
            state.y[i] = (threshold - sigma) / width;
            state.active[i] = is_above_threshold(sigma, threshold);
            if (state.active[i]) {
                state.first[i] = -strain_limit_barrier_first_derivative(state.y[i]) / width;
                if (need_second) {
                    state.second[i]
                        = strain_limit_barrier_second_derivative(state.y[i]) / (width * width);
                }
            }
        }
        return state;
    }

    template <typename Scalar>
    Vector<Scalar, 6> outer_vec(const Vector3<Scalar>& u, const Vector2<Scalar>& v)
    {
        Vector<Scalar, 6> result;
        result.template head<3>() = v[0] * u;
        result.template tail<3>() = v[1] * u;
        return result;
    }
} // namespace detail

/// Strain-limit density psi(F) = sum_i b(y_i) (dimensionless; multiply by
/// stiffness and volume for an energy). F: 3x2 deformation gradient; limit
/// s and threshold s_hat as in StrainLimitParameters. Exactly 0 when
/// sigma_1 <= threshold. Validates: throws ipc::invalid_argument on bad
/// bounds, non-finite F, or sigma_1 >= limit.
template <typename Scalar>
Scalar isotropic_strain_limit_density(
    const Matrix<Scalar, 3, 2>& F, const Scalar& limit, const Scalar& threshold)
{
    constexpr const char* where = "isotropic_strain_limit_density";
    detail::validate_strain_limit_bounds(limit, threshold, where);
    const Scalar sigma1 = largest_singular_value(F);
    detail::check_below_limit(sigma1, limit, where);
    if (!detail::is_above_threshold(sigma1, threshold)) {
        return Scalar(0);
    }
    const SingularValueDecomposition3x2<Scalar> svd = singular_value_decomposition_3x2(F);
    const Scalar width = limit - threshold;
    Scalar density = Scalar(0);
    for (int i = 0; i < 2; ++i) {
        if (detail::is_above_threshold(svd.singular_values[i], threshold)) {
            density += strain_limit_barrier((threshold - svd.singular_values[i]) / width);
        }
    }
    return density;
}

/// dpsi/dF (3x2) = sum_i psi_i u_i v_i^T. Exactly zero when sigma_1 <=
/// threshold. Validates like isotropic_strain_limit_density.
template <typename Scalar>
Matrix<Scalar, 3, 2> isotropic_strain_limit_density_gradient(
    const Matrix<Scalar, 3, 2>& F, const Scalar& limit, const Scalar& threshold)
{
    constexpr const char* where = "isotropic_strain_limit_density_gradient";
    detail::validate_strain_limit_bounds(limit, threshold, where);
    const Scalar sigma1 = largest_singular_value(F);
    detail::check_below_limit(sigma1, limit, where);
    Matrix<Scalar, 3, 2> gradient = Matrix<Scalar, 3, 2>::Zero();
    if (!detail::is_above_threshold(sigma1, threshold)) {
        return gradient;
    }
    const auto state = detail::isotropic_state(F, limit, threshold, false, where);
    for (int i = 0; i < 2; ++i) {
        if (state.active[i]) {
            gradient += state.first[i] * state.svd.U.col(i) * state.svd.V.col(i).transpose();
        }
    }
    return gradient;
}

namespace detail {
    template <typename Scalar>
    StrainLimitEigensystem<Scalar> isotropic_eigensystem(
        const IsotropicStrainLimitState<Scalar>& state, const Scalar& limit, const Scalar& threshold)
    {
        const auto& svd = state.svd;
        const Vector3<Scalar> u1 = svd.U.col(0), u2 = svd.U.col(1);
        const Vector2<Scalar> v1 = svd.V.col(0), v2 = svd.V.col(1);
        using std::sqrt;
        const Scalar inverse_root2 = Scalar(1) / sqrt(Scalar(2));
        StrainLimitEigensystem<Scalar> system;
        system.eigenvectors.col(0) = outer_vec(u1, v1);
        system.eigenvectors.col(1) = outer_vec(u2, v2);
        system.eigenvectors.col(2) = inverse_root2 * (outer_vec(u1, v2) - outer_vec(u2, v1));
        system.eigenvectors.col(3) = inverse_root2 * (outer_vec(u1, v2) + outer_vec(u2, v1));
        system.eigenvectors.col(4) = outer_vec(svd.normal, v1);
        system.eigenvectors.col(5) = outer_vec(svd.normal, v2);
        if (!state.active[0]) {
            return system; // eigenvalues stay exactly zero
        }
        const Scalar sigma1 = svd.singular_values[0], sigma2 = svd.singular_values[1];
        const Scalar width = limit - threshold;
        system.eigenvalues[0] = state.second[0];
        system.eigenvalues[1] = state.second[1];
        system.eigenvalues[2] = (state.first[0] + state.first[1]) / (sigma1 + sigma2);
        system.eigenvalues[3]
            = strain_limit_barrier_first_derivative_divided_difference(state.y[0], state.y[1])
            / (width * width);
        system.eigenvalues[4] = state.first[0] / sigma1;
        system.eigenvalues[5] = state.active[1] ? state.first[1] / sigma2 : Scalar(0);
        return system;
    }
} // namespace detail

/// Analytic eigensystem of d2psi/dvec(F)^2 (see StrainLimitEigensystem).
/// All eigenvalues are zero when sigma_1 <= threshold. Validates like
/// isotropic_strain_limit_density.
template <typename Scalar>
StrainLimitEigensystem<Scalar> isotropic_strain_limit_density_eigensystem(
    const Matrix<Scalar, 3, 2>& F, const Scalar& limit, const Scalar& threshold)
{
    constexpr const char* where = "isotropic_strain_limit_density_eigensystem";
    detail::validate_strain_limit_bounds(limit, threshold, where);
    const auto state = detail::isotropic_state(F, limit, threshold, true, where);
    return detail::isotropic_eigensystem(state, limit, threshold);
}

/// d2psi/dvec(F)^2 (6x6, vec stacking the columns of F), assembled from the
/// analytic eigensystem; `projection` clamps (or flips) negative modal
/// eigenvalues, giving the PSD projection without a dense eigensolve.
/// Exactly zero when sigma_1 <= threshold. Validates like
/// isotropic_strain_limit_density.
template <typename Scalar>
Matrix<Scalar, 6, 6> isotropic_strain_limit_density_hessian(const Matrix<Scalar, 3, 2>& F,
    const Scalar& limit, const Scalar& threshold, PSDProjection projection = PSDProjection::none)
{
    constexpr const char* where = "isotropic_strain_limit_density_hessian";
    Matrix<Scalar, 6, 6> hessian = Matrix<Scalar, 6, 6>::Zero();
    detail::validate_strain_limit_bounds(limit, threshold, where);
    const Scalar sigma1 = largest_singular_value(F);
    detail::check_below_limit(sigma1, limit, where);
    if (!detail::is_above_threshold(sigma1, threshold)) {
        return hessian;
    }
    const auto state = detail::isotropic_state(F, limit, threshold, true, where);
    const StrainLimitEigensystem<Scalar> system
        = detail::isotropic_eigensystem(state, limit, threshold);
    for (int k = 0; k < 6; ++k) {
        const Scalar value = projected_eigenvalue(system.eigenvalues[k], projection);
        if (value != Scalar(0)) {
            hessian.noalias() += value * system.eigenvectors.col(k) * system.eigenvectors.col(k).transpose();
        }
    }
    return hessian;
}

/// Strain-limit energy of one triangle (joules):
/// stiffness * area * thickness * psi(F), with x0, x1, x2 the current
/// positions (metres) and `rest` from triangle_rest_shape. Validates the
/// parameters and the positions (NaN/inf) and throws ipc::invalid_argument
/// when sigma_1 >= limit (an infeasible configuration: filter line-search
/// steps with is_strain_feasible first).
template <typename Scalar>
Scalar isotropic_strain_limit_energy(const Vector3<Scalar>& x0, const Vector3<Scalar>& x1,
    const Vector3<Scalar>& x2, const TriangleRestShape<Scalar>& rest,
    const StrainLimitParameters<Scalar>& parameters)
{
    parameters.validate();
    const Matrix<Scalar, 3, 2> F
        = triangle_deformation_gradient(x0, x1, x2, rest.inverse_rest_matrix);
    const Scalar weight = parameters.stiffness * rest.area * parameters.thickness;
    return weight * isotropic_strain_limit_density(F, parameters.limit, parameters.threshold);
}

/// Gradient of isotropic_strain_limit_energy with respect to [x0; x1; x2]
/// (newtons). Exactly zero when sigma_1 <= threshold. Validates likewise.
template <typename Scalar>
Vector<Scalar, 9> isotropic_strain_limit_gradient(const Vector3<Scalar>& x0,
    const Vector3<Scalar>& x1, const Vector3<Scalar>& x2, const TriangleRestShape<Scalar>& rest,
    const StrainLimitParameters<Scalar>& parameters)
{
    parameters.validate();
    const Matrix<Scalar, 3, 2> F
        = triangle_deformation_gradient(x0, x1, x2, rest.inverse_rest_matrix);
    const Scalar weight = parameters.stiffness * rest.area * parameters.thickness;
    const Matrix<Scalar, 3, 2> gradient_in_F
        = isotropic_strain_limit_density_gradient(F, parameters.limit, parameters.threshold);
    return weight * pull_back_gradient(gradient_in_F, rest.inverse_rest_matrix);
}

/// Hessian of isotropic_strain_limit_energy with respect to [x0; x1; x2]
/// (newtons per metre, 9x9). With projection = PSDProjection::clamp the
/// result is the PSD projection done in F-space on the analytic modes (then
/// carried to x, which keeps it PSD). Exactly zero when sigma_1 <= threshold.
/// Validates likewise.
template <typename Scalar>
Matrix<Scalar, 9, 9> isotropic_strain_limit_hessian(const Vector3<Scalar>& x0,
    const Vector3<Scalar>& x1, const Vector3<Scalar>& x2, const TriangleRestShape<Scalar>& rest,
    const StrainLimitParameters<Scalar>& parameters,
    PSDProjection projection = PSDProjection::none)
{
    parameters.validate();
    const Matrix<Scalar, 3, 2> F
        = triangle_deformation_gradient(x0, x1, x2, rest.inverse_rest_matrix);
    const Scalar weight = parameters.stiffness * rest.area * parameters.thickness;
    const Matrix<Scalar, 6, 6> hessian_in_F = isotropic_strain_limit_density_hessian(
        F, parameters.limit, parameters.threshold, projection);
    if (hessian_in_F.isZero(Scalar(0))) {
        return Matrix<Scalar, 9, 9>::Zero();
    }
    return weight * pull_back_hessian(hessian_in_F, rest.inverse_rest_matrix);
}

} // namespace ipc
