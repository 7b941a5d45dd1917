// The conditioning study of the AL paper's Fig. 24: a soft sphere squeezed
// between two plates ("compress"), run by the reference IPC solver and by
// the AL solver; at the end of every time step, the condition number of the
// step's last Newton matrix over its free coordinates, kappa(H), and of the
// block-Jacobi preconditioned matrix, kappa(P^-1 H) with P the 3x3 diagonal
// blocks of H, computed with Spectra (Lanczos for the largest eigenvalue,
// shift-and-invert at 0 for the smallest).
//
//   conditioning [--size small|paper] [--frames N] [--every K]

#include "al_scenes.hpp"

#include <ipc/ipc_scenes.hpp>

#include <CLI/CLI.hpp>
#include <Spectra/MatOp/SparseSymMatProd.h>
#include <Spectra/MatOp/SparseSymShiftSolve.h>
#include <Spectra/SymEigsShiftSolver.h>
#include <Spectra/SymEigsSolver.h>
#include <fmt/core.h>

#include <Eigen/Eigenvalues>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

using namespace ipc::examples;
using SparseMatrix = Eigen::SparseMatrix<double>;

namespace {

/// H restricted to the coordinates of the vertices not held.
SparseMatrix free_block(const SparseMatrix& H, const std::vector<bool>& held)
{
    std::vector<int> index(std::size_t(H.rows()), -1);
    int n = 0;
    for (Eigen::Index i = 0; i < H.rows(); ++i) {
        if (!held[std::size_t(i / 3)]) {
            index[std::size_t(i)] = n++;
        }
    }
    std::vector<Eigen::Triplet<double>> t;
    for (Eigen::Index j = 0; j < H.outerSize(); ++j) {
        for (SparseMatrix::InnerIterator it(H, j); it; ++it) {
            const int r = index[std::size_t(it.row())], c = index[std::size_t(it.col())];
            if (r >= 0 && c >= 0) {
                t.emplace_back(r, c, it.value());
            }
        }
    }
    SparseMatrix A(n, n);
    A.setFromTriplets(t.begin(), t.end());
    return A;
}

/// P^-1/2 A P^-1/2 with P the 3x3 diagonal blocks of A (same spectrum as P^-1 A).
SparseMatrix block_jacobi_scaled(const SparseMatrix& A)
{
    const Eigen::Index blocks = A.rows() / 3;
    std::vector<Eigen::Matrix3d> root_inverse(static_cast<std::size_t>(blocks));
    for (Eigen::Index b = 0; b < blocks; ++b) {
        const Eigen::Matrix3d P = Eigen::Matrix3d(A.block(3 * b, 3 * b, 3, 3));
        const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(P);
        root_inverse[std::size_t(b)]
            = eig.eigenvectors() * eig.eigenvalues().cwiseInverse().cwiseSqrt().asDiagonal() * eig.eigenvectors().transpose();
    }
    std::vector<Eigen::Triplet<double>> t;
    for (Eigen::Index j = 0; j < A.outerSize(); ++j) {
        for (SparseMatrix::InnerIterator it(A, j); it; ++it) {
            // (D A D)_{rc} = sum_{k,l} D_{rk} A_{kl} D_{lc} over the blocks of r and c.
            const Eigen::Index br = it.row() / 3, bc = it.col() / 3;
            for (int a = 0; a < 3; ++a) {
                for (int b = 0; b < 3; ++b) {
                    t.emplace_back(3 * br + a, 3 * bc + b,
                        root_inverse[std::size_t(br)](a, it.row() % 3) * it.value()
                            * root_inverse[std::size_t(bc)](it.col() % 3, b));
                }
            }
        }
    }
    SparseMatrix S(A.rows(), A.cols());
    S.setFromTriplets(t.begin(), t.end());
    return S;
}

/// lambda_max / lambda_min of a symmetric positive definite matrix; none when
/// Spectra does not converge.
std::optional<double> condition_number(const SparseMatrix& A)
{
    const Eigen::Index n = A.rows();
    const Eigen::Index ncv = std::min<Eigen::Index>(n, 30);
    if (n < 3) {
        return std::nullopt;
    }
    Spectra::SparseSymMatProd<double> product(A);
    Spectra::SymEigsSolver<Spectra::SparseSymMatProd<double>> largest(product, 1, ncv);
    largest.init();
    largest.compute(Spectra::SortRule::LargestAlge, 2000, 1e-8);
    Spectra::SparseSymShiftSolve<double> shift_solve(A);
    Spectra::SymEigsShiftSolver<Spectra::SparseSymShiftSolve<double>> smallest(shift_solve, 1, ncv, 0.0);
    smallest.init();
    smallest.compute(Spectra::SortRule::LargestMagn, 2000, 1e-8);
    if (largest.info() != Spectra::CompInfo::Successful || smallest.info() != Spectra::CompInfo::Successful) {
        return std::nullopt;
    }
    const double lo = smallest.eigenvalues()[0], hi = largest.eigenvalues()[0];
    return lo > 0 ? std::optional<double>(hi / lo) : std::nullopt;
}

struct StepConditioning {
    std::optional<double> kappa, preconditioned;
};

/// Over the coordinates of the simulated vertices: neither those the solver
/// held nor the scripted ones (which ipc_sim may pull with a stiff penalty).
StepConditioning measure(const SparseMatrix& H, std::vector<bool> held, const std::vector<bool>& kinematic)
{
    for (std::size_t v = 0; v < held.size(); ++v) {
        held[v] = held[v] || kinematic[v];
    }
    const SparseMatrix A = free_block(H, held);
    return { condition_number(A), condition_number(block_jacobi_scaled(A)) };
}

std::string show(const std::optional<double>& v) { return v ? fmt::format("{:.3g}", *v) : std::string("-"); }

} // namespace

