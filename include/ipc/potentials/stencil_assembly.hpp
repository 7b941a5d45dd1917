#pragma once
/// @file
/// Deterministic, lock-free parallel assembly of per-stencil terms (a stencil
/// is a small set of at most four mesh vertices: a contact pair, a triangle)
/// into mesh-level sums, gradients and sparse Hessians.
///
/// The stencils are sorted by their smallest vertex (the scatter order), cut
/// into tiles of stencils_per_tile consecutive stencils of that order, and
/// the tiles greedily coloured so that two tiles of one colour share no
/// vertex; colours are processed one after another, the tiles of a colour in
/// parallel and the stencils of a tile in order, each adding its local block
/// straight into the global array. Every global entry therefore receives its
/// contributions in one fixed order, whatever the number of threads: the
/// result is bit-identical for 1 and N threads, without atomics, locks or
/// per-thread copies.
///
/// The Hessian's scatter searches nothing: where each block of each stencil
/// lands in the compressed matrix is computed once with the sparsity
/// pattern, and the first stencil to reach a block assigns it (no pass
/// zeroes the values first).
///
/// The degrees of freedom are ordered x, y, z per vertex, vertex after vertex
/// (index 3 v + c). An assembly of dimension 2 (2D meshes) has x, y per
/// vertex (index 2 v + c): gradients of 2 n entries, Hessians 2n x 2n with
/// 2 x 2 vertex blocks. The local callbacks write 3 entries per vertex in
/// both cases (the stencil evaluated in 3D, a 2D one padded with z = 0);
/// a 2D assembly adds only the first 2 of each vertex block (gradient) and
/// the top-left 2 x 2 of each vertex-pair block (Hessian), dropping the z
/// entries.
///
/// The mesh-level potentials use it internally; a simulator can use it as
/// well for its own per-element energies (elasticity, bending, ...): build
/// one StencilAssembly per fixed element set and reuse it, since colouring
/// and the sparsity pattern are computed once.
///
/// A Hessian can be written whole or as one triangle only
/// (SparseTriangle::lower or upper, the diagonal included): a triangle holds
/// the same values, added in the same order, as the same entries of the full
/// matrix, so the two agree bit for bit.

#include <ipc/collisions/detail/parallel_blocks.hpp>
#include <ipc/config.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/types.hpp>
#include <ipc/potentials/assembly_layout.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <algorithm>
#include <array>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <vector>

namespace ipc {

/// Vertex indices of one stencil: the first `size` entries of `vertices`.
struct StencilVertices {
    /// Vertex indices; entries past `size` are unused.
    std::array<Index, 4> vertices {};
    /// Number of vertices of the stencil (1 to 4).
    int size = 0;
};

/// Loops over fewer stencils than this run serially (a parallel region costs
/// more than it saves there).
inline constexpr std::ptrdiff_t min_parallel_stencils = 256;

/// Stencils per tile: the parallel scatter colours runs of this many
/// consecutive stencils (see StencilAssembly), and a colour with fewer than
/// min_parallel_tiles tiles runs serially.
inline constexpr Index stencils_per_tile = 128;
/// A colour with fewer tiles than this is scattered serially.
inline constexpr std::ptrdiff_t min_parallel_tiles = 4;

namespace detail {
    /// Sum of value(k) over k in [0, n), evaluated in parallel and added in
    /// index order (the same result for any thread count).
    template <typename ValueFn> double ordered_parallel_sum(Index n, const ValueFn& value)
    {
        std::vector<double> values(static_cast<std::size_t>(n));
        guarded_parallel_for(0, std::ptrdiff_t(n), [&](std::ptrdiff_t k) {
            values[std::size_t(k)] = value(Index(k));
        }, min_parallel_stencils);
        double total = 0;
        for (const double v : values) {
            total += v;
        }
        return total;
    }
} // namespace detail

/// Writes a stencil's fixed-size local gradient (n entries) at the head of
/// the 12-vector that StencilAssembly::gradient's callback fills, with the
/// size known at compile time (a run-time sized copy is a generic loop).
template <typename LocalGradient>
IPC_ALWAYS_INLINE void write_local_gradient(Vector<double, 12>& out, const LocalGradient& local)
{
    constexpr int n = LocalGradient::RowsAtCompileTime;
    static_assert(n > 0 && n <= 12, "write_local_gradient: the local gradient needs a fixed size of at most 12");
    out.template head<n>() = local;
}

/// Writes a stencil's fixed-size n x n local Hessian in the top-left corner
/// of the 12 x 12 matrix that StencilAssembly::hessian's callback fills.
template <typename LocalHessian>
IPC_ALWAYS_INLINE void write_local_hessian(Matrix<double, 12, 12>& out, const LocalHessian& local)
{
    constexpr int n = LocalHessian::RowsAtCompileTime;
    static_assert(n > 0 && n <= 12 && LocalHessian::ColsAtCompileTime == n,
                  "write_local_hessian: the local Hessian needs a fixed square size of at most 12");
    out.template topLeftCorner<n, n>() = local;
}

/// The stencils of a sum, coloured for conflict-free parallel scatter, and the
/// sparsity pattern of their Hessian.
class StencilAssembly {
public:
    /// Index type of the sparse matrices it writes.
    using StorageIndex = Eigen::SparseMatrix<double>::StorageIndex;

