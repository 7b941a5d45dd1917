// StencilAssembly against a plain dense accumulation, on random stencil sets
// built to stress the tiled colouring: stencils of 1 to 4 vertices, counts
// that are not multiples of a tile, local neighbourhoods mixed with far
// vertices, and hub vertices that every tile touches. Then the assembly a
// Collisions set keeps between calls.

#include "../collisions/contact_scenes.hpp"

#include <ipc/collisions/collisions.hpp>
#include <ipc/potentials/barrier_potential.hpp>
#include <ipc/potentials/stencil_assembly.hpp>

#include <catch2/catch.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

namespace {

struct RandomStencils {
    ipc::Index num_vertices = 0;
    std::vector<ipc::StencilVertices> stencils;
};

/// Stencils whose first vertex walks through the mesh (as a collision set in
/// primitive order does) with the others nearby, far away, or a hub.
RandomStencils random_stencils(unsigned seed, ipc::Index num_vertices, ipc::Index num_stencils, int hubs)
{
    std::mt19937 generator(seed);
    std::uniform_int_distribution<ipc::Index> any(0, num_vertices - 1);
    std::uniform_int_distribution<int> size_of(1, 4), kind(0, 9), offset(1, 12);
    RandomStencils out;
    out.num_vertices = num_vertices;
    for (ipc::Index k = 0; k < num_stencils; ++k) {
        const ipc::Index walk = k * num_vertices / num_stencils;
        ipc::StencilVertices s;
        s.size = size_of(generator);
        std::vector<ipc::Index> chosen;
        while (int(chosen.size()) < s.size) {
            const int what = kind(generator);
            ipc::Index v = what < 6 ? std::min(num_vertices - 1, walk + offset(generator))
                                    : (what < 8 || hubs == 0 ? any(generator) : ipc::Index(what - 8) % hubs);
            if (chosen.empty()) {
                v = walk;
            }
            if (std::find(chosen.begin(), chosen.end(), v) == chosen.end()) {
                chosen.push_back(v);
            }
        }
        std::copy(chosen.begin(), chosen.end(), s.vertices.begin());
        out.stencils.push_back(s);
    }
    return out;
}

/// A symmetric local Hessian and a local gradient that depend on k only.
void local_terms(ipc::Index k, ipc::Matrix<double, 12, 12>& H, ipc::Vector<double, 12>& g)
{
    std::mt19937 generator(unsigned(1000 + k));
    std::uniform_real_distribution<double> uniform(-1, 1);
    for (int i = 0; i < 12; ++i) {
        g(i) = uniform(generator);
        for (int j = 0; j <= i; ++j) {
            H(i, j) = H(j, i) = uniform(generator);
        }
    }
}

struct Assembled {
    Eigen::VectorXd gradient;
    Eigen::SparseMatrix<double> hessian;
};

Assembled assemble(const RandomStencils& set, int dim)
{
    const ipc::StencilAssembly assembly(set.num_vertices, ipc::Index(set.stencils.size()),
                                        [&](ipc::Index k) { return set.stencils[size_t(k)]; }, dim);
    Assembled out;
    out.gradient = assembly.gradient([](ipc::Index k, ipc::Vector<double, 12>& g) {
        ipc::Matrix<double, 12, 12> H;
        local_terms(k, H, g);
    });
    out.hessian = assembly.hessian([](ipc::Index k, ipc::Matrix<double, 12, 12>& H) {
        ipc::Vector<double, 12> g;
        local_terms(k, H, g);
    });
    return out;
}

/// The same sums accumulated densely, stencil after stencil.
void dense_reference(const RandomStencils& set, int dim, Eigen::VectorXd& g, Eigen::MatrixXd& H)
{
    const ipc::Index n = dim * set.num_vertices;
    g = Eigen::VectorXd::Zero(n);
    H = Eigen::MatrixXd::Zero(n, n);
    for (size_t k = 0; k < set.stencils.size(); ++k) {
        const ipc::StencilVertices& s = set.stencils[k];
        ipc::Matrix<double, 12, 12> local_H;
        ipc::Vector<double, 12> local_g;
        local_terms(ipc::Index(k), local_H, local_g);
        for (int a = 0; a < s.size; ++a) {
            g.segment(dim * s.vertices[size_t(a)], dim) += local_g.segment(3 * a, dim);
            for (int b = 0; b < s.size; ++b) {
                H.block(dim * s.vertices[size_t(a)], dim * s.vertices[size_t(b)], dim, dim)
                    += local_H.block(3 * a, 3 * b, dim, dim);
            }
        }
    }
}

} // namespace

