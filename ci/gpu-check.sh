#!/usr/bin/env bash
# GPU machine check for gpunet-bench (see ci/GPU.md). The GPU machine has an NVIDIA GPU, the CUDA
# toolkit and Python, but no Debian packages and no network: the build's packages travel as .deb
# files and are unpacked into a private prefix there.
#
#   ci/gpu-check.sh fetch [DEBS]       on Debian 12 (this project's machines): download the .deb files
#                                      into DEBS (default build-gpu-debs/, ignored by git)
#   ci/gpu-check.sh run [OUT] [DEBS]   on the GPU machine: unpack the debs (dpkg -x), build gpunet-bench
#                                      with CUDA and NCCL, run NCCL on one GPU with data verification,
#                                      the PCIe copies, the node micro-benchmarks and topology discovery,
#                                      compare the figures with their ceilings, run the train suite's
#                                      GPU step emulation (cuBLAS GEMMs overlapped with NCCL, NVML
#                                      utilisation), and write a summary.
#                                      Exit code 0 when every check passes, 1 when one fails, 3 when
#                                      the build or the run could not be done.
#   ci/gpu-check.sh nccl [OUT] [DEBS]  on the GPU machine: the same build, then only the nccl suite
#                                      (8 B to 128 MiB, verified), for a quick look after a change to it.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

# Libraries the build links and the run loads, with their run-time dependencies, plus the
# header-only and static packages CMake looks for. libc, libstdc++ and zlib's
# library come with any image (its headers do not: zlib1g-dev).
packages=(
  libopenmpi3 libopenmpi-dev openmpi-bin openmpi-common libpmix2 libevent-core-2.1-7 libevent-pthreads-2.1-7
  libucx0 libfabric1 libpsm2-2 libpsm-infinipath1 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200 libmunge2
  libatomic1 libltdl7 libhwloc15 libhwloc-dev libhwloc-plugins hwloc-nox libnuma1 libnuma-dev
  nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark1debian libbenchmark-dev
  libpugixml1v5 libpugixml-dev libsimdjson14 libsimdjson-dev libsqlite3-0 libsqlite3-dev zlib1g-dev pkgconf pkgconf-bin libpkgconf3
)

log() { echo "gpu-check: $*" >&2; }
die() { log "error: $*"; exit 3; }

cmd_fetch() {
  local debs=${1:-$repo/build-gpu-debs}
  mkdir -p "$debs"
  (cd "$debs" && apt-get download "${packages[@]}")
  log "$(ls "$debs"/*.deb | wc -l) packages, $(du -sh "$debs" | cut -f1), in $debs"
}

# dpkg -x where dpkg exists, else the deb's data archive through ar and tar.
unpack() {
  local deb=$1 prefix=$2 member
  if command -v dpkg-deb >/dev/null; then dpkg-deb -x "$deb" "$prefix"; return; fi
  member=$(ar t "$deb" | grep '^data\.tar')
  case $member in
    *.xz) ar p "$deb" "$member" | tar -xJ -C "$prefix" ;;
    *.zst) ar p "$deb" "$member" | zstd -dc | tar -x -C "$prefix" ;;
    *.gz) ar p "$deb" "$member" | tar -xz -C "$prefix" ;;
    *) ar p "$deb" "$member" | tar -x -C "$prefix" ;;
  esac
}

