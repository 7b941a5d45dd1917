#!/usr/bin/env python3
"""Runs the IPC paper's published scene scripts with ipc_sim --ipc-script and
prints a Markdown table of our figures next to the paper's (Fig. 23 of Li et
al. 2020, where the paper reports the example).

    benchmarks/ipc_paper_scenes.py --ipc-sim build/release/examples/ipc/ipc_sim \
        --scenes PATH/TO/ipc-paper-scenes [--threads 2] [--only NAME ...]

Every run uses --check, so ipc_sim stops with an error at the first step
whose state intersects (exact test); such a row is reported as failed.
Frames: each row runs the first N steps given below (the script's full
duration where it fits this machine) and says so in the table.
"""

import argparse
import json
import os
import subprocess
import sys
import time

# name, script (relative to the scenes folder), steps to run,
# paper: (nodes, tets, faces, h, contacts avg, contacts max, machine, s/step, it/step) or None.
ROWS = [
    ("Mat on knives", "input/paperExamples/2_matKnives.txt", 150,
     ("3.2K", "9.1K", "6.4K", 0.04, "291", "472", "A (4 cores)", 1.4, 5.5)),
    ("Pin-cushion compress", "input/paperExamples/17_pinCushionBall.txt", 200,
     ("9K", "28K", "10K", 0.04, "317", "496", "A (4 cores)", 3.7, 9.5)),
    ("Ball mesh roller", "input/paperExamples/8_rollerBall.txt", 30,
     ("7K", "28K", "11K", 0.01, "2.3K", "5.6K", "A (4 cores)", 63.3, 58.6)),
    ("Rods twist", "input/paperExamples/4_rodsTwist.txt", 10,
     ("53K", "202K", "80K", 0.025, "243K", "498K", "B (8 cores)", 141.5, 14.1)),
    ("Stick-slip pencil (Fig. 20)", "input/paperExamples/20_pencilStickSlip.txt", 400, None),
    ("Cube stack (Fig. 10)", "input/paperExamples/10_cubeStack.txt", 200, None),
    ("Tet on tet (Fig. 10)", "input/paperExamples/10_tetTet.txt", 200, None),
    ("Mat on board (Fig. 12)", "input/paperExamples/12_matOnBoard.txt", 120, None),
] + [
    (f"Erleben {name} (Fig. 11)", f"input/paperExamples/11_erleben/{name}.txt", 200, None)
    for name in ("spikeSpikeCO", "spikeWedgeCO", "wedgeWedgoCO", "spikePlaneCO", "wedgePlaneCO", "spikeCrackCO",
                 "spikeHoleCO", "wedgeCrackCO", "cubeCliffCO", "cubeInternalEdgesCO")
]


def run_row(args, name, script, steps, workdir):
    out = os.path.join(workdir, os.path.splitext(os.path.basename(script))[0])
    stats = out + "/stats.json"
    cmd = [args.ipc_sim, "--ipc-script", os.path.join(args.scenes, script), "--frames", str(steps), "--threads",
           str(args.threads), "--out", out, "--json", stats, "--check"]
    start = time.time()
    result = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.time() - start
    if result.returncode != 0:
        return {"error": (result.stderr.strip().splitlines() or ["exit %d" % result.returncode])[-1], "wall": wall}
    with open(stats) as f:
        report = json.load(f)
    report["wall"] = wall
    return report


def kilo(n):
    return f"{n / 1000:.1f}K" if n >= 1000 else str(n)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ipc-sim", required=True)
    parser.add_argument("--scenes", required=True, help="the folder holding input/paperExamples")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--work", default="out/ipc_paper_scenes")
    parser.add_argument("--only", nargs="*", help="run only rows whose script name contains one of these")
    parser.add_argument("--steps-scale", type=float, default=1.0, help="multiply every row's step count")
    args = parser.parse_args()

    print(f"| example | steps run | nodes, tets, faces (ours / paper) | h | contacts avg (max), ours / paper "
          f"| s/step ours ({args.threads} threads) / paper (machine) | Newton it./step ours / paper | smallest distance |")
    print("|---|---:|---|---:|---|---|---|---:|")
    for name, script, steps, paper in ROWS:
        if args.only and not any(key in script for key in args.only):
            continue
        steps = max(1, int(round(steps * args.steps_scale)))
        r = run_row(args, name, script, steps, args.work)
        if "error" in r:
            print(f"| {name} | failed | | | | | | {r['error']} |")
            sys.stdout.flush()
            continue
        m, t, p = r["model"], r["totals"], r["parameters"]
        contacts = [s["contacts"] for s in r["steps"]]
        ours_counts = f"{kilo(m['volume_vertices'])}, {kilo(m['tets'])}, {kilo(m['volume_surface_faces'])}"
        ours_contacts = f"{sum(contacts) / len(contacts):.0f} ({max(contacts)})"
        dmin = t["min_distance"]
        distance = "-" if dmin is None else f"{dmin:.2e} m"
        if paper:
            counts = f"{ours_counts} / {paper[0]}, {paper[1]}, {paper[2]}"
            h = f"{p['dt']:g} / {paper[3]:g}"
            cont = f"{ours_contacts} / {paper[4]} ({paper[5]})"
            secs = f"{t['seconds_per_step']:.2f} / {paper[7]} ({paper[6]})"
            its = f"{t['newton_iterations_per_step']:.1f} / {paper[8]}"
        else:
            counts, h = ours_counts, f"{p['dt']:g}"
            cont, secs, its = ours_contacts, f"{t['seconds_per_step']:.3f}", f"{t['newton_iterations_per_step']:.1f}"
        print(f"| {name} | {t['steps']} | {counts} | {h} | {cont} | {secs} | {its} | {distance} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
