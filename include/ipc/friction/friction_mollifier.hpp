#pragma once
/// @file
/// Smoothed static friction (IPC section 5.3). The Coulomb magnitude factor
/// f(y) in [0, 1] of the tangential slip y = |u| (m) is replaced by a smooth
/// f1 that rises from 0 at y = 0 to 1 at y = eps and stays 1 beyond, with
/// eps = eps_v * h (the velocity threshold eps_v in m/s times the time step h
/// in s; a displacement in metres). f0 is its antiderivative with
/// f0(eps) = eps, the per-contact dissipative potential is mu * lambda * f0(y).
///
/// Each shape is a policy with the same static functions:
///     f0(y, eps)                   potential factor (m)
///     f1(y, eps)                   force factor f0' (dimensionless)
///     f1_derivative(y, eps)        f1' (1/m), >= 0 for every shape here
///     f1_over_y(y, eps)            f1(y) / y (1/m), finite at y = 0
///     f1_over_y_derivative(y, eps) d(f1(y)/y)/dy (1/m^2), finite at y = 0
/// All are written without division by y below eps, so nothing divides by
/// zero at zero slip. Raw kernels: y >= 0 and eps > 0 are assumed, not checked.

namespace ipc {

/// The C1 mollifier of IPC (the paper's choice):
/// f1(y) = 2 y / eps - y^2 / eps^2 for y < eps, 1 beyond.
struct C1FrictionMollifier {
    /// Potential factor f0(y) (m): y for y >= eps, smooth below with f0(eps) = eps.
    template <typename Scalar> static Scalar f0(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return y;
        }
        const Scalar t = y / eps;
        // eps (t^2 - t^3 / 3 + 1 / 3)
        return eps * (t * t * (Scalar(1) - t / Scalar(3)) + Scalar(1) / Scalar(3));
    }

    /// Force factor f1(y) = f0'(y) in [0, 1] (dimensionless).
    template <typename Scalar> static Scalar f1(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(1);
        }
        const Scalar t = y / eps;
        return t * (Scalar(2) - t);
    }

    /// f1'(y) (1/m), >= 0; 0 for y >= eps.
    template <typename Scalar> static Scalar f1_derivative(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(0);
        }
        return Scalar(2) * (eps - y) / (eps * eps);
    }

    /// f1(y) / y (1/m), division-free below eps and finite at y = 0.
    template <typename Scalar> static Scalar f1_over_y(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(1) / y;
        }
        return (Scalar(2) * eps - y) / (eps * eps);
    }

    /// d(f1(y) / y) / dy (1/m^2), division-free below eps and finite at y = 0.
    template <typename Scalar>
    static Scalar f1_over_y_derivative(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(-1) / (y * y);
        }
        return Scalar(-1) / (eps * eps);
    }
};

/// A C2 mollifier: f1(y) = 1 - (1 - y / eps)^3 for y < eps, 1 beyond. f1' and
/// f1'' both vanish at eps, so the friction Hessian is itself continuous and
/// differentiable there; f1 rises more steeply at zero slip than the C1 shape
/// (f1'(0) = 3 / eps against 2 / eps).
struct C2FrictionMollifier {
    /// Potential factor f0(y) (m): y for y >= eps, smooth below with f0(eps) = eps.
    template <typename Scalar> static Scalar f0(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return y;
        }
        const Scalar t = y / eps;
        // eps (t^4 / 4 - t^3 + 3 t^2 / 2 + 1 / 4)
        return eps
            * (t * t * (t * (t / Scalar(4) - Scalar(1)) + Scalar(3) / Scalar(2))
                + Scalar(1) / Scalar(4));
    }

    /// Force factor f1(y) = f0'(y) in [0, 1] (dimensionless).
    template <typename Scalar> static Scalar f1(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(1);
        }
        const Scalar t = y / eps;
        return t * (Scalar(3) + t * (t - Scalar(3)));
    }

    /// f1'(y) (1/m), >= 0; 0 for y >= eps.
    template <typename Scalar> static Scalar f1_derivative(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(0);
        }
        const Scalar s = Scalar(1) - y / eps;
        return Scalar(3) * s * s / eps;
    }

    /// f1(y) / y (1/m), division-free below eps and finite at y = 0.
    template <typename Scalar> static Scalar f1_over_y(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(1) / y;
        }
        const Scalar t = y / eps;
        return (Scalar(3) + t * (t - Scalar(3))) / eps;
    }

    /// d(f1(y) / y) / dy (1/m^2), division-free below eps and finite at y = 0.
    template <typename Scalar>
    static Scalar f1_over_y_derivative(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(-1) / (y * y);
        }
        const Scalar t = y / eps;
        return (Scalar(2) * t - Scalar(3)) / (eps * eps);
    }
};

/// The C0 (linear) mollifier: f1(y) = y / eps for y < eps, 1 beyond. The
/// force is continuous but its Jacobian jumps at eps.
struct C0FrictionMollifier {
    /// Potential factor f0(y) (m): y for y >= eps, smooth below with f0(eps) = eps.
    template <typename Scalar> static Scalar f0(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return y;
        }
        return (y * y / eps + eps) / Scalar(2);
    }

    /// Force factor f1(y) = f0'(y) in [0, 1] (dimensionless).
    template <typename Scalar> static Scalar f1(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(1);
        }
        return y / eps;
    }

    /// f1'(y) (1/m), >= 0; 0 for y >= eps.
    template <typename Scalar> static Scalar f1_derivative(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(0);
        }
        return Scalar(1) / eps;
    }

    /// f1(y) / y (1/m), division-free below eps and finite at y = 0.
    template <typename Scalar> static Scalar f1_over_y(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(1) / y;
        }
        return Scalar(1) / eps;
    }

    /// d(f1(y) / y) / dy (1/m^2), division-free below eps and finite at y = 0.
    template <typename Scalar>
    static Scalar f1_over_y_derivative(const Scalar& y, const Scalar& eps)
    {
        if (y >= eps) {
            return Scalar(-1) / (y * y);
        }
        return Scalar(0);
    }
};

} // namespace ipc