# Makes the unpacked Open MPI, PMIx, hwloc and pkg-config files usable from the prefix P.
setup_prefix() {
  local debs=$1 P=$2 lib
  ls "$debs"/*.deb >/dev/null 2>&1 || die "no .deb files in $debs (run 'ci/gpu-check.sh fetch' on a Debian 12 machine first)"
  rm -rf "$P" && mkdir -p "$P"
  for deb in "$debs"/*.deb; do unpack "$deb" "$P"; done
  lib=$P/usr/lib/x86_64-linux-gnu
  # pkg-config files name /usr; point them at the prefix. (Debian's multiarch headers, such as
  # hwloc's autogen/config.h, sit in include/x86_64-linux-gnu: the build adds it with -isystem.)
  find "$P" -name '*.pc' -exec sed -i "s|^prefix=/usr|prefix=$P/usr|" {} +
  export PATH=$P/usr/bin:$PATH
  # Links that the packages' maintainer scripts would make (update-alternatives), made by hand.
  ln -sf libpsm_infinipath.so.1.16 "$P/usr/lib/libpsm1/libpsm_infinipath.so.1"
  export LD_LIBRARY_PATH=$lib:$lib/openmpi/lib:$lib/pmix2/lib:$P/lib/x86_64-linux-gnu:$P/usr/lib/libpsm1${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export PKG_CONFIG_PATH=$lib/pkgconfig:$P/usr/share/pkgconfig
  # Open MPI and PMIx find their components and help files through these (relocated install).
  export OPAL_PREFIX=$P/usr OPAL_EXEC_PREFIX=$P/usr OPAL_BINDIR=$P/usr/bin OPAL_LIBDIR=$lib/openmpi/lib
  export OPAL_INCLUDEDIR=$lib/openmpi/include OPAL_DATAROOTDIR=$P/usr/share OPAL_DATADIR=$P/usr/share
  export OPAL_PKGDATADIR=$P/usr/share/openmpi OPAL_PKGLIBDIR=$lib/openmpi/lib/openmpi3 OPAL_SYSCONFDIR=$P/etc/openmpi
  export PMIX_INSTALL_PREFIX=$lib/pmix2
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
}

# Sets NCCL_INC and NCCL_LIB: the CUDA toolkit's NCCL, else the Python wheel (nvidia-nccl-cu13/12).
find_nccl() {
  local cuda=$1 d
  if [[ -f $cuda/include/nccl.h ]] && ls "$cuda"/lib64/libnccl.so* >/dev/null 2>&1; then
    NCCL_INC=$cuda/include NCCL_LIB=$(ls "$cuda"/lib64/libnccl.so* | head -1)
    return
  fi
  d=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null) || true
  [[ -n $d && -f $d/include/nccl.h ]] || die "NCCL not found in $cuda nor in Python's nvidia.nccl"
  NCCL_INC=$d/include NCCL_LIB=$(ls "$d"/lib/libnccl.so* | head -1)
  export LD_LIBRARY_PATH=$d/lib:$LD_LIBRARY_PATH
}

# Unpacks the packages into prefix P, finds CUDA and NCCL, records nvidia-smi in OUT and builds
# gpunet-bench into BUILD (its log in OUT/build.log).
prepare_and_build() {  # prepare_and_build DEBS P BUILD OUT
  local debs=$1 P=$2 build=$3 out=$4 cuda
  log "unpacking $(ls "$debs"/*.deb 2>/dev/null | wc -l) packages into $P"
  setup_prefix "$debs" "$P"
  cuda=${CUDA_HOME:-/usr/local/cuda}
  [[ -x $cuda/bin/nvcc ]] || cuda=$(dirname "$(dirname "$(command -v nvcc)")") || die "no CUDA toolkit"
  find_nccl "$cuda"
  { nvidia-smi; nvidia-smi topo -m; nvidia-smi --query-gpu=index,name,pci.bus_id,pcie.link.gen.max,pcie.link.width.max,pcie.link.gen.current,pcie.link.width.current --format=csv; } \
    >"$out/nvidia-smi.txt" 2>&1 || log "nvidia-smi failed (see nvidia-smi.txt)"

  log "building with CUDA at $cuda, NCCL $NCCL_LIB"
  local lib=$P/usr/lib/x86_64-linux-gnu
  if ! { cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGPUNET_WITH_CUDA=ON -DGPUNET_WITH_IBVERBS=OFF \
           -DCUDAToolkit_ROOT="$cuda" -DNCCL_INCLUDE_DIR="$NCCL_INC" -DNCCL_LIBRARY="$NCCL_LIB" \
           -DCMAKE_PREFIX_PATH="$P/usr" -DPKG_CONFIG_EXECUTABLE="$P/usr/bin/pkgconf" \
           -DCMAKE_C_FLAGS="-isystem $P/usr/include/x86_64-linux-gnu" -DCMAKE_CXX_FLAGS="-isystem $P/usr/include/x86_64-linux-gnu" \
           -DMPI_C_COMPILER="$P/usr/bin/mpicc.openmpi" -DMPI_C_HEADER_DIR="$lib/openmpi/include" -DMPI_C_LIB_NAMES=mpi \
           -DMPI_mpi_LIBRARY="$lib/openmpi/lib/libmpi.so" -DNUMA_LIBRARY="$lib/libnuma.so" -DNUMA_INCLUDE_DIR="$P/usr/include" &&
         cmake --build "$build" -j"$(nproc)" --target gpunet-bench; } >"$out/build.log" 2>&1; then
    tail -40 "$out/build.log" >&2
    die "build failed (build.log)"
  fi
}

cmd_run() {
  local out=${1:-$repo/build-gpu/out} debs=${2:-$repo/build-gpu-debs}
  local P=/tmp/gpunet-prefix build=$repo/build-gpu work suites
  mkdir -p "$out"
  work=$(mktemp -d)
  prepare_and_build "$debs" "$P" "$build" "$out"

  # The suites this build knows; topology discovery runs as the topo suite when it is built in.
  suites=nccl,pcie,node
  "$build/gpunet-bench" --help | sed -n 's/.*suites to run, in order: //p' | tr ',' '\n' | grep -qx topo && suites=topo,$suites
  local args=(--suites "$suites" --nccl-collectives allreduce,allgather,reduce_scatter,broadcast,reduce,alltoall,sendrecv
              -b 8K -e 256M -f 4 -n 5 --budget 0.05 -c 1 --pcie-size 512M --nccl-topo-dump --timeout 120)
  local rc=0
  run_bench "$P" "$build" "$work/r" "$out/run.log" "${args[@]}" || rc=$?
  [[ -f $work/r/report.json ]] || { tail -40 "$out/run.log" >&2; die "the run wrote no report (exit $rc; run.log)"; }
  cp "$work/r/report.json" "$out/"
  lstopo-no-graphics --of xml "$work/r/topology.xml" 2>/dev/null || log "lstopo failed"
  lstopo-no-graphics >"$work/r/lstopo.txt" 2>&1 || true

  local verdict=0
  python3 "$repo/ci/gpu_compare.py" "$out/report.json" "$out/nvidia-smi.txt" "$rc" | tee "$out/summary.txt" || verdict=$?
  run_yardstick "$out/report.json" | tee -a "$out/summary.txt" || true
  run_train "$P" "$build" "$work" "$out" | tee -a "$out/summary.txt" || { (( verdict != 0 )) || verdict=1; }
  run_graphs "$P" "$build" "$work" "$out" | tee -a "$out/summary.txt" || { (( verdict != 0 )) || verdict=1; }
  # Everything else in one archive: the device tool brings back at most eight files.
  tar -czf "$out/logs.tar.gz" -C "$work" . 2>/dev/null || true
  rm -rf "$work"
  return "$verdict"
}

# One gpunet-bench run on this GPU with output directory DIR and its console in LOG: under orterun
# (Open MPI's mpirun; the deb's mpirun link is made by update-alternatives, not unpacked), and when
# that leaves no report in DIR, once more as a singleton without mpirun. Returns the last run's status.
run_bench() {  # run_bench PREFIX BUILD DIR LOG ARGS...
  local P=$1 build=$2 dir=$3 log_file=$4 rc=0
  shift 4
  log "running: gpunet-bench $* -o $dir"
  "$P/usr/bin/orterun" -np 1 --bind-to none "$build/gpunet-bench" "$@" -o "$dir" >"$log_file" 2>&1 || rc=$?
  [[ -f $dir/report.json ]] && return "$rc"
  log "mpirun run gave no report in $dir (exit $rc); trying a singleton run without mpirun"
  rc=0
  "$build/gpunet-bench" "$@" -o "$dir" >>"$log_file" 2>&1 || rc=$?
  return "$rc"
}

# The train suite's step emulation on one GPU: bf16 GEMMs through cuBLAS overlapped with the bucketed
# NCCL all-reduce (256 MiB of fp32 gradients in 25 MiB buckets, 0.2 s of compute), with NVML's
# utilisation timeline. Passes when the GPU step ran, verified, lies between the no-overlap and
# perfect-overlap bounds, and NVML gave readings. Writes train-report.json.
run_train() {  # run_train PREFIX BUILD WORK OUT
  local P=$1 build=$2 work=$3 out=$4 rc=0
  local args=(--suites train --step-compute-s 0.2 --model-params 67108864 --grad-bytes 4 --bucket-size 25M -n 5
              --timeout 120)
  run_bench "$P" "$build" "$work/t" "$work/train-run.log" "${args[@]}" || rc=$?
  [[ -f $work/t/report.json ]] || { echo "train: FAIL: no report (exit $rc; train-run.log)"; return 1; }
  cp "$work/t/report.json" "$out/train-report.json"
  python3 - "$out/train-report.json" <<'PY'
import json, sys
recs = [r for r in json.load(open(sys.argv[1]))["results"] if r.get("suite") == "train"]
step = next((r for r in recs if r.get("name") == "step" and r.get("variant") == "gpu overlapped"), None)
if step is None or step.get("status") != "passed":
    print(f"train: FAIL: GPU step {'missing' if step is None else step.get('status')}: {(step or {}).get('reason', '')}")
    sys.exit(1)
e, p = step["extra"], step["extra"]["predicted"]
util = e.get("utilisation_timeline", [])
ok = e["within_bounds"] and step.get("check") == "ok" and len(util) > 0
print(f"train: {'PASS' if ok else 'FAIL'}: GPU step {step['time_us']['mean'] / 1e3:.1f} ms "
      f"(perfect overlap {p['perfect_overlap_s'] * 1e3:.1f}, model {p['model_s'] * 1e3:.1f}, no overlap "
      f"{p['no_overlap_s'] * 1e3:.1f} ms; {e['gpu']['gemms_per_step']} GEMMs of {e['gpu']['gemm_s'] * 1e3:.2f} ms), "
      f"check {step.get('check')}, {len(util)} NVML readings"
      + (f", utilisation {min(u['util_pct'] for u in util):.0f}-{max(u['util_pct'] for u in util):.0f} %" if util else
         f" ({e.get('utilisation_note', '')})"))
sys.exit(0 if ok else 1)
PY
}

# An independent yardstick for the pcie suite: the same pinned 512 MiB copies through PyTorch (its own
# allocator and copy path), timed with CUDA events, median of 10 after 3 warm-ups, printed beside the
# pcie suite's figures. Informative only (no threshold); skipped where python3 has no torch with CUDA.
run_yardstick() {  # run_yardstick REPORT
  python3 - "$1" <<'PY' 2>&1
import json, statistics, sys
try:
    import torch
    assert torch.cuda.is_available()
except Exception as e:
    print(f"yardstick: skipped: no PyTorch with CUDA ({e})"); sys.exit(0)
n = 512 << 20
host = torch.empty(n, dtype=torch.uint8).pin_memory()
dev = torch.empty(n, dtype=torch.uint8, device="cuda")
def rate(copy):
    times = []
    for i in range(13):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); copy(); b.record(); b.synchronize()
        if i >= 3: times.append(a.elapsed_time(b) / 1e3)
    return n / statistics.median(times) / 1e9
torch_h2d, torch_d2h = rate(lambda: dev.copy_(host, non_blocking=True)), rate(lambda: host.copy_(dev, non_blocking=True))
recs = [r for r in json.load(open(sys.argv[1]))["results"] if r.get("suite") == "pcie" and r.get("status") == "passed"]
def best(name):
    return max((r["algbw_GBps"] for r in recs if r["name"] == name and " pinned " in f" {r.get('variant', '')} "
                and not r.get("variant", "").startswith("all")), default=float("nan"))
print(f"yardstick: PyTorch pinned 512 MiB: H2D {torch_h2d:.2f} GB/s, D2H {torch_d2h:.2f} GB/s; "
      f"pcie suite's best pinned: H2D {best('h2d'):.2f} ({best('h2d') / torch_h2d:.3f} x), "
      f"D2H {best('d2h'):.2f} ({best('d2h') / torch_d2h:.3f} x) GB/s")
PY
  # The same for the nccl suite's one-GPU alltoall and allgather (out of place): torch.distributed's NCCL process
  # group (a blocking communicator) on one rank, CUDA events around 200 calls after 20 warm-ups.
  timeout 120 python3 - "$1" <<'PY' 2>&1 || echo "yardstick: torch.distributed NCCL did not finish (exit $?)"
import json, os, sys
try:
    import torch, torch.distributed as dist
    assert torch.cuda.is_available()
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:29517", rank=0, world_size=1,
                            device_id=torch.device("cuda:0"))
except Exception as e:
    print(f"yardstick: skipped: no torch.distributed NCCL ({e})"); sys.exit(0)
def per_call_us(op, n=200):
    for _ in range(20): op()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(n): op()
    b.record(); b.synchronize()
    return a.elapsed_time(b) * 1e3 / n
recs = [r for r in json.load(open(sys.argv[1]))["results"] if r.get("suite") == "nccl" and r.get("status") == "passed"]
def ours(name, size):
    return next((r["time_us"]["mean"] for r in recs if r["name"] == name and r["bytes"] == size
                 and r.get("variant", "").startswith("out-of-place")), float("nan"))
rows = []
for size in (8192, 134217728):
    x, y = torch.ones(size // 4, device="cuda"), torch.empty(size // 4, device="cuda")
    rows.append(f"alltoall {size} B torch {per_call_us(lambda: dist.all_to_all_single(y, x)):.1f} us, ours {ours('alltoall', size):.1f} us")
    rows.append(f"allgather {size} B torch {per_call_us(lambda: dist.all_gather_into_tensor(y, x)):.1f} us, ours {ours('allgather', size):.1f} us")
print("yardstick: torch.distributed NCCL, one GPU: " + "; ".join(rows))
dist.destroy_process_group()
PY
}

# The nccl suite's all-reduce at small sizes launched directly and with -G 4 (each batch captured as a
# CUDA graph, launched 4 times). Passes when both runs verified every size; prints the mean times side
# by side (graphs remove the per-launch CPU cost, so they should not be slower).
run_graphs() {  # run_graphs PREFIX BUILD WORK OUT
  local P=$1 build=$2 work=$3 out=$4 g
  for g in 0 4; do
    run_bench "$P" "$build" "$work/g$g" "$work/graphs-$g.log" --suites nccl -b 8 -e 1M -f 32 -n 20 -c 1 -G "$g" --timeout 60 || true
  done
  python3 - "$work/g0/results.jsonl" "$work/g4/results.jsonl" <<'PY'
import json, os, sys
# The all-reduce records only (the transport and log records carry no size), by size and placement.
def load(p):
    recs = map(json.loads, open(p)) if os.path.exists(p) else []
    return {(r["bytes"], r.get("variant", "")): r for r in recs if r.get("suite") == "nccl" and r.get("name") == "allreduce"}
direct, graphs = load(sys.argv[1]), load(sys.argv[2])
ok = bool(direct) and direct.keys() == graphs.keys() and all(
    r["status"] == "passed" and r.get("check") == "ok" for r in [*direct.values(), *graphs.values()])
def mean(r): return r.get("time_us", {}).get("mean", float("nan"))
rows = ", ".join(f"{b} B {v} {mean(direct[(b, v)]):.2f} / {mean(graphs[(b, v)]):.2f} us"
                 for b, v in sorted(direct) if (b, v) in graphs)
print(f"graphs: {'PASS' if ok else 'FAIL'}: direct / -G 4: {rows or 'no figures'}")
sys.exit(0 if ok else 1)
PY
}

# Only the nccl suite, after a change to it: every collective from 8 B to 128 MiB, verified, its
# console tables printed and its report in OUT. A minute or two of device time instead of the whole check.
cmd_nccl() {
  local out=${1:-$repo/build-gpu/out} debs=${2:-$repo/build-gpu-debs}
  local P=/tmp/gpunet-prefix build=$repo/build-gpu work rc=0
  mkdir -p "$out"
  work=$(mktemp -d)
  prepare_and_build "$debs" "$P" "$build" "$out"
  run_bench "$P" "$build" "$work/n" "$out/run.log" --suites nccl -b 8 -e 128M -f 16 -n 20 -c 1 --timeout 60 || rc=$?
  grep -E '^#|^ +[0-9]|gpunet-bench' "$out/run.log" | grep -v '^# progress' | head -100  # the tables, not PMIx's notices
  [[ -f $work/n/report.json ]] && cp "$work/n/report.json" "$out/"
  rm -rf "$work"
  return "$rc"
}

case ${1:-run} in
  fetch) shift; cmd_fetch "$@" ;;
  run) shift || true; cmd_run "$@" ;;
  nccl) shift; cmd_nccl "$@" ;;
  -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) echo "usage: ci/gpu-check.sh fetch [DEBS] | run [OUT] [DEBS] | nccl [OUT] [DEBS]" >&2; exit 2 ;;
esac
