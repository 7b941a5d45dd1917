#pragma once
/// @file
/// The sparse Cholesky solve of the example Newton solvers (ipc_sim's 3D and
/// 2D simulators, and repulsion_sim's factored dynamics, which keeps one
/// factorisation for many solves): supernodal CHOLMOD where the examples
/// were built with it, Eigen's SimplicialLDLT otherwise. It keeps the
/// symbolic analysis while the matrix's sparsity pattern stays the same,
/// shifts the diagonal when a factorisation fails, and counts the numeric
/// factorisations and the failed ones. A failure is handled, so CHOLMOD's
/// own "not positive definite" warning is not printed (its errors are). Large
/// factorisations run on several threads where the OpenMP thread limit
/// allows (NewtonLinearSolver::parallel).

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
#include <cstdio>
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
        // A matrix that is not positive definite to round-off is a warning to
        // CHOLMOD; here it is expected (barrier terms near their root make H
        // ill-conditioned), handled by the shifts below and counted in
        // failed_factorizations(). CHOLMOD's print level 1 still prints such
        // warnings (labelled as errors), so its printing is off and the
        // handler prints the errors alone; the factorisation of such a matrix
        // stops at the first bad pivot instead of going on to the end.
        solver_.cholmod().print = 0;
        solver_.cholmod().error_handler = [](int status, const char* file, int line, const char* message) {
            if (status < 0) {
                std::fprintf(stderr, "CHOLMOD error %d: %s (%s, line %d)\n", status, message, file, line);
            }
        };
        solver_.cholmod().quick_return_if_not_posdef = 1;
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
        analyse(H);
        [[maybe_unused]] const FactorizationThreads threads { parallel_ };
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
        analyse(H);
        [[maybe_unused]] const FactorizationThreads threads { parallel_ };
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
            [[maybe_unused]] const FactorizationThreads threads { parallel_ };
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

    /// Floating-point operations of one numeric factorisation of the
    /// analysed pattern (CHOLMOD's estimate from its symbolic analysis; 0
    /// without CHOLMOD or before the first solve).
    double factor_flops() const { return factor_flops_; }
    /// Entries of the Cholesky factor of the analysed pattern (0 without
    /// CHOLMOD or before the first solve).
    double factor_nonzeros() const { return factor_nonzeros_; }

    /// Whether the analysed matrix pattern costs at least parallel_flops() to
    /// factorise, so that it is factorised on the caller's OpenMP threads
    /// where the thread limit allows (see FactorizationThreads) rather than
    /// on one. Always false without CHOLMOD.
    bool parallel() const { return parallel_; }

    /// Factorisations estimated to cost at least this many floating-point
    /// operations (default 2e10) may run on several threads; smaller ones
    /// run on one. On 2 cores a factor of 8.5e10 flops takes 1.4 s on 2
    /// threads against 2.4 s on one, one of 1.6e10 flops 0.55 s against
    /// 0.6 s, and smaller ones (the paper-size cloth on a sphere: about 1e9)
    /// gain nothing. Applies from the next symbolic analysis.
    double parallel_flops() const { return parallel_flops_; }
    /// Sets parallel_flops() (0: every factorisation may run on several threads).
    void set_parallel_flops(double flops)
    {
        require(flops >= 0, "NewtonLinearSolver::set_parallel_flops: ", flops, " is negative or NaN");
        parallel_flops_ = flops;
        analysed_rows_ = -1;
    }

private:
    /// Runs the symbolic analysis unless H has the pattern analysed last,
    /// and decides from its flop count whether to factorise in parallel.
    void analyse(Eigen::SparseMatrix<double>& H)
    {
        [[maybe_unused]] const FactorizationThreads serial { false };
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
#if defined(IPC_EXAMPLES_HAS_CHOLMOD)
            factor_flops_ = solver_.cholmod().fl;
            factor_nonzeros_ = solver_.cholmod().lnz;
            parallel_ = factor_flops_ >= parallel_flops_;
#endif
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

    /// Sets the OpenMP threads CHOLMOD (analysis, factorisation, solves) runs
    /// on while alive. CHOLMOD's supernodal code opens teams of a compiled-in
    /// size (4 in Debian's build) and OpenBLAS's threaded kernels (its OpenMP
    /// build) wait on every thread of their team. Serial: one thread, with
    /// dynamic teams, so CHOLMOD's teams shrink to the idle cores and
    /// OpenBLAS runs its serial kernels (with more threads than cores the
    /// paper cloth on a sphere's factorisation took 0.3 to 2 s instead of
    /// 0.1 s on 2 cores). Parallel: the caller's thread count without dynamic
    /// teams, but only where the OpenMP thread limit (OMP_THREAD_LIMIT, see
    /// use_threads in cli.hpp) is that count, so every team gets exactly
    /// the threads it asks for or fewer (CHOLMOD's) and none more: with more
    /// threads than cores the factorisation is several times slower, and a
    /// dynamic team that OpenBLAS finds smaller than it asked for never
    /// finishes.
    struct FactorizationThreads {
#if IPC_HAS_OPENMP
        explicit FactorizationThreads(bool parallel)
            : threads(omp_get_max_threads())
            , dynamic(omp_get_dynamic())
        {
            const bool capped = threads > 1 && omp_get_thread_limit() == threads;
            omp_set_num_threads(parallel && capped ? threads : 1);
            omp_set_dynamic(parallel && capped ? 0 : 1);
        }
        ~FactorizationThreads()
        {
            omp_set_dynamic(dynamic);
            omp_set_num_threads(threads);
        }
        FactorizationThreads(const FactorizationThreads&) = delete;
        FactorizationThreads& operator=(const FactorizationThreads&) = delete;
        int threads;
        int dynamic;
#else
        explicit FactorizationThreads(bool) { }
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
    bool parallel_ = false;     ///< factorise the analysed pattern on all threads
    double parallel_flops_ = 2e10;
    double factor_flops_ = 0;    ///< CHOLMOD's flop count of the analysed pattern
    double factor_nonzeros_ = 0; ///< and its factor's entries
    Eigen::VectorXd diagonal_;  ///< |diag H| of the last factorize(): the fallback's scaling
};

} // namespace ipc::examples
