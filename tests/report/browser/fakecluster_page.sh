#!/usr/bin/env bash
# The report fakecluster_tcp_matrix kept (4 nodes, the node named in slow_host shaped to a quarter)
# in headless Chromium (browser_check.py --matrix).
# usage: fakecluster_page.sh KEPT_DIR BROWSER_CHECK SHOT_DIR required|skip
#   (exit 77: no kept report, e.g. the matrix test was skipped without root, or no Chromium)
set -euo pipefail
kept=$1 check=$2 shots=$3 topology=$4
[[ -f $kept/r/report.html && -f $kept/slow_host ]] ||
  { echo "SKIP: no report from fakecluster_tcp_matrix in $kept (it runs first and needs root)"; exit 77; }
exec python3 "$check" "$kept/r" fakecluster_matrix "$shots" --matrix "$(cat "$kept/slow_host")" --topology "$topology"