TEST_CASE("StencilAssembly equals a dense accumulation, bit-identically for any thread count",
          "[potentials][assembly][threads]")
{
    struct Case {
        unsigned seed;
        ipc::Index vertices, stencils;
        int hubs, dim;
    };
    // Fewer stencils than a tile, a few tiles, many tiles with and without
    // hubs, and 2D.
    const Case cases[] = { { 1, 40, 50, 0, 3 },       { 2, 300, 1001, 0, 3 }, { 3, 600, 3333, 2, 3 },
                           { 4, 600, 4000, 0, 3 },    { 5, 500, 2717, 1, 2 } };
    for (const Case& c : cases) {
        CAPTURE(c.seed, c.vertices, c.stencils, c.hubs, c.dim);
        const RandomStencils set = random_stencils(c.seed, c.vertices, c.stencils, c.hubs);
        Eigen::VectorXd g_ref;
        Eigen::MatrixXd H_ref;
        dense_reference(set, c.dim, g_ref, H_ref);
#if IPC_HAS_OPENMP
        const int saved = omp_get_max_threads();
        omp_set_num_threads(1);
#endif
        const Assembled serial = assemble(set, c.dim);
#if IPC_HAS_OPENMP
        omp_set_num_threads(4);
#endif
        const Assembled parallel = assemble(set, c.dim);
#if IPC_HAS_OPENMP
        omp_set_num_threads(saved);
#endif
        // Against the reference: the same terms, summed in another order.
        const double scale = H_ref.cwiseAbs().maxCoeff();
        CHECK((Eigen::MatrixXd(serial.hessian) - H_ref).cwiseAbs().maxCoeff() <= 1e-13 * scale);
        CHECK((serial.gradient - g_ref).cwiseAbs().maxCoeff() <= 1e-13 * g_ref.cwiseAbs().maxCoeff());
        // The pattern holds exactly the vertex pairs that share a stencil.
        CHECK(serial.hessian.nonZeros() == (H_ref.array() != 0).count());
        // Thread counts: the same bits.
        CHECK((serial.gradient.array() == parallel.gradient.array()).all());
        REQUIRE(serial.hessian.nonZeros() == parallel.hessian.nonZeros());
        CHECK(std::equal(serial.hessian.valuePtr(), serial.hessian.valuePtr() + serial.hessian.nonZeros(),
                         parallel.hessian.valuePtr()));
        CHECK(std::equal(serial.hessian.innerIndexPtr(), serial.hessian.innerIndexPtr() + serial.hessian.nonZeros(),
                         parallel.hessian.innerIndexPtr()));
        // Written again into a matrix of the same pattern whose values are
        // all NaN: no value is read before it is written (the first stencil
        // to reach a block assigns it), so the result is the same.
        const ipc::StencilAssembly assembly(set.num_vertices, ipc::Index(set.stencils.size()),
                                            [&](ipc::Index k) { return set.stencils[size_t(k)]; }, c.dim);
        Eigen::SparseMatrix<double> poisoned = serial.hessian;
        std::fill(poisoned.valuePtr(), poisoned.valuePtr() + poisoned.nonZeros(), std::numeric_limits<double>::quiet_NaN());
        assembly.hessian([](ipc::Index k, ipc::Matrix<double, 12, 12>& H) {
            ipc::Vector<double, 12> g;
            local_terms(k, H, g);
        }, poisoned);
        REQUIRE(poisoned.nonZeros() == serial.hessian.nonZeros());
        CHECK(std::equal(poisoned.valuePtr(), poisoned.valuePtr() + poisoned.nonZeros(), serial.hessian.valuePtr()));
    }
}