    /// Colours the stencils. stencil(k) returns the StencilVertices of stencil
    /// k in [0, num_stencils); every index must lie in [0, num_vertices).
    /// dim is the number of degrees of freedom per vertex, 3 (default) or 2
    /// (see the file comment). Throws ipc::invalid_argument for another dim.
    template <typename StencilFn>
    StencilAssembly(Index num_vertices, Index num_stencils, const StencilFn& stencil, int dim = 3)
        : num_vertices_(num_vertices), dim_(dim)
    {
        require(dim == 2 || dim == 3, "StencilAssembly: dim must be 2 or 3, got ", dim);
        stencils_.resize(size_t(num_stencils));
        for (Index k = 0; k < num_stencils; ++k) {
            stencils_[size_t(k)] = stencil(k);
        }
        colour();
    }

    /// An empty assembly (no vertices, no stencils).
    StencilAssembly() = default;

    /// Computes the sparsity pattern of hessian() (of one triangle for
    /// SparseTriangle::lower or upper) now rather than on its first call. hessian()
    /// builds it lazily, which is not safe when the first calls come from
    /// several threads at once: call this first there.
    void build_sparsity_pattern(SparseTriangle triangle = SparseTriangle::full) const { build_pattern(triangle); }

    /// Number of vertices of the mesh.
    Index num_vertices() const { return num_vertices_; }
    /// Degrees of freedom per vertex (2 or 3).
    int dim() const { return dim_; }
    /// Number of stencils.
    Index num_stencils() const { return Index(stencils_.size()); }
    /// The vertices of stencil k.
    const StencilVertices& stencil(Index k) const { return stencils_[size_t(k)]; }

    /// True when this assembly was built for the same vertex count, dim and
    /// stencils (the same vertices in the same order for every k) as the
    /// arguments of the constructor would give. O(num_stencils).
    template <typename StencilFn>
    bool same_stencils(Index num_vertices, Index num_stencils, const StencilFn& stencil, int dim) const
    {
        if (num_vertices != num_vertices_ || dim != dim_ || num_stencils != Index(stencils_.size())) {
            return false;
        }
        for (Index k = 0; k < num_stencils; ++k) {
            const StencilVertices s = stencil(k);
            const StencilVertices& kept = stencils_[size_t(k)];
            if (s.size != kept.size || !std::equal(s.vertices.begin(), s.vertices.begin() + s.size, kept.vertices.begin())) {
                return false;
            }
        }
        return true;
    }

    /// Sum over stencils of value(k), added in stencil order (deterministic).
    /// value(k) is evaluated in parallel.
    template <typename ValueFn> double sum(const ValueFn& value) const
    {
        return detail::ordered_parallel_sum(num_stencils(), value);
    }

