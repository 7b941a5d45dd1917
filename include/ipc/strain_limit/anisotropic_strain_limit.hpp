#pragma once
/// @file
/// Anisotropic constitutive strain limiting (C-IPC Section 4.2): the
/// data-driven orthotropic membrane of Clyde et al.,
///     psi(E) = a11/2 eta1(E11^2) + a22/2 eta3(E22^2) + a12 eta2(E11 E22)
///              + G12 eta4(E12^2),
/// with each fitted eta basis replaced by the barrier
///     eta(z; Z) = -Z ln((Z - z) / Z),   eta(0) = 0, eta'(0) = 1,
/// so the energy diverges before a Green-strain component reaches its
/// measured limit. E = 1/2 (F^T F - I) is the 2x2 Green strain in a rest
/// frame whose first axis is the warp direction.
///
/// The papers leave open what Z each term uses. Here the limits bound the
/// strain components themselves: |E11| < warp_limit, |E22| < weft_limit,
/// |E12| < shear_limit, i.e. Z = warp_limit^2 for eta1(E11^2), weft_limit^2
/// for eta3, shear_limit^2 for eta4, and warp_limit * weft_limit for the
/// coupling term, whose argument |E11 E22| stays below that bound whenever the
/// two diagonal limits hold.
///
/// Because eta'(0) = 1 for every term, the Hessian of psi at E = 0 is
/// [[a11, a12, 0], [a12, a22, 0], [0, 0, 2 G12]] in (E11, E22, E12): using the
/// fitted moduli unchanged reproduces the data-driven model's rest stiffness
/// (C-IPC supplement Section 4.1). Unlike the isotropic barrier this is a
/// complete membrane energy: it is zero only at E = 0 and penalises
/// compression as well as stretch.

#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>
#include <ipc/strain_limit/triangle_rest_shape.hpp>

#include <cmath>

