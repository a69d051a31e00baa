#!/usr/bin/env bash
# Configures and builds one configuration.
# Usage: ci/build.sh BUILD_DIR [--target NAME] [extra cmake args...]   (--target: build only NAME)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1; shift
target=()
if [[ ${1:-} == --target ]]; then
  (($# >= 2)) || { echo "ci/build.sh: error: --target needs a target name" >&2; exit 2; }
  target=(--target "$2"); shift 2
fi
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
grep 'gpunet-bench:' "$dir.configure.log" || true
cmake --build "$dir" "${target[@]}" -j"$(nproc)"
