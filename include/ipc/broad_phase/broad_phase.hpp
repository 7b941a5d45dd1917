#pragma once
/// @file
/// The broad phase: candidate pairs of a CollisionMesh from primitive boxes,
/// with a choice of method behind one function.
///
/// - static_candidates(): pairs that may be closer than xi + dhat at one
///   configuration (for building the constraint set);
/// - swept_candidates(): pairs that may come closer than xi + min_distance
///   while moving linearly from V0 to V1 (for CCD and the step size).
///
/// Every method returns the same Candidates (sorted, unique, admissible pairs
/// only, following CollisionMesh's pair rules), with one thread or many.
///
/// Memory: the broad phase keeps its trees, boxes and pair, sort and
/// candidate buffers between calls, one set per calling thread, so that a
/// simulator querying every iteration reuses the memory instead of having
/// fresh pages faulted in (on the cloth-stack case that was about a third of
/// the time). The set grows to the largest mesh queried (about 1 KB per
/// primitive) and lives until the thread ends or
/// release_broad_phase_memory() is called on that thread.
///
/// Trees: the BVH method keeps two sets of trees, one for queries at one
/// configuration (static_candidates, candidates_from_boxes) and one for
/// swept queries (swept_candidates, collision_free_step_size). A query on
/// the same mesh (CollisionMesh::topology_id) as the last one of its kind
/// refits that kind's trees to its boxes instead of rebuilding them, unless
/// the primitives have moved so far that the kept trees would slow the
/// search (BVH::refit); the candidates are the same either way.

#include <ipc/broad_phase/aabb.hpp>
#include <ipc/broad_phase/brute_force.hpp>
#include <ipc/broad_phase/bvh.hpp>
#include <ipc/broad_phase/candidates.hpp>
#include <ipc/broad_phase/radix_sort.hpp>
#include <ipc/broad_phase/spatial_hash.hpp>
#include <ipc/broad_phase/sweep_and_prune.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

namespace ipc {

/// Broad-phase algorithm. All give identical candidates; they differ in speed.
enum class BroadPhaseMethod {
    brute_force,     ///< every pair of boxes tested; O(n^2), for testing
    sweep_and_prune, ///< sort along one axis and scan
    spatial_hash,    ///< uniform grid in a robin-hood hash map
    bvh,             ///< bounding volume hierarchy (Morton order); the default
};

/// Name of a method ("brute_force", "bvh", ...).
inline const char* to_string(BroadPhaseMethod method)
{
    switch (method) {
    case BroadPhaseMethod::brute_force:
        return "brute_force";
    case BroadPhaseMethod::sweep_and_prune:
        return "sweep_and_prune";
    case BroadPhaseMethod::spatial_hash:
        return "spatial_hash";
    case BroadPhaseMethod::bvh:
        return "bvh";
    }
    return "unknown";
}

namespace detail {

    /// The ids 0, 1, ..., n - 1.
    inline std::vector<Index> iota_ids(Index n)
    {
        std::vector<Index> ids(static_cast<size_t>(n));
        for (Index i = 0; i < n; ++i) {
            ids[size_t(i)] = i;
        }
        return ids;
    }

    /// Concatenates the per-block lists in block order.
    template <typename Candidate>
    void concatenate(std::vector<std::vector<Candidate>>& blocks, std::vector<Candidate>& out)
    {
        size_t total = 0;
        for (const auto& block : blocks) {
            total += block.size();
        }
        out.resize(total);
        std::vector<size_t> offsets(blocks.size() + 1, 0);
        for (size_t b = 0; b < blocks.size(); ++b) {
            offsets[b + 1] = offsets[b] + blocks[b].size();
        }
        parallel_for(0, std::ptrdiff_t(blocks.size()), [&](std::ptrdiff_t b) {
            std::copy(blocks[size_t(b)].begin(), blocks[size_t(b)].end(), out.begin() + std::ptrdiff_t(offsets[size_t(b)]));
            std::vector<Candidate>().swap(blocks[size_t(b)]);
        });
    }

    /// One pair kind: pairs (a, b), a from first_ids (ascending) with boxes
    /// first_boxes, b from second_ids with boxes second_boxes. With self the
    /// two sets are the same and only b > a is kept. admissible(a, b) filters,
    /// make(a, b) builds the candidate.
    struct PairJob {
        const std::vector<AABB>* first_boxes;
        const std::vector<Index>* first_ids;
        const std::vector<AABB>* second_boxes;
        const std::vector<Index>* second_ids;
        bool self;
    };

    /// Pairs of a job found by querying an index over the second set with
    /// every box of the first; results come out sorted without a global sort.
    template <typename BoxIndex, typename Candidate, typename Admissible, typename Make>
    void query_pairs(const BoxIndex& index, const PairJob& job, Admissible&& admissible, Make&& make,
                     std::vector<Candidate>& out)
    {
        const std::vector<Index>& first_ids = *job.first_ids;
        const std::vector<AABB>& first_boxes = *job.first_boxes;
        const std::ptrdiff_t n = std::ptrdiff_t(first_ids.size());
        const std::ptrdiff_t num_blocks = work_blocks(n);
        std::vector<std::vector<Candidate>> blocks(static_cast<size_t>(num_blocks));
        parallel_for(0, num_blocks, [&](std::ptrdiff_t block) {
            std::vector<Index> found;
            std::vector<Candidate>& local = blocks[size_t(block)];
            const std::ptrdiff_t begin = n * block / num_blocks, end = n * (block + 1) / num_blocks;
            for (std::ptrdiff_t i = begin; i < end; ++i) {
                const Index a = first_ids[size_t(i)];
                found.clear();
                index.query(first_boxes[size_t(a)], [&](Index b) {
                    if ((!job.self || b > a) && admissible(a, b)) {
                        found.push_back(b);
                    }
                });
                std::sort(found.begin(), found.end());
                for (const Index b : found) {
                    local.push_back(make(a, b));
                }
            }
        });
        concatenate(blocks, out);
    }