namespace ipc {

/// Moduli (pascals), Green-strain limits (dimensionless) and thickness
/// (metres) of the anisotropic strain-limit membrane. The limits default to
/// the values C-IPC uses from Clyde 2017 (0.14 warp and weft, 0.063 shear).
/// The papers do not print Clyde's fitted moduli, so the default moduli are
/// those of an isotropic plane-stress St. Venant-Kirchhoff membrane with
/// C-IPC's cotton values E = 0.8 MPa, nu = 0.243 (see from_isotropic); set
/// the four moduli from a fit for real anisotropy.
template <typename Scalar = double> struct AnisotropicStrainLimitParameters {
    /// a11: warp stiffness, d2psi/dE11^2 at rest (pascals).
    Scalar warp_modulus = Scalar(0.8e6 / (1.0 - 0.243 * 0.243));
    /// a22: weft stiffness, d2psi/dE22^2 at rest (pascals).
    Scalar weft_modulus = Scalar(0.8e6 / (1.0 - 0.243 * 0.243));
    /// a12: warp-weft coupling, d2psi/dE11 dE22 at rest (pascals).
    Scalar coupling_modulus = Scalar(0.8e6 * 0.243 / (1.0 - 0.243 * 0.243));
    /// G12: shear coefficient; d2psi/dE12^2 at rest is 2 G12 (pascals).
    Scalar shear_modulus = Scalar(0.8e6 / (1.0 + 0.243));
    /// Largest |E11| (warp Green strain).
    Scalar warp_limit = Scalar(0.14);
    /// Largest |E22| (weft Green strain).
    Scalar weft_limit = Scalar(0.14);
    /// Largest |E12| (shear Green strain).
    Scalar shear_limit = Scalar(0.063);
    /// Material thickness (metres); energy = rest area * thickness * psi.
    Scalar thickness = Scalar(0.318e-3);

    /// Moduli matching an isotropic plane-stress St. Venant-Kirchhoff
    /// membrane psi = mu E:E + lambda/2 tr(E)^2 with lambda = E nu / (1 -
    /// nu^2), mu = E / (2 (1 + nu)) at rest: a11 = a22 = E / (1 - nu^2),
    /// a12 = E nu / (1 - nu^2), G12 = 2 mu. young in pascals.
    static AnisotropicStrainLimitParameters from_isotropic(const Scalar& young, const Scalar& poisson)
    {
        AnisotropicStrainLimitParameters parameters;
        const Scalar plane_stress = young / (Scalar(1) - poisson * poisson);
        parameters.warp_modulus = plane_stress;
        parameters.weft_modulus = plane_stress;
        parameters.coupling_modulus = plane_stress * poisson;
        parameters.shear_modulus = young / (Scalar(1) + poisson);
        return parameters;
    }

    /// Throws ipc::invalid_argument unless the rest stiffness is positive
    /// definite (a11 > 0, a22 > 0, a12^2 < a11 a22, G12 > 0), the limits and
    /// the thickness are positive, all finite.
    void validate() const
    {
        using std::isfinite;
        const bool finite = isfinite(warp_modulus) && isfinite(weft_modulus)
            && isfinite(coupling_modulus) && isfinite(shear_modulus) && isfinite(warp_limit)
            && isfinite(weft_limit) && isfinite(shear_limit) && isfinite(thickness);
        require(finite, "AnisotropicStrainLimitParameters: every parameter must be finite");
        require(warp_modulus > Scalar(0) && weft_modulus > Scalar(0) && shear_modulus > Scalar(0)
                && coupling_modulus * coupling_modulus < warp_modulus * weft_modulus,
            "AnisotropicStrainLimitParameters: rest stiffness must be positive definite, got a11 = ",
            warp_modulus, ", a22 = ", weft_modulus, ", a12 = ", coupling_modulus,
            ", G12 = ", shear_modulus);
        require(warp_limit > Scalar(0) && weft_limit > Scalar(0) && shear_limit > Scalar(0),
            "AnisotropicStrainLimitParameters: strain limits must be positive, got ", warp_limit,
            ", ", weft_limit, ", ", shear_limit);
        require(thickness > Scalar(0),
            "AnisotropicStrainLimitParameters: thickness must be positive (metres), got ",
            thickness);
    }
};

/// Green-Lagrange strain E = 1/2 (F^T F - I) (2x2, dimensionless).
template <typename Scalar> Matrix<Scalar, 2, 2> green_strain(const Matrix<Scalar, 3, 2>& F)
{
    return (F.transpose() * F - Matrix<Scalar, 2, 2>::Identity()) / Scalar(2);
}

/// True when |E11| < warp_limit, |E22| < weft_limit and |E12| < shear_limit
/// (the anisotropic model's feasible set). NaN gives false. Does not
/// validate the parameters.
template <typename Scalar>
bool is_anisotropic_strain_feasible(
    const Matrix<Scalar, 2, 2>& strain, const AnisotropicStrainLimitParameters<Scalar>& parameters)
{
    using std::abs;
    return abs(strain(0, 0)) < parameters.warp_limit && abs(strain(1, 1)) < parameters.weft_limit
        && abs(strain(0, 1)) < parameters.shear_limit;
}

/// The same test on a triangle's current positions (metres).
template <typename Scalar>
bool is_anisotropic_strain_feasible(const Vector3<Scalar>& x0, const Vector3<Scalar>& x1,
    const Vector3<Scalar>& x2, const Matrix<Scalar, 2, 2>& inverse_rest_matrix,
    const AnisotropicStrainLimitParameters<Scalar>& parameters)
{
    return is_anisotropic_strain_feasible(
        green_strain(triangle_deformation_gradient(x0, x1, x2, inverse_rest_matrix)), parameters);
}

namespace detail {
    /// eta(z; Z) = -Z ln(1 - z/Z) and its first two derivatives in z.
    template <typename Scalar> struct EtaBarrier {
        Scalar value, first, second;
    };

    template <typename Scalar> EtaBarrier<Scalar> eta_barrier(const Scalar& z, const Scalar& bound)
    {
        using std::log1p;
        const Scalar ratio = z / bound;
        const Scalar first = Scalar(1) / (Scalar(1) - ratio);
        return { -bound * log1p(-ratio), first, first * first / bound };
    }

    /// psi, its gradient and Hessian in e = (E11, E22, E12).
    template <typename Scalar> struct AnisotropicDensity {
        Scalar value;
        Vector3<Scalar> gradient;
        Matrix<Scalar, 3, 3> hessian;
    };

    template <typename Scalar>
    void check_anisotropic_feasible(const Matrix<Scalar, 2, 2>& strain,
        const AnisotropicStrainLimitParameters<Scalar>& parameters, const char* where)
    {
        require(all_finite(strain), where, ": strain is not finite (NaN/inf positions?)");
        require(is_anisotropic_strain_feasible(strain, parameters), where,
            ": Green strain (E11, E22, E12) = (", strain(0, 0), ", ", strain(1, 1), ", ",
            strain(0, 1), ") is at or past its limits (", parameters.warp_limit, ", ",
            parameters.weft_limit, ", ", parameters.shear_limit, ")");
    }

