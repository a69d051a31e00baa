#!/usr/bin/env bash
# The nightly job for cluster hardware: runs the suites on the allocation, compares the run with the
# stored baseline, judges it against the acceptance spec, keeps every output as an artifact, and fails
# on a regression or a failed verdict. See ci/NIGHTLY.md.
#
#   sbatch -N 4 --ntasks-per-node=8 --gpus-per-node=8 ci/nightly.sh --baseline /shared/gpunet/baseline.json \
#          --spec ci/spec-example.json --artifacts "$CI_ARTIFACTS" -- --suites topo,mpi,nccl
#   ci/nightly.sh --hostfile nodes --baseline base.json --artifacts out          # without Slurm
#
# Exit codes: gpunet-bench's (0 good; 1 failed verdict, confirmed regression or wrong result; 2 bad
# input; 3 runtime failure; 4 a promise of --spec could not be judged), or 2 for a usage error of this script.
set -euo pipefail
prog=nightly.sh
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [[ ! -x $root/launch/gpunet-run && -n ${SLURM_JOB_ID:-} ]]; then  # sbatch runs a copy: find the original
  script=$(scontrol show job "$SLURM_JOB_ID" 2>/dev/null | sed -n 's/^ *Command=\([^ ]*\).*/\1/p' | head -n 1)
  [[ -n $script && -f $script ]] && root=$(cd "$(dirname "$script")/.." && pwd)
fi
root=${GPUNET_HOME:-$root}
die() { echo "$prog: error: $*" >&2; exit 2; }

usage() {
  cat <<EOF
Usage: ci/nightly.sh --baseline FILE [options] [-- gpunet-bench options]
  --baseline FILE     the stored baseline; when it does not exist yet, this run becomes it
  --spec FILE         acceptance spec to judge the run against (optional)
  --artifacts DIR     where outputs are kept (default: ./artifacts); created if needed
  --launcher KIND     slurm (default inside an allocation), hostfile (default with --hostfile), local
  --hostfile FILE     hosts for launch/gpunet-run
  --ranks N           ranks for --launcher local (default 2)
  --update-baseline   after a clean run (exit 0), make it the new baseline (without it, and on a
                      night that failed, the baseline keeps its values and learns the noise of the
                      figures that were SAME)
  --bench PATH        gpunet-bench (default: build/gpunet-bench of this checkout)
  --history FILE      add the run to this history (SQLite, created if missing) and keep history.md
                      and history.html (trends, step changes, when figures drop) with the artifacts
EOF
}

baseline="" spec="" artifacts=artifacts launcher="" hostfile="" ranks=2 update=0 history=""
bench=$root/build/gpunet-bench
args=()
while (($#)); do
  case $1 in
    --baseline|--spec|--artifacts|--launcher|--hostfile|--ranks|--bench|--history)
      (($# >= 2)) || die "$1 needs a value (see --help)"
      case $1 in
        --baseline) baseline=$2 ;; --spec) spec=$2 ;; --artifacts) artifacts=$2 ;; --launcher) launcher=$2 ;;
        --hostfile) hostfile=$2 ;; --ranks) ranks=$2 ;; --bench) bench=$2 ;; --history) history=$2 ;;
      esac
      shift 2 ;;
    --update-baseline) update=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; args=("$@"); break ;;
    *) die "unknown option '$1' (gpunet-bench options go after --; see --help)" ;;
  esac
done
[[ -n $baseline ]] || die "no --baseline FILE (the stored baseline, or where the first one goes)"
[[ -z $spec || -r $spec ]] || die "spec '$spec' does not exist or cannot be read"
[[ $ranks =~ ^[1-9][0-9]*$ ]] || die "--ranks: '$ranks' is not a positive number"
if [[ -z $launcher ]]; then
  if [[ -n ${SLURM_JOB_ID:-} ]]; then launcher=slurm
  elif [[ -n $hostfile ]]; then launcher=hostfile
  else die "no allocation: run inside sbatch/salloc, or give --hostfile FILE, or --launcher local"; fi
fi

# What the launcher needs, each missing piece in one line.
[[ -x $bench ]] || die "no gpunet-bench at $bench: build it (cmake --build build) or give --bench PATH"
if [[ $launcher == local || $launcher == hostfile ]]; then
  command -v mpirun >/dev/null || die "no mpirun on PATH: install Open MPI (ci/setup.sh) or put its bin directory on PATH"
  if ((EUID == 0)) && mpirun --version 2>/dev/null | grep -q "Open MPI" &&
     [[ ${OMPI_ALLOW_RUN_AS_ROOT:-} != 1 || ${OMPI_ALLOW_RUN_AS_ROOT_CONFIRM:-} != 1 ]]; then
    die "running as root: Open MPI's mpirun refuses root unless OMPI_ALLOW_RUN_AS_ROOT=1 and OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 are set; export both, or run as an ordinary user"
  fi
