#!/usr/bin/env python3
"""A square of cloth (a mass-spring triangle grid) falls onto a ground made of
two triangles, simulated with implicit Euler in plain NumPy/SciPy; contact is
handled with the ipc bindings: barrier potential (adaptive stiffness),
collision-free step size (CCD) in a backtracking line search, and an
intersection check on every frame. Writes a picture of the motion (a PNG,
written with the standard library: zlib + struct).

    python3 implicit_euler.py [--frames 40] [--n 8] [--output implicit_euler.png]

Per time step, the incremental potential
    E(x) = 1/2 |x - x_pred|_M^2 + h^2 Psi(x) + kappa B(x)
(x_pred = x_n + h v_n + h^2 g, Psi the spring energy, B the barrier sum) is
minimised by projected Newton: the search direction solves H dx = -grad E with
PSD-projected springs and barrier blocks, the step is capped by
collision_free_step_size and halved until E decreases, and the iteration
stops when the Newton step is below a tolerance (in metres).
"""

import argparse
import struct
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

try:
    import ipc
except ImportError:  # running from a source checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import ipc


# --------------------------------------------------------------------- scene
def make_scene(n):
    """Cloth: an n x n grid (0.5 m square) tilted 15 degrees, 0.12 m above a
    1 m ground square (two triangles, prescribed). Returns positions (N, 3),
    faces, spring edges, the number of cloth vertices."""
    s = np.linspace(-0.25, 0.25, n)
    gx, gz = np.meshgrid(s, s, indexing="ij")
    angle = np.deg2rad(15.0)
    cloth = np.stack([gx.ravel(), np.zeros(n * n), gz.ravel()], axis=1)
    rot = np.array([[np.cos(angle), -np.sin(angle), 0.0], [np.sin(angle), np.cos(angle), 0.0], [0.0, 0.0, 1.0]])
    cloth = cloth @ rot.T + np.array([0.0, 0.12, 0.0])
    faces = []
    for i in range(n - 1):
        for j in range(n - 1):
            a, b, c, d = i * n + j, (i + 1) * n + j, (i + 1) * n + j + 1, i * n + j + 1
            faces += [[a, b, c], [a, c, d]]
    ground = np.array([[-0.5, 0.0, -0.5], [0.5, 0.0, -0.5], [0.5, 0.0, 0.5], [-0.5, 0.0, 0.5]])
    g0 = n * n
    faces += [[g0, g0 + 2, g0 + 1], [g0, g0 + 3, g0 + 2]]
    faces = np.array(faces, dtype=np.int64)
    # Springs: the grid edges and both diagonals (shear).
    springs = set()
    for i in range(n):
        for j in range(n):
            v = i * n + j
            for di, dj in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if 0 <= i + di < n and 0 <= j + dj < n:
                    springs.add((v, (i + di) * n + j + dj))
    return np.vstack([cloth, ground]), faces, np.array(sorted(springs), dtype=np.int64), n * n