TEST_CASE("A Collisions set keeps its stencils' assembly only while the stencils stay the same",
          "[potentials][assembly][cache]")
{
    Eigen::MatrixXd V(0, 3);
    Eigen::MatrixXi E(0, 2), F(0, 3);
    ipc::test::add_sheet(V, F, 20, 20, 1.0, 0.0, 0.01);
    ipc::test::add_sheet(V, F, 20, 20, 1.0, 0.02, 0.01, { 0.013, 0.004 });
    ipc::test::jitter(V, 0.002, 5);
    const ipc::CollisionMesh mesh(V, E, F);
    const double dhat = 0.03;
    const ipc::BarrierPotential<> barrier(dhat);
    ipc::Collisions collisions;
    collisions.build(mesh, V, dhat);
    REQUIRE(collisions.face_vertex.size() > 10);
    REQUIRE(collisions.edge_edge.size() > 10);

    const ipc::Index nv = mesh.num_vertices();
    const auto vertices_of = [&](ipc::Index k) { return ipc::detail::collision_stencil_vertices(collisions, k, nv, "test"); };
    const auto kept = [&] {
        return collisions.stencil_assembly_cache().get(nv, ipc::Index(collisions.size()), vertices_of, 3, false);
    };
    // A fresh set (no kept assembly) at the same positions, for reference.
    const auto fresh_hessian = [&](const ipc::Collisions& set) {
        ipc::Collisions copy = set;
        copy.stencil_assembly_cache().clear();
        return Eigen::MatrixXd(barrier.hessian(copy, mesh, V, ipc::PSDProjection::clamp));
    };

    Eigen::SparseMatrix<double> H;
    barrier.hessian(collisions, mesh, V, ipc::PSDProjection::clamp, H);
    const auto first = kept();
    // Unchanged stencils (also after a rebuild in place): the same assembly.
    barrier.hessian(collisions, mesh, V, ipc::PSDProjection::clamp, H);
    collisions.build(mesh, V, dhat);
    CHECK(kept() == first);
    CHECK(Eigen::MatrixXd(H) == fresh_hessian(collisions));

    // Stencils changed by hand: a pair removed, then a vertex of one
    // replaced. Each time a new assembly and the fresh set's Hessian.
    collisions.face_vertex.pop_back();
    barrier.hessian(collisions, mesh, V, ipc::PSDProjection::clamp, H);
    const auto second = kept();
    CHECK(second != first);
    CHECK(Eigen::MatrixXd(H) == fresh_hessian(collisions));
    std::swap(collisions.edge_edge.front(), collisions.edge_edge.back());
    barrier.hessian(collisions, mesh, V, ipc::PSDProjection::clamp, H);
    CHECK(kept() != second);
    CHECK(Eigen::MatrixXd(H) == fresh_hessian(collisions));

    // Another vertex count or dimension (same stencils): rebuilt too.
    const auto third = kept();
    CHECK(collisions.stencil_assembly_cache().get(nv + 1, ipc::Index(collisions.size()), vertices_of, 3, false) != third);
    CHECK(collisions.stencil_assembly_cache().get(nv, ipc::Index(collisions.size()), vertices_of, 2, false)->dim() == 2);

    // A copy shares the kept assembly; clear() drops it.
    const auto fourth = kept();
    const ipc::Collisions copy = collisions;
    CHECK(copy.stencil_assembly_cache().get(nv, ipc::Index(copy.size()), vertices_of, 3, false) == fourth);
    const std::weak_ptr<const ipc::StencilAssembly> watch = fourth;
    collisions.clear();
    copy.stencil_assembly_cache().clear();
    CHECK(watch.use_count() == 1); // only `fourth` still holds it
}

