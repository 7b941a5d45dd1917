#pragma once
/// @file
/// Small scalar helpers that also work for user scalar types (autodiff,
/// intervals) found by argument-dependent lookup.

#include <Eigen/Core>

#include <cmath>

namespace ipc {

/// x * x.
template <typename Scalar> constexpr Scalar square(const Scalar& x) { return x * x; }

/// True when every coefficient of an Eigen expression is finite. For user
/// scalar types without std::isfinite this reads their value through
/// static_cast<double> where available.
template <typename Derived> bool all_finite(const Derived& m)
{
    using std::isfinite;
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        if (!isfinite(m.data()[i])) {
            return false;
        }
    }
    return true;
}

namespace detail {
    /// Copies the lower triangle of a square matrix onto its upper triangle,
    /// so that a Hessian is exactly symmetric despite rounding.
    template <typename Derived> inline void mirror_lower_to_upper(Eigen::MatrixBase<Derived>& H)
    {
        for (Eigen::Index j = 1; j < H.cols(); ++j) {
            for (Eigen::Index i = 0; i < j; ++i) {
                H(i, j) = H(j, i);
            }
        }
    }
} // namespace detail

} // namespace ipc