    /// Dense gradient (dim() num_vertices entries). local(k, g) must write
    /// the 3 size(k) entries of stencil k's gradient at the head of the
    /// 12-vector g (its vertices in stencil order, 3 entries per vertex in 2D
    /// as well; a 2D assembly keeps the x and y entries).
    template <typename LocalGradientFn> Eigen::VectorXd gradient(const LocalGradientFn& local) const
    {
        const int d = dim_;
        Eigen::VectorXd g = Eigen::VectorXd::Zero(d * num_vertices_);
        for_each_stencil_conflict_free([&](Index k, Index) {
                const StencilVertices& s = stencils_[size_t(k)];
                Vector<double, 12> local_gradient = Vector<double, 12>::Zero();
                local(k, local_gradient);
                if (d == 3) {
                    for (int a = 0; a < s.size; ++a) {
                        g.segment<3>(3 * s.vertices[size_t(a)]) += local_gradient.segment<3>(3 * a);
                    }
                } else {
                    for (int a = 0; a < s.size; ++a) {
                        g.segment<2>(2 * s.vertices[size_t(a)]) += local_gradient.segment<2>(3 * a);
                    }
                }
        });
        return g;
    }

    /// Sparse symmetric Hessian (dim() num_vertices square, column-major,
    /// sorted indices, compressed). local(k, H) must write stencil k's
    /// symmetric 3 size(k) square Hessian in the top-left corner of the
    /// 12 x 12 H (3 rows and columns per vertex in 2D as well; a 2D assembly
    /// keeps the x-y rows and columns).
    /// Entries whose stencils all give zero blocks are stored as zeros (the
    /// pattern depends only on the stencils). With SparseTriangle::lower
    /// (upper), only the entries with row >= column (row <= column) are
    /// stored; local(k, H) still writes the whole local Hessian.
    template <typename LocalHessianFn>
    Eigen::SparseMatrix<double> hessian(const LocalHessianFn& local,
                                        SparseTriangle triangle = SparseTriangle::full) const
    {
        Eigen::SparseMatrix<double> H;
        hessian(local, H, triangle);
        return H;
    }

    /// The same, written into H (any previous size, pattern or state), whose
    /// index and value storage is reused when it is large enough: a solver
    /// that keeps one matrix between Newton iterations does not have fresh
    /// pages faulted in for every Hessian.
    template <typename LocalHessianFn>
    void hessian(const LocalHessianFn& local, Eigen::SparseMatrix<double>& H,
                 SparseTriangle triangle = SparseTriangle::full) const
    {
        const HessianPattern& pattern = build_pattern(triangle);
        const int d = dim_;
        const Index n = d * num_vertices_;
        H.resize(n, n); // keeps the storage's capacity (and compresses)
        H.resizeNonZeros(Index(pattern.inner.size()));
        std::copy(pattern.outer.begin(), pattern.outer.end(), H.outerIndexPtr());
        std::copy(pattern.inner.begin(), pattern.inner.end(), H.innerIndexPtr());
        using T = SparseTriangle;
        double* values = H.valuePtr();
        switch (triangle) {
        case T::lower: d == 3 ? scatter_hessian_values<3, T::lower>(local, pattern, values)
                              : scatter_hessian_values<2, T::lower>(local, pattern, values); break;
        case T::upper: d == 3 ? scatter_hessian_values<3, T::upper>(local, pattern, values)
                              : scatter_hessian_values<2, T::upper>(local, pattern, values); break;
        default: d == 3 ? scatter_hessian_values<3, T::full>(local, pattern, values)
                        : scatter_hessian_values<2, T::full>(local, pattern, values);
        }
    }

private:
    /// Where the blocks of one stencil go in the value array: entry (r, c)
    /// of block (a, b) (row vertex a, column vertex b) is at offset[4 b + a]
    /// + column_shift(c, column_length[b]) + r, where column_length[b]
    /// counts the entries of vertex vb's columns outside its diagonal block
    /// (all of them in a full pattern; those above it in an upper pattern,
    /// whose column d vb + c then holds c + 1 more; those below it in a
    /// lower pattern, whose column d vb + c holds d - c more, and the offset
    /// is shifted back by the rows the columns drop). A triangle skips the
    /// blocks across the diagonal and keeps its side of the diagonal block.
    struct ScatterBlocks {
        std::array<StorageIndex, 16> offset;
        std::array<StorageIndex, 4> column_length;
        std::uint16_t first_writes; // bit 4 b + a: this stencil writes block (a, b) first
        std::uint16_t skipped;      // bit 4 b + a: block across this pattern's diagonal (none in a full one)
        std::uint16_t diagonal;     // bit 4 b + a: va == vb
        std::uint16_t size;
    };

