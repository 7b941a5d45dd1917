# Sourced by demo.sh and test.sh: makes sure the Debian packages named in
# "$@" are installed. As root it installs the missing ones with apt-get;
# otherwise it prints the one apt-get line to run and stops.
ipc_need_packages() {
  local missing=() p
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q 'install ok installed'; then
      missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get > /dev/null; then
    echo "error: missing packages (${missing[*]}) and no apt-get on this machine;" \
         "install their equivalents and run again." >&2
    exit 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: these Debian packages are missing: ${missing[*]}" >&2
    echo "Run this as root, then run this script again:" >&2
    echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  echo "== installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
}

# The packages each command needs.
IPC_DEMO_PACKAGES=(cmake ninja-build g++ libeigen3-dev robin-map-dev libfmt-dev
  libsuitesparse-dev libopenblas0-openmp libcli11-dev nlohmann-json3-dev libstb-dev)
IPC_TEST_PACKAGES=("${IPC_DEMO_PACKAGES[@]}" clang libomp-dev libclang-rt-14-dev
  catch2 libspectra-dev
  pybind11-dev python3-pybind11 python3-dev python3-numpy python3-scipy python3-pytest
  python3-venv python3-setuptools doxygen)
