#!/usr/bin/env bash
# Installs what Tessera needs on Debian 12 and is not there yet; a second run only checks (dpkg -s) and
# returns at once. Run as root (or with sudo available). The CUDA toolkit is not a Debian package here:
# it is expected at /usr/local/cuda; without it Tessera builds without the CUDA backend.
set -euo pipefail

packages=(cmake gcc g++ make ninja-build pkg-config libinih-dev libhwloc-dev zlib1g-dev python3-vtk9 python3-numpy
          hipcc libamdhip64-dev gnuplot-nox clang libclang-rt-14-dev libomp-dev
          openmpi-bin libopenmpi-dev)

missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done

if ((${#missing[@]})); then
    echo "install-deps: installing ${missing[*]}"
    sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
        sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
else
    echo "install-deps: all Debian packages present"
fi

if [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "install-deps: nvcc found at /usr/local/cuda/bin/nvcc"
else
    echo "install-deps: no nvcc at /usr/local/cuda/bin/nvcc: the CUDA backend will not be built"
fi
