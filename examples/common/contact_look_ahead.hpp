#pragma once
/// @file
/// Contact look-ahead for barrier Newton solvers: the pairs that a Newton
/// step would have driven into contact, had CCD not cut it short, stiffen
/// the next Newton matrices along their normals.
///
/// Why. The barrier acts only within dhat, so a Newton direction ignores
/// every pair that is farther apart. In dense contact (particles landing on
/// a pile, layers of cloth settling) each direction drives many such pairs
/// into one another; CCD then cuts the whole step to the first of them, and
/// the iterate creeps: one contact at a time, each cut step moving every
/// other unknown by the same small fraction.
///
/// What. After a step that CCD cut below resolve_below (a fifth) of its
/// length, every pair that the full step would bring into contact
/// (ipc::collision_hits, toi t < 1) gets a term
///     k (grad d)(grad d)^T
/// in the following Newton matrices, d the pair's distance. Along its normal
/// the pair then approaches by about `approach` times its gap instead of
/// 1/t times it: with s = m_eff + k_before (m_eff the pair's effective mass
/// along grad d, 1 / sum_i |grad_i d|^2 / m_i over its free vertices),
/// k = s / (approach t) - m_eff. A pair hit again gets stiffer; the others
/// keep their terms while steps are cut. A milder cut, or none, divides
/// every stiffness by ten, and a pair below 1% of m_eff leaves.
///
/// What it keeps. The terms are positive semi-definite and enter only the
/// Newton matrix, not the gradient or the energy: the direction is still a
/// descent direction of the incremental potential, which the line search
/// still decreases, and a fixed point is still a stationary point of it.
/// Only a direction solved without look-ahead terms may count toward
/// termination (the solver clears the set when a stiffened direction's
/// residual is below the tolerance).
///
/// How well it works is measured, scene by scene, in docs/example-solvers.md
/// (section "Contact look-ahead"): fewer Newton iterations where piles land
/// and where cloth settles in layers, more on some scenes with persistent
/// sliding contact. It is a heuristic on the Newton matrix, not part of the
/// IPC papers.

#include <ipc/collisions/collision_hit.hpp>
#include <ipc/collisions/detail/parallel_blocks.hpp>
#include <ipc/collisions/pair_distance.hpp>
#include <ipc/collisions/pair_id.hpp>
#include <ipc/core/error.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/obstacles/obstacle_set.hpp>
#include <ipc/potentials/stencil_assembly.hpp>

#include <Eigen/Core>
#include <Eigen/Sparse>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

namespace ipc::examples {

/// The look-ahead pairs of one Newton solve and their stiffnesses.
class ContactLookAhead {
public:
    /// approach: the share of its gap that a hit pair may close in one
    /// direction, in (0, 1).
    explicit ContactLookAhead(double approach = 0.5)
        : approach_(approach)
    {
        require(std::isfinite(approach) && approach > 0 && approach < 1,
                "contact look-ahead: approach must be in (0, 1), got ", approach);
    }

    /// A direction that CCD cuts below this fraction of its length stiffens
    /// the pairs it hit; the solvers then solve it again at once.
    static constexpr double resolve_below = 0.2;

    /// Number of pairs with a look-ahead term.
    std::size_t size() const { return pairs_.size(); }
    /// True when no pair has a look-ahead term (the Newton matrix is the
    /// incremental potential's).
    bool empty() const { return pairs_.empty(); }
    /// Removes every term.
    void clear()
    {
        pairs_.clear();
        assembly_.reset();
    }