    template <typename Scalar>
    AnisotropicDensity<Scalar> anisotropic_density(const Matrix<Scalar, 2, 2>& strain,
        const AnisotropicStrainLimitParameters<Scalar>& p, bool need_hessian)
    {
        const Scalar e1 = strain(0, 0), e2 = strain(1, 1), e3 = strain(0, 1);
        const auto warp = eta_barrier(e1 * e1, p.warp_limit * p.warp_limit);
        const auto weft = eta_barrier(e2 * e2, p.weft_limit * p.weft_limit);
        const auto coupling = eta_barrier(e1 * e2, p.warp_limit * p.weft_limit);
        const auto shear = eta_barrier(e3 * e3, p.shear_limit * p.shear_limit);
        const Scalar a11 = p.warp_modulus, a22 = p.weft_modulus, a12 = p.coupling_modulus,
                     g12 = p.shear_modulus;
        AnisotropicDensity<Scalar> result;
        result.value = a11 / Scalar(2) * warp.value + a22 / Scalar(2) * weft.value
            + a12 * coupling.value + g12 * shear.value;
        result.gradient << a11 * warp.first * e1 + a12 * coupling.first * e2,
            a22 * weft.first * e2 + a12 * coupling.first * e1, Scalar(2) * g12 * shear.first * e3;
        if (need_hessian) {
            result.hessian.setZero();
            result.hessian(0, 0) = a11 * (warp.first + Scalar(2) * e1 * e1 * warp.second)
                + a12 * coupling.second * e2 * e2;
            result.hessian(1, 1) = a22 * (weft.first + Scalar(2) * e2 * e2 * weft.second)
                + a12 * coupling.second * e1 * e1;
            result.hessian(0, 1) = a12 * (coupling.first + coupling.second * e1 * e2);
            result.hessian(1, 0) = result.hessian(0, 1);
            result.hessian(2, 2)
                = Scalar(2) * g12 * (shear.first + Scalar(2) * e3 * e3 * shear.second);
        }
        return result;
    }