    /// Sorts unordered (a, b) pairs collected in several buffers into out:
    /// bucketed by a (counting sort over [0, num_first)), sorted by b within
    /// each bucket, duplicates removed.
    template <typename Candidate, typename Make>
    void sorted_from_buffers(std::vector<std::vector<std::pair<Index, Index>>>& buffers, Index num_first,
                             Make&& make, std::vector<Candidate>& out)
    {
        std::vector<size_t> start(size_t(num_first) + 1, 0);
        for (const auto& buffer : buffers) {
            for (const auto& pair : buffer) {
                ++start[size_t(pair.first) + 1];
            }
        }
        for (size_t a = 0; a < size_t(num_first); ++a) {
            start[a + 1] += start[a];
        }
        std::vector<Index> seconds(start.back());
        {
            std::vector<size_t> fill(start.begin(), start.end() - 1);
            for (auto& buffer : buffers) {
                for (const auto& pair : buffer) {
                    seconds[fill[size_t(pair.first)]++] = pair.second;
                }
                std::vector<std::pair<Index, Index>>().swap(buffer);
            }
        }
        // Sort each bucket and count its distinct entries.
        std::vector<size_t> kept(size_t(num_first) + 1, 0);
        parallel_for(0, std::ptrdiff_t(num_first), [&](std::ptrdiff_t a) {
            const auto begin = seconds.begin() + std::ptrdiff_t(start[size_t(a)]);
            const auto end = seconds.begin() + std::ptrdiff_t(start[size_t(a) + 1]);
            std::sort(begin, end);
            kept[size_t(a) + 1] = size_t(std::unique(begin, end) - begin);
        });
        for (size_t a = 0; a < size_t(num_first); ++a) {
            kept[a + 1] += kept[a];
        }
        out.resize(kept.back());
        parallel_for(0, std::ptrdiff_t(num_first), [&](std::ptrdiff_t a) {
            const size_t count = kept[size_t(a) + 1] - kept[size_t(a)];
            for (size_t k = 0; k < count; ++k) {
                out[kept[size_t(a)] + k] = make(Index(a), seconds[start[size_t(a)] + k]);
            }
        });
    }

    /// Pairs of a job by sweep and prune.
    template <typename Candidate, typename Admissible, typename Make>
    void sweep_pairs(const PairJob& job, Index num_first, Admissible&& admissible, Make&& make,
                     std::vector<Candidate>& out)
    {
        const std::ptrdiff_t num_blocks
            = work_blocks(std::ptrdiff_t(job.first_ids->size() + job.second_ids->size()));
        std::vector<std::vector<std::pair<Index, Index>>> blocks(static_cast<size_t>(num_blocks));
        sweep_and_prune(*job.first_boxes, *job.first_ids, *job.second_boxes, *job.second_ids, job.self,
                        num_blocks, [&](std::ptrdiff_t block, Index a, Index b) {
                            if (admissible(a, b)) {
                                blocks[size_t(block)].emplace_back(a, b);
                            }
                        });
        sorted_from_buffers(blocks, num_first, make, out);
    }

    /// Pairs of a job by a simultaneous descent of two BVHs (or one against
    /// itself).
    template <typename Candidate, typename Admissible, typename Make>
    void bvh_pairs(const PairJob& job, Index num_first, Admissible&& admissible, Make&& make,
                   std::vector<Candidate>& out)
    {
        std::vector<std::vector<std::pair<Index, Index>>> buffers(static_cast<size_t>(max_threads()));
        const BVH second(*job.second_boxes, *job.second_ids);
        if (job.self) {
            second.self_overlaps([&](int thread, Index a, Index b) {
                if (a > b) {
                    std::swap(a, b);
                }
                if (admissible(a, b)) {
                    buffers[size_t(thread)].emplace_back(a, b);
                }
            });
        } else {
            const BVH first(*job.first_boxes, *job.first_ids);
            first.overlaps_with(second, [&](int thread, Index a, Index b) {
                if (admissible(a, b)) {
                    buffers[size_t(thread)].emplace_back(a, b);
                }
            });
        }
        sorted_from_buffers(buffers, num_first, make, out);
    }