TEST_CASE("A triangular Hessian holds the full Hessian's entries of that triangle bit for bit",
          "[potentials][assembly][threads]")
{
    struct Case {
        unsigned seed;
        ipc::Index vertices, stencils;
        int hubs, dim;
    };
    const Case cases[] = { { 11, 40, 50, 0, 3 }, { 12, 600, 3333, 2, 3 }, { 13, 500, 2717, 1, 2 } };
    for (const Case& c : cases) {
        CAPTURE(c.seed, c.dim);
        RandomStencils set = random_stencils(c.seed, c.vertices, c.stencils, c.hubs);
        // A stencil that names one vertex twice (its blocks meet on the
        // diagonal), and vertices in no stencil (their columns stay empty).
        set.stencils.push_back({ { 7, 3, 7, 0 }, 3 });
        set.num_vertices += 5;
        const ipc::StencilAssembly assembly(set.num_vertices, ipc::Index(set.stencils.size()),
                                            [&](ipc::Index k) { return set.stencils[size_t(k)]; }, c.dim);
        const auto local = [](ipc::Index k, ipc::Matrix<double, 12, 12>& H) {
            ipc::Vector<double, 12> g;
            local_terms(k, H, g);
        };
        const Eigen::SparseMatrix<double> full = assembly.hessian(local);
        for (const ipc::SparseTriangle triangle : { ipc::SparseTriangle::upper, ipc::SparseTriangle::lower })
        for (const int threads : { 1, 4 }) {
            const bool is_upper = triangle == ipc::SparseTriangle::upper;
            const Eigen::SparseMatrix<double> expected = is_upper ? Eigen::SparseMatrix<double>(full.triangularView<Eigen::Upper>())
                                                                  : Eigen::SparseMatrix<double>(full.triangularView<Eigen::Lower>());
#if IPC_HAS_OPENMP
            const int saved = omp_get_max_threads();
            omp_set_num_threads(threads);
#endif
            // Into a matrix whose values are NaN: every stored entry is written.
            Eigen::SparseMatrix<double> upper = expected;
            std::fill(upper.valuePtr(), upper.valuePtr() + upper.nonZeros(), std::numeric_limits<double>::quiet_NaN());
            assembly.hessian(local, upper, triangle);
#if IPC_HAS_OPENMP
            omp_set_num_threads(saved);
#endif
            CAPTURE(threads, is_upper);
            REQUIRE(upper.nonZeros() == expected.nonZeros());
            REQUIRE(upper.isCompressed());
            CHECK(std::equal(upper.outerIndexPtr(), upper.outerIndexPtr() + upper.outerSize() + 1,
                             expected.outerIndexPtr()));
            CHECK(std::equal(upper.innerIndexPtr(), upper.innerIndexPtr() + upper.nonZeros(), expected.innerIndexPtr()));
            CHECK(std::equal(upper.valuePtr(), upper.valuePtr() + upper.nonZeros(), expected.valuePtr()));
        }
        // Read as a symmetric matrix, it is the full one.
        const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(full.cols(), -1.0, 2.0);
        const Eigen::SparseMatrix<double> upper = assembly.hessian(local, ipc::SparseTriangle::upper);
        const Eigen::SparseMatrix<double> lower = assembly.hessian(local, ipc::SparseTriangle::lower);
        const Eigen::VectorXd y_full = full * x, y_upper = upper.selfadjointView<Eigen::Upper>() * x,
                              y_lower = lower.selfadjointView<Eigen::Lower>() * x;
        CHECK((y_full - y_upper).cwiseAbs().maxCoeff() <= 1e-12 * y_full.cwiseAbs().maxCoeff());
        CHECK((y_full - y_lower).cwiseAbs().maxCoeff() <= 1e-12 * y_full.cwiseAbs().maxCoeff());
    }
}