    /// Where column c of a block starts relative to column 0 (see
    /// ScatterBlocks), for D rows per vertex.
    template <int D, SparseTriangle T> static constexpr Index column_shift(int c, Index column_length)
    {
        if constexpr (T == SparseTriangle::upper) {
            return c * column_length + c * (c + 1) / 2;
        } else if constexpr (T == SparseTriangle::lower) {
            return c * (column_length + D - 1) - c * (c - 1) / 2;
        } else {
            return c * column_length;
        }
    }

    /// The CSC pattern of a full or triangular Hessian and its stencils'
    /// scatter records (in scatter order).
    struct HessianPattern {
        bool built = false;
        std::vector<StorageIndex> outer, inner;
        std::vector<ScatterBlocks> scatter_blocks;
    };

    /// The scatter of hessian(): adds every stencil's local Hessian into the
    /// values of the pattern, with D (= dim_) and the triangle fixed at
    /// compile time so that the block loops unroll. No pass zeroes the
    /// values first: the first stencil to reach a block in the scatter order
    /// assigns it and the later ones add to it.
    template <int D, SparseTriangle T, typename LocalHessianFn>
    void scatter_hessian_values(const LocalHessianFn& local, const HessianPattern& pattern, double* values) const
    {
        constexpr bool triangle = T != SparseTriangle::full;
        for_each_stencil_conflict_free([&](Index k, Index j) {
                Matrix<double, 12, 12> local_hessian;
                local(k, local_hessian);
                const ScatterBlocks& blocks = pattern.scatter_blocks[size_t(j)];
                // Column block b (vertex vb) receives row blocks a (vertex va).
                for (int b = 0; b < blocks.size; ++b) {
                    const Index column_length = blocks.column_length[size_t(b)];
                    for (int a = 0; a < blocks.size; ++a) {
                        const unsigned bit = 1u << (4 * b + a);
                        if (triangle && (blocks.skipped & bit)) {
                            continue;
                        }
                        double* block = values + blocks.offset[size_t(4 * b + a)];
                        const double* source = local_hessian.data() + 12 * 3 * b + 3 * a;
                        const bool first = blocks.first_writes & bit;
                        if (triangle && (blocks.diagonal & bit)) {
                            // Rows 0..cb (upper) or cb..D-1 (lower) of column cb.
                            for (int cb = 0; cb < D; ++cb) {
                                double* column = block + column_shift<D, T>(cb, column_length);
                                const int begin = T == SparseTriangle::lower ? cb : 0;
                                const int end = T == SparseTriangle::lower ? D : cb + 1;
                                for (int ca = begin; ca < end; ++ca) {
                                    column[ca] = first ? source[12 * cb + ca] : column[ca] + source[12 * cb + ca];
                                }
                            }
                            continue;
                        }
                        if (first) {
                            for (int cb = 0; cb < D; ++cb) {
                                double* column = block + column_shift<D, T>(cb, column_length);
                                for (int ca = 0; ca < D; ++ca) {
                                    column[ca] = source[12 * cb + ca];
                                }
                            }
                        } else {
                            for (int cb = 0; cb < D; ++cb) {
                                double* column = block + column_shift<D, T>(cb, column_length);
                                for (int ca = 0; ca < D; ++ca) {
                                    column[ca] += source[12 * cb + ca];
                                }
                            }
                        }
                    }
                }
        });
    }

    /// Calls body(k, j) once for every stencil k, j being its position in
    /// the scatter order: the tiles of one colour in parallel, the stencils
    /// of a tile one after another.
    template <typename Body> void for_each_stencil_conflict_free(const Body& body) const
    {
        const Index N = Index(stencils_.size());
        for (size_t c = 0; c + 1 < colour_start_.size(); ++c) {
            detail::guarded_parallel_for(colour_start_[c], colour_start_[c + 1], [&](std::ptrdiff_t i) {
                const Index first = by_colour_[size_t(i)] * stencils_per_tile;
                const Index last = std::min(N, first + stencils_per_tile);
                for (Index j = first; j < last; ++j) {
                    body(order_[size_t(j)], j);
                }
            }, min_parallel_tiles);
        }
    }

