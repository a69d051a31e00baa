#!/usr/bin/env bash
# Side by side on two RDMA hosts: perftest's ib_write_bw and the rdma suite, same device, port, size
# and GID index, one after the other. Prints both figures in Gb/s and their ratio.
#   compare_perftest.sh HOST_A HOST_B DEV[:PORT] [SIZE_BYTES=1048576] [GID_INDEX]
# Needs passwordless ssh to both hosts, perftest and gpunet-bench (same path, $GPUNET_BENCH or on
# PATH) on both, and mpirun here. Not yet run on RDMA hardware (none was available when written).
set -euo pipefail
a=$1 b=$2 devport=$3 size=${4:-1048576} gid=${5:-}
dev=${devport%%:*} port=1
[[ $devport == *:* ]] && port=${devport##*:}
bench=${GPUNET_BENCH:-gpunet-bench}
pt_args=(-d "$dev" -i "$port" -s "$size" -n 5000 --report_gbits -F)
gb_args=(--rdma-dev "$dev:$port")
if [[ -n $gid ]]; then pt_args+=(-x "$gid"); gb_args+=(--gid-index "$gid"); fi

ssh "$b" ib_write_bw "${pt_args[@]}" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 2
pt=$(ssh "$a" ib_write_bw "${pt_args[@]}" "$b" | awk -v s="$size" '$1 == s {print $4}')  # BW average
wait $server || true

out=$(mktemp -d)
mpirun -np 2 --host "$a,$b" "$bench" --suites rdma --rdma-mem host -b "$size" -e "$size" --rdma-size "$size" \
  "${gb_args[@]}" -o "$out" -q >/dev/null
gb=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["name"] == "write_bw" and r["status"] == "passed": print(r["extra"]["bw_Gbps"])' "$out/results.jsonl")
rm -rf "$out"
echo "size $size B: ib_write_bw ${pt:-?} Gb/s, gpunet-bench rdma ${gb:-?} Gb/s"
[[ -n $pt && -n $gb ]] && python3 -c "import sys; print(f'ratio {float(sys.argv[2]) / float(sys.argv[1]):.3f}')" "$pt" "$gb"