# ------------------------------------------------------------------- springs
class Springs:
    """Psi(x) = sum 1/2 k (|x_i - x_j| - L)^2 over the spring edges."""

    def __init__(self, X, edges, k):
        self.edges, self.k = edges, k
        self.rest = np.linalg.norm(X[edges[:, 0]] - X[edges[:, 1]], axis=1)
        self.n = X.shape[0]

    def energy(self, x):
        d = np.linalg.norm(x[self.edges[:, 0]] - x[self.edges[:, 1]], axis=1)
        return 0.5 * self.k * np.sum((d - self.rest) ** 2)

    def gradient(self, x):
        e = x[self.edges[:, 0]] - x[self.edges[:, 1]]
        d = np.linalg.norm(e, axis=1)
        f = (self.k * (d - self.rest) / d)[:, None] * e
        g = np.zeros_like(x)
        np.add.at(g, self.edges[:, 0], f)
        np.add.at(g, self.edges[:, 1], -f)
        return g.ravel()

    def hessian(self, x):
        """PSD-projected: k (nn^T + max(0, 1 - L/d) (I - nn^T)) per spring."""
        e = x[self.edges[:, 0]] - x[self.edges[:, 1]]
        d = np.linalg.norm(e, axis=1)
        nrm = e / d[:, None]
        outer = nrm[:, :, None] * nrm[:, None, :]
        t = np.maximum(0.0, 1.0 - self.rest / d)[:, None, None]
        block = self.k * (outer + t * (np.eye(3)[None] - outer))  # (m, 3, 3)
        rows, cols, vals = [], [], []
        for a, sa in ((0, 1.0), (1, -1.0)):
            for b, sb in ((0, 1.0), (1, -1.0)):
                ia = 3 * self.edges[:, a][:, None, None] + np.arange(3)[None, :, None]
                ib = 3 * self.edges[:, b][:, None, None] + np.arange(3)[None, None, :]
                rows.append(np.broadcast_to(ia, block.shape).ravel())
                cols.append(np.broadcast_to(ib, block.shape).ravel())
                vals.append((sa * sb * block).ravel())
        n3 = 3 * self.n
        return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n3, n3))


# ----------------------------------------------------------------- simulator
def simulate(frames=40, n=8, h=0.02, dhat=2e-3, verbose=True):
    X, faces, springs, num_cloth = make_scene(n)
    num = X.shape[0]
    prescribed = np.zeros(num, dtype=bool)
    prescribed[num_cloth:] = True
    mesh = ipc.CollisionMesh.build(X, faces=faces, prescribed_vertices=prescribed)
    free = np.repeat(~prescribed, 3)  # free degrees of freedom

    mass = np.full(num, 0.1 / num_cloth)  # 100 g of cloth
    M = sp.diags(np.repeat(mass, 3))
    gravity = np.tile([0.0, -9.81, 0.0], num) * free
    springs = Springs(X, springs, k=200.0)
    barrier = ipc.BarrierPotential(dhat)
    bbox = np.linalg.norm(X.max(axis=0) - X.min(axis=0))
    bounds = ipc.barrier_stiffness_bounds(bbox, float(mass[:num_cloth].mean()), dhat)

    x = X.copy()
    v = np.zeros(3 * num)
    history = [x.copy()]
    stats = {"newton": 0, "min_gap": np.inf, "intersections": 0}
    ipc.check_step_start(mesh, x)
    for frame in range(frames):
        x_pred = x.ravel() + h * v + h * h * gravity
        kappa = None

        def energy(y, collisions):
            dy = y.ravel() - x_pred
            return 0.5 * dy @ (M @ dy) + h * h * springs.energy(y) + kappa * barrier(collisions, mesh, y)

        x_prev = x.copy()
        prev_gap = None
        for it in range(50):
            collisions = ipc.Collisions()
            collisions.build(mesh, x, dhat)
            grad_e = M @ (x.ravel() - x_pred) + h * h * springs.gradient(x)
            grad_b = barrier.gradient(collisions, mesh, x)
            if kappa is None:
                kappa = ipc.initial_barrier_stiffness(bounds, grad_e * free, grad_b * free)
            gap = ipc.minimum_distance(mesh, x)
            if prev_gap is not None:
                kappa = ipc.update_barrier_stiffness(kappa, bounds.max, prev_gap, gap, bbox)
            prev_gap = gap
            stats["min_gap"] = min(stats["min_gap"], gap)
            grad = grad_e + kappa * grad_b
            H = M + h * h * springs.hessian(x) + kappa * barrier.hessian(collisions, mesh, x, ipc.PSDProjection.CLAMP)
            H = sp.csr_matrix(H)[free][:, free]
            dx = np.zeros(3 * num)
            dx[free] = spla.spsolve(H.tocsc(), -grad[free])
            if np.abs(dx).max() < 1e-6:
                break
            x_trial_full = x + dx.reshape(-1, 3)
            alpha = ipc.collision_free_step_size(mesh, x, x_trial_full)
            e0 = energy(x, collisions)
            while True:
                y = x + alpha * dx.reshape(-1, 3)
                trial = ipc.Collisions()
                trial.build(mesh, y, dhat)
                if energy(y, trial) <= e0 or alpha < 1e-10:
                    break
                alpha *= 0.5
            x = y
            stats["newton"] += 1
        v = (x - x_prev).ravel() / h
        if ipc.has_intersections(mesh, x):
            stats["intersections"] += 1
        history.append(x.copy())
        if verbose:
            print(f"frame {frame + 1:3d}: {it + 1:2d} Newton iterations, lowest cloth point "
                  f"{x[:num_cloth, 1].min() * 1e3:7.3f} mm, gap {gap * 1e3:.3f} mm, kappa {kappa:.3g}")
    return mesh, history, faces, num_cloth, stats


