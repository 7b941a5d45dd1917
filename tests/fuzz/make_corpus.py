#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into tests/fuzz/corpus/<target>/.

The seeds follow the input encoding of fuzz_input.hpp (ByteReader): a number
is a tag byte then its payload. Most seeds use grid values (tag 2: a 16-bit
integer / 64), a few raw doubles (tag 0) and special values (tag 1). The
committed files are this script's output (plus inputs the fuzzers found, such
as fuzz_ccd_additive/slow_collapse); rerun it after changing a layout:
    python3 tests/fuzz/make_corpus.py
"""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def grid(x):
    """x (a multiple of 1/64 in [-512, 512)) as a grid value."""
    k = int(round(x * 64))
    assert -32768 <= k < 32768
    return bytes([2]) + struct.pack("<h", k)


def raw(x):
    return bytes([0]) + struct.pack("<d", x)


SPECIAL = {"nan": 2, "inf": 3, "-inf": 4, "max": 5, "tiny": 8}


def special(name):
    return bytes([1 | (SPECIAL[name] << 3)])


def num(x):
    if isinstance(x, str):
        return special(x)
    if x * 64 == int(x * 64) and -512 <= x < 512:
        return grid(x)
    return raw(x)


def nums(*xs):
    return b"".join(num(x) for x in xs)


def points(*ps):
    return b"".join(nums(*p) for p in ps)


def write(target, name, data):
    folder = os.path.join(HERE, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def distance_seeds():
    t = "fuzz_distance"
    # p above the interior of a triangle; as edges: two crossing edges.
    write(t, "interior", points((0.25, 0.25, 1), (0, 0, 0), (1, 0, 0), (0, 1, 0))
          + nums(0.001, 0.0005) + bytes([6, 8]))
    # Parallel edges and a collinear (degenerate) triangle.
    write(t, "parallel", points((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0))
          + nums(1, 2) + bytes([1, 4]))
    write(t, "collinear", points((0.5, 1, 0), (0, 0, 0), (1, 0, 0), (2, 0, 0))
          + nums(0, -1) + bytes([3, 0]))
    # Coincident points, zero-length edges.
    write(t, "coincident", points((1, 1, 1), (1, 1, 1), (1, 1, 1), (2, 2, 2))
          + nums(0.5, 0.25) + bytes([2, 2]))
    # Nearly parallel edges at a large offset, tiny and huge raw values.
    write(t, "near_parallel", points((1000.0, 0, 0), (1001.0, 1e-9, 0), (1000.0, 0, 1), (1001.0, 0, 1))
          + nums(1e-12, 1e-13) + bytes([8, 8]))
    write(t, "non_finite", points((0, "nan", 0), (1, 0, 0), (0, 1, "inf"), ("max", 0, 0))
          + nums("tiny", "-inf") + bytes([5, 7]))


def ccd_seed(query, x0, x1, min_distance, tmax, extra=None):
    data = bytes([query]) + points(*x0) + points(*x1)
    # small_distance: 0 -> byte 0; otherwise byte 255 then a number.
    data += bytes([0]) if min_distance == 0 else bytes([255]) + num(min_distance)
    # unit_interval: 1 -> byte 0; otherwise byte 255 then a number.
    data += bytes([0]) if tmax == 1 else bytes([255]) + num(tmax)
    if extra is not None:
        data += bytes([extra])
    return data


def ccd_seeds():
    pad = [(0, 0, 0)] * 2
    seeds = {
        # Point falling through a triangle.
        "pt_hit": (2, [(0.25, 0.25, 1), (0, 0, 0), (1, 0, 0), (0, 1, 0)],
                   [(0.25, 0.25, -1), (0, 0, 0), (1, 0, 0), (0, 1, 0)], 0, 1),
        # Point sliding parallel to a triangle at a minimum distance.
        "pt_graze": (2, [(0.25, 0.25, 0.015625), (0, 0, 0), (1, 0, 0), (0, 1, 0)],
                     [(0.75, 0.125, 0.015625), (0, 0, 0), (1, 0, 0), (0, 1, 0)], 0.015625, 0.5),
        # Crossing edges, and parallel edges sliding along each other.
        "ee_cross": (3, [(0, 0, 1), (1, 0, 1), (0.5, -0.5, 0), (0.5, 0.5, 0)],
                     [(0, 0, -1), (1, 0, -1), (0.5, -0.5, 0), (0.5, 0.5, 0)], 0, 1),
        "ee_parallel": (3, [(0, 0, 0.03125), (1, 0, 0.03125), (0, 0, 0), (1, 0, 0)],
                        [(0.5, 0, 0.03125), (1.5, 0, 0.03125), (0, 0, 0), (1, 0, 0)], 0.03125, 1),
        # Point through an edge, and two points meeting.
        "pe_hit": (1, [(0.5, 1, 0), (0, 0, 0), (1, 0, 0), (0, 0, 0)],
                   [(0.5, -1, 0), (0, 0, 0), (1, 0, 0), (0, 0, 0)], 0, 1),
        "pp_hit": (0, [(0, 0, 0), (1, 0, 0)] + pad, [(1, 0, 0), (0, 0, 0)] + pad, 0.0078125, 1),
        # Already within the offset, and no motion at all.
        "pp_initial": (0, [(0, 0, 0), (0, 0, 0)] + pad, [(1, 1, 1), (1, 1, 1)] + pad, 0.5, 1),
        "pt_static": (2, [(0, 0, 1), (0, 0, 0), (1, 0, 0), (0, 1, 0)],
                      [(0, 0, 1), (0, 0, 0), (1, 0, 0), (0, 1, 0)], 0, 0.25),
        # Non-finite coordinates.
        "ee_nan": (3, [(0, 0, "nan"), (1, 0, 1), (0.5, -0.5, 0), (0.5, 0.5, 0)],
                   [(0, 0, -1), (1, 0, -1), (0.5, -0.5, 0), ("inf", 0.5, 0)], 0, 1),
    }
    for target in ("fuzz_ccd_additive", "fuzz_ccd_inclusion", "fuzz_ccd_root_finding"):
        for i, (name, (query, x0, x1, md, tmax)) in enumerate(sorted(seeds.items())):
            extra = i % 8 if target == "fuzz_ccd_additive" else None
            write(target, name, ccd_seed(query, x0, x1, md, tmax, extra))


def mesh_seed(V, E, F, mesh_flags, ops, dhat, displacement=None, tets=None):
    nv = len(V)
    data = bytes([nv, len(E), len(F), mesh_flags, ops])
    data += points(*V)
    data += bytes(i for e in E for i in e)
    data += bytes(i for f in F for i in f)
    if mesh_flags & 2:
        data += bytes([0]) * nv  # radii: small_distance 0
    if mesh_flags & (4 | 8):
        tets = tets or []
        data += bytes([len(tets)]) + bytes(i for t in tets for i in t)
        if not mesh_flags & 2:
            data += bytes([0])  # uniform radius 0
    displacement = displacement or [(0, 0, -0.5)] * nv
    data += points(*displacement)
    # positive_distance: byte 255 then a number; dmin, min_distance: 0.
    data += bytes([255]) + num(dhat) + bytes([0, 0])
    return data


def mesh_seeds():
    t = "fuzz_collision_mesh"
    # Two triangles, one above the other (close: active pairs).
    V = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0.25, 0.25, 0.0625), (1.25, 0.25, 0.0625), (0.25, 1.25, 0.0625)]
    write(t, "two_triangles", mesh_seed(V, [], [(0, 1, 2), (3, 4, 5)], 0, 0xFF, 0.125,
                                        [(0, 0, 0)] * 3 + [(0, 0, -0.5)] * 3))
    write(t, "two_triangles_radii", mesh_seed(V, [], [(0, 1, 2), (3, 4, 5)], 2 | 16, 0x1F, 0.125))
    # Crossing rods and free particles (point-edge and point-point pairs).
    V = [(0, 0, 0), (1, 0, 0), (0.5, -0.5, 0.03125), (0.5, 0.5, 0.03125), (0.5, 0, 0.25), (0.5, 0.0625, 0.25)]
    write(t, "rods_particles", mesh_seed(V, [(0, 1), (2, 3)], [], 32, 0x2F, 0.0625))
    # A tetrahedron and a particle above it (builder).
    V = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (0.25, 0.25, 1.0625)]
    write(t, "tetrahedron", mesh_seed(V, [], [], 4 | 8 | 48, 0x4F, 0.125, tets=[(0, 1, 2, 3)]))
    write(t, "from_tetrahedra", mesh_seed(V, [], [], 8, 0x9F, 0.125, tets=[(0, 1, 2, 3)]))
    # 2D: edges and a particle.
    V2 = [(0, 0), (1, 0), (0.5, 0.0625), (0.5, 1)]
    data = bytes([4, 2, 0, 1, 0x0E]) + points(*V2) + bytes([0, 1, 2, 3]) + points(*[(0, -0.5)] * 4)
    data += bytes([255]) + num(0.125) + bytes([0, 0])
    write(t, "planar", data)
    # Out-of-range and repeated indices, NaN positions.
    V = [(0, 0, 0), (1, 0, 0), (0, "nan", 0)]
    write(t, "bad_indices", mesh_seed(V, [(0, 0), (1, 250)], [(0, 1, 2), (0, 1, 2)], 0, 0xFF, 0.125))


if __name__ == "__main__":
    distance_seeds()
    ccd_seeds()
    mesh_seeds()
