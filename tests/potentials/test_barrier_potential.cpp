// The mesh-level barrier potential: agreement with the sum of stencil terms,
// finite differences, PSD projection, stiffness, determinism, validation.

#include "../collisions/contact_scenes.hpp"

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <catch2/catch.hpp>
#include <reference_eigen.hpp>
#include <finite_differences.hpp>
#include <vertex_map_reference.hpp>

#include <Eigen/Dense>

#include <limits>
#include <string>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

namespace {

Eigen::MatrixXd unflatten(const Eigen::VectorXd& x) // 3 per vertex -> n x 3
{
    Eigen::MatrixXd V(x.size() / 3, 3);
    for (Eigen::Index i = 0; i < V.rows(); ++i) {
        V.row(i) = x.segment<3>(3 * i).transpose();
    }
    return V;
}

Eigen::VectorXd flatten(const Eigen::MatrixXd& V)
{
    Eigen::VectorXd x(V.size());
    for (Eigen::Index i = 0; i < V.rows(); ++i) {
        x.segment<3>(3 * i) = V.row(i).transpose();
    }
    return x;
}

// Dense sums of the stencil-level terms, written independently of the
// potential's assembly.
struct DenseSums {
    double energy = 0;
    Eigen::VectorXd gradient;
    Eigen::MatrixXd hessian;
};

DenseSums stencil_sums(const ipc::BarrierPotential<>& barrier, const ipc::Collisions& collisions,
                       const Eigen::MatrixXd& V, ipc::PSDProjection projection)
{
    DenseSums sums;
    sums.gradient = Eigen::VectorXd::Zero(V.size());
    sums.hessian = Eigen::MatrixXd::Zero(V.size(), V.size());
    const auto add = [&](const auto& c) {
        const auto x = ipc::detail::gather_positions(V, c.vertices);
        sums.energy += barrier.stencil_energy(c, x);
        const auto g = barrier.stencil_gradient(c, x);
        const auto H = barrier.stencil_hessian(c, x, projection);
        for (std::size_t a = 0; a < c.vertices.size(); ++a) {
            sums.gradient.segment<3>(3 * c.vertices[a]) += g.template segment<3>(3 * int(a));
            for (std::size_t b = 0; b < c.vertices.size(); ++b) {
                sums.hessian.block<3, 3>(3 * c.vertices[a], 3 * c.vertices[b]) +=
                    H.template block<3, 3>(3 * int(a), 3 * int(b));
            }
        }
    };
    for (const auto& c : collisions.vertex_vertex) add(c);
    for (const auto& c : collisions.edge_vertex) add(c);
    for (const auto& c : collisions.edge_edge) add(c);
    for (const auto& c : collisions.face_vertex) add(c);
    return sums;
}

} // namespace

TEST_CASE("Barrier potential equals the sum of its stencil terms", "[potentials][barrier]")
{
    for (const double radius : { 0.0, 0.003 }) {
        for (const auto& scene : ipc::test::mixed_scenes(radius, true)) {
            const double dhat = 0.05;
            ipc::Collisions collisions;
            collisions.build(scene.mesh, scene.V, dhat);
            REQUIRE(!collisions.empty());
            const ipc::BarrierPotential<> barrier(dhat, 7.5);
            for (const auto projection : { ipc::PSDProjection::none, ipc::PSDProjection::clamp }) {
                const DenseSums sums = stencil_sums(barrier, collisions, scene.V, projection);
                CHECK(barrier(collisions, scene.mesh, scene.V) == Approx(sums.energy).epsilon(1e-12));
                const Eigen::VectorXd g = barrier.gradient(collisions, scene.mesh, scene.V);
                CHECK(ipc::test::fd_close(g, sums.gradient, 1e-12));
                const Eigen::MatrixXd H = Eigen::MatrixXd(barrier.hessian(collisions, scene.mesh, scene.V, projection));
                CHECK(ipc::test::fd_close(H, sums.hessian, 1e-12));
            }
        }
    }
}

