#pragma once
/// @file
/// Closed-form (non-iterative) singular value decomposition of a 3x2 matrix,
/// such as a triangle's deformation gradient, through the 2x2 symmetric
/// eigenproblem of F^T F.

#include <ipc/core/types.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ipc {

/// F = U diag(singular_values) V^T with orthonormal columns u1, u2 (3x2 U),
/// a rotation V (2x2, det V = +1), singular_values[0] >= singular_values[1]
/// >= 0, and `normal` completing (u1, u2, normal) to a right-handed
/// orthonormal basis of R^3.
template <typename Scalar> struct SingularValueDecomposition3x2 {
    /// Left singular vectors u1, u2 as orthonormal columns (3x2).
    Matrix<Scalar, 3, 2> U;
    /// Singular values, largest first, both >= 0.
    Vector2<Scalar> singular_values;
    /// Right singular vectors: a rotation (2x2, det +1).
    Matrix<Scalar, 2, 2> V;
    /// Unit vector u1 x u2, completing U to a right-handed basis.
    Vector3<Scalar> normal;
};

/// Largest singular value of a 3x2 matrix: sqrt of the largest eigenvalue of
/// F^T F, closed form (no square root of a cancelling difference). Does not
/// validate; NaN in F gives NaN.
template <typename Scalar> Scalar largest_singular_value(const Matrix<Scalar, 3, 2>& F)
{
    using std::sqrt;
    const Scalar a = F.col(0).squaredNorm();
    const Scalar c = F.col(1).squaredNorm();
    const Scalar b = F.col(0).dot(F.col(1));
    const Scalar half_difference = (a - c) / Scalar(2);
    return sqrt((a + c) / Scalar(2) + sqrt(half_difference * half_difference + b * b));
}

/// Closed-form SVD of a 3x2 matrix. Robust for repeated singular values
/// (any valid V is returned, here the identity when F^T F is a multiple of the
/// identity) and for rank-deficient F (U and normal are completed with an
/// arbitrary orthonormal choice). The smaller singular value is computed as
/// |f0 x f1| / sigma_1, accurate even for thin triangles. Does not validate.
template <typename Scalar>
SingularValueDecomposition3x2<Scalar> singular_value_decomposition_3x2(const Matrix<Scalar, 3, 2>& F)
{
    using std::abs;
    using std::sqrt;
    SingularValueDecomposition3x2<Scalar> svd;
    const Scalar a = F.col(0).squaredNorm();
    const Scalar c = F.col(1).squaredNorm();
    const Scalar b = F.col(0).dot(F.col(1));
    const Scalar half_difference = (a - c) / Scalar(2);
    const Scalar radius = sqrt(half_difference * half_difference + b * b);
    const Scalar sigma1 = sqrt((a + c) / Scalar(2) + radius);
    const Vector3<Scalar> cross = F.col(0).cross(F.col(1));
    const Scalar cross_norm = cross.norm();
    Scalar sigma2 = sigma1 > Scalar(0) ? cross_norm / sigma1 : Scalar(0);
    if (sigma2 > sigma1) {
        sigma2 = sigma1;
    }
    svd.singular_values << sigma1, sigma2;

    // Eigenvector of F^T F for its largest eigenvalue, from the row of
    // (F^T F - lambda_1 I) whose entries do not cancel.
    Vector2<Scalar> v1;
    if (half_difference >= Scalar(0)) {
        v1 << half_difference + radius, b;
    } else {
        v1 << b, radius - half_difference;
    }
    const Scalar v1_norm = v1.norm();
    if (v1_norm > Scalar(0)) {
        v1 /= v1_norm;
    } else {
        v1 << Scalar(1), Scalar(0);
    }
    svd.V << v1[0], -v1[1], v1[1], v1[0];

    Vector3<Scalar> u1 = F * v1;
    const Scalar u1_norm = u1.norm();
    if (u1_norm > Scalar(0)) {
        u1 /= u1_norm;
    } else {
        u1 << Scalar(1), Scalar(0), Scalar(0);
    }
    Vector3<Scalar> normal;
    if (cross_norm > std::numeric_limits<Scalar>::epsilon() * (a + c)) {
        // (F v1) x (F v2) = det(V) f0 x f1 = sigma1 sigma2 n, hence F v2 =
        // sigma2 (n x u1): u2 = n x u1 exactly, without dividing by sigma2.
        normal = cross / cross_norm;
        // Remove the round-off component along u1 (matters for thin F).
        normal -= normal.dot(u1) * u1;
        normal.normalize();
    } else {
        // Rank-deficient: any unit vector orthogonal to u1 will do.
        int axis = 0;
        for (int i = 1; i < 3; ++i) {
            if (abs(u1[i]) < abs(u1[axis])) {
                axis = i;
            }
        }
        Vector3<Scalar> helper = Vector3<Scalar>::Zero();
        helper[axis] = Scalar(1);
        normal = u1.cross(helper).normalized();
    }
    svd.U.col(0) = u1;
    svd.U.col(1) = normal.cross(u1);
    svd.normal = normal;
    return svd;
}

} // namespace ipc