    /// Bit k set when box slot of leaf a may overlap box k < b_count of leaf
    /// b (single precision, conservative; padding slots of b never match).
    inline unsigned leaf_overlap_mask(const BVH::LeafBoxes& a, std::int32_t slot, const BVH::LeafBoxes& b,
                                      std::int32_t b_count)
    {
        static_assert(BVH::leaf_size % 4 == 0 && BVH::leaf_size <= 8, "the packed test handles 4 or 8 slots");
#if defined(__SSE2__) || defined(_M_X64)
        const __m128 lower[3] = { _mm_set1_ps(a.lower[0][slot]), _mm_set1_ps(a.lower[1][slot]),
                                  _mm_set1_ps(a.lower[2][slot]) };
        const __m128 upper[3] = { _mm_set1_ps(a.upper[0][slot]), _mm_set1_ps(a.upper[1][slot]),
                                  _mm_set1_ps(a.upper[2][slot]) };
        unsigned mask = 0;
        for (std::int32_t k = 0; k < b_count; k += 4) {
            __m128 hit = _mm_cmple_ps(lower[0], _mm_loadu_ps(b.upper[0] + k));
            hit = _mm_and_ps(hit, _mm_cmple_ps(_mm_loadu_ps(b.lower[0] + k), upper[0]));
            hit = _mm_and_ps(hit, _mm_cmple_ps(lower[1], _mm_loadu_ps(b.upper[1] + k)));
            hit = _mm_and_ps(hit, _mm_cmple_ps(_mm_loadu_ps(b.lower[1] + k), upper[1]));
            hit = _mm_and_ps(hit, _mm_cmple_ps(lower[2], _mm_loadu_ps(b.upper[2] + k)));
            hit = _mm_and_ps(hit, _mm_cmple_ps(_mm_loadu_ps(b.lower[2] + k), upper[2]));
            mask |= unsigned(_mm_movemask_ps(hit)) << k;
        }
        return mask;
#else
        unsigned mask = 0;
        for (std::int32_t k = 0; k < b_count; ++k) {
            mask |= unsigned((a.lower[0][slot] <= b.upper[0][k]) & (b.lower[0][k] <= a.upper[0][slot])
                             & (a.lower[1][slot] <= b.upper[1][k]) & (b.lower[1][k] <= a.upper[1][slot])
                             & (a.lower[2][slot] <= b.upper[2][k]) & (b.lower[2][k] <= a.upper[2][slot]))
                << k;
        }
        return mask;
#endif
    }

    /// Bits (i, k) = leaf_size i + k with k > i: the pairs inside one leaf.
    constexpr std::uint64_t same_leaf_pairs()
    {
        std::uint64_t mask = 0;
        for (int i = 0; i < BVH::leaf_size; ++i) {
            for (int k = i + 1; k < BVH::leaf_size; ++k) {
                mask |= std::uint64_t(1) << (BVH::leaf_size * i + k);
            }
        }
        return mask;
    }

    /// Index of the lowest set bit of mask (mask != 0).
    inline std::int32_t lowest_set_bit(std::uint64_t mask)
    {
#if defined(__GNUC__) || defined(__clang__)
        return std::int32_t(__builtin_ctzll(mask));
#else
        std::int32_t bit = 0;
        while (!(mask & 1u)) {
            mask >>= 1;
            ++bit;
        }
        return bit;
#endif
    }

    /// A growing per-thread output buffer of pair keys (one cache line apart
    /// from its neighbours).
    struct alignas(64) KeyBuffer {
        std::vector<std::uint64_t> keys;
        std::size_t used = 0;
        std::vector<std::uint32_t> bucket_counts; ///< keys per bucket of a sorted query

        /// Room for at least extra more keys; returns where the next goes.
        std::uint64_t* room(std::size_t extra)
        {
            if (used + extra > keys.size()) {
                keys.resize(std::max(2 * keys.size(), used + extra + 4096));
            }
            return keys.data() + used;
        }
    };

    /// A BVH over one primitive set plus, in tree order, each primitive's id
    /// and its Count vertices (for the shared-vertex exclusion).
    template <int Count> struct PrimitiveTree {
        BVH tree;
        std::vector<std::uint32_t> ids;
        std::vector<std::int32_t> vertices; // Count per primitive
        std::uint64_t topology = 0;         // what update() was last given (0: none)

        /// Refits the tree to boxes when it was last built or updated for the
        /// same topology (nonzero; equal values promise the same primitive
        /// ids and vertices) and the refit keeps it tight (BVH::refit);
        /// otherwise builds as build() does.
        template <typename Vertex>
        void update(const std::vector<AABB>& boxes, const std::vector<Index>& primitive_ids, Vertex&& vertex,
                    std::uint64_t topology_key)
        {
            if (topology_key != 0 && topology_key == topology && primitive_ids.size() == tree.size()
                && tree.refit(boxes)) {
                return;
            }
            build(boxes, primitive_ids, vertex);
            topology = topology_key;
        }

        /// Builds over boxes[ids[i]]; vertex(id, k) gives vertex k of id.
        /// Padding slots of the tree get id 0 and vertices -1 (never read).
        template <typename Vertex>
        void build(const std::vector<AABB>& boxes, const std::vector<Index>& primitive_ids, Vertex&& vertex)
        {
            topology = 0;
            tree.build(boxes, primitive_ids);
            const std::vector<Index>& sorted = tree.sorted_ids();
            ids.resize(sorted.size());
            vertices.resize(sorted.size() * Count);
            parallel_for(0, std::ptrdiff_t(sorted.size()), [&](std::ptrdiff_t slot) {
                const std::size_t i = std::size_t(slot);
                const bool padding = sorted[i] < 0;
                ids[i] = padding ? 0u : std::uint32_t(sorted[i]);
                for (int k = 0; k < Count; ++k) {
                    vertices[i * Count + std::size_t(k)] = padding ? -1 : std::int32_t(vertex(sorted[i], k));
                }
            });
        }
    };

    /// Candidate pairs as 64-bit keys, one list per pair kind: face-vertex
    /// (face << vertex_shift | vertex), edge-edge (edge0 << edge_shift |
    /// edge1), edge-vertex (edge << vertex_shift | vertex), vertex-vertex
    /// (v0 << vertex_shift | v1); sorted or in no particular order.
    struct CandidateKeys {
        std::vector<std::uint64_t> face_vertex, edge_edge, edge_vertex, vertex_vertex;
        int vertex_shift = 1, edge_shift = 1;

