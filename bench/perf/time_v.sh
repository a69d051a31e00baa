# What the rendering benchmarks read from `/usr/bin/time -v` output (sourced): wall seconds and peak
# memory, after checking the tool and /usr/bin/time exist and making a work folder removed on exit.
# usage: source time_v.sh TOOL    (sets $work)
[[ -x $1 ]] || { echo "build $1 first"; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is missing (Debian package time)"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

time_wall_s() {  # FILE: the elapsed wall-clock seconds
  awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$1" | awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }'
}
time_rss_kb() { awk -F': ' '/Maximum resident set size/ {print $2}' "$1"; }  # FILE: peak RSS in KiB
