#pragma once
// Shared helpers of the Python bindings: NumPy <-> Eigen conversion with
// input checks that raise ValueError (through ipc::invalid_argument), and the
// sparse-matrix return convention.
//
// Array conventions (documented in python/README.md):
//  - Float arrays are converted with numpy's rules to float64 in column-major
//    (Fortran) order. An F-contiguous float64 array is used in place (no
//    copy); any other array (the C-contiguous NumPy default, another float
//    dtype, an integer array) is copied once into column-major float64.
//  - Index arrays must have an integer dtype (int32, int64, ...; bool and
//    floats are rejected) and are copied into int32 (Eigen::MatrixXi);
//    values that do not fit raise ValueError.

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ipc_python {

namespace py = pybind11;
using ipc::Index;

/// F-ordered float64 view of a NumPy array; keeps the array alive.
struct FloatMatrix {
    py::array_t<double, py::array::f_style> array;
    Eigen::Map<const Eigen::MatrixXd> map { nullptr, 0, 0 };
    Eigen::Index rows() const { return map.rows(); }
    Eigen::Index cols() const { return map.cols(); }
};

/// Converts obj to a float64 matrix (2-D; a 1-D array of length k becomes
/// k x 1 only when allow_vector). cols >= 0 requires that many columns;
/// rows >= 0 that many rows. Throws ipc::invalid_argument naming
/// who and what.
FloatMatrix float_matrix(const py::handle& obj, const char* who, const char* what,
                         Eigen::Index rows = -1, Eigen::Index cols = -1);

/// Same for positions: 2-D, cols columns (2 or 3 when cols is -1).
inline FloatMatrix positions(const py::handle& obj, const char* who, const char* what, Eigen::Index cols = -1)
{
    FloatMatrix m = float_matrix(obj, who, what, -1, cols);
    ipc::require(cols >= 0 || m.cols() == 2 || m.cols() == 3, who, ": ", what,
                 " must have 2 or 3 columns, got shape (", m.rows(), ", ", m.cols(), ")");
    return m;
}

/// 1-D float vector of any length (or exactly size when size >= 0).
Eigen::VectorXd float_vector(const py::handle& obj, const char* who, const char* what, Eigen::Index size = -1);

/// A point: 1-D float array of length DIM, every entry finite.
template <int DIM> Eigen::Matrix<double, DIM, 1> point(const py::handle& obj, const char* who, const char* what)
{
    const Eigen::VectorXd v = float_vector(obj, who, what, DIM);
    for (int d = 0; d < DIM; ++d) {
        ipc::require(std::isfinite(v(d)), who, ": ", what, " has a non-finite coordinate (", v(d), ")");
    }
    return v;
}

/// Length of a 1-D array-like (to dispatch on the dimension); throws unless
/// it is 2 or 3 (or exactly `only` when only > 0).
int point_dimension(const py::handle& obj, const char* who, const char* what, int only = 0);

/// Integer index matrix (k x cols; an empty array or None gives 0 x cols).
/// Rejects non-integer dtypes and values outside int32.
Eigen::MatrixXi index_matrix(const py::handle& obj, const char* who, const char* what, Eigen::Index cols);

/// Integer index vector.
std::vector<Index> index_vector(const py::handle& obj, const char* who, const char* what);

/// Checks 0 <= i < n.
inline void check_index(Index i, Index n, const char* who, const char* what)
{
    ipc::require(i >= 0 && i < n, who, ": ", what, " ", i, " is out of range [0, ", n, ")");
}

/// A broad-phase method given as the enum or its name ("bvh", ...).
inline ipc::BroadPhaseMethod broad_phase_method(const py::handle& obj)
{
    if (py::isinstance<py::str>(obj)) {
        const std::string s = obj.cast<std::string>();
        for (auto m : { ipc::BroadPhaseMethod::brute_force, ipc::BroadPhaseMethod::sweep_and_prune,
                        ipc::BroadPhaseMethod::spatial_hash, ipc::BroadPhaseMethod::bvh }) {
            if (s == ipc::to_string(m)) {
                return m;
            }
        }
        throw ipc::invalid_argument("broad phase: unknown method '" + s
                                    + "' (brute_force, sweep_and_prune, spatial_hash or bvh)");
    }
    return obj.cast<ipc::BroadPhaseMethod>();
}

/// A NumPy copy of a fixed or dynamic Eigen vector (1-D).
template <typename Derived> py::array_t<double> to_numpy(const Eigen::MatrixBase<Derived>& v)
{
    if (v.cols() == 1) {
        py::array_t<double> out(v.rows());
        double* data = out.mutable_data();
        for (Eigen::Index i = 0; i < v.rows(); ++i) {
            data[i] = v(i);
        }
        return out;
    }
    py::array_t<double> out({ v.rows(), v.cols() });
    auto r = out.template mutable_unchecked<2>();
    for (Eigen::Index i = 0; i < v.rows(); ++i) {
        for (Eigen::Index j = 0; j < v.cols(); ++j) {
            r(i, j) = v(i, j);
        }
    }
    return out;
}

/// Moves a VectorXd into a NumPy array without copying.
py::array_t<double> to_numpy(Eigen::VectorXd&& v);

/// Rows of index arrays (k x N, int64) from a list of stencils with a
/// std::array<Index, N> member selected by get.
template <std::size_t N, typename List, typename Get> py::array_t<std::int64_t> index_rows(const List& list, Get get)
{
    py::array_t<std::int64_t> out({ py::ssize_t(list.size()), py::ssize_t(N) });
    auto r = out.template mutable_unchecked<2>();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::array<Index, N> row = get(list[i]);
        for (std::size_t j = 0; j < N; ++j) {
            r(py::ssize_t(i), py::ssize_t(j)) = std::int64_t(row[j]);
        }
    }
    return out;
}

/// A sparse matrix for Python: scipy.sparse.csr_matrix when SciPy imports,
/// else a (rows, cols, values) triplet tuple of NumPy arrays. Built from
/// Eigen's column-major storage in one counting pass (no second copy).
py::object sparse_to_python(const Eigen::SparseMatrix<double>& H);

// Registration functions, one per translation unit.
void bind_errors(py::module_& m);
void bind_distance(py::module_& m);
void bind_barrier(py::module_& m);
void bind_ccd(py::module_& m);
void bind_additive_ccd(py::module_& m);
void bind_inclusion_ccd(py::module_& m);
void bind_root_finding_ccd(py::module_& m);
void bind_mesh(py::module_& m);
void bind_collisions(py::module_& m);
void bind_potentials(py::module_& m);
void bind_obstacles(py::module_& m);        // after bind_potentials (adds overloads)
void bind_friction_options(py::module_& m); // after bind_collisions and bind_potentials
void bind_adhesion(py::module_& m);         // after bind_friction_options

} // namespace ipc_python
