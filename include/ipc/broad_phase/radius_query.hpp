#pragma once
/// @file
/// Point radius query for the vertex-repulsion method (Wu et al. 2020,
/// section 4.3.1): every vertex pair closer than a radius, minus the pairs
/// within k rings of each other in the rest topology (paper section 8.3
/// drops the constraints inside the 2-ring: they would add artificial
/// bending stiffness, and neighbouring vertices are closer than the
/// separation at rest).
///
/// The query is a dedicated uniform point grid rather than the box-based
/// SpatialHash: points need no boxes, and a sorted array scanned in cell
/// order beats per-vertex hash map queries (about 7x faster than one
/// SpatialHash query per vertex on a 50K-vertex folded sheet, single
/// thread). The points are radix-sorted by cell key (cells a little larger
/// than the radius, so that a pair closer than the radius lies in the same or
/// in adjacent cells), and each occupied cell scans its 3 (2D) or 9 (3D)
/// rows of adjacent cells, each row a contiguous run of the sorted points
/// found by a galloping search that moves forward with the cells. Each
/// vertex reports its partners of larger index; a counting pass by vertex
/// index then writes the pairs in order, so the output is sorted without a
/// global sort.

#include <ipc/broad_phase/radix_sort.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/types.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

namespace ipc {

namespace detail {

    /// Calls body(block, first, last) for `blocks` consecutive ranges that
    /// cover [0, n): in parallel, or directly when there is a single block
    /// (no parallel region for small inputs).
    template <typename Body> void radius_query_blocks(std::ptrdiff_t n, std::ptrdiff_t blocks, Body&& body)
    {
        const auto run = [&](std::ptrdiff_t block) {
            body(block, block * n / blocks, (block + 1) * n / blocks);
        };
        if (blocks <= 1) {
            run(0);
        } else {
            parallel_for(0, blocks, run);
        }
    }

} // namespace detail

/// The vertices within k rings of each vertex in the edge graph (rest
/// topology), sorted, for the exclusion predicate of the radius query.
/// Vertex j is in the k-ring of i when a path of at most k edges joins them.
class RingExclusion {
public:
    /// No exclusion beyond i == j (num_vertices() = 0, rings() = 0).
    RingExclusion() = default;

    /// The k-rings of num_vertices vertices in the graph of the edges E (m x 2
    /// rows of vertex indices; duplicate edges and self-loops are allowed and
    /// ignored). k >= 0 (k = 0 excludes only i == j). Throws
    /// ipc::invalid_argument when num_vertices < 0, k < 0, E does not have
    /// two columns (an empty E may have any) or an index is not in
    /// [0, num_vertices).
    RingExclusion(Index num_vertices, const Eigen::MatrixXi& E, int k = 2);

    /// True when j is within k rings of i (symmetric; true for i == j). i and
    /// j must be vertices (not checked); a default-constructed exclusion
    /// (num_vertices() == 0) takes any indices and excludes only i == j.
    bool excluded(Index i, Index j) const
    {
        if (i == j) {
            return true;
        }
        if (rings_.empty()) {
            return false;
        }
        const std::vector<Index>& r = rings_[size_t(i)];
        return std::binary_search(r.begin(), r.end(), j);
    }

    /// The number of rings k.
    int rings() const { return k_; }

    /// The number of vertices (0 when default-constructed).
    Index num_vertices() const { return num_vertices_; }