        /// (first, second) of a key with the given shift.
        static std::pair<Index, Index> split(std::uint64_t key, int shift)
        {
            return { Index(key >> shift), Index(key & ((std::uint64_t(1) << shift) - 1)) };
        }
    };

    /// The trees of one kind of query, one per primitive set.
    struct PrimitiveTrees {
        PrimitiveTree<2> edges, rods;
        PrimitiveTree<3> faces;
        PrimitiveTree<1> colliding, codim, particles;
    };

    /// Which trees a query uses: those of contact queries at one
    /// configuration (and of the caller's own boxes), or those of swept
    /// queries. A simulator alternates the two every Newton iteration; each
    /// kind refits its own trees to its next query.
    enum class TreeKind { static_boxes = 0, swept_boxes = 1 };

    /// What the broad phase keeps between calls on one thread (see the file
    /// comment): the primitive trees, the per-worker key buffers, the boxes
    /// of queries from positions and the candidates of callers that only
    /// pass them on (Collisions::build).
    struct BroadPhaseScratch {
        PrimitiveTrees trees[2]; ///< by TreeKind
        std::vector<KeyBuffer> key_buffers;
        CandidateKeys keys;    ///< the pair keys of the last query
        PrimitiveBoxes boxes;  ///< for the queries from positions
        Candidates candidates; ///< for callers that only pass candidates on
    };

    /// The calling thread's scratch.
    inline BroadPhaseScratch& broad_phase_scratch()
    {
        static thread_local BroadPhaseScratch scratch;
        return scratch;
    }

