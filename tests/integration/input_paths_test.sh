#!/usr/bin/env bash
# The command-line level of hostile inputs: `report` with an empty path, a directory, a missing
# file, a symlink loop or a FIFO, and `--check`, each one line and exit 2 (or 0), never a benchmark
# run, a hang or an abort.
# Usage: input_paths_test.sh BINARY
source "$(dirname "$0")/lib.sh"
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# expect CODE PATTERN ARGS...: the exit code, and stderr is exactly one line matching PATTERN.
expect() {
  local want=$1 pattern=$2
  shift 2
  set +e
  timeout 30 "$bin" "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  set -e
  [[ $rc == "$want" ]] || { cat "$work/out" "$work/err"; fail "$*: exit $rc, want $want"; }
  if [[ $want == 2 ]]; then
    [[ $(wc -l <"$work/err") == 1 ]] || { cat "$work/err"; fail "$*: want one line on stderr"; }
    grep -Eq -- "$pattern" "$work/err" || { cat "$work/err"; fail "$*: stderr does not match '$pattern'"; }
  fi
  [[ ! -e gpunet-report ]] || fail "$*: started a benchmark (gpunet-report/ exists)"
}

mkdir adir
ln -s loop-b loop-a
ln -s loop-a loop-b
mkfifo fifo
expect 2 "report: empty path" report ''
expect 2 "adir: is a directory, not a report file \(give the file itself\)" report adir
expect 2 "/x.json: no such file \(check the path\)" report /x.json
expect 2 "loop-a: a loop of symbolic links \(point the link at a real file\)" report loop-a
expect 2 "fifo: is a FIFO \(named pipe\), not a report file \(save the content" report fifo
expect 2 "--check takes no value.*-c/--verify" --check 1

expect 0 "" --check -b 1K -e 4K --suites mpi
grep -q "are valid; nothing was measured" "$work/out" || fail "--check says nothing on success"
[[ ! -s $work/err ]] || fail "--check wrote to stderr on success"
# --check prints the plan a run would print, for --nodes nodes: the matrix's N-1 full-duplex rounds at
# 512, 2(N-1) one way, and about K+1 with --tcp-pairs random:K.
expect 0 "" --check --nodes 512 --suites tcp --tcp-tests matrix --tcp-time 0.5
grep -q "^# plan: tcp 512 participants: 511 bandwidth rounds x (0.5s + 0.2s).*; estimated 5m58s (an estimate" "$work/out" ||
  { cat "$work/out"; fail "--check --nodes 512: no plan line"; }
expect 0 "" --check --nodes 512 --suites tcp --tcp-tests matrix --tcp-time 0.5 --tcp-matrix-direction one-way
grep -q "^# plan: tcp 512 participants: 1022 bandwidth rounds x (0.5s + 0.2s).*; estimated 11m55s (an estimate" "$work/out" ||
  { cat "$work/out"; fail "--check --nodes 512 --tcp-matrix-direction one-way: no plan line"; }
expect 0 "" --check --nodes 512 --suites tcp --tcp-tests matrix --tcp-time 0.5 --tcp-pairs random:3 --tcp-pairs-seed 7
grep -q "^# plan: tcp 512 participants: 4 bandwidth rounds x (0.5s + 0.2s).*matrix pairs random:3 seed 7 = 3s" "$work/out" ||
  { cat "$work/out"; fail "--check --nodes 512 --tcp-pairs random:3: no plan line"; }
# --time-budget: what the plan gave up to fit, and a budget even the cheapest plan misses (exit 2).
expect 0 "" --check --nodes 1024 --time-budget 30m
grep -q "^# plan: .*tcp 1024 participants: 1027 bandwidth rounds x (1s + 0.2s).*; --time-budget 30m00s: gave up --tcp-time 1 (was 2) (at most " "$work/out" ||
  { cat "$work/out"; fail "--check --nodes 1024 --time-budget 30m: no plan line with what it gave up"; }
