#pragma once
/// @file
/// Discrete elastic rods without twist (Bergou et al. 2008, bending modulus
/// from Kirchhoff theory as in C-IPC): stretching of one segment and bending
/// at one interior vertex, value, gradient and Hessian.
///
/// Stretch of a segment (x0, x1) with rest length L:
///   E = k_s/2 L (|x1 - x0|/L - 1)^2,       k_s = Y pi r^2 (N).
/// Bending at vertex x1 of (x0, x1, x2) with rest lengths L0, L1:
///   kb = 2 e0 x e1 / (L0 L1 + e0 . e1)    (curvature binormal, |kb| = 2 tan(phi/2)),
///   E = alpha |kb|^2 / (L0 + L1),          alpha = Y pi r^4 / 4 (N m^2).
/// The rest shape of the bending term is straight.

#include "small_matrix.hpp"

#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace ipc::examples {

/// Rest data of one rod segment: rest length (m) and stretching stiffness
/// k_s = Y pi r^2 (N).
template <typename Scalar> struct RodSegmentRest {
    Scalar length;
    Scalar stiffness;
};

/// Rest data of one rod joint: rest lengths of its two segments (m) and the
/// bending modulus alpha = Y pi r^4 / 4 (N m^2).
template <typename Scalar> struct RodJointRest {
    Scalar length0;
    Scalar length1;
    Scalar modulus;
};

/// Stretching energy (J) of a segment; x = (x0, x1) in metres.
template <typename Scalar>
Scalar rod_stretch_energy(const Vector<Scalar, 6>& x, const RodSegmentRest<Scalar>& rest)
{
    const Scalar strain = (x.template tail<3>() - x.template head<3>()).norm() / rest.length - Scalar(1);
    return rest.stiffness / 2 * rest.length * strain * strain;
}

/// Gradient of rod_stretch_energy (N per coordinate); zero for a collapsed segment.
template <typename Scalar>
Vector<Scalar, 6> rod_stretch_gradient(const Vector<Scalar, 6>& x, const RodSegmentRest<Scalar>& rest)
{
    const Vector3<Scalar> e = x.template tail<3>() - x.template head<3>();
    const Scalar l = e.norm();
    Vector<Scalar, 6> g = Vector<Scalar, 6>::Zero();
    if (!(l > Scalar(0))) {
        return g;
    }
    const Vector3<Scalar> f = rest.stiffness * (l / rest.length - Scalar(1)) * e / l;
    g << -f, f;
    return g;
}

/// Hessian of rod_stretch_energy (N/m). With a projection other than none the
/// negative transverse part of a compressed segment is clamped to zero.
template <typename Scalar>
Matrix<Scalar, 6> rod_stretch_hessian(
    const Vector<Scalar, 6>& x, const RodSegmentRest<Scalar>& rest,
    PSDProjection projection = PSDProjection::clamp)
{
    const Vector3<Scalar> e = x.template tail<3>() - x.template head<3>();
    const Scalar l = e.norm();
    Matrix<Scalar, 6> H = Matrix<Scalar, 6>::Zero();
    if (!(l > Scalar(0))) {
        return H;
    }
    const Vector3<Scalar> n = e / l;
    Scalar transverse = Scalar(1) - rest.length / l;
    if (projection == PSDProjection::clamp) {
        transverse = std::max(transverse, Scalar(0));
    } else if (projection == PSDProjection::abs) {
        transverse = transverse < Scalar(0) ? -transverse : transverse;
    }
    const Matrix<Scalar, 3> K = rest.stiffness / rest.length
        * (n * n.transpose() + transverse * (Matrix<Scalar, 3>::Identity() - n * n.transpose()));
    H << K, -K, -K, K;
    return H;
}