    /// Admissible overlapping pairs between two primitive trees (or one tree
    /// against itself when second is null), as sorted, unique keys
    /// (first << shift) | second, with first < second for a self join. A pair
    /// is admissible when the primitives share no vertex (the id sets already
    /// carry the other pair rules). Leaf pairs are tested without branches.
    /// With sorted = false the keys come in no particular order (each pair
    /// still once).
    template <int CountA, int CountB>
    void tree_pair_keys(const PrimitiveTree<CountA>& first, const PrimitiveTree<CountB>* second, int shift,
                        bool sorted, std::vector<std::uint64_t>& keys)
    {
        const bool self = second == nullptr;
        const BVH& tree_b = self ? first.tree : second->tree;
        const AABB* boxes_a = first.tree.sorted_boxes().data();
        const AABB* boxes_b = tree_b.sorted_boxes().data();
        const std::uint32_t* ids_a = first.ids.data();
        const std::uint32_t* ids_b = self ? first.ids.data() : second->ids.data();
        const std::int32_t* vertices_a = first.vertices.data();
        const std::int32_t* vertices_b = self ? first.vertices.data() : second->vertices.data();
        // Sorted keys come out in buckets of their leading bits (the first
        // id's): each worker counts its keys per bucket as it writes them,
        // the keys are then scattered to their buckets' places, and the
        // buckets, small enough for the cache, are sorted in parallel. That
        // is two passes over the keys instead of two per digit of a global
        // sort.
        int bucket_shift = 0;
        std::size_t num_buckets = 0;
        if (sorted) {
            const std::size_t max_first
                = first.ids.empty() ? 0 : std::size_t(*std::max_element(first.ids.begin(), first.ids.end()));
            constexpr int bucket_bits = 10; // 512 to 1,024 buckets in use
            bucket_shift = shift + std::max(0, bits_for(max_first + 1) - bucket_bits);
            num_buckets = ((std::uint64_t(max_first) << shift) >> bucket_shift) + 1;
        }
        // The calling thread's buffers, one per worker (kept for the next call).
        std::vector<KeyBuffer>& buffers = broad_phase_scratch().key_buffers;
        buffers.resize(static_cast<std::size_t>(max_threads()));
        for (KeyBuffer& buffer : buffers) {
            buffer.used = 0;
            buffer.bucket_counts.assign(num_buckets, 0u);
        }
        const BVH::LeafBoxes* leaves_a = first.tree.leaf_boxes().data();
        const BVH::LeafBoxes* leaves_b = tree_b.leaf_boxes().data();
        constexpr std::int32_t slots = BVH::leaf_size;
        first.tree.visit_leaf_pairs(tree_b, self, [&](int thread, std::int32_t a_begin, std::int32_t a_end,
                                                       std::int32_t b_begin, std::int32_t b_end) {
            KeyBuffer& buffer = buffers[std::size_t(thread)];
            std::uint64_t* out = buffer.room(std::size_t(slots * slots));
            std::size_t count = 0;
            const bool same_leaf = self && a_begin == b_begin;
            const BVH::LeafBoxes& leaf_a = leaves_a[a_begin / slots];
            const BVH::LeafBoxes& leaf_b = leaves_b[b_begin / slots];
            // Single-precision tests of the whole leaf pair first (only the
            // used slots): bit slots i + k for slot i of a against slot k of b.
            std::uint64_t mask = 0;
            for (std::int32_t slot = 0; slot < a_end - a_begin; ++slot) {
                mask |= std::uint64_t(leaf_overlap_mask(leaf_a, slot, leaf_b, b_end - b_begin)) << (slots * slot);
            }
            if (same_leaf) {
                mask &= same_leaf_pairs(); // pairs inside one leaf: only slot k > slot i
            }
            // Then the exact test and the shared-vertex exclusion on the
            // survivors, writing every key and keeping the admissible ones.
            for (; mask != 0; mask &= mask - 1) {
                const std::int32_t bit = lowest_set_bit(mask);
                const std::int32_t i = a_begin + bit / slots, j = b_begin + bit % slots;
                const AABB& box = boxes_a[i];
                const AABB& other = boxes_b[j];
                int keep = int(box.lower[0] <= other.upper[0]) & int(other.lower[0] <= box.upper[0])
                    & int(box.lower[1] <= other.upper[1]) & int(other.lower[1] <= box.upper[1])
                    & int(box.lower[2] <= other.upper[2]) & int(other.lower[2] <= box.upper[2]);
                for (int q = 0; q < CountB; ++q) {
                    const std::int32_t vb = vertices_b[std::size_t(j) * CountB + std::size_t(q)];
                    for (int k = 0; k < CountA; ++k) {
                        keep &= int(vertices_a[std::size_t(i) * CountA + std::size_t(k)] != vb);
                    }
                }
                const std::uint64_t id_a = ids_a[i], id_b = ids_b[j];
                const std::uint64_t low = self && id_b < id_a ? id_b : id_a;
                const std::uint64_t high = self && id_b < id_a ? id_a : id_b;
                const std::uint64_t key = (low << shift) | high;
                out[count] = key;
                count += std::size_t(keep);
                if (sorted) {
                    buffer.bucket_counts[std::size_t(key >> bucket_shift)] += std::uint32_t(keep);
                }
            }
            buffer.used += count;
        });
        if (!sorted) {
            // Concatenate in worker order.
            std::vector<std::size_t> offsets(buffers.size() + 1, 0);
            for (std::size_t t = 0; t < buffers.size(); ++t) {
                offsets[t + 1] = offsets[t] + buffers[t].used;
            }
            keys.resize(offsets.back());
            parallel_for(0, std::ptrdiff_t(buffers.size()), [&](std::ptrdiff_t t) {
                const KeyBuffer& buffer = buffers[std::size_t(t)];
                std::copy(buffer.keys.begin(), buffer.keys.begin() + std::ptrdiff_t(buffer.used),
                          keys.begin() + std::ptrdiff_t(offsets[std::size_t(t)]));
            });
            return;
        }
        // Bucket b starts at bucket_begin[b]; each worker's keys of bucket b
        // go after those of the workers before it (bucket_counts becomes the
        // worker's next place in each bucket).
        std::vector<std::size_t> bucket_begin(num_buckets + 1, 0);
        for (std::size_t b = 0; b < num_buckets; ++b) {
            std::size_t offset = bucket_begin[b];
            for (KeyBuffer& buffer : buffers) {
                const std::size_t here = buffer.bucket_counts[b];
                buffer.bucket_counts[b] = std::uint32_t(offset - bucket_begin[b]);
                offset += here;
            }
            bucket_begin[b + 1] = offset;
        }
        keys.resize(bucket_begin[num_buckets]);
        parallel_for(0, std::ptrdiff_t(buffers.size()), [&](std::ptrdiff_t t) {
            KeyBuffer& buffer = buffers[std::size_t(t)];
            std::uint32_t* next = buffer.bucket_counts.data();
            for (std::size_t i = 0; i < buffer.used; ++i) {
                const std::uint64_t key = buffer.keys[i];
                const std::size_t b = std::size_t(key >> bucket_shift);
                keys[bucket_begin[b] + next[b]++] = key;
            }
        });
        // Sort each bucket on the bits below its leading ones. A pair
        // descent reports each pair once, so there are no duplicates to
        // remove; checked all the same, and removed should one appear.
        std::vector<unsigned char> duplicates(num_buckets, 0);
        parallel_for(0, std::ptrdiff_t(num_buckets), [&](std::ptrdiff_t b) {
            std::uint64_t* begin = keys.data() + bucket_begin[std::size_t(b)];
            const std::size_t n = bucket_begin[std::size_t(b) + 1] - bucket_begin[std::size_t(b)];
            std::vector<std::uint64_t>& buffer = radix_sort_buffer();
            if (buffer.size() < n) {
                buffer.resize(n);
            }
            radix_sort_range(begin, n, bucket_shift, 0, buffer.data());
            duplicates[std::size_t(b)] = std::adjacent_find(begin, begin + n) != begin + n;
        });
        if (std::find(duplicates.begin(), duplicates.end(), 1) != duplicates.end()) {
            keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        }
    }

    /// Writes make(first, second) for every key, in key order, in parallel.
    template <typename Candidate, typename Make>
    void candidates_from_keys(const std::vector<std::uint64_t>& keys, int shift, Make&& make,
                              std::vector<Candidate>& out)
    {
        out.resize(keys.size());
        const std::uint64_t mask = (std::uint64_t(1) << shift) - 1;
        const std::ptrdiff_t n = std::ptrdiff_t(keys.size());
        const std::ptrdiff_t blocks = work_blocks(n / 16);
        parallel_for(0, blocks, [&](std::ptrdiff_t block) {
            for (std::ptrdiff_t i = n * block / blocks, end = n * (block + 1) / blocks; i < end; ++i) {
                const std::uint64_t key = keys[std::size_t(i)];
                out[std::size_t(i)] = make(Index(key >> shift), Index(key & mask));
            }
        });
    }

