#pragma once
/// @file
/// Per-vertex friction coefficients and how a contact's coefficient is
/// blended from them.
///
/// Rule. A frictional contact relates two sides: the point of a point-point,
/// point-edge or point-triangle contact against the other primitive, or edge
/// a against edge b. Each side's coefficient is the closest-point
/// (barycentric) average of its vertices' coefficients, using the contact's
/// relative-displacement weights (the first side's weights are the positive
/// barycentric coordinates, the second side's the negated ones; they are
/// clamped at 0 and renormalised, which only removes round-off inside the
/// contact's region). The two sides are then combined by a FrictionBlend:
///  - geometric_mean (the default): sqrt(mu_1 mu_2). A material against
///    itself keeps its coefficient, and a frictionless side (mu = 0, e.g. an
///    ice or PTFE coating) makes the pair frictionless whatever the other
///    side is, which matches the usual tabulated behaviour better than the
///    mean; it is symmetric, and monotone in each side, so per-vertex static
///    coefficients that are >= the kinetic ones give pairs with mu_s >= mu_k.
///  - mean: (mu_1 + mu_2) / 2, smooth in both sides, never zero unless both
///    sides are.
///  - min, max: the weaker or stronger side.
/// Every rule gives mu when both sides are mu, so a uniform per-vertex vector
/// reproduces the scalar coefficient.

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Core>

#include <array>
#include <cmath>

namespace ipc {

/// How the two sides' coefficients of a contact are combined (file comment).
enum class FrictionBlend {
    geometric_mean, ///< sqrt(mu_1 mu_2) (the default)
    mean,           ///< (mu_1 + mu_2) / 2
    min,            ///< min(mu_1, mu_2)
    max,            ///< max(mu_1, mu_2)
};

/// Combines the two sides' coefficients mu_1, mu_2 >= 0 (dimensionless) by
/// `blend`. Raw kernel: the inputs are not validated.
template <typename Scalar>
Scalar blend_friction_coefficients(const Scalar& mu_1, const Scalar& mu_2, FrictionBlend blend)
{
    using std::sqrt;
    switch (blend) {
    case FrictionBlend::mean: return (mu_1 + mu_2) / Scalar(2);
    case FrictionBlend::min: return mu_1 < mu_2 ? mu_1 : mu_2;
    case FrictionBlend::max: return mu_1 < mu_2 ? mu_2 : mu_1;
    case FrictionBlend::geometric_mean:
    default:
        // Equal sides return their value exactly (sqrt(mu^2) may round).
        return mu_1 == mu_2 ? mu_1 : Scalar(sqrt(mu_1 * mu_2));
    }
}

/// Throws ipc::invalid_argument, naming `function` and `argument`, unless
/// per_vertex has num_vertices entries, all finite and >= 0.
inline void check_per_vertex_friction(const Eigen::Ref<const Eigen::VectorXd>& per_vertex,
    Index num_vertices, const char* function, const char* argument)
{
    require(per_vertex.size() == num_vertices, function, ": ", argument,
        " must have one entry per mesh vertex (", num_vertices, "), got ", per_vertex.size());
    for (Eigen::Index i = 0; i < per_vertex.size(); ++i) {
        require(std::isfinite(per_vertex(i)) && per_vertex(i) >= 0, function, ": ", argument,
            "[", i, "] = ", per_vertex(i), " must be finite and non-negative");
    }
}

/// The blended coefficient of one contact (file comment): `vertices` and
/// `weights` (VertexCount entries) are the contact's stencil vertices and
/// relative-displacement weights, the first `first_side_count` of them (1 for point contacts, 2
/// for edge-edge) form the first side; per_vertex holds one coefficient per
/// mesh vertex (validated by the caller, see check_per_vertex_friction).
template <std::size_t VertexCount, typename DerivedWeights>
double contact_friction_coefficient(const std::array<Index, VertexCount>& vertices,
    const Eigen::MatrixBase<DerivedWeights>& weights, int first_side_count,
    const Eigen::Ref<const Eigen::VectorXd>& per_vertex, FrictionBlend blend)
{
    static_assert(VertexCount >= 2, "a contact has at least two vertices");
    double sum[2] = { 0, 0 }, weight_sum[2] = { 0, 0 };
    bool uniform[2] = { true, true };
    const double first[2]
        = { per_vertex(vertices[0]), per_vertex(vertices[std::size_t(first_side_count)]) };
    for (int i = 0; i < int(VertexCount); ++i) {
        const int side = i < first_side_count ? 0 : 1;
        const double value = per_vertex(vertices[std::size_t(i)]);
        double w = side == 0 ? weights(i) : -weights(i);
        w = w > 0 ? w : 0;
        sum[side] += w * value;
        weight_sum[side] += w;
        uniform[side] = uniform[side] && value == first[side];
    }
    double mu[2];
    for (int side = 0; side < 2; ++side) {
        // A side whose vertices agree gets their value exactly.
        mu[side] = uniform[side] ? first[side] : weight_sum[side] > 0 ? sum[side] / weight_sum[side] : 0;
    }
    return blend_friction_coefficients(mu[0], mu[1], blend);
}

} // namespace ipc
