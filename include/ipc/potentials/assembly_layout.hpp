#pragma once
/// @file
/// Where a mesh-level potential writes its gradient and sparse Hessian: the
/// whole symmetric matrix or one triangle only, and the rows of the
/// collision mesh's vertices or those of a larger simulation mesh.
///
/// A simulator whose collision mesh is part of a larger mesh (the surface of
/// a tetrahedral body, the vertices of a shell without its interior nodes)
/// passes a VertexMap: the contact terms then land in place in the full
/// system, with no product by a selection matrix afterwards. A solver that
/// factors the system with a symmetric method asks for one triangle: half
/// the values to store and about half the scatter. Eigen's sparse Cholesky
/// solvers read the lower one by default, and so does CHOLMOD through them
/// (stype = -1; its symbolic analysis transposes an upper one first, which
/// took twice as long on a cloth system); the upper triangle in column-major
/// order is the lower one in row-major order, the input of solvers that
/// take compressed rows.

#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>

#include <cstddef>
#include <utility>
#include <vector>

namespace ipc {

/// Which entries of a symmetric sparse matrix are stored.
enum class SparseTriangle {
    full,  ///< every entry of the pattern
    upper, ///< only entries with row <= column (the diagonal included)
    lower, ///< only entries with row >= column (the diagonal included)
};

/// The vertices of a collision mesh as vertices of a larger mesh: collision
/// vertex v is vertex full_vertex(v) of a mesh of num_full_vertices()
/// vertices. A default-constructed map is the identity on the collision
/// mesh. Two collision vertices may share a full vertex (their terms are
/// summed there, as the chain rule asks).
class VertexMap {
public:
    /// The identity (the collision mesh itself).
    VertexMap() = default;

    /// full_vertex[v] is the full-mesh index of collision vertex v; every
    /// entry must lie in [0, num_full_vertices). Throws
    /// ipc::invalid_argument naming the first entry out of range.
    VertexMap(std::vector<Index> full_vertex, Index num_full_vertices)
        : full_vertex_(std::move(full_vertex)), num_full_vertices_(num_full_vertices)
    {
        require(num_full_vertices >= 0, "VertexMap: num_full_vertices must be >= 0, got ", num_full_vertices);
        for (std::size_t v = 0; v < full_vertex_.size(); ++v) {
            require(full_vertex_[v] >= 0 && full_vertex_[v] < num_full_vertices, "VertexMap: collision vertex ", v,
                    " maps to vertex ", full_vertex_[v], " but the full mesh has ", num_full_vertices, " vertices");
        }
        identity_ = false;
    }

    /// True for the default (identity) map.
    bool is_identity() const { return identity_; }

    /// Number of collision vertices the map covers (0 for the identity).
    Index num_vertices() const { return Index(full_vertex_.size()); }

    /// Number of vertices of the full mesh (0 for the identity).
    Index num_full_vertices() const { return num_full_vertices_; }

    /// The full-mesh index of collision vertex v (v itself for the identity).
    Index operator()(Index v) const { return identity_ ? v : full_vertex_[std::size_t(v)]; }

    /// Rows of the output for a collision mesh of num_collision_vertices
    /// vertices: that count for the identity, num_full_vertices() otherwise.
    /// Throws ipc::invalid_argument, naming who, when a non-identity map
    /// covers another number of vertices than the mesh has.
    Index output_vertices(Index num_collision_vertices, const char* who) const
    {
        if (identity_) {
            return num_collision_vertices;
        }
        require(num_vertices() == num_collision_vertices, who, ": the vertex map covers ", num_vertices(),
                " vertices but the collision mesh has ", num_collision_vertices);
        return num_full_vertices_;
    }

private:
    std::vector<Index> full_vertex_;
    Index num_full_vertices_ = 0;
    bool identity_ = true;
};

/// How a mesh-level potential lays out its output (see the file comment).
/// The default is the full Hessian over the collision mesh's vertices.
struct AssemblyLayout {
    /// The Hessian's stored entries (the gradient is unaffected).
    SparseTriangle triangle = SparseTriangle::full;
    /// The rows of the gradient and Hessian: dim() num_full_vertices() of
    /// them when the map is not the identity.
    VertexMap vertices;
};

} // namespace ipc
