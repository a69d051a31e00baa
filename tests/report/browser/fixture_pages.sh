#!/usr/bin/env bash
# The fixture report and the hostile one in headless Chromium at 1280 px (browser_check.py).
# usage: fixture_pages.sh RENDER_TOOL SOURCE_DIR BROWSER_CHECK SHOT_DIR       (exit 77: no Chromium)
set -euo pipefail
tool=$1 src=$2 check=$3 shots=$4
command -v chromium >/dev/null || command -v chromium-browser >/dev/null ||
  { echo "SKIP: chromium is not installed (ci/setup.sh --tests installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rc=0
for name in fixture hostile; do
  "$tool" "$src/tests/data/report/$name.json" -o "$work/$name" >/dev/null || { echo "FAIL: rendering $name.json"; exit 1; }
  python3 "$check" "$work/$name" "$name" "$shots" --topology skip || rc=1
done
exit $rc