    /// d(E11, E22, E12)/dvec(F) (3x6).
    template <typename Scalar>
    Matrix<Scalar, 3, 6> strain_jacobian(const Matrix<Scalar, 3, 2>& F)
    {
        Matrix<Scalar, 3, 6> jacobian = Matrix<Scalar, 3, 6>::Zero();
        jacobian.template block<1, 3>(0, 0) = F.col(0).transpose();
        jacobian.template block<1, 3>(1, 3) = F.col(1).transpose();
        jacobian.template block<1, 3>(2, 0) = F.col(1).transpose() / Scalar(2);
        jacobian.template block<1, 3>(2, 3) = F.col(0).transpose() / Scalar(2);
        return jacobian;
    }
} // namespace detail

/// psi(E) (pascals = J/m^3) for a 2x2 Green strain E (E(0,1) is E12; the
/// matrix is assumed symmetric). Validates: throws ipc::invalid_argument on
/// bad parameters, NaN, or a component at or past its limit.
template <typename Scalar>
Scalar anisotropic_strain_limit_density(
    const Matrix<Scalar, 2, 2>& strain, const AnisotropicStrainLimitParameters<Scalar>& parameters)
{
    parameters.validate();
    detail::check_anisotropic_feasible(strain, parameters, "anisotropic_strain_limit_density");
    return detail::anisotropic_density(strain, parameters, false).value;
}

/// dpsi/d(E11, E22, E12) (pascals). Validates like anisotropic_strain_limit_density.
template <typename Scalar>
Vector3<Scalar> anisotropic_strain_limit_density_strain_gradient(
    const Matrix<Scalar, 2, 2>& strain, const AnisotropicStrainLimitParameters<Scalar>& parameters)
{
    parameters.validate();
    detail::check_anisotropic_feasible(
        strain, parameters, "anisotropic_strain_limit_density_strain_gradient");
    return detail::anisotropic_density(strain, parameters, false).gradient;
}

/// d2psi/d(E11, E22, E12)^2 (3x3, pascals). At E = 0 it equals
/// [[a11, a12, 0], [a12, a22, 0], [0, 0, 2 G12]]. Validates likewise.
template <typename Scalar>
Matrix<Scalar, 3, 3> anisotropic_strain_limit_density_strain_hessian(
    const Matrix<Scalar, 2, 2>& strain, const AnisotropicStrainLimitParameters<Scalar>& parameters)
{
    parameters.validate();
    detail::check_anisotropic_feasible(
        strain, parameters, "anisotropic_strain_limit_density_strain_hessian");
    return detail::anisotropic_density(strain, parameters, true).hessian;
}

/// dpsi/dF (3x2, pascals) for a 3x2 deformation gradient F in the warp/weft
/// rest frame. Validates likewise.
template <typename Scalar>
Matrix<Scalar, 3, 2> anisotropic_strain_limit_density_gradient(
    const Matrix<Scalar, 3, 2>& F, const AnisotropicStrainLimitParameters<Scalar>& parameters)
{
    parameters.validate();
    const Matrix<Scalar, 2, 2> strain = green_strain(F);
    detail::check_anisotropic_feasible(strain, parameters, "anisotropic_strain_limit_density_gradient");
    const Vector3<Scalar> g = detail::anisotropic_density(strain, parameters, false).gradient;
    Matrix<Scalar, 3, 2> gradient;
    gradient.col(0) = g[0] * F.col(0) + g[2] / Scalar(2) * F.col(1);
    gradient.col(1) = g[1] * F.col(1) + g[2] / Scalar(2) * F.col(0);
    return gradient;
}

/// d2psi/dvec(F)^2 (6x6, pascals), vec stacking the columns of F. With a
/// projection other than none it is projected to PSD by a dense 6x6
/// eigen-decomposition (PSD in F-space is equivalent to PSD in x, since
/// dF/dx has full row rank). Validates likewise.
template <typename Scalar>
Matrix<Scalar, 6, 6> anisotropic_strain_limit_density_hessian(const Matrix<Scalar, 3, 2>& F,
    const AnisotropicStrainLimitParameters<Scalar>& parameters,
    PSDProjection projection = PSDProjection::none)
{
    parameters.validate();
    const Matrix<Scalar, 2, 2> strain = green_strain(F);
    detail::check_anisotropic_feasible(strain, parameters, "anisotropic_strain_limit_density_hessian");
    const auto density = detail::anisotropic_density(strain, parameters, true);
    const Matrix<Scalar, 3, 6> jacobian = detail::strain_jacobian(F);
    Matrix<Scalar, 6, 6> hessian = jacobian.transpose() * density.hessian * jacobian;
    const Matrix<Scalar, 3, 3> identity = Matrix<Scalar, 3, 3>::Identity();
    hessian.template block<3, 3>(0, 0) += density.gradient[0] * identity;
    hessian.template block<3, 3>(3, 3) += density.gradient[1] * identity;
    hessian.template block<3, 3>(0, 3) += density.gradient[2] / Scalar(2) * identity;
    hessian.template block<3, 3>(3, 0) += density.gradient[2] / Scalar(2) * identity;
    if (projection != PSDProjection::none) {
        hessian = project_to_psd(hessian, projection);
    }
    return hessian;
}

/// Anisotropic membrane energy of one triangle (joules): area * thickness *
/// psi(E(x)). `rest` must come from a rest frame aligned with the warp
/// direction (triangle_rest_shape with a material direction, or 2D pattern
/// coordinates). Throws ipc::invalid_argument on bad parameters, NaN
/// positions or an infeasible strain (filter steps with
/// is_anisotropic_strain_feasible).
template <typename Scalar>
Scalar anisotropic_strain_limit_energy(const Vector3<Scalar>& x0, const Vector3<Scalar>& x1,
    const Vector3<Scalar>& x2, const TriangleRestShape<Scalar>& rest,
    const AnisotropicStrainLimitParameters<Scalar>& parameters)
{
    const Matrix<Scalar, 2, 2> strain
        = green_strain(triangle_deformation_gradient(x0, x1, x2, rest.inverse_rest_matrix));
    return rest.area * parameters.thickness * anisotropic_strain_limit_density(strain, parameters);
}

/// Gradient of anisotropic_strain_limit_energy in [x0; x1; x2] (newtons).
/// Validates likewise.
template <typename Scalar>
Vector<Scalar, 9> anisotropic_strain_limit_gradient(const Vector3<Scalar>& x0,
    const Vector3<Scalar>& x1, const Vector3<Scalar>& x2, const TriangleRestShape<Scalar>& rest,
    const AnisotropicStrainLimitParameters<Scalar>& parameters)
{
    const Matrix<Scalar, 3, 2> F
        = triangle_deformation_gradient(x0, x1, x2, rest.inverse_rest_matrix);
    return rest.area * parameters.thickness
        * pull_back_gradient(
            anisotropic_strain_limit_density_gradient(F, parameters), rest.inverse_rest_matrix);
}

/// Hessian of anisotropic_strain_limit_energy in [x0; x1; x2] (newtons per
/// metre, 9x9), projected to PSD in F-space when projection != none.
/// Validates likewise.
template <typename Scalar>
Matrix<Scalar, 9, 9> anisotropic_strain_limit_hessian(const Vector3<Scalar>& x0,
    const Vector3<Scalar>& x1, const Vector3<Scalar>& x2, const TriangleRestShape<Scalar>& rest,
    const AnisotropicStrainLimitParameters<Scalar>& parameters,
    PSDProjection projection = PSDProjection::none)
{
    const Matrix<Scalar, 3, 2> F
        = triangle_deformation_gradient(x0, x1, x2, rest.inverse_rest_matrix);
    return rest.area * parameters.thickness
        * pull_back_hessian(anisotropic_strain_limit_density_hessian(F, parameters, projection),
            rest.inverse_rest_matrix);
}

} // namespace ipc