    /// All candidate keys by BVH: one tree per primitive set, shared between
    /// the pair kinds that use it. The keys live in the calling thread's
    /// scratch (valid until its next broad-phase query).
    inline const CandidateKeys& bvh_candidate_keys(const CollisionMesh& mesh, const PrimitiveBoxes& boxes,
                                                   bool sorted, TreeKind kind = TreeKind::static_boxes)
    {
        const Eigen::MatrixXi& E = mesh.edges();
        const Eigen::MatrixXi& F = mesh.faces();
        const auto edge_vertex = [&](Index e, int k) { return E(e, k); };
        const auto face_vertex = [&](Index f, int k) { return F(f, k); };
        const auto self_vertex = [](Index v, int) { return v; };
        const std::vector<Index> all_edges = iota_ids(mesh.num_edges());
        const std::vector<Index> all_faces = iota_ids(mesh.num_faces());
        const bool three_d = mesh.dim() == 3;
        const std::vector<Index>& rods = mesh.rod_edges();
        const std::vector<Index>& codim = mesh.codim_vertices();
        const std::vector<Index>& particles = mesh.particles();
        const std::vector<Index>& colliding = mesh.collision_vertices();

        // Which trees the pair kinds need.
        const bool face_vertex_pairs = three_d && !all_faces.empty() && !colliding.empty();
        const bool edge_edge_pairs = three_d && all_edges.size() > 1;
        const bool rod_pairs = three_d && !rods.empty() && !codim.empty();
        const bool planar_pairs = !three_d && !all_edges.empty() && !colliding.empty();
        const bool particle_pairs = particles.size() > 1;

        BroadPhaseScratch& scratch = broad_phase_scratch();
        PrimitiveTrees& trees = scratch.trees[int(kind)];
        PrimitiveTree<2>& edge_tree = trees.edges;
        PrimitiveTree<2>& rod_tree = trees.rods;
        PrimitiveTree<3>& face_tree = trees.faces;
        PrimitiveTree<1>& colliding_tree = trees.colliding;
        PrimitiveTree<1>& codim_tree = trees.codim;
        PrimitiveTree<1>& particle_tree = trees.particles;
        // One tree after another, each built in parallel, or refitted when
        // the last query was on the same mesh topology (a simulator querying
        // every iteration).
        const std::uint64_t topology = mesh.topology_id();
        if (edge_edge_pairs || planar_pairs) {
            edge_tree.update(boxes.edges, all_edges, edge_vertex, topology);
        }
        if (face_vertex_pairs) {
            face_tree.update(boxes.faces, all_faces, face_vertex, topology);
        }
        if (face_vertex_pairs || planar_pairs) {
            colliding_tree.update(boxes.vertices, colliding, self_vertex, topology);
        }
        if (rod_pairs) {
            rod_tree.update(boxes.edges, rods, edge_vertex, topology);
            codim_tree.update(boxes.vertices, codim, self_vertex, topology);
        }
        if (particle_pairs) {
            particle_tree.update(boxes.vertices, particles, self_vertex, topology);
        }

        CandidateKeys& keys = scratch.keys;
        keys.vertex_shift = std::max(1, bits_for(std::size_t(mesh.num_vertices())));
        keys.edge_shift = std::max(1, bits_for(std::size_t(mesh.num_edges())));
        for (std::vector<std::uint64_t>* list : { &keys.face_vertex, &keys.edge_edge, &keys.edge_vertex, &keys.vertex_vertex }) {
            list->clear();
        }
        if (face_vertex_pairs) {
            tree_pair_keys(face_tree, &colliding_tree, keys.vertex_shift, sorted, keys.face_vertex);
        }
        if (edge_edge_pairs) {
            tree_pair_keys<2, 2>(edge_tree, nullptr, keys.edge_shift, sorted, keys.edge_edge);
        }
        if (rod_pairs) {
            tree_pair_keys(rod_tree, &codim_tree, keys.vertex_shift, sorted, keys.edge_vertex);
        }
        if (planar_pairs) {
            tree_pair_keys(edge_tree, &colliding_tree, keys.vertex_shift, sorted, keys.edge_vertex);
        }
        if (particle_pairs) {
            tree_pair_keys<1, 1>(particle_tree, nullptr, keys.vertex_shift, sorted, keys.vertex_vertex);
        }
        if (mesh.has_prescribed_vertices()) {
            // Pairs of prescribed vertices only are not admissible
            // (CollisionMesh's pair rules); removing keys keeps their order.
            const Eigen::MatrixXi& F = mesh.faces();
            const Eigen::MatrixXi& E = mesh.edges();
            const auto p = [&](int v) { return mesh.is_prescribed(Index(v)); };
            const auto drop = [](std::vector<std::uint64_t>& list, int shift, const auto& all_prescribed) {
                const std::uint64_t mask = (std::uint64_t(1) << shift) - 1;
                list.erase(std::remove_if(list.begin(), list.end(),
                               [&](std::uint64_t key) {
                                   return all_prescribed(Index(key >> shift), Index(key & mask));
                               }),
                    list.end());
            };
            drop(keys.face_vertex, keys.vertex_shift,
                [&](Index f, Index v) { return p(int(v)) && p(F(f, 0)) && p(F(f, 1)) && p(F(f, 2)); });
            drop(keys.edge_edge, keys.edge_shift,
                [&](Index a, Index b) { return p(E(a, 0)) && p(E(a, 1)) && p(E(b, 0)) && p(E(b, 1)); });
            drop(keys.edge_vertex, keys.vertex_shift,
                [&](Index e, Index v) { return p(int(v)) && p(E(e, 0)) && p(E(e, 1)); });
            drop(keys.vertex_vertex, keys.vertex_shift, [&](Index a, Index b) { return p(int(a)) && p(int(b)); });
        }
        if (mesh.has_collision_filter()) {
            // Pairs the mesh's collision filter rules out (collision_filter.hpp;
            // the traversal already excluded the rest): marked in parallel,
            // then removed in order.
            const auto keep_admissible = [](std::vector<std::uint64_t>& list, int shift, const auto& admissible) {
                const std::uint64_t mask = (std::uint64_t(1) << shift) - 1;
                std::vector<unsigned char> keep(list.size());
                const std::ptrdiff_t n = std::ptrdiff_t(list.size());
                const std::ptrdiff_t blocks = work_blocks(n / 64);
                parallel_for(0, blocks, [&](std::ptrdiff_t block) {
                    for (std::ptrdiff_t i = n * block / blocks, end = n * (block + 1) / blocks; i < end; ++i) {
                        const std::uint64_t key = list[std::size_t(i)];
                        keep[std::size_t(i)] = admissible(Index(key >> shift), Index(key & mask));
                    }
                });
                std::size_t out = 0;
                for (std::size_t i = 0; i < list.size(); ++i) {
                    list[out] = list[i];
                    out += keep[i];
                }
                list.resize(out);
            };
            keep_admissible(keys.face_vertex, keys.vertex_shift,
                            [&](Index f, Index v) { return mesh.filter_admits_face_vertex(f, v); });
            keep_admissible(keys.edge_edge, keys.edge_shift,
                            [&](Index a, Index b) { return mesh.filter_admits_edge_edge(a, b); });
            keep_admissible(keys.edge_vertex, keys.vertex_shift,
                            [&](Index e, Index v) { return mesh.filter_admits_edge_vertex(e, v); });
            keep_admissible(keys.vertex_vertex, keys.vertex_shift,
                            [&](Index a, Index b) { return mesh.filter_admits_vertex_vertex(a, b); });
        }
        return keys;
    }

