// libFuzzer target: CollisionMesh construction and the mesh-level functions
// on top of it (Collisions::build, has_intersections, minimum_distance,
// collision_free_step_size, BarrierPotential).
//
// Input: counts (vertices <= 64, edges and faces <= 48, tetrahedra <= 8) and
// two flag bytes, then rest positions, edge/face/tetrahedron indices (mostly
// in range, sometimes -1, n, n + 1 or the int extremes; repeats and
// degenerate elements come naturally), radii, the positions and end-of-step
// positions, dhat, dmin and a minimum distance. Every call either returns or
// throws ipc::error. Checked invariants (documented):
//  - a built collision set refers to existing vertices, edges and faces, has
//    finite non-negative offsets of at least dmin and weights >= 1, and
//    remembers dhat and dmin;
//  - the step size lies in [0, 1].

#include "fuzz_input.hpp"

#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/inclusion_ccd.hpp>
#include <ipc/ccd/root_finding_ccd.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/core/error.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/barrier_potential.hpp>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace {

using ipc_fuzz::ByteReader;

int read_index(ByteReader& in, int n)
{
    const std::uint8_t b = in.u8();
    if (b < 248) {
        return n > 0 ? int(b) % n : 0;
    }
    static const int specials[] = { -1, 0, 1, 2, INT_MAX, INT_MIN, -2, 65536 };
    const int s = specials[b - 248];
    return s == 0 ? n : s == 1 ? n + 1 : s == 2 ? n - 1 : s;
}

Eigen::MatrixXi read_elements(ByteReader& in, int rows, int cols, int n)
{
    Eigen::MatrixXi E(rows, cols);
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) {
            E(i, j) = read_index(in, n);
        }
    }
    return E;
}

Eigen::MatrixXd read_positions(ByteReader& in, int rows, int cols)
{
    Eigen::MatrixXd V(rows, cols);
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) {
            V(i, j) = in.real();
        }
    }
    return V;
}

// A distance that is usually positive.
double positive_distance(ByteReader& in)
{
    const std::uint8_t b = in.u8();
    if (b < 224) {
        return (1.0 + in.u16()) / 65536.0 * double(1u << (b & 7)) / 8.0;
    }
    return in.real();
}

void check_collisions(const ipc::Collisions& c, const ipc::CollisionMesh& mesh, double dhat, double dmin)
{
    const auto nv = mesh.num_vertices();
    FUZZ_CHECK(c.dhat() == dhat && c.dmin() == dmin);
    const auto check_common = [&](const auto& stencil) {
        for (const auto v : stencil.vertices) {
            FUZZ_CHECK(v >= 0 && v < nv);
        }
        FUZZ_CHECK(std::isfinite(stencil.offset) && stencil.offset >= dmin);
        FUZZ_CHECK(stencil.weight >= 1);
    };
    for (const auto& s : c.vertex_vertex) {
        check_common(s);
    }
    for (const auto& s : c.edge_vertex) {
        check_common(s);
    }
    for (const auto& s : c.edge_edge) {
        check_common(s);
        FUZZ_CHECK(s.edge0 >= 0 && s.edge0 < mesh.num_edges());
        FUZZ_CHECK(s.edge1 >= 0 && s.edge1 < mesh.num_edges());
        FUZZ_CHECK(std::isfinite(s.mollifier_threshold) && s.mollifier_threshold > 0);
    }
    for (const auto& s : c.face_vertex) {
        check_common(s);
        FUZZ_CHECK(s.face >= 0 && s.face < mesh.num_faces());
    }
}

