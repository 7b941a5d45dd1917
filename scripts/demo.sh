#!/usr/bin/env bash
# The main job. Installs the Debian packages it needs when they are missing
# (as root; otherwise it prints the apt-get line to run), builds only what it
# runs, in Release, and runs it:
#   1. ipc_sim on the coupled C-IPC scene (a soft volume, a cloth, rods and
#      particles): progress, a summary table, OBJ frames, a picture of the
#      last frame, per-step statistics and, when the ffmpeg program is
#      installed, a video of the run (run.mp4) in out/demo/;
#   2. the distance-kernel benchmark table;
#   3. the CCD benchmark table, when IPC_CCD_QUERIES names a folder of CCD
#      benchmark queries (Wang et al. 2021 format).
# JOBS sets build parallelism (default: 2). ccache is used when installed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh
ipc_need_packages "${IPC_DEMO_PACKAGES[@]}"

jobs=${JOBS:-2}
queries=${IPC_CCD_QUERIES:-}
out=out/demo
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
video=()
if command -v ffmpeg > /dev/null; then
  video=(--video "$out/run.mp4")
else
  echo "== ffmpeg is not installed: no video of the run (apt-get install ffmpeg to get $out/run.mp4)"
fi

echo "== configuring build/demo (Release)"
cmake -S . -B build/demo "${generator[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DIPC_BUILD_TESTS=OFF -DIPC_INSTALL=OFF -DIPC_CCD_QUERIES="$queries" > /dev/null
echo "== building ipc_sim"
cmake --build build/demo -j "$jobs" --target ipc_sim

echo "== demo: coupled scene (all_in), writing to $out/"
build/demo/examples/ipc/ipc_sim --scene all_in --out "$out" --json "$out/stats.json" "${video[@]}"

echo "== building the benchmarks"
benchmarks=(kernels_benchmark)
[ -n "$queries" ] && benchmarks+=(ccd_benchmark)
cmake --build build/demo -j "$jobs" --target "${benchmarks[@]}"

echo "== kernel benchmark"
build/demo/benchmarks/kernels_benchmark --n 1000000

if [ -n "$queries" ]; then
  echo "== CCD benchmark ($queries)"
  build/demo/benchmarks/ccd_benchmark --data "$queries"
fi

video_text=""
[ ${#video[@]} -gt 0 ] && video_text=", video $out/run.mp4"
echo "== done: frames $out/frame_*.obj, picture $out/last_frame.png, statistics $out/stats.json$video_text"