    /// The vertices within k rings of i, sorted, without i itself. Throws
    /// ipc::invalid_argument when i is not a vertex.
    const std::vector<Index>& ring(Index i) const
    {
        require(i >= 0 && i < num_vertices_, "RingExclusion::ring: vertex ", i, " is not in [0, ", num_vertices_,
            ")");
        return rings_[size_t(i)];
    }

private:
    Index num_vertices_ = 0;
    int k_ = 0;
    std::vector<std::vector<Index>> rings_;
};

inline RingExclusion::RingExclusion(Index num_vertices, const Eigen::MatrixXi& E, int k)
    : num_vertices_(num_vertices)
    , k_(k)
{
    require(num_vertices >= 0, "RingExclusion: num_vertices must be non-negative, got ", num_vertices);
    require(k >= 0, "RingExclusion: the number of rings k must be non-negative, got ", k);
    require(E.rows() == 0 || E.cols() == 2, "RingExclusion: edges must have 2 columns, got ", E.cols());
    for (Index e = 0; e < E.rows(); ++e) {
        for (Index c = 0; c < E.cols(); ++c) {
            const Index v = E(e, c);
            require(v >= 0 && v < num_vertices, "RingExclusion: edge ", e, " references vertex ", v,
                " but there are ", num_vertices, " vertices");
        }
    }
    const size_t n = size_t(num_vertices);
    rings_.assign(n, {});
    if (k == 0 || n == 0) {
        return;
    }

    // Adjacency in compressed rows, sorted and without duplicates.
    std::vector<Index> begin(n + 1, 0);
    for (Index e = 0; e < E.rows(); ++e) {
        if (E(e, 0) != E(e, 1)) {
            ++begin[size_t(E(e, 0)) + 1];
            ++begin[size_t(E(e, 1)) + 1];
        }
    }
    for (size_t v = 0; v < n; ++v) {
        begin[v + 1] += begin[v];
    }
    std::vector<Index> adjacent(static_cast<size_t>(begin[n]));
    {
        std::vector<Index> fill(begin.begin(), begin.end() - 1);
        for (Index e = 0; e < E.rows(); ++e) {
            const Index a = E(e, 0), b = E(e, 1);
            if (a != b) {
                adjacent[size_t(fill[size_t(a)]++)] = b;
                adjacent[size_t(fill[size_t(b)]++)] = a;
            }
        }
    }
    std::vector<std::vector<Index>> neighbours(n);
    for (size_t v = 0; v < n; ++v) {
        std::vector<Index>& list = neighbours[v];
        list.assign(adjacent.begin() + begin[v], adjacent.begin() + begin[v + 1]);
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }

    // Breadth-first by levels with sorted sets (no marker arrays), in
    // parallel over blocks of vertices.
    detail::radius_query_blocks(std::ptrdiff_t(n), detail::work_blocks(std::ptrdiff_t(n)),
        [&](std::ptrdiff_t, std::ptrdiff_t first, std::ptrdiff_t last) {
            std::vector<Index> frontier, candidates, fresh, merged;
            for (std::ptrdiff_t vertex = first; vertex < last; ++vertex) {
                std::vector<Index>& ring = rings_[size_t(vertex)];
                ring = neighbours[size_t(vertex)];
                frontier = ring;
                for (int level = 1; level < k && !frontier.empty(); ++level) {
                    candidates.clear();
                    for (const Index f : frontier) {
                        const std::vector<Index>& next = neighbours[size_t(f)];
                        candidates.insert(candidates.end(), next.begin(), next.end());
                    }
                    std::sort(candidates.begin(), candidates.end());
                    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
                    fresh.clear();
                    std::set_difference(
                        candidates.begin(), candidates.end(), ring.begin(), ring.end(), std::back_inserter(fresh));
                    fresh.erase(std::remove(fresh.begin(), fresh.end(), Index(vertex)), fresh.end());
                    merged.clear();
                    std::merge(ring.begin(), ring.end(), fresh.begin(), fresh.end(), std::back_inserter(merged));
                    ring.assign(merged.begin(), merged.end());
                    std::swap(frontier, fresh);
                }
                ring.shrink_to_fit();
            }
        });
}

namespace detail {

    /// Buffers of the radius query, kept between queries by the calling
    /// thread so that repeated queries of similar size reuse their memory
    /// (see release_radius_query_buffers).
    struct RadiusQueryBuffers {
        std::vector<std::uint64_t> keys; ///< (cell << index_bits) | vertex, sorted
        std::vector<std::uint64_t> cell_keys; ///< occupied cells, sorted
        std::vector<size_t> cell_begin; ///< first slot of each occupied cell, then n
        std::vector<std::array<double, 3>> points; ///< positions in slot order
        std::vector<Index> ids; ///< vertex of each slot
        std::vector<Index> counts; ///< partners of larger index per vertex, then offsets
        std::vector<std::vector<Index>> found; ///< partners per block, in slot order
    };