    /// All candidates by BVH (sorted keys turned into candidate lists).
    inline void bvh_candidates(const CollisionMesh& mesh, const PrimitiveBoxes& boxes, Candidates& candidates,
                               TreeKind kind)
    {
        const CandidateKeys& keys = bvh_candidate_keys(mesh, boxes, true, kind);
        candidates_from_keys(keys.face_vertex, keys.vertex_shift,
                             [](Index f, Index v) { return FaceVertexCandidate { f, v }; }, candidates.face_vertex);
        candidates_from_keys(keys.edge_edge, keys.edge_shift,
                             [](Index a, Index b) { return EdgeEdgeCandidate { a, b }; }, candidates.edge_edge);
        candidates_from_keys(keys.edge_vertex, keys.vertex_shift,
                             [](Index e, Index v) { return EdgeVertexCandidate { e, v }; }, candidates.edge_vertex);
        candidates_from_keys(keys.vertex_vertex, keys.vertex_shift,
                             [](Index a, Index b) { return VertexVertexCandidate { a, b }; },
                             candidates.vertex_vertex);
    }

    template <typename Candidate, typename Admissible, typename Make>
    void find_pairs(BroadPhaseMethod method, const PairJob& job, Index num_first, Admissible&& admissible,
                    Make&& make, std::vector<Candidate>& out)
    {
        out.clear();
        if (job.first_ids->empty() || job.second_ids->empty()) {
            return;
        }
        switch (method) {
        case BroadPhaseMethod::brute_force:
            query_pairs(BruteForce(*job.second_boxes, *job.second_ids), job, admissible, make, out);
            return;
        case BroadPhaseMethod::sweep_and_prune:
            sweep_pairs(job, num_first, admissible, make, out);
            return;
        case BroadPhaseMethod::spatial_hash: {
            // Cell size from both sets, so queries and stored boxes agree.
            double extent_sum = 0.0;
            for (const std::vector<Index>* ids : { job.first_ids, job.second_ids }) {
                const std::vector<AABB>& boxes = ids == job.first_ids ? *job.first_boxes : *job.second_boxes;
                for (const Index id : *ids) {
                    const AABB& box = boxes[size_t(id)];
                    extent_sum += std::max({ box.upper[0] - box.lower[0], box.upper[1] - box.lower[1],
                                             box.upper[2] - box.lower[2] });
                }
            }
            const double cell = extent_sum / double(job.first_ids->size() + job.second_ids->size());
            query_pairs(SpatialHash(*job.second_boxes, *job.second_ids, cell), job, admissible, make, out);
            return;
        }
        case BroadPhaseMethod::bvh:
            bvh_pairs(job, num_first, admissible, make, out);
            return;
        }
        throw invalid_argument(concat("unknown broad-phase method (BroadPhaseMethod value ", int(method), ")"));
    }

} // namespace detail

/// Frees the memory the broad phase keeps between calls on the calling
/// thread (trees, boxes, pair and sort buffers; see the file comment). The
/// next query on this thread allocates afresh.
inline void release_broad_phase_memory()
{
    detail::broad_phase_scratch() = detail::BroadPhaseScratch();
    detail::release_radix_sort_buffer();
}

namespace detail {