# ----------------------------------------------------------------- PNG output
def write_png(path, image):
    """image: (height, width, 3) uint8."""
    height, width, _ = image.shape
    raw = b"".join(b"\x00" + image[row].tobytes() for row in range(height))

    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    Path(path).write_bytes(png)


def draw_line(image, p, q, color):
    steps = int(max(abs(q[0] - p[0]), abs(q[1] - p[1]))) + 1
    t = np.linspace(0.0, 1.0, steps + 1)
    xs = np.round(p[0] + t * (q[0] - p[0])).astype(int)
    ys = np.round(p[1] + t * (q[1] - p[1])).astype(int)
    ok = (xs >= 0) & (xs < image.shape[1]) & (ys >= 0) & (ys < image.shape[0])
    image[ys[ok], xs[ok]] = color


def render(history, faces, num_cloth, path, width=560, height=300, every=4):
    """Side view (orthographic, slightly from above) of every `every`-th frame,
    early frames light, late frames dark; the ground in grey."""
    image = np.full((height, width, 3), 255, dtype=np.uint8)
    view = np.array([[1.0, 0.0, 0.45], [0.0, 1.0, 0.3]])  # screen x, y from (x, y, z)
    scale, origin = 400.0, np.array([width / 2, height - 100])

    def project(p):
        s = view @ p
        return origin + scale * np.array([s[0], -s[1]])

    edges = set()
    for f in faces:
        for a, b in ((f[0], f[1]), (f[1], f[2]), (f[2], f[0])):
            edges.add((min(a, b), max(a, b)))
    x0 = history[0]
    for a, b in edges:
        if a >= num_cloth and b >= num_cloth:
            pa, pb = project(x0[a]), project(x0[b])
            draw_line(image, pa, pb, (150, 150, 150))
    shown = list(range(0, len(history), every))
    if shown[-1] != len(history) - 1:
        shown.append(len(history) - 1)
    for k, i in enumerate(shown):
        shade = 1.0 - (k + 1) / len(shown)
        color = (int(40 + 200 * shade), int(90 + 150 * shade), 255)
        x = history[i]
        for a, b in edges:
            if a < num_cloth and b < num_cloth:
                draw_line(image, project(x[a]), project(x[b]), color)
    write_png(path, image)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--n", type=int, default=8, help="cloth grid resolution (n x n vertices)")
    parser.add_argument("--output", default=str(Path(__file__).with_suffix(".png")))
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    mesh, history, faces, num_cloth, stats = simulate(args.frames, args.n, verbose=not args.quiet)
    elapsed = time.perf_counter() - start
    render(history, faces, num_cloth, args.output)
    print(f"{args.frames} frames, {stats['newton']} Newton iterations in {elapsed:.2f} s; "
          f"smallest gap {stats['min_gap'] * 1e3:.4f} mm; frames with intersections: {stats['intersections']}; "
          f"picture: {args.output}")
    return 0 if stats["intersections"] == 0 and stats["min_gap"] > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
