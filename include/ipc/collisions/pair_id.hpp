#pragma once
/// @file
/// A canonical name for a primitive pair of a CollisionMesh: its kind and two
/// primitive indices, in one order whatever order the pair was found in.
/// It depends only on the mesh's connectivity, so it stays the same across
/// Newton iterations and time steps and can key state that persists with a
/// pair (multipliers, decay weights, lagged friction). A vertex facing a
/// static analytic obstacle (an index into an ObstacleSet) is a pair too.

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <tuple>
#include <utility>

namespace ipc {

/// Kind of a primitive pair, by its two primitives.
enum class PairKind : std::uint8_t {
    vertex_vertex, ///< two vertices (a < b)
    edge_vertex,   ///< edge a, vertex b
    edge_edge,     ///< edges a < b
    face_vertex,   ///< face a, vertex b
    vertex_obstacle, ///< obstacle a (an index into an ObstacleSet), vertex b
};

/// Name of a pair kind ("vertex_vertex", ...).
constexpr std::string_view to_string(PairKind kind)
{
    switch (kind) {
    case PairKind::vertex_vertex: return "vertex_vertex";
    case PairKind::edge_vertex: return "edge_vertex";
    case PairKind::edge_edge: return "edge_edge";
    case PairKind::face_vertex: return "face_vertex";
    case PairKind::vertex_obstacle: return "vertex_obstacle";
    }
    return "unknown";
}

/// Canonical pair: kind plus primitive indices (a, b) as documented per kind.
/// Build it with the named constructors, which order symmetric pairs.
/// Ordered by (kind, a, b); equal ids name the same pair of the same mesh.
struct PairId {
    /// Which primitives the pair joins (vertex_vertex, edge_vertex, ...).
    PairKind kind = PairKind::vertex_vertex;
    Index a = 0; ///< first primitive (face, edge, or the smaller vertex / edge)
    Index b = 0; ///< second primitive (vertex, or the larger vertex / edge)

    /// Pair of vertices v0 and v1, in either order (a is the smaller).
    static PairId vertex_vertex(Index v0, Index v1)
    {
        return { PairKind::vertex_vertex, std::min(v0, v1), std::max(v0, v1) };
    }
    /// Pair of an edge and a vertex (a = edge, b = vertex).
    static PairId edge_vertex(Index edge, Index vertex) { return { PairKind::edge_vertex, edge, vertex }; }
    /// Pair of edges e0 and e1, in either order (a is the smaller).
    static PairId edge_edge(Index e0, Index e1) { return { PairKind::edge_edge, std::min(e0, e1), std::max(e0, e1) }; }
    /// Pair of a face and a vertex (a = face, b = vertex).
    static PairId face_vertex(Index face, Index vertex) { return { PairKind::face_vertex, face, vertex }; }
    /// Pair of a mesh vertex and an obstacle of an ObstacleSet (a = obstacle, b = vertex).
    static PairId vertex_obstacle(Index vertex, Index obstacle)
    {
        return { PairKind::vertex_obstacle, obstacle, vertex };
    }

    /// True when x and y name the same pair.
    friend bool operator==(const PairId& x, const PairId& y)
    {
        return x.kind == y.kind && x.a == y.a && x.b == y.b;
    }
    /// True when x and y name different pairs.
    friend bool operator!=(const PairId& x, const PairId& y) { return !(x == y); }
    /// Lexicographic order on (kind, a, b).
    friend bool operator<(const PairId& x, const PairId& y)
    {
        return std::tie(x.kind, x.a, x.b) < std::tie(y.kind, y.a, y.b);
    }
};

/// Hash of a PairId (for unordered containers).
struct PairIdHash {
    /// Hash value of id, mixing kind, a and b.
    std::size_t operator()(const PairId& id) const
    {
        const std::uint64_t h = (std::uint64_t(id.a) * 0x9e3779b97f4a7c15ull)
            ^ (std::uint64_t(id.b) * 0xc2b2ae3d27d4eb4full) ^ (std::uint64_t(id.kind) << 61);
        return std::size_t(h ^ (h >> 29));
    }
};

/// The vertices of a pair's stencil, in the order of its distance kernel:
/// (v0, v1), (p, e0, e1), (ea0, ea1, eb0, eb1), (p, t0, t1, t2) or, facing an
/// obstacle, (p).
struct PairVertices {
    /// The first `count` entries are the stencil's vertices; the rest are -1.
    std::array<Index, 4> vertices { { -1, -1, -1, -1 } };
    /// Number of vertices of the stencil (1 to 4).
    int count = 0;
};

/// Stencil vertices of pair `id` in `mesh`. Throws ipc::invalid_argument when
/// a primitive index is out of range (naming the pair, the index and the
/// bound; an obstacle index is only checked to be non-negative, the mesh
/// does not know the obstacles).
inline PairVertices pair_vertices(const CollisionMesh& mesh, const PairId& id)
{
    const Index nv = mesh.num_vertices(), ne = mesh.num_edges(), nf = mesh.num_faces();
    const auto check = [&](Index i, Index bound, const char* what) {
        require(i >= 0 && i < bound, "pair_vertices: ", to_string(id.kind), " pair (", id.a, ", ", id.b, ") names ",
                what, " ", i, " but the mesh has ", bound);
    };
    PairVertices out;
    const Eigen::MatrixXi& E = mesh.edges();
    const Eigen::MatrixXi& F = mesh.faces();
    switch (id.kind) {
    case PairKind::vertex_vertex:
        check(id.a, nv, "vertex");
        check(id.b, nv, "vertex");
        out.vertices = { { id.a, id.b, -1, -1 } };
        out.count = 2;
        break;
    case PairKind::edge_vertex:
        check(id.a, ne, "edge");
        check(id.b, nv, "vertex");
        out.vertices = { { id.b, E(id.a, 0), E(id.a, 1), -1 } };
        out.count = 3;
        break;
    case PairKind::edge_edge:
        check(id.a, ne, "edge");
        check(id.b, ne, "edge");
        out.vertices = { { E(id.a, 0), E(id.a, 1), E(id.b, 0), E(id.b, 1) } };
        out.count = 4;
        break;
    case PairKind::face_vertex:
        check(id.a, nf, "face");
        check(id.b, nv, "vertex");
        out.vertices = { { id.b, F(id.a, 0), F(id.a, 1), F(id.a, 2) } };
        out.count = 4;
        break;
    case PairKind::vertex_obstacle:
        require(id.a >= 0, "pair_vertices: vertex_obstacle pair (", id.a, ", ", id.b, ") names obstacle ", id.a,
                ", a negative index");
        check(id.b, nv, "vertex");
        out.vertices = { { id.b, -1, -1, -1 } };
        out.count = 1;
        break;
    }
    return out;
}

} // namespace ipc
