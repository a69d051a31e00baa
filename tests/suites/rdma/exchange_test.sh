#!/usr/bin/env bash
# QP information exchange and the pair schedule under the real mpirun. Usage: exchange_test.sh BINARY NP
source "$(dirname "$0")/../../integration/lib.sh"
bin=$1 np=$2
out=$("${MPIRUN[@]}" -np "$np" "$bin" 2>&1) || { echo "$out"; fail "mpirun -np $np exited non-zero"; }
echo "$out"
rounds=$((np % 2 == 0 ? np - 1 : np))
grep -qx "ok: $np ranks, $rounds rounds, $((np * (np - 1) / 2 * 2 * 4)) exchanges" <<<"$out" || fail "unexpected summary"
