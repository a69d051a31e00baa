#!/usr/bin/env bash
# Scale benchmark (not a test): `gpunet-bench report` on the all-pairs TCP matrix of HOSTS generated
# hosts (HOSTS x (HOSTS-1) flow records, bench/perf/gen_pair_matrix.py), timed with /usr/bin/time -v.
# Targets at 1,024 hosts (about a million records): under 30 s and 4 GB, report.html under 20 MB.
#
# usage: bench/perf/pair_matrix_bench.sh BUILD_DIR [HOSTS...]     (default: 128 256 512)
set -euo pipefail
build=$1; shift

hosts=("$@")
[[ $# -gt 0 ]] || hosts=(128 256 512)
here=$(cd "$(dirname "$0")" && pwd)
bin="$build/gpunet-bench"
source "$here/time_v.sh" "$bin"
status=0
for n in "${hosts[@]}"; do
  python3 "$here/gen_pair_matrix.py" --hosts "$n" "$work/m.jsonl" >/dev/null
  rc=0; /usr/bin/time -v "$bin" report "$work/m.jsonl" -o "$work/out" >"$work/log" 2>"$work/time" || rc=$?
  secs=$(time_wall_s "$work/time")
  rss_mb=$(( $(time_rss_kb "$work/time") / 1024 ))
  in_mb=$(du -m "$work/m.jsonl" | cut -f1)
  html_mb=$(du -m "$work/out/report.html" 2>/dev/null | cut -f1 || echo -)
  printf '%5d hosts, %8d records (%s MB in): exit %d, wall %.1f s, peak RSS %d MB, report.html %s MB\n' \
    "$n" $((n * (n - 1))) "$in_mb" "$rc" "$secs" "$rss_mb" "$html_mb"
  [[ $rc == 0 || $rc == 1 ]] || { tail -n 2 "$work/log"; status=1; }
  rm -rf "$work/out" "$work/m.jsonl"
done
exit $status