    /// The scatter order: the stencils sorted by their smallest vertex index
    /// (a stable counting sort, so ties keep their index order). Stencil
    /// sets come in sections (a collision set's vertex-vertex, edge-vertex,
    /// edge-edge and face-vertex pairs) that each sweep the whole matrix in
    /// their own order; in this order the stencils of a tile write to the
    /// columns of a narrow range of vertices, which stay in cache on a mesh
    /// numbered with any locality.
    void sort_by_smallest_vertex()
    {
        const size_t N = stencils_.size();
        std::vector<Index> count(size_t(num_vertices_) + 1, 0);
        std::vector<Index> key(N);
        for (size_t k = 0; k < N; ++k) {
            const StencilVertices& s = stencils_[k];
            Index smallest = s.size > 0 ? s.vertices[0] : 0;
            for (int a = 1; a < s.size; ++a) {
                smallest = std::min(smallest, s.vertices[size_t(a)]);
            }
            key[k] = smallest;
            ++count[size_t(smallest) + 1];
        }
        std::partial_sum(count.begin(), count.end(), count.begin());
        order_.resize(N);
        for (size_t k = 0; k < N; ++k) {
            order_[size_t(count[size_t(key[k])]++)] = Index(k);
        }
    }

    /// Greedy colouring of the tiles (consecutive runs of stencils_per_tile
    /// stencils of the scatter order) so that two tiles of one colour share
    /// no vertex. Colouring tiles rather than single stencils keeps the
    /// scatter local: the stencils of a tile have nearby smallest vertices,
    /// so they write to nearby entries that stay in cache, where the
    /// stencils of one colour of a per-stencil colouring are spread over the
    /// whole mesh and each colour would sweep the whole matrix.
    void colour()
    {
        sort_by_smallest_vertex();
        const Index N = Index(stencils_.size());
        const Index num_tiles = (N + stencils_per_tile - 1) / stencils_per_tile;
        std::vector<int> colours(static_cast<std::size_t>(num_tiles), -1);
        std::vector<Index> remaining(static_cast<std::size_t>(num_tiles));
        std::iota(remaining.begin(), remaining.end(), Index(0));
        std::vector<std::uint64_t> used(static_cast<std::size_t>(num_vertices_));
        int base = 0;
        while (!remaining.empty()) {
            std::fill(used.begin(), used.end(), 0);
            std::vector<Index> next;
            for (const Index t : remaining) {
                const Index first = t * stencils_per_tile, last = std::min(N, first + stencils_per_tile);
                std::uint64_t mask = 0;
                for (Index j = first; j < last; ++j) {
                    const StencilVertices& s = stencils_[size_t(order_[size_t(j)])];
                    for (int a = 0; a < s.size; ++a) {
                        mask |= used[size_t(s.vertices[size_t(a)])];
                    }
                }
                if (mask == ~std::uint64_t(0)) {
                    next.push_back(t);
                    continue;
                }
                int bit = 0;
                while (mask & (std::uint64_t(1) << bit)) {
                    ++bit;
                }
                colours[size_t(t)] = base + bit;
                for (Index j = first; j < last; ++j) {
                    const StencilVertices& s = stencils_[size_t(order_[size_t(j)])];
                    for (int a = 0; a < s.size; ++a) {
                        used[size_t(s.vertices[size_t(a)])] |= std::uint64_t(1) << bit;
                    }
                }
            }
            remaining.swap(next);
            base += 64;
        }
        const int num_colours = num_tiles == 0 ? 0 : *std::max_element(colours.begin(), colours.end()) + 1;
        colour_start_.assign(size_t(num_colours) + 1, 0);
        for (const int c : colours) {
            ++colour_start_[size_t(c) + 1];
        }
        std::partial_sum(colour_start_.begin(), colour_start_.end(), colour_start_.begin());
        by_colour_.resize(size_t(num_tiles));
        std::vector<std::ptrdiff_t> cursor(colour_start_.begin(), colour_start_.end() - (num_colours > 0 ? 1 : 0));
        for (Index t = 0; t < num_tiles; ++t) {
            by_colour_[size_t(cursor[size_t(colours[size_t(t)])]++)] = t;
        }
        if (colour_start_.size() == 1) {
            colour_start_.clear();
        }
    }

