#!/usr/bin/env bash
# Rendering benchmark: 1,000 ranks x 30 sizes re-rendered offline (load, analyse, write report.json,
# report.md, report.html, junit.xml, sweeps.csv), timed with /usr/bin/time -v. Target: under 2 s and
# under 300 MB peak memory, for a report.json and for a results.jsonl.
#
# usage: bench/perf/render_bench.sh BUILD_DIR [RANKS] [SIZES]     (BUILD_DIR: a Release/RelWithDebInfo build)
set -euo pipefail
build=$1 ranks=${2:-1000} sizes=${3:-30}
here=$(cd "$(dirname "$0")" && pwd)
tool="$build/tests/report/gpunet-report-render"
source "$here/time_v.sh" "$tool"

status=0
for kind in json jsonl; do
  input="$work/results.$kind"
  python3 "$here/gen_results.py" --ranks "$ranks" --sizes "$sizes" $([[ $kind == jsonl ]] && echo --jsonl) "$input"
  /usr/bin/time -v "$tool" "$input" -o "$work/out-$kind" 2>"$work/time-$kind.txt" >/dev/null ||
    { echo "render failed:"; cat "$work/time-$kind.txt"; exit 1; }
  secs=$(time_wall_s "$work/time-$kind.txt")
  rss_kb=$(time_rss_kb "$work/time-$kind.txt")
  user=$(awk -F': ' '/User time/ {print $2}' "$work/time-$kind.txt")
  records=$(( ranks * sizes ))
  in_mb=$(du -m "$input" | cut -f1)
  out=$(cd "$work/out-$kind" && for f in *; do printf '%s %s MB, ' "$f" "$(du -m "$f" | cut -f1)"; done)
  printf '%-6s %d records (%s MB in): wall %.2f s, user %s s, peak RSS %d MB; %s\n' \
    "$kind" "$records" "$in_mb" "$secs" "$user" $((rss_kb / 1024)) "${out%, }"
  awk -v s="$secs" -v r="$rss_kb" 'BEGIN { exit !(s < 2.0 && r < 300 * 1024) }' ||
    { echo "  over the target (2 s, 300 MB)"; status=1; }
done
exit $status