    /// Records the hits of a step taken from x. When CCD cut the step below
    /// resolve_below (bound), each hit pair's stiffness grows as described in
    /// the file comment and the other pairs keep theirs; otherwise every
    /// stiffness is divided by ten and the pairs below 1% of their effective
    /// mass leave.
    /// @param hits     collision_hits (and obstacle hits) of the full step,
    ///                 sorted by pair (one hit per pair)
    /// @param bound    the step's collision-free bound (earliest_toi of hits)
    /// @param mesh     the collision mesh the hits name
    /// @param obstacles the analytic obstacles vertex-obstacle hits name
    /// @param x        positions at the start of the step (n x dim, m)
    /// @param mass     lumped mass per vertex (kg)
    /// @param locked   true for vertices outside the Newton unknowns
    void update(const std::vector<CollisionHit>& hits, double bound, const CollisionMesh& mesh,
                const ObstacleSet& obstacles, const Eigen::MatrixXd& x, const Eigen::VectorXd& mass,
                const std::vector<bool>& locked)
    {
        if (hits.empty() || !(bound < resolve_below)) {
            decay();
            return;
        }
        // Effective masses in parallel (one distance kernel per hit), then
        // merge the sorted hits into the sorted pairs.
        std::vector<double> masses(hits.size());
        ipc::detail::guarded_parallel_for(0, std::ptrdiff_t(hits.size()), [&](std::ptrdiff_t i) {
            const CollisionHit& hit = hits[std::size_t(i)];
            masses[std::size_t(i)] = effective_mass(pair_distance(mesh, x, hit.pair, obstacles), mass, locked);
        }, min_parallel_stencils);
        std::vector<Pair> next;
        next.reserve(pairs_.size() + hits.size());
        auto old = pairs_.begin();
        for (std::size_t i = 0; i < hits.size(); ++i) {
            const CollisionHit& hit = hits[i];
            while (old != pairs_.end() && old->pair < hit.pair) {
                next.push_back(*old);
                ++old;
            }
            double before = 0;
            if (old != pairs_.end() && old->pair == hit.pair) {
                before = old->stiffness;
                ++old;
            }
            const double m = masses[i];
            if (!(m > 0)) {
                continue; // every vertex of the pair is locked
            }
            const double t = std::max(hit.toi, min_toi);
            const double k = std::min((m + before) / (approach_ * t) - m, max_ratio * m);
            if (k >= 0.01 * m || before > 0) {
                next.push_back({ hit.pair, std::max(k, before), m });
            }
        }
        next.insert(next.end(), old, pairs_.end());
        if (next.size() != pairs_.size()) { // pairs only join here
            assembly_.reset();
        }
        pairs_ = std::move(next);
    }

    /// The look-ahead terms at x as the lower triangle of a dim n x dim n
    /// sparse matrix. Rows and columns of locked vertices may hold entries
    /// (hold_dofs removes them). The pairs are scattered in parallel into a
    /// pattern kept until the set of pairs changes.
    Eigen::SparseMatrix<double> hessian(const CollisionMesh& mesh, const ObstacleSet& obstacles,
                                        const Eigen::MatrixXd& x) const
    {
        const int dim = int(x.cols());
        if (!assembly_) {
            assembly_ = std::make_shared<StencilAssembly>(x.rows(), Index(pairs_.size()), [&](Index k) {
                const PairVertices v = pair_vertices(mesh, pairs_[std::size_t(k)].pair);
                StencilVertices s;
                s.size = v.count;
                std::copy(v.vertices.begin(), v.vertices.begin() + v.count, s.vertices.begin());
                return s;
            }, dim);
        }
        Eigen::SparseMatrix<double> H;
        assembly_->hessian([&](Index k, Matrix<double, 12, 12>& out) {
            const Pair& p = pairs_[std::size_t(k)];
            const PairDistance pd = pair_distance(mesh, x, p.pair, obstacles);
            const int n = 3 * pd.stencil.count;
            out.topLeftCorner(n, n).noalias() = p.stiffness * pd.gradient.head(n) * pd.gradient.head(n).transpose();
        }, H, SparseTriangle::lower);
        return H;
    }

private:
    struct Pair {
        PairId pair;
        double stiffness = 0;      ///< k (kg)
        double effective_mass = 0; ///< m_eff (kg)
    };

    static constexpr double min_toi = 1e-6;  ///< hits earlier than this count as this
    static constexpr double max_ratio = 1e6; ///< k is at most this times m_eff

    /// Divides every stiffness by ten and drops the pairs below 1% of their
    /// effective mass.
    void decay()
    {
        for (Pair& p : pairs_) {
            p.stiffness /= 10;
        }
        const auto kept = std::remove_if(pairs_.begin(), pairs_.end(),
                                         [](const Pair& p) { return p.stiffness < 0.01 * p.effective_mass; });
        if (kept != pairs_.end()) { // pairs only leave here
            pairs_.erase(kept, pairs_.end());
            assembly_.reset();
        }
    }

    /// 1 / sum_i |grad_i d|^2 / m_i over the free vertices (0 when none).
    static double effective_mass(const PairDistance& pd, const Eigen::VectorXd& mass, const std::vector<bool>& locked)
    {
        double inverse = 0;
        for (int a = 0; a < pd.stencil.count; ++a) {
            const Index v = pd.stencil.vertices[std::size_t(a)];
            if (!locked[std::size_t(v)] && mass[v] > 0) {
                inverse += pd.gradient.segment<3>(3 * a).squaredNorm() / mass[v];
            }
        }
        return inverse > 0 ? 1 / inverse : 0;
    }

    double approach_;
    std::vector<Pair> pairs_; ///< sorted by pair id
    mutable std::shared_ptr<StencilAssembly> assembly_; ///< the pairs' stencils and Hessian pattern
};

} // namespace ipc::examples