    /// Vertex adjacency through stencils and the scalar CSC pattern of the
    /// full Hessian or one triangle, built on the first call for each.
    const HessianPattern& build_pattern(SparseTriangle triangle) const
    {
        const bool upper = triangle == SparseTriangle::upper, lower = triangle == SparseTriangle::lower;
        HessianPattern& pattern = patterns_[upper ? 1 : lower ? 2 : 0];
        if (pattern.built) {
            return pattern;
        }
        const size_t n = size_t(num_vertices_);
        // Incidence: vertex -> stencils.
        std::vector<Index> incidence_start(n + 1, 0);
        for (const StencilVertices& s : stencils_) {
            for (int a = 0; a < s.size; ++a) {
                ++incidence_start[size_t(s.vertices[size_t(a)]) + 1];
            }
        }
        std::partial_sum(incidence_start.begin(), incidence_start.end(), incidence_start.begin());
        std::vector<Index> incidence(static_cast<std::size_t>(incidence_start[n]));
        {
            std::vector<Index> cursor(incidence_start.begin(), incidence_start.end() - 1);
            for (size_t k = 0; k < stencils_.size(); ++k) {
                const StencilVertices& s = stencils_[k];
                for (int a = 0; a < s.size; ++a) {
                    incidence[size_t(cursor[size_t(s.vertices[size_t(a)])]++)] = Index(k);
                }
            }
        }
        // Neighbour lists (sorted, unique, including the vertex itself),
        // gathered once into blocks of vertices and then concatenated.
        struct NeighbourBlock {
            std::vector<Index> neighbours;
            std::vector<Index> counts;
        };
        const std::vector<NeighbourBlock> blocks = detail::process_in_blocks<NeighbourBlock>(n, [&](size_t v, NeighbourBlock& block) {
            const size_t first = block.neighbours.size();
            for (Index i = incidence_start[v]; i < incidence_start[v + 1]; ++i) {
                const StencilVertices& s = stencils_[size_t(incidence[size_t(i)])];
                for (int a = 0; a < s.size; ++a) {
                    block.neighbours.push_back(s.vertices[size_t(a)]);
                }
            }
            const auto begin = block.neighbours.begin() + std::ptrdiff_t(first);
            std::sort(begin, block.neighbours.end());
            block.neighbours.erase(std::unique(begin, block.neighbours.end()), block.neighbours.end());
            block.counts.push_back(Index(block.neighbours.size() - first));
        });
        std::vector<Index> neighbour_start(n + 1, 0);
        {
            size_t v = 0;
            for (const NeighbourBlock& block : blocks) {
                for (const Index count : block.counts) {
                    neighbour_start[v + 1] = neighbour_start[v] + count;
                    ++v;
                }
            }
        }
        std::vector<Index> neighbours(static_cast<size_t>(neighbour_start[n]));
        detail::guarded_parallel_for(0, std::ptrdiff_t(blocks.size()), [&](std::ptrdiff_t b) {
            const size_t first_vertex = size_t(b) * detail::parallel_block_size;
            std::copy(blocks[size_t(b)].neighbours.begin(), blocks[size_t(b)].neighbours.end(),
                      neighbours.begin() + neighbour_start[first_vertex]);
        });
        // Scalar pattern (d = dim_), from each vertex's sorted neighbours, of
        // which the first `above` come before the vertex itself (a vertex in
        // some stencil is its own neighbour; one in none has empty columns).
        // Column d v + c holds rows d u + r, r = 0..d-1, in increasing order:
        // for every neighbour u (full); for u < v, then d v + r for r <= c
        // (upper); d v + r for r >= c, then u > v (lower).
        const size_t d = size_t(dim_);
        std::vector<Index> above(upper || lower ? n : 0);
        for (size_t v = 0; v < above.size(); ++v) {
            const Index* first = neighbours.data() + neighbour_start[v];
            const Index* end = neighbours.data() + neighbour_start[v + 1];
            above[v] = Index(std::lower_bound(first, end, Index(v)) - first);
        }
        const auto degree = [&](size_t v) { return neighbour_start[v + 1] - neighbour_start[v]; };
        // Entries of vertex v's columns outside its diagonal block.
        const auto off_diagonal_entries = [&](size_t v) {
            return Index(d) * (upper ? above[v] : lower ? std::max<Index>(degree(v) - above[v] - 1, 0) : degree(v));
        };
        const auto column_entries = [&](size_t v, size_t c) {
            const Index own = degree(v) > 0 ? 1 : 0; // the diagonal block's part
            return off_diagonal_entries(v) + (upper ? own * Index(c + 1) : lower ? own * Index(d - c) : 0);
        };
        require(neighbours.size() * d * d < size_t(std::numeric_limits<StorageIndex>::max()),
                "Hessian has too many nonzeros for the sparse matrix index type");
        pattern.outer.assign(d * n + 1, 0);
        for (size_t v = 0; v < n; ++v) {
            for (size_t c = 0; c < d; ++c) {
                pattern.outer[d * v + c + 1] = pattern.outer[d * v + c] + StorageIndex(column_entries(v, c));
            }
        }
        pattern.inner.resize(size_t(pattern.outer[d * n]));
        detail::guarded_parallel_for(0, std::ptrdiff_t(n), [&](std::ptrdiff_t v) {
            const Index start = neighbour_start[size_t(v)], stop = neighbour_start[size_t(v) + 1];
            const bool own = stop > start;
            const Index first = lower && own ? start + above[size_t(v)] + 1 : start;
            const Index last = upper ? start + above[size_t(v)] : stop;
            for (size_t c = 0; c < d; ++c) {
                StorageIndex* out = pattern.inner.data() + pattern.outer[d * size_t(v) + c];
                for (size_t r = c; lower && own && r < d; ++r) {
                    *out++ = StorageIndex(Index(d) * Index(v) + Index(r));
                }
                for (Index i = first; i < last; ++i) {
                    for (size_t r = 0; r < d; ++r) {
                        *out++ = StorageIndex(Index(d) * neighbours[size_t(i)] + Index(r));
                    }
                }
                for (size_t r = 0; upper && own && r <= c; ++r) {
                    *out++ = StorageIndex(Index(d) * Index(v) + Index(r));
                }
            }
        }, 1024);
        // Where each stencil's blocks start, in scatter order, so that the
        // scatter reads one record per stencil and searches nothing.
        pattern.scatter_blocks.resize(stencils_.size());
        detail::guarded_parallel_for(0, std::ptrdiff_t(stencils_.size()), [&](std::ptrdiff_t j) {
            const StencilVertices& s = stencils_[size_t(order_[size_t(j)])];
            ScatterBlocks& blocks = pattern.scatter_blocks[size_t(j)];
            blocks.size = std::uint16_t(s.size);
            blocks.skipped = 0;
            blocks.diagonal = 0;
            for (int b = 0; b < s.size; ++b) {
                const Index vb = s.vertices[size_t(b)];
                const Index* first = neighbours.data() + neighbour_start[size_t(vb)];
                const Index* end = neighbours.data() + neighbour_start[size_t(vb) + 1];
                blocks.column_length[size_t(b)] = StorageIndex(off_diagonal_entries(size_t(vb)));
                // A lower pattern's columns start at the diagonal block.
                const Index skipped = lower ? above[size_t(vb)] : 0;
                for (int a = 0; a < s.size; ++a) {
                    const Index va = s.vertices[size_t(a)];
                    const Index slot = Index(std::lower_bound(first, end, va) - first);
                    blocks.offset[size_t(4 * b + a)] = StorageIndex(pattern.outer[d * size_t(vb)] + Index(d) * (slot - skipped));
                    const bool across = (upper && va > vb) || (lower && va < vb);
                    blocks.skipped |= std::uint16_t(across ? 1u << (4 * b + a) : 0u);
                    blocks.diagonal |= std::uint16_t(va == vb ? 1u << (4 * b + a) : 0u);
                }
            }
        }, min_parallel_stencils);
        // The first write of every block, in the scatter's own order (the
        // tiles of one colour touch disjoint blocks, so the flags are the
        // same for any thread count). Every block of the pattern has one.
        std::vector<unsigned char> written(pattern.inner.size(), 0);
        for_each_stencil_conflict_free([&](Index, Index j) {
            ScatterBlocks& blocks = pattern.scatter_blocks[size_t(j)];
            blocks.first_writes = 0;
            for (int b = 0; b < blocks.size; ++b) {
                for (int a = 0; a < blocks.size; ++a) {
                    const unsigned bit = 1u << (4 * b + a);
                    if (blocks.skipped & bit) {
                        continue;
                    }
                    unsigned char& seen = written[size_t(blocks.offset[size_t(4 * b + a)])];
                    if (!seen) {
                        seen = 1;
                        blocks.first_writes |= std::uint16_t(bit);
                    }
                }
            }
        });
        pattern.built = true;
        return pattern;
    }

