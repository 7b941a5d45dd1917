#pragma once
/// @file
/// Mollifier of tangential adhesion: the lagged tangential resistance of an
/// adhesive bond, which, unlike friction, breaks when the bond has slid far
/// enough. With the tangential slip y = |u| (m) over the step and the
/// threshold eps_a (m), t = y / eps_a:
///     f1(y) = 2 t - t^2                     t < 1   (rises to 1, as IPC's C1)
///     f1(y) = 1 - 3 r^2 + 2 r^3, r = t - 1  1 <= t < 2 (falls back to 0)
///     f1(y) = 0                             t >= 2  (the bond is broken)
/// so the tangential adhesion force lambda_a mu_a f1(y) peaks at y = eps_a
/// and vanishes by 2 eps_a; f1 is C1. Its antiderivative f0 (f0(0) = 0):
///     f0 = eps_a (t^2 - t^3 / 3)                           t < 1
///     f0 = eps_a (2 / 3 + r - r^3 + r^4 / 2)               1 <= t < 2
///     f0 = 7 eps_a / 6                                     t >= 2.
/// The policy has the interface of the friction mollifiers
/// (friction_mollifier.hpp), so FrictionPotential<TangentialAdhesionMollifier>
/// evaluates tangential adhesion on a lagged contact set; f1' is negative on
/// [eps_a, 2 eps_a), so the Hessian there needs a PSD projection. Raw kernels:
/// y >= 0 and eps > 0 are assumed.

namespace ipc {

/// The tangential adhesion mollifier (file comment).
struct TangentialAdhesionMollifier {
    /// Potential factor f0(y) (m).
    template <typename Scalar> static Scalar f0(const Scalar& y, const Scalar& eps)
    {
        const Scalar t = y / eps;
        if (t < Scalar(1)) {
            return eps * t * t * (Scalar(1) - t / Scalar(3));
        }
        if (t < Scalar(2)) {
            const Scalar r = t - Scalar(1);
            return eps
                * (Scalar(2) / Scalar(3) + r * (Scalar(1) - r * r * (Scalar(1) - r / Scalar(2))));
        }
        return Scalar(7) * eps / Scalar(6);
    }

    /// Force factor f1(y) = f0'(y) in [0, 1] (dimensionless).
    template <typename Scalar> static Scalar f1(const Scalar& y, const Scalar& eps)
    {
        const Scalar t = y / eps;
        if (t < Scalar(1)) {
            return t * (Scalar(2) - t);
        }
        if (t < Scalar(2)) {
            const Scalar r = t - Scalar(1);
            return Scalar(1) + r * r * (Scalar(2) * r - Scalar(3));
        }
        return Scalar(0);
    }

    /// f1'(y) (1/m); negative on [eps, 2 eps).
    template <typename Scalar> static Scalar f1_derivative(const Scalar& y, const Scalar& eps)
    {
        const Scalar t = y / eps;
        if (t < Scalar(1)) {
            return Scalar(2) * (Scalar(1) - t) / eps;
        }
        if (t < Scalar(2)) {
            const Scalar r = t - Scalar(1);
            return Scalar(6) * r * (r - Scalar(1)) / eps;
        }
        return Scalar(0);
    }

    /// f1(y) / y (1/m), division-free below eps and finite at y = 0.
    template <typename Scalar> static Scalar f1_over_y(const Scalar& y, const Scalar& eps)
    {
        if (y < eps) {
            return (Scalar(2) - y / eps) / eps;
        }
        return f1(y, eps) / y;
    }

    /// d(f1(y) / y) / dy (1/m^2), division-free below eps.
    template <typename Scalar>
    static Scalar f1_over_y_derivative(const Scalar& y, const Scalar& eps)
    {
        if (y < eps) {
            return Scalar(-1) / (eps * eps);
        }
        return (f1_derivative(y, eps) * y - f1(y, eps)) / (y * y);
    }
};

} // namespace ipc
