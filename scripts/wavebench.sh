#!/usr/bin/env bash
# Wavebench set-up and launch on Debian 12. One script, two jobs:
#   scripts/wavebench.sh run    install what is missing, build, then run the workbench on its
#                               default scenario (or, without a display, the headless demo)
#   scripts/wavebench.sh test   install what is missing, build, run every test
#   scripts/wavebench.sh asan   the same tests under AddressSanitizer + UBSan
#   scripts/wavebench.sh bench [--quick]
#                               build release, measure the kernels, the workbench's frame rate
#                               and the threading under load, write build/bench/record.json and
#                               compare it with docs/bench/record.json (scripts/bench.py; never
#                               part of test or CI: it times the machine)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libgl1-mesa-dev libglx-mesa0
  libvtk9-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev libeigen3-dev libomp-dev libpng-dev
  libfftw3-dev libgdal-dev gnuplot-nox
  xvfb xauth libgl1-mesa-dri x11-utils clang libclang-rt-14-dev)
# What only the tests need: a browser to render the study report in, and a one-node Slurm
# cluster for the study test (tests/slurm).
TEST_PACKAGES=(chromium slurmctld slurmd slurm-client)

install_missing() {  # extra packages as arguments
  local missing=()
  for p in "${PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "wavebench: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {  # $1 = preset
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1" -j "$(nproc)"
}

case "${1:-run}" in
  run)
    install_missing
    build release
    if [ -n "${DISPLAY:-}" ] && [ -x build/release/app/gui/wavebench ]; then
      exec build/release/app/gui/wavebench --scenario builtin:pi-pool
    fi
    echo "wavebench: no display; running the headless demo on builtin:pi-pool"
    exec build/release/app/wavebench-cli run --scenario builtin:pi-pool --out wavebench-demo \
      --dump-every 60
    ;;
  test)
    install_missing "${TEST_PACKAGES[@]}"
    build release
    ctest --preset release -j "$(nproc)"
    ;;
  asan)
    install_missing "${TEST_PACKAGES[@]}"
    build asan
    ctest --preset asan -j "$(nproc)"
    ;;
  bench)
    install_missing
    build release
    shift
    exec python3 scripts/bench.py "$@"
    ;;
  *)
    echo "usage: scripts/wavebench.sh run|test|asan|bench [--quick]" >&2
    exit 2
    ;;
esac
