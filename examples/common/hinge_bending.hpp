#pragma once
/// @file
/// Discrete-shell hinge bending (Grinspun et al. 2003, stiffness after
/// Tamstorf and Grinspun 2013): the dihedral angle of two triangles sharing an
/// edge, its gradient and Hessian, and the bending energy
///   E = k (theta - theta_rest)^2 |e_rest| / h_rest,
///   k = Y t^3 / (24 (1 - nu^2)),
/// with t the material thickness and h_rest a third of the mean of the two
/// rest triangle heights over the hinge edge.
///
/// Vertex order of a hinge: x0, x1 the shared edge; x2 the third vertex of the
/// triangle (x0, x1, x2); x3 the third vertex of the triangle (x1, x0, x3).
/// For a consistently oriented mesh both triangles keep their orientation.

#include "small_matrix.hpp"

#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/types.hpp>

#include <array>
#include <cmath>

namespace ipc::examples {

/// Signed dihedral angle (radians, in (-pi, pi]) of a hinge, 0 when flat.
template <typename Scalar> Scalar dihedral_angle(const Vector<Scalar, 12>& x)
{
    using std::atan2;
    const Vector3<Scalar> e = x.template segment<3>(3) - x.template segment<3>(0);
    const Vector3<Scalar> a = x.template segment<3>(6) - x.template segment<3>(0);
    const Vector3<Scalar> b = x.template segment<3>(9) - x.template segment<3>(0);
    const Vector3<Scalar> nA = e.cross(a), nB = b.cross(e);
    return atan2(nA.cross(nB).dot(e), nA.dot(nB) * e.norm());
}

namespace detail {
    /// True when the hinge edge has zero length or a triangle has (relatively)
    /// zero area, where the angle has no derivative.
    template <typename Scalar> bool hinge_degenerate(const Vector<Scalar, 12>& x)
    {
        const Vector3<Scalar> e = x.template segment<3>(3) - x.template segment<3>(0);
        const Scalar L2 = e.squaredNorm();
        const Scalar a = e.cross(x.template segment<3>(6) - x.template segment<3>(0)).squaredNorm();
        const Scalar b = e.cross(x.template segment<3>(9) - x.template segment<3>(0)).squaredNorm();
        const Scalar tiny = Scalar(1e-24) * L2 * L2;
        return !(L2 > Scalar(0)) || !(a > tiny) || !(b > tiny);
    }

