#!/usr/bin/env python3
"""Runs the AL paper's comparison (Table 1: the augmented-Lagrangian solver
against IPC with cumulative-TOI termination) on the shared scenes, at any
sizes, and prints one Markdown table beside the paper's figures.

    benchmarks/al_comparison.py --bin build/release/examples \
        [--scenes chains press well] [--sizes small paper 10000 full] \
        [--frames N] [--first-frame K] [--threads 2] [--configs ipc toi al al_mu1]

Configurations (each run with --check, so a step whose state intersects
stops the run and the row says so):
  ipc     ipc_sim, its residual termination
  toi     ipc_sim --termination toi (the paper's baseline rule)
  al      al_sim (C_mu = 0.1, the paper's)
  al_mu1  al_sim --mu-scale 1
Sizes: small, paper, full (the paper's vertex count) or a vertex count
(ipc_sim / al_sim --size). Frames: the scene's default unless --frames.
Each cell: Newton iterations per step / mean accepted step fraction (the
cumulative TOI's alpha) / seconds per step; then the largest contact set
(IPC's active pairs, AL's constraints), AL's CG iterations per solve, and
the steps that ended unconverged. The last column is the iteration ratio
of IPC + TOI to AL, beside the paper's. --first-frame K averages over
steps K..N only (a window, say the crush), still running all N.
"""

import argparse
import json
import os
import subprocess
import sys
import time

# The AL paper's Table 1 and 2 rows: (vertices, Newton it./step of AL, of
# GIPC + TOI termination, CG per solve of AL, mean TOI of AL, of GIPC + TOI).
PAPER = {
    "press": ("0.87M", 30.09, 137.42, 28.35, 0.192, 0.055),
    "chains": ("51.0K", 16.13, 167.06, 67.10, 0.250, 0.046),
    "well": ("0.43M", 19.23, 85.58, 53.59, 0.242, 0.089),
}

CONFIGS = {
    "ipc": ("ipc_sim", []),
    "toi": ("ipc_sim", ["--termination", "toi"]),
    "al": ("al_sim", []),
    "al_mu1": ("al_sim", ["--mu-scale", "1"]),
}


def run(args, scene, size, config):
    program, extra = CONFIGS[config]
    out = os.path.join(args.work, f"{scene}_{size}_{config}")
    os.makedirs(out, exist_ok=True)
    stats = os.path.join(out, "stats.json")
    cmd = [os.path.join(args.bin, "ipc" if program == "ipc_sim" else "al", program), "--scene", scene, "--size", size,
           "--threads", str(args.threads), "--check", "--out", out, "--json", stats] + extra
    if args.frames:
        cmd += ["--frames", str(args.frames)]
    start = time.time()
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        lines = result.stderr.strip().splitlines() or [f"exit {result.returncode}"]
        return {"error": lines[-1], "wall": time.time() - start}
    with open(stats) as f:
        report = json.load(f)
    steps = report["steps"][max(0, args.first_frame - 1):]
    n = max(1, len(steps))
    toi = [s.get("toi_mean") for s in steps if s.get("toi_mean") is not None]
    cg = sum(s.get("cg_iterations", 0) for s in steps)
    solves = sum(s.get("newton_iterations", 0) for s in steps)
    return {
        "vertices": report["parameters"]["vertices"],
        "steps": len(steps),
        "iterations": sum(s["newton_iterations"] for s in steps) / n,
        "alpha": sum(toi) / len(toi) if toi else float("nan"),
        "seconds": sum(s["seconds"] for s in steps) / n,
        "contacts": max((s.get("constraints", s.get("contacts", 0)) for s in steps), default=0),
        "cg": cg / solves if program == "al_sim" and solves else None,
        "unconverged": sum(1 for s in steps if not s.get("converged", True)),
    }


def cell(r):
    if "error" in r:
        return f"failed: {r['error'][:60]}"
    return f"{r['iterations']:.1f} / {r['alpha']:.2f} / {r['seconds']:.3g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the build's examples folder (holding ipc/ and al/)")
    parser.add_argument("--scenes", nargs="+", default=["press", "chains", "well"])
    parser.add_argument("--sizes", nargs="+", default=["small", "paper"])
    parser.add_argument("--configs", nargs="+", default=list(CONFIGS), choices=list(CONFIGS))
    parser.add_argument("--frames", type=int, default=0)
    parser.add_argument("--first-frame", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--work", default="out/al_comparison")
    args = parser.parse_args()

    names = {"ipc": "IPC", "toi": "IPC + TOI", "al": "AL", "al_mu1": "AL, C_mu = 1"}
    print("| scene (size, vertices) | " + " | ".join(names[c] for c in args.configs)
          + " | contacts | AL CG / solve | unconverged steps | IPC + TOI / AL it., ours / paper |")
    print("|---|" + "---|" * len(args.configs) + "---|---|---|---|")
    for scene in args.scenes:
        for size in args.sizes:
            results = {c: run(args, scene, size, c) for c in args.configs}
            ok = [r for r in results.values() if "error" not in r]
            vertices = ok[0]["vertices"] if ok else "?"
            contacts = " / ".join(str(r.get("contacts", "-")) for r in results.values())
            cg = " ; ".join(f"{r['cg']:.0f}" for c, r in results.items() if r.get("cg") is not None) or "-"
            unconverged = " / ".join(str(r.get("unconverged", "-")) for r in results.values())
            ratio = "-"
            if "toi" in results and "al" in results and "error" not in results["toi"] and "error" not in results["al"]:
                ratio = f"{results['toi']['iterations'] / results['al']['iterations']:.2f}x"
            paper = PAPER.get(scene)
            ratio += f" / {paper[2] / paper[1]:.2f}x ({paper[0]})" if paper else ""
            steps = ok[0]["steps"] if ok else 0
            label = f"`{scene}` ({size}, {vertices:,} vertices, {steps} steps)" if ok else f"`{scene}` ({size})"
            print(f"| {label} | " + " | ".join(cell(results[c]) for c in args.configs)
                  + f" | {contacts} | {cg} | {unconverged} | {ratio} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