    /// candidates_from_boxes on the trees of one kind of query.
    inline void candidates_from_boxes(const CollisionMesh& mesh, const PrimitiveBoxes& boxes,
                                      Candidates& candidates, BroadPhaseMethod method, TreeKind kind)
    {
        require(boxes.vertices.size() == size_t(mesh.num_vertices()), "vertex boxes has ", boxes.vertices.size(),
                " entries but the mesh has ", mesh.num_vertices(), " vertices");
        require(boxes.edges.size() == size_t(mesh.num_edges()), "edge boxes has ", boxes.edges.size(),
                " entries but the mesh has ", mesh.num_edges(), " edges");
        require(boxes.faces.size() == size_t(mesh.num_faces()), "face boxes has ", boxes.faces.size(),
                " entries but the mesh has ", mesh.num_faces(), " faces");
        if (method == BroadPhaseMethod::bvh) {
            detail::bvh_candidates(mesh, boxes, candidates, kind);
            return;
        }
        const std::vector<Index> all_edges = detail::iota_ids(mesh.num_edges());

        if (mesh.dim() == 3) {
            const std::vector<Index> all_faces = detail::iota_ids(mesh.num_faces());
            detail::find_pairs(
                method, { &boxes.faces, &all_faces, &boxes.vertices, &mesh.collision_vertices(), false },
                mesh.num_faces(), [&](Index f, Index v) { return mesh.can_collide_face_vertex(f, v); },
                [](Index f, Index v) { return FaceVertexCandidate { f, v }; }, candidates.face_vertex);
            detail::find_pairs(
                method, { &boxes.edges, &all_edges, &boxes.edges, &all_edges, true }, mesh.num_edges(),
                [&](Index a, Index b) { return mesh.can_collide_edge_edge(a, b); },
                [](Index a, Index b) { return EdgeEdgeCandidate { a, b }; }, candidates.edge_edge);
            detail::find_pairs(
                method, { &boxes.edges, &mesh.rod_edges(), &boxes.vertices, &mesh.codim_vertices(), false },
                mesh.num_edges(), [&](Index e, Index v) { return mesh.can_collide_edge_vertex(e, v); },
                [](Index e, Index v) { return EdgeVertexCandidate { e, v }; }, candidates.edge_vertex);
        } else {
            detail::find_pairs(
                method, { &boxes.edges, &all_edges, &boxes.vertices, &mesh.collision_vertices(), false },
                mesh.num_edges(), [&](Index e, Index v) { return mesh.can_collide_edge_vertex(e, v); },
                [](Index e, Index v) { return EdgeVertexCandidate { e, v }; }, candidates.edge_vertex);
        }
        detail::find_pairs(
            method, { &boxes.vertices, &mesh.particles(), &boxes.vertices, &mesh.particles(), true },
            mesh.num_vertices(), [&](Index a, Index b) { return mesh.can_collide_vertex_vertex(a, b); },
            [](Index a, Index b) { return VertexVertexCandidate { a, b }; }, candidates.vertex_vertex);
    }

} // namespace detail

/// Candidate pairs whose boxes overlap, for boxes already computed (e.g. by
/// static_boxes or swept_boxes, or the caller's own): box vectors must have
/// one entry per vertex, edge and face of mesh (throws ipc::invalid_argument
/// otherwise). Pair kinds and exclusions follow mesh's pair rules. Written
/// into candidates, whose memory is reused (a simulator that keeps one
/// Candidates object does not reallocate it on every query).
inline void candidates_from_boxes(const CollisionMesh& mesh, const PrimitiveBoxes& boxes, Candidates& candidates,
                                  BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    detail::candidates_from_boxes(mesh, boxes, candidates, method, detail::TreeKind::static_boxes);
}

/// The same, returned.
inline Candidates candidates_from_boxes(
    const CollisionMesh& mesh, const PrimitiveBoxes& boxes, BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    Candidates candidates;
    candidates_from_boxes(mesh, boxes, candidates, method);
    return candidates;
}

/// Candidate pairs at positions V (n x dim, metres) for a contact query with
/// activation distance dhat (metres, >= 0): every admissible pair whose
/// distance is below xi + dhat is included (xi = r_a + r_b from the mesh's
/// radii), plus some farther pairs whose inflated boxes still overlap.
/// Throws ipc::invalid_argument for bad V or dhat.
/// Written into candidates, whose memory is reused.
inline void static_candidates(
    const CollisionMesh& mesh,
    const Eigen::Ref<const Eigen::MatrixXd>& V,
    double dhat,
    Candidates& candidates,
    BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    PrimitiveBoxes& boxes = detail::broad_phase_scratch().boxes;
    static_boxes(mesh, V, dhat, boxes);
    candidates_from_boxes(mesh, boxes, candidates, method);
}

/// The same, returned.
inline Candidates static_candidates(
    const CollisionMesh& mesh,
    const Eigen::Ref<const Eigen::MatrixXd>& V,
    double dhat,
    BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    Candidates candidates;
    static_candidates(mesh, V, dhat, candidates, method);
    return candidates;
}

/// Candidate pairs for CCD over the linear motion from V0 to V1 (n x dim,
/// metres): every admissible pair that comes closer than xi + min_distance
/// (metres, >= 0) at some t in [0, 1] is included. Throws
/// ipc::invalid_argument for bad positions or min_distance.
/// Written into candidates, whose memory is reused.
inline void swept_candidates(
    const CollisionMesh& mesh,
    const Eigen::Ref<const Eigen::MatrixXd>& V0,
    const Eigen::Ref<const Eigen::MatrixXd>& V1,
    double min_distance,
    Candidates& candidates,
    BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    PrimitiveBoxes& boxes = detail::broad_phase_scratch().boxes;
    swept_boxes(mesh, V0, V1, min_distance, boxes);
    detail::candidates_from_boxes(mesh, boxes, candidates, method, detail::TreeKind::swept_boxes);
}

/// The same, returned.
inline Candidates swept_candidates(
    const CollisionMesh& mesh,
    const Eigen::Ref<const Eigen::MatrixXd>& V0,
    const Eigen::Ref<const Eigen::MatrixXd>& V1,
    double min_distance = 0.0,
    BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    Candidates candidates;
    swept_candidates(mesh, V0, V1, min_distance, candidates, method);
    return candidates;
}

} // namespace ipc