int main(int argc, char** argv)
{
    CLI::App app("Condition numbers of the Newton matrices of IPC and AL on the compress scene (AL paper Fig. 24).",
        "conditioning");
    std::string size = "small";
    int frames = 0, every = 5;
    app.add_option("--size", size, "small or paper")->check(CLI::IsMember({ "small", "paper" }));
    app.add_option("--frames", frames, "time steps (default: the scene's)")->check(CLI::PositiveNumber);
    app.add_option("--every", every, "print every K-th step")->check(CLI::PositiveNumber);
    CLI11_PARSE(app, argc, argv);

    const Scene scene = make_scene("compress", size == "paper");
    const int steps = frames > 0 ? frames : scene.frames;
    fmt::print("compress ({}): {} vertices, {} tets, h = {} s, dhat = delta = {} m, {} steps\n", size,
        scene.model.num_vertices(), scene.model.tets.size(), scene.physics.dt, scene.physics.contact_gap, steps);

    SparseMatrix last_ipc, last_al;
    std::vector<bool> held_ipc, held_al;
    SolverParameters ipc_p = ipc_parameters(scene);
    ipc_p.newton_matrix_observer = [&](const SparseMatrix& H, const std::vector<bool>& held) {
        last_ipc = H;
        held_ipc = held;
    };
    AlParameters al_p = al_parameters(scene);
    al_p.newton_matrix_observer = [&](const SparseMatrix& H, const std::vector<bool>& held) {
        last_al = H;
        held_al = held;
    };
    const std::vector<bool> kinematic = scene.model.held();
    Simulator ipc_sim(scene.model, ipc_p);
    AlSimulator al_sim(scene.model, al_p);

    fmt::print("{:>5} {:>8} | {:>10} {:>12} {:>9} | {:>10} {:>12} {:>9} {:>8}\n", "step", "t (s)", "IPC k(H)",
        "IPC k(P^-1H)", "contacts", "AL k(H)", "AL k(P^-1H)", "constr.", "CG/solve");
    std::vector<double> log_ratio, log_ratio_preconditioned;
    long cg = 0, solves = 0;
    for (int s = 1; s <= steps; ++s) {
        const StepStats a = ipc_sim.step();
        const AlStepStats b = al_sim.step();
        cg += b.cg_iterations;
        solves += b.newton_iterations;
        const StepConditioning ci = measure(last_ipc, held_ipc, kinematic), ca = measure(last_al, held_al, kinematic);
        if (ci.kappa && ca.kappa) {
            log_ratio.push_back(std::log10(*ci.kappa / *ca.kappa));
        }
        if (ci.preconditioned && ca.preconditioned) {
            log_ratio_preconditioned.push_back(std::log10(*ci.preconditioned / *ca.preconditioned));
        }
        if (s % every == 0 || s == steps) {
            fmt::print("{:>5} {:>8.3f} | {:>10} {:>12} {:>9} | {:>10} {:>12} {:>9} {:>8.1f}\n", s, ipc_sim.time(),
                show(ci.kappa), show(ci.preconditioned), a.contacts, show(ca.kappa), show(ca.preconditioned),
                b.constraints, b.newton_iterations > 0 ? double(b.cg_iterations) / b.newton_iterations : 0.0);
        }
    }
    const auto mean = [](const std::vector<double>& v) {
        double sum = 0;
        for (const double x : v) {
            sum += x;
        }
        return v.empty() ? 0.0 : sum / double(v.size());
    };
    fmt::print("\nmean log10(IPC / AL): kappa(H) {:.2f}, kappa(P^-1 H) {:.2f} (over {} steps); AL CG iterations per "
               "solve {:.1f}\n",
        mean(log_ratio), mean(log_ratio_preconditioned), log_ratio.size(), solves > 0 ? double(cg) / double(solves) : 0.0);
    return 0;
}
