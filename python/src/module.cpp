// The _ipc extension module: array helpers, exception translation and the
// module definition. The bindings themselves live in one file per area.

#include "common.hpp"

#include <ipc/config.hpp>
#include <ipc/core/parallel.hpp>

namespace ipc_python {

FloatMatrix float_matrix(const py::handle& obj, const char* who, const char* what, Eigen::Index rows,
                         Eigen::Index cols)
{
    ipc::require(!obj.is_none(), who, ": ", what, " must be a float array, got None");
    // ensure() applies numpy's conversion (no copy for an F-contiguous
    // float64 array) and returns a null handle when it cannot.
    auto array = py::array_t<double, py::array::f_style | py::array::forcecast>::ensure(obj);
    if (!array) {
        PyErr_Clear();
        throw ipc::invalid_argument(ipc::detail::concat(
            who, ": ", what, " must be an array of numbers, got ", std::string(py::str(py::type::of(obj)))));
    }
    ipc::require(array.ndim() == 2, who, ": ", what, " must be a 2-D array, got ", array.ndim(),
                 " dimension(s)");
    const Eigen::Index r = array.shape(0), c = array.shape(1);
    ipc::require(rows < 0 || r == rows, who, ": ", what, " must have ", rows, " rows, got shape (", r, ", ", c, ")");
    ipc::require(cols < 0 || c == cols, who, ": ", what, " must have ", cols, " columns, got shape (", r, ", ", c,
                 ")");
    FloatMatrix m;
    m.array = array;
    new (&m.map) Eigen::Map<const Eigen::MatrixXd>(array.data(), r, c);
    return m;
}

Eigen::VectorXd float_vector(const py::handle& obj, const char* who, const char* what, Eigen::Index size)
{
    ipc::require(!obj.is_none(), who, ": ", what, " must be a float array, got None");
    auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
    if (!array) {
        PyErr_Clear();
        throw ipc::invalid_argument(ipc::detail::concat(
            who, ": ", what, " must be an array of numbers, got ", std::string(py::str(py::type::of(obj)))));
    }
    ipc::require(array.ndim() == 1, who, ": ", what, " must be a 1-D array, got ", array.ndim(), " dimension(s)");
    ipc::require(size < 0 || array.shape(0) == size, who, ": ", what, " must have ", size, " entries, got ",
                 array.shape(0));
    return Eigen::Map<const Eigen::VectorXd>(array.data(), array.shape(0));
}

int point_dimension(const py::handle& obj, const char* who, const char* what, int only)
{
    const Eigen::VectorXd v = float_vector(obj, who, what);
    if (only > 0) {
        ipc::require(v.size() == only, who, ": ", what, " must have ", only, " coordinates, got ", v.size());
    } else {
        ipc::require(v.size() == 2 || v.size() == 3, who, ": ", what, " must have 2 or 3 coordinates, got ",
                     v.size());
    }
    return int(v.size());
}

namespace {
    /// Integer array (any integer dtype) or throws.
    py::array integer_array(const py::handle& obj, const char* who, const char* what)
    {
        py::array array = py::array::ensure(obj);
        if (!array) {
            PyErr_Clear();
            throw ipc::invalid_argument(ipc::detail::concat(
                who, ": ", what, " must be an integer array, got ", std::string(py::str(py::type::of(obj)))));
        }
        const char kind = array.dtype().kind();
        // An empty list becomes a float64 array: accept it as "no rows".
        ipc::require(kind == 'i' || kind == 'u' || array.size() == 0, who, ": ", what,
                     " must have an integer dtype (int32 or int64), got ", std::string(py::str(array.dtype())));
        return array;
    }
} // namespace

Eigen::MatrixXi index_matrix(const py::handle& obj, const char* who, const char* what, Eigen::Index cols)
{
    if (obj.is_none()) {
        return Eigen::MatrixXi(0, cols);
    }
    py::array array = integer_array(obj, who, what);
    if (array.size() == 0) {
        return Eigen::MatrixXi(0, cols);
    }
    ipc::require(array.ndim() == 2 && array.shape(1) == cols, who, ": ", what, " must be a (k, ", cols,
                 ") integer array, got ", array.ndim(), "-D shape (",
                 array.ndim() > 0 ? array.shape(0) : 0, array.ndim() > 1 ? ", " : "",
                 array.ndim() > 1 ? std::to_string(array.shape(1)) : std::string(), ")");
    auto as64 = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
    if (!as64) {
        PyErr_Clear();
        throw ipc::invalid_argument(ipc::detail::concat(who, ": ", what, " could not be read as int64"));
    }
    auto r = as64.unchecked<2>();
    Eigen::MatrixXi out(r.shape(0), cols);
    for (py::ssize_t i = 0; i < r.shape(0); ++i) {
        for (py::ssize_t j = 0; j < cols; ++j) {
            const std::int64_t v = r(i, j);
            ipc::require(v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max(), who, ": ",
                         what, "[", i, ", ", j, "] = ", v, " does not fit a 32-bit index");
            out(i, j) = int(v);
        }
    }
    return out;
}

std::vector<Index> index_vector(const py::handle& obj, const char* who, const char* what)
{
    if (obj.is_none()) {
        return {};
    }
    py::array array = integer_array(obj, who, what);
    if (array.size() == 0) {
        return {};
    }
    ipc::require(array.ndim() == 1, who, ": ", what, " must be a 1-D integer array, got ", array.ndim(),
                 " dimensions");
    auto as64 = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
    auto r = as64.unchecked<1>();
    std::vector<Index> out(std::size_t(r.shape(0)));
    for (py::ssize_t i = 0; i < r.shape(0); ++i) {
        out[std::size_t(i)] = Index(r(i));
    }
    return out;
}

py::array_t<double> to_numpy(Eigen::VectorXd&& v)
{
    auto* heap = new Eigen::VectorXd(std::move(v));
    py::capsule owner(heap, [](void* p) { delete static_cast<Eigen::VectorXd*>(p); });
    return py::array_t<double>(heap->size(), heap->data(), owner);
}

py::object sparse_to_python(const Eigen::SparseMatrix<double>& H_in)
{
    // Compressed column storage to compressed rows in one counting pass,
    // written straight into the NumPy buffers.
    Eigen::SparseMatrix<double> compressed;
    const Eigen::SparseMatrix<double>* Hp = &H_in;
    if (!H_in.isCompressed()) {
        compressed = H_in;
        compressed.makeCompressed();
        Hp = &compressed;
    }
    const Eigen::SparseMatrix<double>& H = *Hp;
    const Eigen::Index rows = H.rows(), cols = H.cols(), nnz = H.nonZeros();
    ipc::require(nnz < Eigen::Index(std::numeric_limits<std::int32_t>::max()),
                 "sparse matrix has too many non-zeros for 32-bit indices: ", nnz);
    py::array_t<double> data(nnz);
    py::array_t<std::int32_t> indices(nnz);
    py::array_t<std::int32_t> indptr(rows + 1);
    {
        double* d = data.mutable_data();
        std::int32_t* ind = indices.mutable_data();
        std::int32_t* ptr = indptr.mutable_data();
        const int* outer = H.outerIndexPtr();
        const int* inner = H.innerIndexPtr();
        const double* values = H.valuePtr();
        py::gil_scoped_release release;
        std::fill(ptr, ptr + rows + 1, 0);
        for (Eigen::Index k = 0; k < nnz; ++k) {
            ++ptr[inner[k] + 1];
        }
        for (Eigen::Index r = 0; r < rows; ++r) {
            ptr[r + 1] += ptr[r];
        }
        std::vector<std::int32_t> fill(ptr, ptr + rows);
        for (Eigen::Index c = 0; c < cols; ++c) {
            for (int k = outer[c]; k < outer[c + 1]; ++k) {
                const std::int32_t slot = fill[std::size_t(inner[k])]++;
                ind[slot] = std::int32_t(c);
                d[slot] = values[k];
            }
        }
    }
    try {
        py::module_ sparse = py::module_::import("scipy.sparse");
        return sparse.attr("csr_matrix")(py::make_tuple(data, indices, indptr), py::arg("shape") = py::make_tuple(rows, cols));
    } catch (py::error_already_set& e) {
        if (!e.matches(PyExc_ImportError)) {
            throw;
        }
    }
    // No SciPy: (rows, cols, values) triplets, in row order.
    py::array_t<std::int64_t> r(nnz), c(nnz);
    {
        auto rr = r.mutable_unchecked<1>();
        auto cc = c.mutable_unchecked<1>();
        auto ptr = indptr.unchecked<1>();
        auto ind = indices.unchecked<1>();
        for (Eigen::Index row = 0; row < rows; ++row) {
            for (std::int32_t k = ptr(row); k < ptr(row + 1); ++k) {
                rr(k) = row;
                cc(k) = ind(k);
            }
        }
    }
    return py::make_tuple(r, c, data);
}

void bind_errors(py::module_& m)
{
    // pybind11 tries the most recently registered translator first, so the
    // base class goes first and the specific ones after it.
    static py::exception<ipc::error> error(m, "Error", PyExc_RuntimeError);
    static py::exception<ipc::invalid_argument> invalid(m, "InvalidArgumentError", PyExc_ValueError);
    static py::exception<ipc::degenerate_geometry> degenerate(m, "DegenerateGeometryError", PyExc_ValueError);
    static py::exception<ipc::penetration> penetration(m, "PenetrationError", PyExc_ValueError);
    error.doc() = "Base of the library's errors that are not input errors (a RuntimeError).";
    invalid.doc() = "ipc::invalid_argument: NaN/inf input, wrong sizes, out-of-range indices, bad parameters "
                    "(a ValueError).";
    degenerate.doc() = "ipc::degenerate_geometry: zero-length edge, zero-area face, coincident points where a "
                       "direction is needed (a ValueError).";
    penetration.doc() = "ipc::penetration: a pair at or inside its offset where the contract forbids it "
                        "(a ValueError).";
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) {
                std::rethrow_exception(p);
            }
        } catch (const ipc::invalid_argument& e) {
            PyErr_SetString(invalid.ptr(), e.what());
        } catch (const ipc::degenerate_geometry& e) {
            PyErr_SetString(degenerate.ptr(), e.what());
        } catch (const ipc::penetration& e) {
            PyErr_SetString(penetration.ptr(), e.what());
        } catch (const ipc::error& e) {
            PyErr_SetString(error.ptr(), e.what());
        }
    });
}

} // namespace ipc_python

PYBIND11_MODULE(_ipc, m)
{
    namespace ip = ipc_python;
    m.doc() = "Python bindings of ipc, header-only building blocks for Incremental Potential Contact.\n\n"
              "Positions are float arrays of shape (n, 3) (or (n, 2) for 2D meshes), in metres;\n"
              "index arrays are integer arrays (int32 or int64). Errors in the input raise ValueError\n"
              "(subclasses InvalidArgumentError, DegenerateGeometryError, PenetrationError); other\n"
              "library errors raise RuntimeError.";
    m.attr("__version__") = IPC_VERSION_STRING;
    m.attr("has_openmp") = bool(IPC_HAS_OPENMP);
    m.def("max_threads", &ipc::max_threads, "Number of threads the parallel loops use (1 without OpenMP).");
    ip::bind_errors(m);
    ip::bind_distance(m);
    ip::bind_barrier(m);
    ip::bind_ccd(m);
    ip::bind_mesh(m);
    ip::bind_collisions(m);
    ip::bind_potentials(m);
    ip::bind_obstacles(m);
    ip::bind_friction_options(m);
    ip::bind_adhesion(m);
}