TEST_CASE("Barrier potential derivatives match finite differences", "[potentials][barrier]")
{
    for (const double radius : { 0.0, 0.003 }) {
        const auto scenes = ipc::test::mixed_scenes(radius, true);
        for (std::size_t s = 0; s < scenes.size(); ++s) {
            INFO("radius " << radius << " scene " << s);
            const auto& scene = scenes[s];
            const double dhat = 0.05;
            ipc::Collisions collisions;
            collisions.build(scene.mesh, scene.V, dhat);
            const ipc::BarrierPotential<> barrier(dhat, 2.0);
            const Eigen::VectorXd x = flatten(scene.V);
            const auto energy = [&](const Eigen::VectorXd& y) { return barrier(collisions, scene.mesh, unflatten(y)); };
            const auto gradient = [&](const Eigen::VectorXd& y) {
                return barrier.gradient(collisions, scene.mesh, unflatten(y));
            };
            const Eigen::VectorXd g = gradient(x);
            REQUIRE(g.norm() > 0);
            CHECK(ipc::test::fd_close(g, ipc::test::fd_gradient(energy, x, 1e-7), 1e-5));
            const Eigen::MatrixXd H = Eigen::MatrixXd(barrier.hessian(collisions, scene.mesh, scene.V));
            CHECK(ipc::test::fd_close(H, ipc::test::fd_jacobian(gradient, x, 1e-7), 1e-5));
            CHECK((H - H.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * H.cwiseAbs().maxCoeff());
        }
    }
}

TEST_CASE("Projected barrier Hessian is positive semi-definite", "[potentials][barrier]")
{
    for (const auto& scene : ipc::test::mixed_scenes()) {
        ipc::Collisions collisions;
        collisions.build(scene.mesh, scene.V, 0.05);
        const ipc::BarrierPotential<> barrier(0.05);
        const Eigen::MatrixXd plain = Eigen::MatrixXd(barrier.hessian(collisions, scene.mesh, scene.V));
        const Eigen::VectorXd plain_eigenvalues = ipc::test::reference_eigenvalues(plain);
        CHECK(plain_eigenvalues.minCoeff() < 0); // the raw barrier Hessian is indefinite here
        for (const auto projection : { ipc::PSDProjection::clamp, ipc::PSDProjection::abs }) {
            const Eigen::MatrixXd H = Eigen::MatrixXd(barrier.hessian(collisions, scene.mesh, scene.V, projection));
            const Eigen::VectorXd eigenvalues = ipc::test::reference_eigenvalues(H);
            CHECK(eigenvalues.minCoeff() >= -1e-10 * eigenvalues.cwiseAbs().maxCoeff());
        }
    }
}

TEST_CASE("Stencil projection equals the eigenvalue clamp of the full stencil Hessian", "[potentials][barrier]")
{
    int checked = 0;
    for (const auto& scene : ipc::test::mixed_scenes(0.002)) {
        ipc::Collisions collisions;
        collisions.build(scene.mesh, scene.V, 0.05);
        const ipc::BarrierPotential<> barrier(0.05);
        const auto check = [&](const auto& c) {
            const auto x = ipc::detail::gather_positions(scene.V, c.vertices);
            const auto H = barrier.stencil_hessian(c, x);
            for (const auto projection : { ipc::PSDProjection::clamp, ipc::PSDProjection::abs }) {
                const auto expected = ipc::project_to_psd(H, projection);
                const auto actual = barrier.stencil_hessian(c, x, projection);
                CHECK(ipc::test::fd_close(actual, expected, 1e-9));
            }
            ++checked;
        };
        for (const auto& c : collisions.vertex_vertex) check(c);
        for (const auto& c : collisions.edge_vertex) check(c);
        for (const auto& c : collisions.edge_edge) check(c);
        for (const auto& c : collisions.face_vertex) check(c);
    }
    CHECK(checked > 50);
}

TEST_CASE("Barrier stiffness scales everything; far pairs contribute nothing", "[potentials][barrier]")
{
    const auto scene = ipc::test::mixed_scenes().front();
    ipc::Collisions collisions;
    collisions.build(scene.mesh, scene.V, 0.05);
    const ipc::BarrierPotential<> one(0.05, 1.0), three(0.05, 3.0);
    CHECK(three(collisions, scene.mesh, scene.V) == Approx(3 * one(collisions, scene.mesh, scene.V)).epsilon(1e-14));
    CHECK(ipc::test::fd_close(three.gradient(collisions, scene.mesh, scene.V),
                              3 * one.gradient(collisions, scene.mesh, scene.V), 1e-14));
    // A dhat other than the build's is a mistake, not a smaller barrier.
    const ipc::BarrierPotential<> tiny(1e-6);
    CHECK_THROWS_AS(tiny(collisions, scene.mesh, scene.V), ipc::invalid_argument);
    CHECK_THROWS_AS(tiny.gradient(collisions, scene.mesh, scene.V), ipc::invalid_argument);
    // Empty set: zero energy, zero gradient, empty 3n x 3n Hessian.
    const ipc::Collisions none;
    CHECK(one(none, scene.mesh, scene.V) == 0.0);
    CHECK(one.gradient(none, scene.mesh, scene.V).size() == scene.V.size());
    const Eigen::SparseMatrix<double> H = one.hessian(none, scene.mesh, scene.V);
    CHECK(H.rows() == scene.V.size());
    CHECK(H.nonZeros() == 0);
}

TEST_CASE("Barrier potential is identical for 1 and many threads", "[potentials][barrier][threads]")
{
    Eigen::MatrixXd V(0, 3);
    Eigen::MatrixXi E(0, 2), F(0, 3);
    ipc::test::add_sheet(V, F, 30, 30, 1.0, 0.0, 0.01);
    ipc::test::add_sheet(V, F, 30, 30, 1.0, 0.02, 0.01, { 0.011, 0.007 });
    ipc::test::jitter(V, 0.002, 9);
    const ipc::CollisionMesh mesh(V, E, F);
    ipc::Collisions collisions;
    collisions.build(mesh, V, 0.03);
    REQUIRE(collisions.size() > 1000);
    const ipc::BarrierPotential<> barrier(0.03);
    const auto evaluate = [&](int threads) {
#if IPC_HAS_OPENMP
        omp_set_num_threads(threads);
#else
        (void)threads;
#endif
        return std::make_tuple(barrier(collisions, mesh, V), barrier.gradient(collisions, mesh, V),
                               barrier.hessian(collisions, mesh, V, ipc::PSDProjection::clamp));
    };
#if IPC_HAS_OPENMP
    const int saved = omp_get_max_threads();
#endif
    const auto serial = evaluate(1);
    const auto parallel = evaluate(4);
#if IPC_HAS_OPENMP
    omp_set_num_threads(saved);
#endif
    CHECK(std::get<0>(serial) == std::get<0>(parallel));
    CHECK((std::get<1>(serial).array() == std::get<1>(parallel).array()).all());
    const Eigen::SparseMatrix<double>& A = std::get<2>(serial);
    const Eigen::SparseMatrix<double>& B = std::get<2>(parallel);
    REQUIRE(A.nonZeros() == B.nonZeros());
    CHECK(std::equal(A.valuePtr(), A.valuePtr() + A.nonZeros(), B.valuePtr()));
    CHECK(std::equal(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros(), B.innerIndexPtr()));
}

TEST_CASE("Barrier potential rejects bad input", "[potentials][barrier][validation]")
{
    CHECK_THROWS_AS(ipc::BarrierPotential<>(0.0), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::BarrierPotential<>(0.1, -1.0), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::BarrierPotential<>(std::numeric_limits<double>::infinity()), ipc::invalid_argument);
    const auto scene = ipc::test::mixed_scenes().front();
    ipc::Collisions collisions;
    collisions.build(scene.mesh, scene.V, 0.05);
    REQUIRE(!collisions.face_vertex.empty());
    const ipc::BarrierPotential<> barrier(0.05);
    Eigen::MatrixXd bad = scene.V;
    bad(0, 2) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_AS(barrier(collisions, scene.mesh, bad), ipc::invalid_argument);
    CHECK_THROWS_AS(barrier.gradient(collisions, scene.mesh, scene.V.topRows(5)), ipc::invalid_argument);
    // Move a point of a point-triangle pair onto the triangle's plane
    // (exactly: onto its first corner): penetration.
    const auto& c = collisions.face_vertex.front();
    Eigen::MatrixXd flat = scene.V;
    flat.row(c.vertices[0]) = scene.V.row(c.vertices[1]);
    CHECK_THROWS_AS(barrier(collisions, scene.mesh, flat), ipc::penetration);
    CHECK_THROWS_AS(barrier.hessian(collisions, scene.mesh, flat), ipc::penetration);
    // Stencils referring to vertices the mesh does not have.
    ipc::Collisions wrong = collisions;
    wrong.vertex_vertex.push_back({});
    wrong.vertex_vertex.back().vertices = { { 0, scene.mesh.num_vertices() } };
    CHECK_THROWS_AS(barrier.gradient(wrong, scene.mesh, scene.V), ipc::invalid_argument);
}

TEST_CASE("The Hessian's penetration check reports the stencil the energy's reports",
          "[potentials][barrier][validation]")
{
    // The Hessian checks penetration in its own pass over the stencils (from
    // the squared distance its factors give). For a stencil of each type, in
    // scenes without and with offsets, move its first vertex onto the first
    // vertex of the other primitive (distance exactly 0): every call must
    // throw ipc::penetration naming the same first offender as the energy.
    const auto report = [](const auto& call) {
        try {
            call();
        } catch (const ipc::penetration& e) {
            const std::string what = e.what();
            const std::size_t at = what.find("contact stencil");
            return at == std::string::npos ? what : what.substr(at);
        }
        return std::string("nothing thrown");
    };
    int checked = 0;
    for (const double radius : { 0.0, 0.004 }) {
        for (const auto& scene : ipc::test::mixed_scenes(radius)) {
            ipc::Collisions collisions;
            collisions.build(scene.mesh, scene.V, 0.05);
            const ipc::BarrierPotential<> barrier(0.05);
            const auto check_first_of = [&](const auto& list, const char* kind, int other) {
                if (list.empty()) {
                    return;
                }
                const auto& ids = list.front().vertices;
                Eigen::MatrixXd V = scene.V;
                V.row(ids[0]) = scene.V.row(ids[std::size_t(other)]);
                const std::string expected = report([&] { (void)barrier(collisions, scene.mesh, V); });
                INFO(kind << ", radius " << radius << ": " << expected);
                REQUIRE(expected.rfind("contact stencil", 0) == 0);
                CHECK(report([&] { (void)barrier.hessian(collisions, scene.mesh, V); }) == expected);
                Eigen::SparseMatrix<double> kept;
                CHECK(report([&] { barrier.hessian(collisions, scene.mesh, V, ipc::PSDProjection::clamp, kept); })
                      == expected);
                CHECK(report([&] { (void)barrier.gradient(collisions, scene.mesh, V); }) == expected);
                ++checked;
            };
            check_first_of(collisions.vertex_vertex, "vertex-vertex", 1); // onto the other point
            check_first_of(collisions.edge_vertex, "edge-vertex", 1);     // onto the edge's start
            check_first_of(collisions.edge_edge, "edge-edge", 2);         // onto edge b's start
            check_first_of(collisions.face_vertex, "face-vertex", 1);     // onto the triangle's t0
        }
    }
    CHECK(checked >= 8);
}

TEST_CASE("Barrier Hessian written into a kept matrix equals the returned one and reuses its storage",
          "[potentials][barrier][reuse]")
{
    const auto same = [](const Eigen::SparseMatrix<double>& A, const Eigen::SparseMatrix<double>& B) {
        return A.rows() == B.rows() && A.cols() == B.cols() && A.nonZeros() == B.nonZeros() && A.isCompressed()
            && B.isCompressed() && std::equal(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1, B.outerIndexPtr())
            && std::equal(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros(), B.innerIndexPtr())
            && std::equal(A.valuePtr(), A.valuePtr() + A.nonZeros(), B.valuePtr());
    };
    // Start from a matrix of another size, uncompressed, with entries.
    Eigen::SparseMatrix<double> kept(7, 5);
    kept.insert(3, 2) = 1.0;
    kept.insert(6, 4) = -2.0;
    REQUIRE(!kept.isCompressed());
    const ipc::BarrierPotential<> barrier(0.05, 10.0);
    int nonempty = 0;
    for (int round = 0; round < 2; ++round) {
        for (const auto& scene : ipc::test::mixed_scenes()) {
            ipc::Collisions collisions;
            collisions.build(scene.mesh, scene.V, 0.05);
            for (const ipc::PSDProjection projection : { ipc::PSDProjection::none, ipc::PSDProjection::clamp }) {
                barrier.hessian(collisions, scene.mesh, scene.V, projection, kept);
                CHECK(same(kept, barrier.hessian(collisions, scene.mesh, scene.V, projection)));
                nonempty += kept.nonZeros() > 0 ? 1 : 0;
            }
        }
    }
    CHECK(nonempty > 4);
    // The storage is kept: after an empty Hessian the matrix still holds the
    // room of the larger one before it (a fresh matrix would hold none), and
    // the next large Hessian is written there.
    const auto scene = ipc::test::mixed_scenes().front();
    ipc::Collisions collisions;
    collisions.build(scene.mesh, scene.V, 0.05);
    barrier.hessian(collisions, scene.mesh, scene.V, ipc::PSDProjection::none, kept);
    const Eigen::Index large = kept.nonZeros();
    REQUIRE(large > 0);
    const double* values = kept.valuePtr();
    barrier.hessian(ipc::Collisions(), scene.mesh, scene.V, ipc::PSDProjection::none, kept);
    CHECK(kept.nonZeros() == 0);
    CHECK(kept.data().allocatedSize() >= large);
    barrier.hessian(collisions, scene.mesh, scene.V, ipc::PSDProjection::clamp, kept);
    CHECK(kept.valuePtr() == values);
    CHECK(same(kept, barrier.hessian(collisions, scene.mesh, scene.V, ipc::PSDProjection::clamp)));
}

TEST_CASE("Barrier gradient and Hessian land in the rows of a larger mesh through a vertex map",
          "[potentials][barrier][layout]")
{
    const ipc::BarrierPotential<> barrier(0.05, 10.0);
    int checked = 0;
    for (const auto& scene : ipc::test::mixed_scenes()) {
        ipc::Collisions collisions;
        collisions.build(scene.mesh, scene.V, 0.05);
        if (collisions.empty()) {
            continue;
        }
        ++checked;
        const ipc::Index n = scene.mesh.num_vertices();
        const Eigen::VectorXd g = barrier.gradient(collisions, scene.mesh, scene.V);
        const Eigen::SparseMatrix<double> H = barrier.hessian(collisions, scene.mesh, scene.V, ipc::PSDProjection::clamp);
        for (const bool monotone : { true, false }) {
            CAPTURE(checked, monotone);
            ipc::AssemblyLayout layout;
            layout.vertices = ipc::test::spread_vertex_map(n, 7, monotone, unsigned(checked));
            const Eigen::VectorXd g_expected = ipc::test::mapped_gradient(g, layout.vertices, 3);
            const Eigen::MatrixXd H_expected = ipc::test::mapped_hessian(H, layout.vertices, 3);
            const Eigen::VectorXd g_mapped = barrier.gradient(collisions, scene.mesh, scene.V, layout);
            Eigen::SparseMatrix<double> H_mapped;
            barrier.hessian(collisions, scene.mesh, scene.V, ipc::PSDProjection::clamp, H_mapped, layout);
            REQUIRE(g_mapped.size() == 3 * (n + 7));
            REQUIRE(H_mapped.rows() == 3 * (n + 7));
            if (monotone) {
                // The same stencils in the same order: the same bits.
                CHECK((g_mapped.array() == g_expected.array()).all());
                CHECK((Eigen::MatrixXd(H_mapped).array() == H_expected.array()).all());
            } else {
                // Another scatter order: the same sums up to rounding.
                CHECK((g_mapped - g_expected).cwiseAbs().maxCoeff() <= 1e-13 * g.cwiseAbs().maxCoeff());
                CHECK((Eigen::MatrixXd(H_mapped) - H_expected).cwiseAbs().maxCoeff()
                      <= 1e-13 * H.coeffs().cwiseAbs().maxCoeff());
            }
            // A triangle and the map at once: that part of the mapped matrix.
            for (const ipc::SparseTriangle triangle : { ipc::SparseTriangle::upper, ipc::SparseTriangle::lower }) {
                layout.triangle = triangle;
                const Eigen::SparseMatrix<double> T = barrier.hessian(collisions, scene.mesh, scene.V,
                                                                      ipc::PSDProjection::clamp, layout);
                const Eigen::SparseMatrix<double> T_expected = triangle == ipc::SparseTriangle::upper
                    ? Eigen::SparseMatrix<double>(H_mapped.triangularView<Eigen::Upper>())
                    : Eigen::SparseMatrix<double>(H_mapped.triangularView<Eigen::Lower>());
                REQUIRE(T.nonZeros() == T_expected.nonZeros());
                CHECK(std::equal(T.innerIndexPtr(), T.innerIndexPtr() + T.nonZeros(), T_expected.innerIndexPtr()));
                CHECK(std::equal(T.valuePtr(), T.valuePtr() + T.nonZeros(), T_expected.valuePtr()));
            }
            // The energy does not depend on the layout.
            CHECK(barrier(collisions, scene.mesh, scene.V) == barrier(collisions, scene.mesh, scene.V));
        }
    }
    CHECK(checked >= 3);
}

TEST_CASE("Vertex maps are validated", "[potentials][barrier][layout][validation]")
{
    CHECK_THROWS_AS(ipc::VertexMap({ 0, 5 }, 5), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::VertexMap({ -1 }, 5), ipc::invalid_argument);
    CHECK_THROWS_AS(ipc::VertexMap({}, -1), ipc::invalid_argument);
    const auto scene = ipc::test::mixed_scenes().front();
    ipc::Collisions collisions;
    collisions.build(scene.mesh, scene.V, 0.05);
    const ipc::BarrierPotential<> barrier(0.05);
    ipc::AssemblyLayout layout;
    layout.vertices = ipc::test::spread_vertex_map(scene.mesh.num_vertices() - 1, 3, true, 1); // one vertex short
    CHECK_THROWS_AS(barrier.gradient(collisions, scene.mesh, scene.V, layout), ipc::invalid_argument);
    CHECK_THROWS_AS(barrier.hessian(collisions, scene.mesh, scene.V, ipc::PSDProjection::none, layout),
                    ipc::invalid_argument);
    // A penetration is still named by the collision mesh's vertices.
    const auto& c = collisions.face_vertex.front();
    Eigen::MatrixXd flat = scene.V;
    flat.row(c.vertices[0]) = scene.V.row(c.vertices[1]);
    layout.vertices = ipc::test::spread_vertex_map(scene.mesh.num_vertices(), 3, false, 2);
    try {
        barrier.hessian(collisions, scene.mesh, flat, ipc::PSDProjection::none, layout);
        FAIL("no penetration reported");
    } catch (const ipc::penetration& error) {
        CHECK_THAT(error.what(), Catch::Contains("(vertices " + std::to_string(c.vertices[0]) + ", "));
    }
}
