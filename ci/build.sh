#!/usr/bin/env bash
# Configures and builds one configuration. Usage: ci/build.sh BUILD_DIR [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1; shift
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
grep 'gpunet-bench:' "$dir.configure.log" || true
cmake --build "$dir" -j"$(nproc)"