namespace detail {
    /// f = |e0 x e1|^2 / d^2 with d = L0 L1 + e0 . e1, and its derivatives with
    /// respect to the vertices (x0, x1, x2).
    template <typename Scalar>
    Scalar rod_bend_ratio(
        const Vector<Scalar, 9>& x, const RodJointRest<Scalar>& rest, Vector<Scalar, 9>* gradient,
        Matrix<Scalar, 9>* hessian)
    {
        const Vector3<Scalar> e0 = x.template segment<3>(3) - x.template segment<3>(0);
        const Vector3<Scalar> e1 = x.template segment<3>(6) - x.template segment<3>(3);
        const Vector3<Scalar> c = e0.cross(e1);
        const Scalar g = c.squaredNorm();
        const Scalar d = rest.length0 * rest.length1 + e0.dot(e1);
        const Scalar f = g / (d * d);
        if (gradient == nullptr) {
            return f;
        }
        // Derivatives with respect to u = (e0, e1).
        Vector<Scalar, 6> gu, du;
        gu << Scalar(2) * e1.cross(c), Scalar(2) * c.cross(e0);
        du << e1, e0;
        const Vector<Scalar, 6> fu = gu / (d * d) - Scalar(2) * g * du / (d * d * d);
        Matrix<Scalar, 9, 6> A = Matrix<Scalar, 9, 6>::Zero(); // dx-to-du transpose
        const Matrix<Scalar, 3> I = Matrix<Scalar, 3>::Identity();
        A.template block<3, 3>(0, 0) = -I;
        A.template block<3, 3>(3, 0) = I;
        A.template block<3, 3>(3, 3) = -I;
        A.template block<3, 3>(6, 3) = I;
        *gradient = A * fu;
        if (hessian == nullptr) {
            return f;
        }
        Matrix<Scalar, 3, 6> Jc;
        Jc << -cross_matrix(e1), cross_matrix(e0);
        Matrix<Scalar, 6> guu = Scalar(2) * Jc.transpose() * Jc;
        guu.template block<3, 3>(0, 3) -= Scalar(2) * cross_matrix(c);
        guu.template block<3, 3>(3, 0) += Scalar(2) * cross_matrix(c);
        Matrix<Scalar, 6> duu = Matrix<Scalar, 6>::Zero();
        duu.template block<3, 3>(0, 3) = I;
        duu.template block<3, 3>(3, 0) = I;
        const Scalar d2 = d * d, d3 = d2 * d, d4 = d2 * d2;
        const Matrix<Scalar, 6> fuu = guu / d2
            - Scalar(2) * (gu * du.transpose() + du * gu.transpose()) / d3 - Scalar(2) * g * duu / d3
            + Scalar(6) * g * du * du.transpose() / d4;
        *hessian = A * fuu * A.transpose();
        return f;
    }
} // namespace detail

/// Bending energy (J) at the middle vertex of x = (x0, x1, x2). Undefined
/// when the two segments fold back onto each other (e0 . e1 = -L0 L1).
template <typename Scalar>
Scalar rod_bending_energy(const Vector<Scalar, 9>& x, const RodJointRest<Scalar>& rest)
{
    const Scalar w = Scalar(4) * rest.modulus / (rest.length0 + rest.length1);
    return w * detail::rod_bend_ratio<Scalar>(x, rest, nullptr, nullptr);
}

/// Gradient of rod_bending_energy (N per coordinate).
template <typename Scalar>
Vector<Scalar, 9> rod_bending_gradient(const Vector<Scalar, 9>& x, const RodJointRest<Scalar>& rest)
{
    const Scalar w = Scalar(4) * rest.modulus / (rest.length0 + rest.length1);
    Vector<Scalar, 9> g;
    detail::rod_bend_ratio<Scalar>(x, rest, &g, nullptr);
    return w * g;
}

/// Hessian of rod_bending_energy (N/m), projected to PSD by projection.
template <typename Scalar>
Matrix<Scalar, 9> rod_bending_hessian(
    const Vector<Scalar, 9>& x, const RodJointRest<Scalar>& rest,
    PSDProjection projection = PSDProjection::clamp)
{
    const Scalar w = Scalar(4) * rest.modulus / (rest.length0 + rest.length1);
    Vector<Scalar, 9> g;
    Matrix<Scalar, 9> H;
    detail::rod_bend_ratio<Scalar>(x, rest, &g, &H);
    return project_to_psd((w * H).eval(), projection);
}

} // namespace ipc::examples
