#pragma once
/// @file
/// Candidate pairs produced by a broad phase: plain index pairs, one type per
/// pair kind, and the Candidates struct that holds one sorted list of each.
///
/// Indices refer to a CollisionMesh: vertex rows of the positions, edge rows of
/// mesh.edges(), face rows of mesh.faces(). A candidate only says that the two
/// primitives' inflated boxes overlap; the constraint-set builder decides from
/// the true distance whether the pair is active.

#include <ipc/core/types.hpp>

#include <cstddef>
#include <tuple>
#include <vector>

namespace ipc {

/// Point-point pair between two free particles; always v0 < v1.
struct VertexVertexCandidate {
    /// First vertex (the smaller index).
    Index v0 = 0;
    /// Second vertex (the larger index).
    Index v1 = 0;

    /// True when a and b name the same pair.
    friend bool operator==(const VertexVertexCandidate& a, const VertexVertexCandidate& b)
    {
        return a.v0 == b.v0 && a.v1 == b.v1;
    }
    /// True when a and b name different pairs.
    friend bool operator!=(const VertexVertexCandidate& a, const VertexVertexCandidate& b)
    {
        return !(a == b);
    }
    /// Lexicographic order on (v0, v1).
    friend bool operator<(const VertexVertexCandidate& a, const VertexVertexCandidate& b)
    {
        return std::tie(a.v0, a.v1) < std::tie(b.v0, b.v1);
    }
};

/// Point-edge pair: a vertex against an edge (a rod segment in 3D, any edge
/// in 2D).
struct EdgeVertexCandidate {
    /// Index of the edge in the mesh's edge list.
    Index edge = 0;
    /// Index of the vertex.
    Index vertex = 0;

    /// True when a and b name the same pair.
    friend bool operator==(const EdgeVertexCandidate& a, const EdgeVertexCandidate& b)
    {
        return a.edge == b.edge && a.vertex == b.vertex;
    }
    /// True when a and b name different pairs.
    friend bool operator!=(const EdgeVertexCandidate& a, const EdgeVertexCandidate& b)
    {
        return !(a == b);
    }
    /// Lexicographic order on (edge, vertex).
    friend bool operator<(const EdgeVertexCandidate& a, const EdgeVertexCandidate& b)
    {
        return std::tie(a.edge, a.vertex) < std::tie(b.edge, b.vertex);
    }
};

/// Edge-edge pair (3D only); always edge0 < edge1.
struct EdgeEdgeCandidate {
    /// First edge (the smaller index).
    Index edge0 = 0;
    /// Second edge (the larger index).
    Index edge1 = 0;

    /// True when a and b name the same pair.
    friend bool operator==(const EdgeEdgeCandidate& a, const EdgeEdgeCandidate& b)
    {
        return a.edge0 == b.edge0 && a.edge1 == b.edge1;
    }
    /// True when a and b name different pairs.
    friend bool operator!=(const EdgeEdgeCandidate& a, const EdgeEdgeCandidate& b)
    {
        return !(a == b);
    }
    /// Lexicographic order on (edge0, edge1).
    friend bool operator<(const EdgeEdgeCandidate& a, const EdgeEdgeCandidate& b)
    {
        return std::tie(a.edge0, a.edge1) < std::tie(b.edge0, b.edge1);
    }
};

/// Point-triangle pair: a vertex against a face (3D only).
struct FaceVertexCandidate {
    /// Index of the face in the mesh's face list.
    Index face = 0;
    /// Index of the vertex.
    Index vertex = 0;

    /// True when a and b name the same pair.
    friend bool operator==(const FaceVertexCandidate& a, const FaceVertexCandidate& b)
    {
        return a.face == b.face && a.vertex == b.vertex;
    }
    /// True when a and b name different pairs.
    friend bool operator!=(const FaceVertexCandidate& a, const FaceVertexCandidate& b)
    {
        return !(a == b);
    }
    /// Lexicographic order on (face, vertex).
    friend bool operator<(const FaceVertexCandidate& a, const FaceVertexCandidate& b)
    {
        return std::tie(a.face, a.vertex) < std::tie(b.face, b.vertex);
    }
};

/// All candidate pairs of one broad-phase query. Every list produced by the
/// library is sorted by its operator<, free of duplicates, free of excluded
/// (incident) pairs, and identical whatever the method and thread count.
struct Candidates {
    /// Point-point pairs (free particles).
    std::vector<VertexVertexCandidate> vertex_vertex;
    /// Point-edge pairs.
    std::vector<EdgeVertexCandidate> edge_vertex;
    /// Edge-edge pairs (3D only).
    std::vector<EdgeEdgeCandidate> edge_edge;
    /// Point-triangle pairs (3D only).
    std::vector<FaceVertexCandidate> face_vertex;

    /// Total number of pairs over the four lists.
    std::size_t size() const
    {
        return vertex_vertex.size() + edge_vertex.size() + edge_edge.size() + face_vertex.size();
    }

    /// True when there is no pair at all.
    bool empty() const { return size() == 0; }

    /// Removes every pair (keeps the capacity).
    void clear()
    {
        vertex_vertex.clear();
        edge_vertex.clear();
        edge_edge.clear();
        face_vertex.clear();
    }

    /// True when the four lists of a and b are equal, element by element.
    friend bool operator==(const Candidates& a, const Candidates& b)
    {
        return a.vertex_vertex == b.vertex_vertex && a.edge_vertex == b.edge_vertex
            && a.edge_edge == b.edge_edge && a.face_vertex == b.face_vertex;
    }
    /// True when a and b differ in any list.
    friend bool operator!=(const Candidates& a, const Candidates& b) { return !(a == b); }
};

} // namespace ipc