fi

mkdir -p "$artifacts" || die "cannot create the artifacts directory '$artifacts'"
artifacts=$(cd "$artifacts" && pwd)
out=$artifacts/run
rm -rf "$out"
candidate=$artifacts/baseline-candidate.json

bench_args=("${args[@]}" -o "$out" --save-baseline "$candidate")
[[ -n $spec ]] && bench_args+=(--spec "$spec")
[[ -n $history ]] && bench_args+=(--history "$history")
first_night=0
learned=$artifacts/baseline-learned.json
if [[ -e $baseline ]]; then bench_args+=(--baseline "$baseline" --learn-baseline "$learned")
else first_night=1; echo "$prog: no baseline at $baseline yet: this run will become it"; fi

echo "$prog: $(date -u +%Y-%m-%dT%H:%M:%SZ) launcher=$launcher artifacts=$artifacts"
case $launcher in
  slurm|local) ;;
  hostfile) [[ -n $hostfile ]] || die "--launcher hostfile needs --hostfile FILE" ;;
  *) die "--launcher '$launcher' (use slurm, hostfile or local)" ;;
esac
launch() {
  case $launcher in
    slurm) GPUNET_HOME=$root GPUNET_BENCH=$bench bash "$root/launch/slurm/gpunet.sbatch" "${bench_args[@]}" ;;
    hostfile) "$root/launch/gpunet-run" -H "$hostfile" -b "$bench" -- "${bench_args[@]}" ;;
    local) mpirun -np "$ranks" --oversubscribe --bind-to none --mca mpi_yield_when_idle 1 "$bench" "${bench_args[@]}" ;;
  esac
}
# The console goes to the terminal and to console.log, from which the summary takes the error line.
log=$artifacts/console.log
set +e
launch 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e

# Keep everything the run wrote (report.json, results.jsonl, report.html, junit.xml, ...) at the top
# of the artifacts directory, where CI picks up JUnit and HTML.
if [[ -d $out ]]; then
  cp -r "$out"/. "$artifacts"/
  for f in junit.xml report.html; do
    [[ -e $artifacts/$f ]] || echo "$prog: warning: the run wrote no $f (this build of gpunet-bench lacks it)" >&2
  done
fi

# The history across nights, rendered beside the night's own report.
if [[ -n $history && -s $history ]]; then
  if "$bench" history "$history" -o "$artifacts" > "$artifacts/history.log" 2>&1; then
    echo "$prog: history: $artifacts/history.md"; grep '^#   ' "$artifacts/history.log" || true
  else
    echo "$prog: warning: $(tail -n 1 "$artifacts/history.log")" >&2
  fi
fi

if ((rc == 0 && (first_night || update))) && [[ -s $candidate ]]; then
  cp "$candidate" "$baseline.tmp" && mv "$baseline.tmp" "$baseline"
  echo "$prog: baseline $baseline $( ((first_night)) && echo created || echo updated) from this run"
elif ((rc == 0 || rc == 1 || rc == 4)) && [[ -s $learned ]]; then
  # Not rolled forward, but the figures that were SAME tonight add to the baseline's history (its
  # values stay): the run-to-run spread is learned even on nights that failed elsewhere.
  cp "$learned" "$baseline.tmp" && mv "$baseline.tmp" "$baseline"
  echo "$prog: baseline $baseline kept; its history learned this night's SAME figures"
fi
# The cause, for the summary line: the first sentence of "What is wrong" in report.md (the culprit
# first: a failed promise, a SLOWER figure, a host named by a finding), with how many more there are.
culprit() {
  [[ -s $artifacts/report.md ]] || return 0
  awk '/^## What is wrong/ {on = 1; next} on && /^## / {exit} on && /^- / {n++; if (n == 1) first = substr($0, 3)}
       END {if (n) printf "%s%s", first, (n > 1 ? " (and " n - 1 " more)" : "")}' "$artifacts/report.md"
}
# The last error line of the console (a bad input, a dead rank, mpirun refusing to start).
last_error() { grep -E "error|refus|not |cannot|killed|timed out" "$log" 2>/dev/null | tail -n 1 | cut -c1-300; }
cause=$(culprit)
case $rc in
  0) echo "$prog: PASS" ;;
  1) echo "$prog: FAIL: ${cause:-a failed verdict, a confirmed regression or a wrong result} (see $artifacts/report.md)" ;;
  2) echo "$prog: FAIL: bad input: $(last_error)" ;;
  4) echo "$prog: INCOMPLETE: ${cause:-a promise of the spec could not be judged} (see 'not judged' in the verdict table above)" ;;
  *) echo "$prog: FAIL: the run did not complete (exit $rc): $(last_error) (partial results in $artifacts)" ;;
esac
exit "$rc"
