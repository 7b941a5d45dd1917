// The elastic element functions of Model (model.hpp), compiled once: their
// closed-form energies, gradients and Hessians are templates instantiated
// here and nowhere else.

#include "model.hpp"

#include <tuple>
#include <type_traits>

namespace ipc::examples {

double Model::element_energy(Index k, const Eigen::MatrixXd& x) const
{
    return visit_element(k, [&](const auto& e) -> double {
        const auto local = gather(x, e.vertices);
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, Tet>) {
            return tet_energy<double>(local, e.rest, e.material);
        } else if constexpr (std::is_same_v<E, Membrane>) {
            return membrane_energy<double>(local, e.rest, e.material);
        } else if constexpr (std::is_same_v<E, Hinge>) {
            return hinge_energy<double>(local, e.rest);
        } else if constexpr (std::is_same_v<E, RodSegment>) {
            return rod_stretch_energy<double>(local, e.rest);
        } else {
            return rod_bending_energy<double>(local, e.rest);
        }
    });
}

void Model::element_gradient(Index k, const Eigen::MatrixXd& x, Vector<double, 12>& out) const
{
    visit_element(k, [&](const auto& e) {
        const auto local = gather(x, e.vertices);
        constexpr int n = 3 * int(std::tuple_size_v<std::decay_t<decltype(e.vertices)>>);
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, Tet>) {
            out.head<n>() = tet_energy_gradient<double>(local, e.rest, e.material);
        } else if constexpr (std::is_same_v<E, Membrane>) {
            out.head<n>() = membrane_energy_gradient<double>(local, e.rest, e.material);
        } else if constexpr (std::is_same_v<E, Hinge>) {
            out.head<n>() = hinge_energy_gradient<double>(local, e.rest);
        } else if constexpr (std::is_same_v<E, RodSegment>) {
            out.head<n>() = rod_stretch_gradient<double>(local, e.rest);
        } else {
            out.head<n>() = rod_bending_gradient<double>(local, e.rest);
        }
    });
}

void Model::element_hessian(
Index k, const Eigen::MatrixXd& x, PSDProjection projection, Matrix<double, 12, 12>& out) const
{
    visit_element(k, [&](const auto& e) {
        const auto local = gather(x, e.vertices);
        constexpr int n = 3 * int(std::tuple_size_v<std::decay_t<decltype(e.vertices)>>);
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, Tet>) {
            out.topLeftCorner<n, n>() = tet_energy_hessian<double>(local, e.rest, e.material, projection);
        } else if constexpr (std::is_same_v<E, Membrane>) {
            out.topLeftCorner<n, n>() = membrane_energy_hessian<double>(local, e.rest, e.material, projection);
        } else if constexpr (std::is_same_v<E, Hinge>) {
            out.topLeftCorner<n, n>() = hinge_energy_hessian<double>(local, e.rest, projection);
        } else if constexpr (std::is_same_v<E, RodSegment>) {
            out.topLeftCorner<n, n>() = rod_stretch_hessian<double>(local, e.rest, projection);
        } else {
            out.topLeftCorner<n, n>() = rod_bending_hessian<double>(local, e.rest, projection);
        }
    });
}

} // namespace ipc::examples
