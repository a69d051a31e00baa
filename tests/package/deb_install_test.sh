#!/usr/bin/env bash
# The Debian package: cpack writes gpunet-bench_<version>_<arch>.deb from an existing build (no
# rebuild); its dependencies are computed (dpkg-shlibdeps) and include the runtime libraries; dpkg -x
# into an empty root gives the program, gpunet-run, the launch scripts, the schema and the docs, and
# the extracted gpunet-bench runs --version and --check there, and gpunet-run finds its own files.
# Usage: deb_install_test.sh PATH/TO/gpunet-bench BUILD_DIR
set -euo pipefail
source "$(dirname "$0")/../integration/lib.sh"
BIN=$1 BUILD=$2
command -v dpkg-shlibdeps > /dev/null || { echo "SKIP: dpkg-shlibdeps not installed (ci/setup.sh installs dpkg-dev)"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

version=$("$BIN" --version)  # gpunet-bench X.Y.Z (commit)
number=$(sed -E 's/^gpunet-bench ([^ ]+) .*/\1/' <<< "$version")
deb=$T/pkg/gpunet-bench_${number}_$(dpkg --print-architecture).deb
cpack -G DEB -B "$T/pkg" --config "$BUILD/CPackConfig.cmake" > "$T/cpack.log" 2>&1 || { cat "$T/cpack.log"; fail "cpack failed"; }
[[ -f $deb ]] || fail "no $(basename "$deb"); cpack wrote: $(ls "$T/pkg")"

# Dependencies: computed libraries (Open MPI, hwloc, libnuma) and the tools the scripts call.
depends=$(dpkg-deb -f "$deb" Depends)
for want in libopenmpi libhwloc libnuma libc6 openmpi-bin numactl; do
  grep -q "$want" <<< "$depends" || fail "Depends lacks $want: $depends"
done

dpkg -x "$deb" "$T/root"
R=$T/root/usr
for f in bin/gpunet-bench share/gpunet-bench/launch/gpunet-run share/gpunet-bench/launch/gpunet-bind \
         share/gpunet-bench/launch/fakecluster share/gpunet-bench/launch/slurm/gpunet.sbatch \
         share/gpunet-bench/launch/grafana/gpunet-bench.json share/gpunet-bench/schema/report.schema.json \
         share/doc/gpunet-bench/README.md share/doc/gpunet-bench/docs/options.md share/doc/gpunet-bench/spec-example.json; do
  [[ -f $R/$f ]] || fail "the package lacks /usr/$f"
done
[[ -x $R/share/gpunet-bench/launch/gpunet-run && -x $R/share/gpunet-bench/launch/gpunet-bind ]] || fail "launch scripts not executable"
[[ $(readlink "$R/bin/gpunet-run") == ../share/gpunet-bench/launch/gpunet-run ]] || fail "/usr/bin/gpunet-run: $(readlink "$R/bin/gpunet-run")"
[[ ! -e $R/share/gpunet-bench/launch/quickstart ]] || fail "quickstart (a checkout's script) is in the package"

# The extracted program, with no LD_LIBRARY_PATH: --version as built, --check with the packaged spec.
cd "$T"
got=$(env -u LD_LIBRARY_PATH "$R/bin/gpunet-bench" --version) || fail "--version: exit $?"
[[ $got == "$version" ]] || fail "--version: '$got', the build says '$version'"
env -u LD_LIBRARY_PATH "$R/bin/gpunet-bench" --check --spec "$R/share/doc/gpunet-bench/spec-example.json" -o "$T/out" \
  > "$T/check.txt" 2>&1 || { cat "$T/check.txt"; fail "--check failed"; }
# gpunet-run through /usr/bin: its gpunet-bind beside it, the packaged program by default (checked
# with --version).
echo localhost > "$T/hosts"
line=$("$R/bin/gpunet-run" -H "$T/hosts" -g 2 -n 2>&1) || fail "gpunet-run: $line"
[[ $line == *" $R/share/gpunet-bench/launch/gpunet-bind $R/bin/gpunet-bench" ]] || fail "gpunet-run: $line"
echo "ok: $(basename "$deb"), $(du -k "$deb" | cut -f1) KiB, Depends: $depends"