template <typename F> void allow_ipc_error(F&& f)
{
    try {
        f();
    } catch (const ipc::error&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ByteReader in(data, size);
    const int nv = in.u8() % 65;
    const int ne = in.u8() % 49;
    const int nf = in.u8() % 49;
    const std::uint8_t mesh_flags = in.u8();
    const std::uint8_t ops = in.u8();
    const int dim = (mesh_flags & 1) ? 2 : 3;
    const auto method = ipc::BroadPhaseMethod((mesh_flags >> 4) & 3);

    const Eigen::MatrixXd rest = read_positions(in, nv, dim);
    const Eigen::MatrixXi E = read_elements(in, ne, 2, nv);
    const Eigen::MatrixXi F = read_elements(in, nf, 3, nv);
    Eigen::VectorXd radii;
    if (mesh_flags & 2) {
        radii.resize(nv);
        for (int i = 0; i < nv; ++i) {
            radii[i] = in.small_distance();
        }
    }

    std::optional<ipc::CollisionMesh> mesh;
    try {
        if (mesh_flags & 4) {
            // The builder, with tetrahedra and a uniform radius.
            const int nt = in.u8() % 9;
            const Eigen::MatrixXi T = read_elements(in, nt, 4, nv);
            ipc::CollisionMesh::Builder builder(rest);
            builder.tetrahedra(T).faces(F).edges(E).isolated_vertices_are_particles((mesh_flags & 8) != 0);
            if (mesh_flags & 2) {
                builder.vertex_radii(radii);
            } else {
                builder.radius(in.small_distance());
            }
            mesh = builder.build();
        } else if (mesh_flags & 8) {
            const int nt = in.u8() % 9;
            mesh = ipc::CollisionMesh::from_tetrahedra(rest, read_elements(in, nt, 4, nv), in.small_distance());
        } else {
            mesh = ipc::CollisionMesh(rest, E, F, radii);
        }
    } catch (const ipc::error&) {
        return 0;
    }
    FUZZ_CHECK(mesh->num_vertices() == nv);

    // Positions: the rest positions, or new ones; end of step for the CCD.
    Eigen::MatrixXd V = rest;
    if (mesh_flags & 64) {
        V = read_positions(in, nv, dim);
    }
    Eigen::MatrixXd V1 = V;
    for (int i = 0; i < nv; ++i) {
        for (int j = 0; j < dim; ++j) {
            V1(i, j) += in.real();
        }
    }
    const double dhat = positive_distance(in);
    const double dmin = in.small_distance();
    const double min_distance = in.small_distance();

    if (ops & 1) {
        ipc::Collisions collisions;
        bool built = false;
        allow_ipc_error([&] {
            collisions.build(*mesh, V, dhat, dmin, method);
            built = true;
        });
        if (built) {
            check_collisions(collisions, *mesh, dhat, dmin);
            if (ops & 64) {
                allow_ipc_error([&] {
                    const ipc::BarrierPotential<> barrier(dhat);
                    (void)barrier(collisions, *mesh, V);
                    (void)barrier.gradient(collisions, *mesh, V);
                    (void)barrier.hessian(collisions, *mesh, V, ipc::PSDProjection((ops >> 4) % 3));
                });
            }
        }
    }
    if (ops & 2) {
        allow_ipc_error([&] { (void)ipc::has_intersections(*mesh, V); });
    }
    if (ops & 4) {
        allow_ipc_error([&] { (void)ipc::minimum_distance(*mesh, V, method); });
    }
    if (ops & 8) {
        // Iteration caps well below the defaults keep a run short on meshes
        // with many pairs; the CCD targets fuzz the defaults. (With 20,000
        // iterations, corpus/slow_many_capped_pairs, found by the fuzzer,
        // took 11 s under the sanitizers: many pairs each ran to the cap.)
        double alpha = 0;
        bool done = false;
        allow_ipc_error([&] {
            switch ((ops >> 4) & 3) {
            case 0:
            case 3:
                alpha = ipc::collision_free_step_size(*mesh, V, V1, min_distance, method,
                                                      ipc::AdditiveCCD(2000));
                break;
            case 1:
                alpha = ipc::collision_free_step_size(*mesh, V, V1, min_distance, method,
                                                      ipc::InclusionCCD(1e-6, 2000));
                break;
            default:
                alpha = ipc::collision_free_step_size(*mesh, V, V1, min_distance, method, ipc::RootFindingCCD());
                break;
            }
            done = true;
        });
        if (done) {
            FUZZ_CHECK(alpha >= 0 && alpha <= 1);
        }
    }
    return 0;
}