expect 2 "--time-budget 10s cannot be met: the cheapest plan \(.*\) takes up to .*; give a larger --time-budget" --check --nodes 512 --time-budget 10s
expect 2 "--time-budget: 'soon' is not a duration" --check --time-budget soon
# A spec with a tcp latency promise (it names no pair: every pair) makes the latency test measure every
# pair: 3 rounds of 4 nodes' 6 pairs instead of the ring's 2, and the plan line says why.
echo '{"spec_version": 1, "latency": [{"suite": "tcp", "name": "latency", "max_p99_us": 500}]}' >"$work/latency-spec.json"
expect 0 "" --check --nodes 4 --suites tcp --tcp-tests latency --spec "$work/latency-spec.json"
grep -q "^# plan: tcp 4 participants: 0 bandwidth rounds x (2s + 0.2s) + 3 latency rounds x (1s + 0.2s), latency on every pair (the spec promises it for every pair)" "$work/out" ||
  { cat "$work/out"; fail "--check with a latency promise: the plan does not measure every pair"; }
expect 0 "" --check --nodes 4 --suites tcp --tcp-tests latency
grep -q "^# plan: tcp 4 participants: 0 bandwidth rounds x (2s + 0.2s) + 2 latency rounds x (1s + 0.2s) = " "$work/out" ||
  { cat "$work/out"; fail "--check without a spec: the latency test's pairs changed"; }
expect 2 "--tcp-pairs: 'random:0' is not all, ring or random:K" --check --tcp-pairs random:0
expect 2 "--budget: 'nan' is not a finite number" --check --budget nan
expect 2 "--tcp-timeout: 'inf' is not a finite number" --check --tcp-timeout inf
expect 2 "spec-missing.json" --check --spec spec-missing.json
expect 2 "-e/--maxbytes .*(MPI count|memory)" --check -b 99999999G -e 99999999G
expect 2 "adir: is a directory, not a report file" --check report adir
expect 0 "" --check --topology-xml "$(dirname "$0")/../data/topologies/synthetic-snc-2x2.xml"

# Issue 31: empty paths are errors, not "none given" (an unset shell variable must not change the job).
expect 2 "^gpunet-bench: error: -o/--output: empty directory name \(give a DIR" -o ''
expect 2 "^gpunet-bench: error: --spec: empty path \(give a FILE, or leave the option out" --spec ''
expect 2 "^gpunet-bench: error: --baseline: empty path" --check --baseline ''
expect 2 "^gpunet-bench: error: --save-baseline: empty path" --save-baseline ''
expect 2 "^gpunet-bench: error: --topology-xml: empty path" --topology-xml ''
expect 2 "^gpunet-bench: error: --spec: empty path" report /x.json --spec ''

# A duplicate key drops a promise silently in a lenient reader: refused, naming file, key and path.
printf '%s' '{"spec_version":2,"bandwidth":[{"suite":"mpi","name":"allreduce","min":1000}],"bandwidth":[]}' >dup.json
expect 2 "^gpunet-bench: error: dup.json: duplicate key \"bandwidth\" at bandwidth \(a key may appear once per object" --check --spec dup.json
expect 2 "^gpunet-bench: error: dup.json: duplicate key \"bandwidth\" at bandwidth" --spec dup.json -o out-dup
[[ ! -e out-dup ]] || fail "--spec with a duplicate key started a run"

# A nested counted repetition took 8-32 s and 3.6 GB in regcomp: refused at once.
printf '%s' '{"spec_version":2,"nic":{"count":1,"match":"((a{255}){255}){255}"}}' >re.json
start=$(date +%s%N)
expect 2 "^gpunet-bench: error: re.json: nic.match: '\(\(a\{255\}\)\{255\}\)\{255\}' counted repetitions expand it to more than 2000 states" --check --spec re.json
(( ($(date +%s%N) - start) / 1000000 < 1000 )) || fail "the nested repetition took more than a second"

# --check tries the outputs the way the run writes them.
expect 2 "^gpunet-bench: error: -o/--output /proc/x: cannot be created" --check -o /proc/x
expect 2 "^gpunet-bench: error: --save-baseline /tmp: is a directory \(give a FILE name" --check --save-baseline /tmp
expect 2 "^gpunet-bench: error: --save-baseline /proc/base.json: a file cannot be created in /proc" --check --save-baseline /proc/base.json
expect 0 "" --check -o "$work/new/deeper"
[[ ! -e $work/new ]] || fail "--check left the output directory it tried behind"
: >afile
expect 2 "^gpunet-bench: error: -o/--output afile: exists and is not a directory" --check -o afile
echo "ok: report paths and --check are one line and the right exit code"
