#pragma once
/// @file
/// The sparse Cholesky solve of the example Newton solvers (ipc_sim's 3D and
/// 2D simulators, and repulsion_sim's factored dynamics, which keeps one
/// factorisation for many solves): supernodal CHOLMOD where the examples
/// were built with it, Eigen's SimplicialLDLT otherwise. It keeps the
/// symbolic analysis while the matrix's sparsity pattern stays the same,
/// shifts the diagonal when a factorisation fails, and counts the numeric
/// factorisations and the failed ones. A failure is handled, so CHOLMOD's
/// own "not positive definite" warning is not printed (its errors are).

#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Sparse>
#if defined(IPC_EXAMPLES_HAS_CHOLMOD)
#include <Eigen/CholmodSupport>
#else
#include <Eigen/SparseCholesky>
#endif

#if __has_include(<dlfcn.h>)
#include <dlfcn.h>
#endif

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace ipc::examples {

/// The sparse Cholesky solver the examples were built with and, for CHOLMOD,
/// the BLAS it runs on, as found in this process at run time (OpenBLAS with
/// its build configuration, Intel MKL, or "reference or unknown BLAS"). The
/// factorisation time depends mostly on the BLAS: with the reference BLAS
/// the paper cloth's solve takes about twice as long as with OpenBLAS.
inline std::string linear_solver_description()
{
#if defined(IPC_EXAMPLES_HAS_CHOLMOD)
    std::string blas = "reference or unknown BLAS";
#if __has_include(<dlfcn.h>)
    // OpenBLAS and MKL export a version query; look for them among the
    // symbols already loaded (Debian switches libblas.so.3 by alternatives).
    using ConfigFn = const char* (*)();
    if (void* f = dlsym(RTLD_DEFAULT, "openblas_get_config")) {
        blas = reinterpret_cast<ConfigFn>(f)();
    } else if (dlsym(RTLD_DEFAULT, "MKL_Get_Version_String")) {
        blas = "Intel MKL";
    }
#endif
    return "CHOLMOD supernodal Cholesky, " + blas;
#else
    return "Eigen SimplicialLDLT (built without CHOLMOD)";
#endif
}

/// Solves Newton systems H p = -g with a symmetric H (see the file comment)
/// that stores its lower triangle or more (UpLo = Eigen::Lower, the default)
/// or its upper triangle or more (Eigen::Upper); the other triangle is not
/// read.
template <int UpLo = Eigen::Lower> class NewtonLinearSolver {
public:
    NewtonLinearSolver()
    {
#if defined(IPC_EXAMPLES_HAS_CHOLMOD)
        // Fill-reducing ordering: CHOLMOD keeps AMD unless its fill is
        // extreme, but on cloth and volume meshes nested dissection finds
        // about 10% fewer factor entries and 30% fewer flops (paper cloth:
        // 4.5 M entries and 1.35 GFlop against 5.0 M and 1.9 GFlop). Both are
        // tried at each symbolic analysis and the sparser one is kept.
        solver_.cholmod().nmethods = 2;
        solver_.cholmod().method[0].ordering = CHOLMOD_AMD;
        solver_.cholmod().method[1].ordering = CHOLMOD_NESDIS;
        // Print level 1: errors only. A matrix that is not positive definite
        // to round-off is a warning to CHOLMOD; here it is expected (barrier
        // terms near their root make H ill-conditioned), handled by the
        // shifts below and counted in failed_factorizations().
        solver_.cholmod().print = 1;
#endif
    }

    /// Returns p with H p = -g. When the factorisation fails (H not positive
    /// definite to round-off), the diagonal is shifted by 1e-8, 1e-6, ...
    /// times its largest entry and H is factorised again; after four
    /// failures the step is the diagonally scaled gradient -g / |diag H|.
    /// H is compressed in place and keeps any shift; its diagonal must be
    /// stored.
    Eigen::VectorXd solve(Eigen::SparseMatrix<double>& H, const Eigen::VectorXd& g)
    {
        [[maybe_unused]] const SerialFactorization serial {};
        analyse(H);
        for (int attempt = 0; attempt < 4; ++attempt) {
            solver_.factorize(H);
            ++factorizations_;
            if (solver_.info() == Eigen::Success) {
                Eigen::VectorXd p = solver_.solve(-g);
                if (solver_.info() == Eigen::Success && all_finite(p)) {
                    return p;
                }
            }
            ++failures_;
            shift_diagonal(H, attempt);
        }
        return -g.cwiseQuotient(H.diagonal().cwiseAbs().cwiseMax(1e-12));
    }

    /// Factorises H for any number of solve(g) calls, with the shifts of
    /// solve(H, g). Returns false when all four attempts failed; solve(g)
    /// then returns the diagonally scaled gradient.
    bool factorize(Eigen::SparseMatrix<double>& H)
    {
        [[maybe_unused]] const SerialFactorization serial {};
        analyse(H);
        factored_ = false;
        for (int attempt = 0; attempt < 4 && !factored_; ++attempt) {
            solver_.factorize(H);
            ++factorizations_;
            factored_ = solver_.info() == Eigen::Success;
            if (!factored_) {
                ++failures_;
                shift_diagonal(H, attempt);
            }
        }
        diagonal_ = H.diagonal().cwiseAbs().cwiseMax(1e-12);
        return factored_;
    }

    /// Returns p with H p = -g for the H of the last factorize(H) (or the
    /// diagonally scaled gradient where the factorisation or the solve
    /// failed).
    Eigen::VectorXd solve(const Eigen::VectorXd& g)
    {
        require(g.size() == diagonal_.size(), "NewtonLinearSolver::solve: gradient of size ", g.size(),
            " for a factorised matrix of size ", diagonal_.size());
        if (factored_) {
            [[maybe_unused]] const SerialFactorization serial {};
            Eigen::VectorXd p = solver_.solve(-g);
            if (solver_.info() == Eigen::Success && all_finite(p)) {
                return p;
            }
        }
        return -g.cwiseQuotient(diagonal_);
    }

    /// Numeric factorisations since the last reset_count().
    int factorizations() const { return factorizations_; }
    /// Of those, the ones that failed (then the diagonal was shifted).
    int failed_factorizations() const { return failures_; }
    /// Starts counting factorisations (and failures) from zero.
    void reset_count() { factorizations_ = failures_ = 0; }

private:
    /// Runs the symbolic analysis unless H has the pattern analysed last.
    void analyse(Eigen::SparseMatrix<double>& H)
    {
        H.makeCompressed();
        const bool same_pattern = H.rows() == analysed_rows_
            && std::equal(H.outerIndexPtr(), H.outerIndexPtr() + H.outerSize() + 1, analysed_outer_.begin(),
                analysed_outer_.end())
            && std::equal(H.innerIndexPtr(), H.innerIndexPtr() + H.nonZeros(), analysed_inner_.begin(),
                analysed_inner_.end());
        if (!same_pattern) {
            solver_.analyzePattern(H);
            analysed_rows_ = H.rows();
            analysed_outer_.assign(H.outerIndexPtr(), H.outerIndexPtr() + H.outerSize() + 1);
            analysed_inner_.assign(H.innerIndexPtr(), H.innerIndexPtr() + H.nonZeros());
        }
    }

    /// Adds 1e-8 * 100^attempt times the largest diagonal entry (at least 1) to the diagonal.
    static void shift_diagonal(Eigen::SparseMatrix<double>& H, int attempt)
    {
        const double shift = 1e-8 * std::max(1.0, H.diagonal().cwiseAbs().maxCoeff()) * std::pow(100.0, attempt);
        for (Index i = 0; i < H.rows(); ++i) {
            H.coeffRef(i, i) += shift;
        }
    }

    /// Runs CHOLMOD (analysis, factorisation, solves) on one core: while alive,
    /// OpenMP teams default to one thread (so OpenBLAS's OpenMP build calls
    /// its serial kernels) and fixed-size teams shrink to the idle cores.
    /// CHOLMOD's supernodal code opens teams of a compiled-in size (4 in
    /// Debian's build) and OpenBLAS forks a team per call; with fewer cores
    /// than that, the teams oversubscribe the machine and the paper cloth's
    /// factorisation took 0.3 to 2 s instead of 0.1 s on 2 cores.
    struct SerialFactorization {
#if IPC_HAS_OPENMP
        SerialFactorization()
            : threads(omp_get_max_threads())
            , dynamic(omp_get_dynamic())
        {
            omp_set_num_threads(1);
            omp_set_dynamic(1);
        }
        ~SerialFactorization()
        {
            omp_set_dynamic(dynamic);
            omp_set_num_threads(threads);
        }
        SerialFactorization(const SerialFactorization&) = delete;
        SerialFactorization& operator=(const SerialFactorization&) = delete;
        int threads;
        int dynamic;
#endif
    };

#if defined(IPC_EXAMPLES_HAS_CHOLMOD)
    Eigen::CholmodSupernodalLLT<Eigen::SparseMatrix<double>, UpLo> solver_;
#else
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, UpLo> solver_;
#endif
    int factorizations_ = 0;
    int failures_ = 0;
    Index analysed_rows_ = -1; ///< pattern of the last symbolic analysis
    std::vector<int> analysed_outer_, analysed_inner_;
    bool factored_ = false;     ///< the last factorize() succeeded
    Eigen::VectorXd diagonal_;  ///< |diag H| of the last factorize(): the fallback's scaling
};

} // namespace ipc::examples
