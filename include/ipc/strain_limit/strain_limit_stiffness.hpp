#pragma once
/// @file
/// Adaptation of the strain-limit stiffness kappa_s, following C-IPC
/// Section 4.1: start at 1 kPa; double kappa_s whenever a triangle's strain
/// gap s - sigma_1 is below 1e-4 (s - s_hat) on two consecutive Newton
/// iterations; never exceed 0.1 MPa.
///
/// The paper's sentence ("the strain gap of a triangle t is less than
/// 1e-4 (s - s_hat) over two consecutive iterations") is read here as: the
/// same triangle is that close in both iterations. Only sigma_1 matters, as
/// sigma_1 >= sigma_2.

#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <cmath>
#include <cstddef>
#include <vector>

namespace ipc {

/// True when a triangle with largest singular value `largest_singular_value`
/// is within `relative_gap` (limit - threshold) of the limit:
/// limit - sigma_1 < relative_gap * (limit - threshold). Pure; does not
/// validate.
template <typename Scalar>
bool is_near_strain_limit(const Scalar& largest_singular_value, const Scalar& limit,
    const Scalar& threshold, const Scalar& relative_gap = Scalar(1e-4))
{
    return limit - largest_singular_value < relative_gap * (limit - threshold);
}

/// Stateful kappa_s controller (pascals). Call update() once per Newton
/// iteration with every triangle's largest singular value, always in the
/// same triangle order.
template <typename Scalar = double> class StrainLimitStiffness {
public:
    /// initial and maximum stiffness in pascals (C-IPC: 1 kPa and 0.1 MPa);
    /// relative_gap is the 1e-4 of the rule. Throws ipc::invalid_argument
    /// unless 0 < initial <= maximum and relative_gap > 0, all finite.
    explicit StrainLimitStiffness(Scalar initial = Scalar(1e3), Scalar maximum = Scalar(1e5),
        Scalar relative_gap = Scalar(1e-4))
        : stiffness_(initial)
        , maximum_(maximum)
        , relative_gap_(relative_gap)
    {
        using std::isfinite;
        require(isfinite(initial) && isfinite(maximum) && initial > Scalar(0)
                && initial <= maximum,
            "StrainLimitStiffness: need 0 < initial <= maximum stiffness, got initial = ",
            initial, ", maximum = ", maximum);
        require(isfinite(relative_gap) && relative_gap > Scalar(0),
            "StrainLimitStiffness: relative gap must be positive, got ", relative_gap);
    }

    /// Current kappa_s (pascals).
    Scalar stiffness() const { return stiffness_; }

    /// Largest allowed kappa_s (pascals).
    Scalar maximum() const { return maximum_; }

    /// Records one Newton iteration. largest_singular_values[t] is sigma_1 of
    /// triangle t; limit s and threshold s_hat as in StrainLimitParameters.
    /// Doubles the stiffness (capped at the maximum) when some triangle was
    /// near the limit in this and the previous iteration; returns true when
    /// the stiffness changed. Throws ipc::invalid_argument on bad bounds, a
    /// NaN singular value, or a triangle count differing from the previous
    /// call (call forget_history() when the mesh changes).
    template <typename Derived>
    bool update(const Eigen::MatrixBase<Derived>& largest_singular_values, const Scalar& limit,
        const Scalar& threshold)
    {
        using std::isfinite;
        require(isfinite(limit) && isfinite(threshold) && threshold < limit,
            "StrainLimitStiffness::update: need threshold < limit, got threshold = ", threshold,
            ", limit = ", limit);
        const auto count = static_cast<std::size_t>(largest_singular_values.size());
        require(near_previous_.empty() || near_previous_.size() == count,
            "StrainLimitStiffness::update: got ", count, " triangles, the previous iteration had ",
            near_previous_.size());
        if (near_previous_.empty()) {
            near_previous_.assign(count, 0);
        }
        bool twice = false;
        for (std::size_t t = 0; t < count; ++t) {
            const Scalar sigma = largest_singular_values[Eigen::Index(t)];
            require(!(sigma != sigma), "StrainLimitStiffness::update: singular value of triangle ",
                t, " is NaN");
            const bool near = is_near_strain_limit(sigma, limit, threshold, relative_gap_);
            twice = twice || (near && near_previous_[t] != 0);
            near_previous_[t] = near ? 1 : 0;
        }
        if (twice && stiffness_ < maximum_) {
            stiffness_ = Scalar(2) * stiffness_ < maximum_ ? Scalar(2) * stiffness_ : maximum_;
            return true;
        }
        return false;
    }

    /// Forgets which triangles were near the limit (keeps the stiffness).
    void forget_history() { near_previous_.clear(); }

private:
    Scalar stiffness_;
    Scalar maximum_;
    Scalar relative_gap_;
    std::vector<unsigned char> near_previous_;
};

} // namespace ipc