    inline RadiusQueryBuffers& radius_query_buffers()
    {
        static thread_local RadiusQueryBuffers buffers;
        return buffers;
    }

} // namespace detail

/// Frees the calling thread's radius query buffers (vertex_pairs_within_radius
/// keeps them between calls, about 100 bytes per vertex plus 8 per pair).
inline void release_radius_query_buffers() { detail::radius_query_buffers() = detail::RadiusQueryBuffers(); }

/// vertex_pairs_within_radius (below) writing into `pairs` (cleared first),
/// so that a caller repeating the query reuses the vector's memory. Same
/// contract, validation and result.
inline void vertex_pairs_within_radius(const Eigen::Ref<const Eigen::MatrixXd>& V, double radius,
    const RingExclusion& exclusion, std::vector<std::pair<Index, Index>>& pairs)
{
    const Index n = V.rows();
    const Index dim = V.cols();
    require(dim == 2 || dim == 3, "vertex_pairs_within_radius: positions must have 2 or 3 columns, got ", dim);
    require(std::isfinite(radius) && radius > 0.0, "vertex_pairs_within_radius: radius must be finite and positive, got ",
        radius);
    require(exclusion.num_vertices() == 0 || exclusion.num_vertices() == n,
        "vertex_pairs_within_radius: the exclusion has ", exclusion.num_vertices(), " vertices but positions have ", n,
        " rows");
    std::array<double, 3> low { { 0.0, 0.0, 0.0 } }, high { { 0.0, 0.0, 0.0 } };
    for (Index d = 0; d < dim; ++d) {
        for (Index i = 0; i < n; ++i) {
            require(std::isfinite(V(i, d)), "vertex_pairs_within_radius: vertex ", i,
                " has a non-finite coordinate (", V(i, d), ")");
        }
        if (n > 0) {
            low[size_t(d)] = V.col(d).minCoeff();
            high[size_t(d)] = V.col(d).maxCoeff();
        }
    }
    pairs.clear();
    if (n < 2) {
        return;
    }
    detail::RadiusQueryBuffers& buffers = detail::radius_query_buffers();

    // Sort keys: the cell coordinates, last axis lowest, above the vertex
    // index. With index_bits bits for the index, each axis gets
    // field_bits = min(24, (64 - index_bits) / dim) bits and at most
    // 2^field_bits - 2 cells, so that the neighbour c + 1 still fits.
    const int index_bits = std::max(1, detail::bits_for(size_t(n)));
    const int field_bits = std::min(24, (64 - index_bits) / int(dim));
    const std::int64_t field_max = (std::int64_t(1) << field_bits) - 1;
    const std::int64_t max_cell = field_max - 1;

    // Cells of edge h >= radius (1 + 1e-6), larger when the points span more
    // than max_cell cells. The computed cell coordinate
    // fl(fl(x - low) * fl(1/h)) differs from (x - low) / h by a relative
    // 3 * 2^-53 of at most 2^24 cells, below 1e-8 cells, so two points closer
    // than the radius (less than 1 - 1e-6 cells apart along every axis) land
    // in cells at most one apart.
    double span = 0.0;
    for (size_t d = 0; d < 3; ++d) {
        span = std::max(span, high[d] - low[d]);
    }
    const double cell = std::max(radius * (1.0 + 1e-6), span / double(max_cell - 1));
    const double inverse = 1.0 / cell; // 0 when cell overflows: a single cell
    const auto pack = [&](std::int64_t c0, std::int64_t c1, std::int64_t c2) {
        // 2D: c0 is 0 and unused.
        return dim == 3 ? (((std::uint64_t(c0) << field_bits) | std::uint64_t(c1)) << field_bits) | std::uint64_t(c2)
                        : (std::uint64_t(c1) << field_bits) | std::uint64_t(c2);
    };
    std::vector<std::uint64_t>& keys = buffers.keys;
    keys.resize(size_t(n));
    const std::ptrdiff_t blocks = detail::work_blocks(std::ptrdiff_t(n));
    detail::radius_query_blocks(std::ptrdiff_t(n), blocks, [&](std::ptrdiff_t, std::ptrdiff_t first, std::ptrdiff_t last) {
        for (std::ptrdiff_t i = first; i < last; ++i) {
            std::array<std::int64_t, 3> c { { 0, 0, 0 } };
            for (Index d = 0; d < dim; ++d) {
                const double x = std::floor((V(Index(i), d) - low[size_t(d)]) * inverse);
                c[size_t(3 - dim + d)] = std::int64_t(std::min(double(max_cell), std::max(0.0, x)));
            }
            keys[size_t(i)] = (pack(c[0], c[1], c[2]) << index_bits) | std::uint64_t(i);
        }
    });
    detail::radix_sort_keys(keys, index_bits + int(dim) * field_bits);

    // Occupied cells and the points in slot (sorted) order.
    const std::uint64_t index_mask = (std::uint64_t(1) << index_bits) - 1;
    std::vector<std::uint64_t>& cell_keys = buffers.cell_keys;
    std::vector<size_t>& cell_begin = buffers.cell_begin;
    std::vector<std::array<double, 3>>& points = buffers.points;
    std::vector<Index>& ids = buffers.ids;
    cell_keys.clear();
    cell_begin.clear();
    points.resize(size_t(n));
    ids.resize(size_t(n));
    for (size_t s = 0; s < size_t(n); ++s) {
        const std::uint64_t cell_key = keys[s] >> index_bits;
        if (s == 0 || cell_key != cell_keys.back()) {
            cell_keys.push_back(cell_key);
            cell_begin.push_back(s);
        }
        const Index i = Index(keys[s] & index_mask);
        ids[s] = i;
        points[s] = { { V(i, 0), V(i, 1), dim == 3 ? V(i, 2) : 0.0 } };
    }
    cell_begin.push_back(size_t(n));

    // Pass 1, over blocks of slots: each vertex's partners of larger index,
    // found in the rows of adjacent cells (a row of three cells along the
    // last axis is a contiguous run of slots).
    const double r2 = radius * radius;
    std::vector<Index>& counts = buffers.counts;
    counts.assign(size_t(n) + 1, 0);
    buffers.found.resize(size_t(blocks));
    const std::uint64_t last_mask = std::uint64_t(field_max);
    detail::radius_query_blocks(std::ptrdiff_t(n), blocks, [&](std::ptrdiff_t block, std::ptrdiff_t first_slot,
                                                          std::ptrdiff_t last_slot) {
        std::vector<Index>& found = buffers.found[size_t(block)];
        found.clear();
        const size_t first = size_t(first_slot), last = size_t(last_slot);
        std::array<std::pair<size_t, size_t>, 9> rows;
        int num_rows = 0;
        // For a fixed offset, the first key of the neighbour row grows with
        // the cell, so each offset keeps a cursor into cell_keys and gallops
        // forward from it (amortised O(1) per cell instead of a binary search).
        std::array<size_t, 9> cursor;
        cursor.fill(0);
        const auto gallop = [&](size_t from, std::uint64_t target) {
            const size_t size = cell_keys.size();
            if (from >= size || cell_keys[from] >= target) {
                return from;
            }
            size_t below = from, step = 1; // cell_keys[below] < target
            while (below + step < size && cell_keys[below + step] < target) {
                below += step;
                step *= 2;
            }
            const size_t end = std::min(below + step, size);
            return size_t(std::lower_bound(cell_keys.begin() + std::ptrdiff_t(below) + 1,
                              cell_keys.begin() + std::ptrdiff_t(end), target)
                - cell_keys.begin());
        };
        size_t cell_index = size_t(std::upper_bound(cell_begin.begin(), cell_begin.end(), first) - cell_begin.begin()) - 1;
        size_t rows_of = size_t(-1);
        for (size_t s = first; s < last; ++s) {
            while (cell_begin[cell_index + 1] <= s) {
                ++cell_index;
            }
            if (rows_of != cell_index) {
                // Neighbour rows of this cell.
                rows_of = cell_index;
                num_rows = 0;
                const std::uint64_t key = cell_keys[cell_index];
                const std::int64_t c2 = std::int64_t(key & last_mask);
                const std::int64_t c1 = std::int64_t((key >> field_bits) & last_mask);
                const std::int64_t c0 = dim == 3 ? std::int64_t(key >> (2 * field_bits)) : 0;
                const std::int64_t reach0 = dim == 3 ? 1 : 0;
                size_t offset = 0;
                for (std::int64_t a = c0 - reach0; a <= c0 + reach0; ++a) {
                    for (std::int64_t b = c1 - 1; b <= c1 + 1; ++b, ++offset) {
                        if (a < 0 || b < 0 || a > field_max || b > field_max) {
                            continue;
                        }
                        const std::uint64_t row_low = pack(a, b, std::max<std::int64_t>(0, c2 - 1));
                        const std::uint64_t row_high = pack(a, b, std::min(field_max, c2 + 1));
                        const size_t k0 = gallop(cursor[offset], row_low);
                        cursor[offset] = k0;
                        size_t k1 = k0;
                        while (k1 < cell_keys.size() && cell_keys[k1] <= row_high) {
                            ++k1;
                        }
                        if (k1 != k0) {
                            rows[size_t(num_rows++)] = { cell_begin[k0], cell_begin[k1] };
                        }
                    }
                }
            }
            const Index i = ids[s];
            const std::array<double, 3>& x = points[s];
            Index count = 0;
            for (int r = 0; r < num_rows; ++r) {
                for (size_t t = rows[size_t(r)].first; t < rows[size_t(r)].second; ++t) {
                    const Index j = ids[t];
                    if (j <= i) {
                        continue;
                    }
                    const std::array<double, 3>& y = points[t];
                    const double d0 = x[0] - y[0], d1 = x[1] - y[1], d2 = x[2] - y[2];
                    if (d0 * d0 + d1 * d1 + d2 * d2 < r2 && !exclusion.excluded(i, j)) {
                        found.push_back(j);
                        ++count;
                    }
                }
            }
            std::sort(found.end() - std::ptrdiff_t(count), found.end());
            counts[size_t(i)] = count;
        }
    });

    // Offsets by vertex index, then pass 2: each block moves its vertices'
    // (sorted) partners into place.
    Index total = 0;
    for (size_t i = 0; i < size_t(n); ++i) {
        const Index count = counts[i];
        counts[i] = total;
        total += count;
    }
    counts[size_t(n)] = total;
    pairs.resize(size_t(total));
    detail::radius_query_blocks(std::ptrdiff_t(n), blocks, [&](std::ptrdiff_t block, std::ptrdiff_t first_slot,
                                                          std::ptrdiff_t last_slot) {
        const std::vector<Index>& found = buffers.found[size_t(block)];
        const size_t first = size_t(first_slot), last = size_t(last_slot);
        size_t next = 0;
        for (size_t s = first; s < last; ++s) {
            const Index i = ids[s];
            const size_t begin = size_t(counts[size_t(i)]), end = size_t(counts[size_t(i) + 1]);
            for (size_t k = begin; k < end; ++k) {
                pairs[k] = { i, found[next++] }; // sorted by pass 1
            }
        }
    });
}

/// All unordered vertex pairs (i < j) with |V.row(i) - V.row(j)| < radius
/// (strict; evaluated as sum_d (V(i, d) - V(j, d))^2 < radius * radius, the
/// coordinates summed in order), except the pairs that `exclusion` excludes,
/// sorted lexicographically. V is n x 2 or n x 3 (metres), radius in metres.
///
/// Throws ipc::invalid_argument (naming the problem) when V does not have 2
/// or 3 columns, a coordinate is not finite, radius is not finite and
/// positive, or exclusion.num_vertices() is neither V.rows() nor 0 (a
/// default-constructed exclusion: only i == j is excluded).
///
/// A uniform grid (see the file comment) with cells of edge
/// radius (1 + 1e-6), enlarged when the points span too many cells along an
/// axis (2^24, fewer for very many vertices); the 1e-6 margin exceeds the
/// rounding error of the cell coordinates, so no pair closer than the radius
/// is missed, points on cell boundaries and duplicate points included. Cost:
/// O(n) radix sort plus the candidates of the 3^dim adjacent cells, near
/// linear for evenly spread points; parallel with OpenMP. The calling
/// thread keeps its buffers between calls (release_radius_query_buffers).
inline std::vector<std::pair<Index, Index>> vertex_pairs_within_radius(
    const Eigen::Ref<const Eigen::MatrixXd>& V, double radius, const RingExclusion& exclusion = {})
{
    std::vector<std::pair<Index, Index>> pairs;
    vertex_pairs_within_radius(V, radius, exclusion, pairs);
    return pairs;
}

} // namespace ipc
