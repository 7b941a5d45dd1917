#!/usr/bin/env python3
"""Runs one cloth scene under ipc_sim and repulsion_sim at the same time step
and about the same resolution, and prints, from the frames each program
writes, the cloth's mean vertex speed over time and its drape at the end
(mean and lowest height), with the seconds per step of each.

    benchmarks/drape_comparison.py --examples build/release/examples \
        [--scene cloth_on_sphere] [--dt 0.01] [--frames 80] \
        [--rest-edge L] [--threads 2] [--every 10]

Both programs run one scene file: ipc_sim writes the scene (--dump-scene),
and bodies other than cloth and obstacles (cloth_stack's soft ball) are left
out, because the repulsion method simulates cloth only. The repulsion
lattice gets about as many vertices as IPC's cloth (--vertices), unless
--rest-edge sets its edge. The cloth is every vertex used by a face outside
the OBJ objects named obstacle*. Speeds are finite differences of
consecutive frames, so they are what the written states say, not what a
program reports about itself.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def cloth_positions(path):
    """The cloth vertices' positions of one OBJ frame, in file order."""
    vertices, used, obj = [], set(), ""
    with open(path) as f:
        for line in f:
            if line.startswith("v "):
                vertices.append(tuple(float(x) for x in line.split()[1:4]))
            elif line.startswith("o "):
                obj = line[2:].strip()
            elif line.startswith("f ") and not obj.startswith("obstacle"):
                for token in line.split()[1:]:
                    used.add(int(token.split("/")[0]) - 1)
    return [vertices[i] for i in sorted(used)]


def run(command, out, frames):
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stderr}")
    states = [cloth_positions(os.path.join(out, f"frame_{k:04d}.obj")) for k in range(frames + 1)]
    return states


def mean_speed(a, b, dt):
    return sum(sum((p - q) ** 2 for p, q in zip(u, v)) ** 0.5 for u, v in zip(a, b)) / (len(a) * dt)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", required=True, help="the build's examples folder")
    parser.add_argument("--scene", default="cloth_on_sphere")
    parser.add_argument("--dt", type=float, default=0.01)
    parser.add_argument("--frames", type=int, default=80)
    parser.add_argument("--rest-edge", type=float, help="repulsion lattice edge (m); default: match IPC's count")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--every", type=int, default=10, help="print the speed every this many steps")
    args = parser.parse_args()

    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        ipc_sim = os.path.join(args.examples, "ipc", "ipc_sim")
        scene_file = os.path.join(tmp, "scene.json")
        subprocess.run([ipc_sim, "--scene", args.scene, "--dump-scene", scene_file], check=True,
                       stdout=subprocess.DEVNULL)
        with open(scene_file) as f:
            scene = json.load(f)
        kept = [b for b in scene["bodies"] if b["type"] in ("shell", "obstacle")]
        if len(kept) != len(scene["bodies"]):
            if scene["fixed"] or scene["scripted"]:
                sys.exit(f"{args.scene}: cannot leave out its non-cloth bodies (held vertices are numbered)")
            print(f"{args.scene}: left out {len(scene['bodies']) - len(kept)} non-cloth bodies", file=sys.stderr)
            scene["bodies"] = kept
            with open(scene_file, "w") as f:
                json.dump(scene, f)
        common = ["--scene-file", scene_file, "--dt", str(args.dt), "--frames", str(args.frames),
                  "--threads", str(args.threads)]
        for name in ("ipc", "repulsion"):
            if name == "ipc":
                command = [ipc_sim]
            else:
                resolution = (["--rest-edge", str(args.rest_edge)] if args.rest_edge
                              else ["--vertices", str(len(results["ipc"][0][0]))])
                command = [os.path.join(args.examples, "repulsion", "repulsion_sim")] + resolution
            out, stats = os.path.join(tmp, name), os.path.join(tmp, name + ".json")
            states = run(command + common + ["--out", out, "--json", stats], out, args.frames)
            with open(stats) as f:
                report = json.load(f)
            seconds = sum(s["seconds"] for s in report["steps"]) / max(1, len(report["steps"]))
            results[name] = (states, seconds)
            print(f"{name}: {len(states[0])} cloth vertices, {seconds:.3f} s per step", file=sys.stderr)

    print(f"{args.scene}, h = {args.dt} s, {args.frames} steps\n")
    print("| t (s) | IPC mean speed (m/s) | repulsion mean speed (m/s) |")
    print("|---:|---:|---:|")
    for k in range(args.every, args.frames + 1, args.every):
        speeds = [mean_speed(results[n][0][k - 1], results[n][0][k], args.dt) for n in ("ipc", "repulsion")]
        print(f"| {k * args.dt:.2f} | {speeds[0]:.3f} | {speeds[1]:.3f} |")
    print("\n| solver | cloth vertices | s / step | mean height (m) | lowest point (m) |")
    print("|---|---:|---:|---:|---:|")
    for name in ("ipc", "repulsion"):
        states, seconds = results[name]
        last = states[-1]
        heights = [p[1] for p in last]
        print(f"| {name} | {len(last)} | {seconds:.3f} | {sum(heights) / len(heights):.4f} | {min(heights):.4f} |")


if __name__ == "__main__":
    main()