    Index num_vertices_ = 0;
    int dim_ = 3;
    std::vector<StencilVertices> stencils_;
    std::vector<Index> order_; // scatter order (sort_by_smallest_vertex); tile t is order_[128 t, 128 (t + 1))
    std::vector<std::ptrdiff_t> colour_start_; // tiles of colour c: by_colour_[start[c], start[c+1])
    std::vector<Index> by_colour_;

    mutable std::array<HessianPattern, 3> patterns_; // full, upper, lower; built on first use
};

/// A StencilAssembly kept between calls for a stencil set that changes
/// rarely (the contacts of consecutive Newton iterations): get() returns the
/// kept assembly, colouring and Hessian pattern included, while the stencils
/// are the same as at the last call, compared one by one, and builds a new
/// one when they differ. A Collisions set holds one, so that the barrier
/// potential's gradient and Hessian skip the colouring and the pattern when
/// they are called again on the same set, or on a set rebuilt with the same
/// stencils. Copies share the kept assembly; get() may be called from
/// several threads at once.
class StencilAssemblyCache {
public:
    StencilAssemblyCache() = default;
    /// A copy that shares other's kept assembly (no deep copy).
    StencilAssemblyCache(const StencilAssemblyCache& other) : kept_(other.kept()) { }
    /// Shares other's kept assembly (no deep copy); thread-safe.
    StencilAssemblyCache& operator=(const StencilAssemblyCache& other)
    {
        if (this != &other) {
            std::shared_ptr<const StencilAssembly> kept = other.kept();
            const std::lock_guard<std::mutex> lock(mutex_);
            kept_ = std::move(kept);
        }
        return *this;
    }