    /// Derivatives of the dihedral angle. Writes gradient (12) and, when
    /// hessian is non-null, the Hessian (12x12); returns the angle.
    template <typename Scalar>
    Scalar dihedral_angle_derivatives(
        const Vector<Scalar, 12>& x, Vector<Scalar, 12>& gradient, Matrix<Scalar, 12>* hessian)
    {
        using std::atan2;
        using std::sqrt;
        const Vector3<Scalar> e = x.template segment<3>(3) - x.template segment<3>(0);
        const Vector3<Scalar> a = x.template segment<3>(6) - x.template segment<3>(0);
        const Vector3<Scalar> b = x.template segment<3>(9) - x.template segment<3>(0);
        const Vector3<Scalar> nA = e.cross(a), nB = b.cross(e);
        const Scalar L = e.norm();
        const Vector3<Scalar> eh = e / L;
        const Scalar Y = nA.cross(nB).dot(e);
        const Scalar dotAB = nA.dot(nB);
        const Scalar X = dotAB * L;
        const Scalar R = X * X + Y * Y;

        // Intermediate variables u = (nA, nB, e).
        Vector<Scalar, 9> Yu, Xu;
        Yu << nB.cross(e), e.cross(nA), nA.cross(nB);
        Xu << L * nB, L * nA, dotAB * eh;
        const Vector<Scalar, 9> N = X * Yu - Y * Xu;
        const Vector<Scalar, 9> theta_u = N / R;
        const Vector3<Scalar> gA = theta_u.template segment<3>(0);
        const Vector3<Scalar> gB = theta_u.template segment<3>(3);
        const Vector3<Scalar> ge = theta_u.template segment<3>(6);

        // gradient = J^T theta_u with J = du/dx (below), written out per
        // vertex: [v]x^T w = w x v.
        gradient.template segment<3>(0) = gA.cross(a - e) + gB.cross(e - b) - ge;
        gradient.template segment<3>(3) = gB.cross(b) - gA.cross(a) + ge;
        gradient.template segment<3>(6) = gA.cross(e);
        gradient.template segment<3>(9) = e.cross(gB);
        const Scalar angle = atan2(Y, X);
        if (hessian == nullptr) {
            return angle;
        }

        // Jacobian of u with respect to x (9 x 12).
        const Matrix<Scalar, 3> I = Matrix<Scalar, 3>::Identity();
        const Matrix<Scalar, 3> Ha = cross_matrix(a), He = cross_matrix(e), Hb = cross_matrix(b);
        Matrix<Scalar, 9, 12> J = Matrix<Scalar, 9, 12>::Zero();
        J.template block<3, 3>(0, 0) = Ha - He;
        J.template block<3, 3>(0, 3) = -Ha;
        J.template block<3, 3>(0, 6) = He;
        J.template block<3, 3>(3, 0) = He - Hb;
        J.template block<3, 3>(3, 3) = Hb;
        J.template block<3, 3>(3, 9) = -He;
        J.template block<3, 3>(6, 0) = -I;
        J.template block<3, 3>(6, 3) = I;

        Matrix<Scalar, 9> Yuu = Matrix<Scalar, 9>::Zero(), Xuu = Matrix<Scalar, 9>::Zero();
        // Y = nA . (nB x e): mixed blocks only.
        Yuu.template block<3, 3>(0, 3) = -cross_matrix(e);
        Yuu.template block<3, 3>(6, 0) = -cross_matrix(nB);
        Yuu.template block<3, 3>(3, 6) = -cross_matrix(nA);
        Yuu.template block<3, 3>(3, 0) = Yuu.template block<3, 3>(0, 3).transpose();
        Yuu.template block<3, 3>(0, 6) = Yuu.template block<3, 3>(6, 0).transpose();
        Yuu.template block<3, 3>(6, 3) = Yuu.template block<3, 3>(3, 6).transpose();
        // X = (nA . nB) |e|.
        Xuu.template block<3, 3>(0, 3) = L * I;
        Xuu.template block<3, 3>(3, 0) = L * I;
        Xuu.template block<3, 3>(0, 6) = nB * eh.transpose();
        Xuu.template block<3, 3>(6, 0) = eh * nB.transpose();
        Xuu.template block<3, 3>(3, 6) = nA * eh.transpose();
        Xuu.template block<3, 3>(6, 3) = eh * nA.transpose();
        Xuu.template block<3, 3>(6, 6) = dotAB / L * (I - eh * eh.transpose());

        const Matrix<Scalar, 9> Nu
            = Yu * Xu.transpose() - Xu * Yu.transpose() + X * Yuu - Y * Xuu;
        const Vector<Scalar, 9> Ru = Scalar(2) * (X * Xu + Y * Yu);
        Matrix<Scalar, 9> theta_uu = Nu / R - N * Ru.transpose() / (R * R);
        theta_uu = ((theta_uu + theta_uu.transpose()) / Scalar(2)).eval();

        Matrix<Scalar, 12> H = J.transpose() * theta_uu * J;
        // Second derivatives of nA = e x a and nB = b x e, weighted by dtheta/du.
        const std::array<Scalar, 4> ce { Scalar(-1), Scalar(1), Scalar(0), Scalar(0) };
        const std::array<Scalar, 4> ca { Scalar(-1), Scalar(0), Scalar(1), Scalar(0) };
        const std::array<Scalar, 4> cb { Scalar(-1), Scalar(0), Scalar(0), Scalar(1) };
        add_bilinear_hessian<Scalar, 4>(H, ce, ca, Matrix<Scalar, 3>(-cross_matrix(gA)));
        add_bilinear_hessian<Scalar, 4>(H, cb, ce, Matrix<Scalar, 3>(-cross_matrix(gB)));
        *hessian = H;
        return angle;
    }
} // namespace detail

/// Gradient of dihedral_angle with respect to the 12 coordinates (1/m).
/// Undefined for a degenerate hinge (zero-area triangle).
template <typename Scalar> Vector<Scalar, 12> dihedral_angle_gradient(const Vector<Scalar, 12>& x)
{
    Vector<Scalar, 12> g;
    detail::dihedral_angle_derivatives<Scalar>(x, g, nullptr);
    return g;
}

/// Hessian of dihedral_angle (1/m^2), not projected.
template <typename Scalar> Matrix<Scalar, 12> dihedral_angle_hessian(const Vector<Scalar, 12>& x)
{
    Vector<Scalar, 12> g;
    Matrix<Scalar, 12> H;
    detail::dihedral_angle_derivatives<Scalar>(x, g, &H);
    return H;
}

/// Rest data of one hinge: rest angle (rad) and the weight
/// k |e_rest| / h_rest (J/rad^2) that multiplies (theta - theta_rest)^2.
template <typename Scalar> struct HingeRest {
    Scalar rest_angle;
    Scalar weight;
};

/// Bending stiffness k = Y t^3 / (24 (1 - nu^2)) (J) from Young's modulus Y
/// (Pa), Poisson ratio nu and material thickness t (m).
template <typename Scalar> Scalar hinge_stiffness(Scalar young, Scalar nu, Scalar thickness)
{
    return young * thickness * thickness * thickness / (Scalar(24) * (Scalar(1) - nu * nu));
}

/// Rest data from the rest positions of a hinge (same vertex order) and the
/// stiffness k (J). Throws ipc::degenerate_geometry for a zero-area triangle.
template <typename Scalar>
HingeRest<Scalar> hinge_rest(const Vector<Scalar, 12>& X, Scalar stiffness)
{
    const Vector3<Scalar> e = X.template segment<3>(3) - X.template segment<3>(0);
    const Scalar areaA = e.cross(X.template segment<3>(6) - X.template segment<3>(0)).norm() / 2;
    const Scalar areaB = e.cross(X.template segment<3>(9) - X.template segment<3>(0)).norm() / 2;
    const Scalar L = e.norm();
    require<degenerate_geometry>(
        L > Scalar(0) && areaA > Scalar(0) && areaB > Scalar(0), "hinge has a zero-area triangle");
    // Heights over the edge are 2 A / L; h_rest is a third of their mean.
    const Scalar h = (Scalar(2) * areaA / L + Scalar(2) * areaB / L) / Scalar(6);
    return { dihedral_angle(X), stiffness * L / h };
}

/// Bending energy (J) of one hinge. No validation (hot kernel).
template <typename Scalar> Scalar hinge_energy(const Vector<Scalar, 12>& x, const HingeRest<Scalar>& rest)
{
    const Scalar d = dihedral_angle(x) - rest.rest_angle;
    return rest.weight * d * d;
}

/// Gradient of hinge_energy (N per coordinate); zero for a degenerate hinge.
template <typename Scalar>
Vector<Scalar, 12> hinge_energy_gradient(const Vector<Scalar, 12>& x, const HingeRest<Scalar>& rest)
{
    if (detail::hinge_degenerate(x)) {
        return Vector<Scalar, 12>::Zero();
    }
    Vector<Scalar, 12> g;
    const Scalar d = detail::dihedral_angle_derivatives<Scalar>(x, g, nullptr) - rest.rest_angle;
    return Scalar(2) * rest.weight * d * g;
}

/// Hessian of hinge_energy (N/m), projected to PSD by projection; zero for a
/// degenerate hinge.
template <typename Scalar>
Matrix<Scalar, 12> hinge_energy_hessian(
    const Vector<Scalar, 12>& x, const HingeRest<Scalar>& rest,
    PSDProjection projection = PSDProjection::clamp)
{
    if (detail::hinge_degenerate(x)) {
        return Matrix<Scalar, 12>::Zero();
    }
    Vector<Scalar, 12> g;
    Matrix<Scalar, 12> H;
    const Scalar d = detail::dihedral_angle_derivatives<Scalar>(x, g, &H) - rest.rest_angle;
    // The dihedral angle is invariant to translations: project in the
    // 9-dimensional translation-free subspace.
    return project_translation_invariant_to_psd<4>(
        (Scalar(2) * rest.weight * (g * g.transpose() + d * H)).eval(), projection);
}

} // namespace ipc::examples