    /// The assembly of these stencils (the StencilAssembly constructor's
    /// arguments), with the sparsity pattern of its Hessian (or of its upper
    /// triangle) built when with_pattern. stencil(k) may throw (a bad
    /// index): nothing is kept then.
    template <typename StencilFn>
    std::shared_ptr<const StencilAssembly> get(Index num_vertices, Index num_stencils, const StencilFn& stencil,
                                               int dim, bool with_pattern,
                                               SparseTriangle triangle = SparseTriangle::full) const
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (!kept_ || !kept_->same_stencils(num_vertices, num_stencils, stencil, dim)) {
            kept_.reset();
            kept_ = std::make_shared<const StencilAssembly>(num_vertices, num_stencils, stencil, dim);
        }
        if (with_pattern) {
            kept_->build_sparsity_pattern(triangle); // once; under the lock
        }
        return kept_;
    }

    /// Drops the kept assembly (its memory is freed once no caller holds it).
    void clear() const
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        kept_.reset();
    }

private:
    std::shared_ptr<const StencilAssembly> kept() const
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        return kept_;
    }

    mutable std::mutex mutex_;
    mutable std::shared_ptr<const StencilAssembly> kept_;
};

} // namespace ipc

namespace ipc::detail {
// Names used by the potentials before StencilAssembly became public.
using ipc::min_parallel_stencils;
using ipc::StencilAssembly;
using ipc::StencilVertices;
} // namespace ipc::detail
