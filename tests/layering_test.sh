#!/usr/bin/env bash
# The layering, checked on the #include lines (bench/README.md). From the top down:
#   bench/main.cpp > bench/suites/ > bench/engines/ > bench/core/ > bench/net/ ; report/, topology/, common/
# and an include may only point down:
#   report/       includes nothing from bench/ or topology/, and its folders only earlier ones;
#   topology/     includes nothing from bench/;
#   bench/core/   includes nothing from bench/engines/ or bench/suites/ (main.cpp hands the suite list in);
#   bench/engines/ includes nothing from bench/suites/;
#   bench/net/    includes only bench/net/ and common/;
#   common/       includes only common/;
#   a suite's files include no other suite's files.
# Usage: layering_test.sh SOURCE_DIR. Exit 0 when clean, 1 with one line per violation.
set -euo pipefail
src=${1:?usage: layering_test.sh SOURCE_DIR}
cd "$src"

# Headers a suite may include from another suite's files (none: what suites share lives in bench/engines).
allowed() {
  case "$1 $2" in
  esac
  return 1
}

fail=0
violation() {
  echo "layering: $1"
  fail=1
}

includes() { grep -hoE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' "$@" 2>/dev/null | sed -E 's/.*"([^"]+)"/\1/'; }

sources() { find "$@" \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) 2>/dev/null | sort; }

# forbid DIR REASON PATTERN...: no file under DIR includes a path that matches a PATTERN.
forbid() {
  local dir=$1 reason=$2
  shift 2
  for f in $(sources "$dir"); do
    for inc in $(includes "$f"); do
      for pattern in "$@"; do
        # shellcheck disable=SC2254
        case "$inc" in $pattern) violation "$f includes $inc ($reason)" ;; esac
      done
    done
  done
}

# only DIR REASON PATTERN...: every file under DIR includes only paths that match a PATTERN.
only() {
  local dir=$1 reason=$2
  shift 2
  for f in $(sources "$dir"); do
    for inc in $(includes "$f"); do
      local ok=0
      for pattern in "$@"; do
        # shellcheck disable=SC2254
        case "$inc" in $pattern) ok=1 ;; esac
      done
      [[ $ok -eq 1 ]] || violation "$f includes $inc ($reason)"
    done
  done
}

forbid report "report/ knows the result model only" 'bench/*' 'topology/*'
# report/'s folders follow the flow, and each includes only the folders before it:
#   text < model < analysis < judge, training < analysed < document < render < history
only report/text "report/text/ is report's ground floor" 'report/text/*' 'common/*'
only report/model "the model knows only text" 'report/model/*' 'report/text/*' 'common/*'
forbid report/analysis "analysis comes before judging and rendering" \
  'report/judge/*' 'report/training/*' 'report/analysed/*' 'report/document/*' 'report/render/*' 'report/history/*'
forbid report/judge "judging comes before the document and its renderers" \
  'report/training/*' 'report/analysed/*' 'report/document/*' 'report/render/*' 'report/history/*'
forbid report/training "the training model comes before the document and its renderers" \
  'report/judge/*' 'report/analysed/*' 'report/document/*' 'report/render/*' 'report/history/*'
forbid report/analysed "the one analysis comes before the document and its renderers" \
  'report/document/*' 'report/render/*' 'report/history/*'
forbid report/document "the document is laid out by the renderers, not the other way" \
  'report/render/*' 'report/history/*'
forbid report/render "the history is built on the renderers" 'report/history/*'
forbid topology "topology/ knows hwloc and sysfs only" 'bench/*'
forbid bench/core "the core is below the engines and the suites; bench/main.cpp hands it the suite list" \
  'bench/engines/*' 'bench/suites/*'
forbid bench/engines "a shared engine is below the suites that drive it" 'bench/suites/*'
only bench/net "the sockets layer is below the core and the tcp suite" 'bench/net/*' 'common/*'
only common "common/ is the ground floor" 'common/*'

# Which suite owns a path: every folder bench/suites/<name>/ is a suite ("" for the rest).
declare -A owner
suites=()
for dir in bench/suites/*/; do
  name=$(basename "$dir")
  suites+=("$name")
  for f in $(sources "$dir"); do owner[$f]=$name; done
done

for f in "${!owner[@]}"; do
  me=${owner[$f]}
  for inc in $(includes "$f"); do
    other=${owner[$inc]:-}
    [[ -n "$other" && "$other" != "$me" ]] || continue
    allowed "$me" "$inc" || violation "$f (suite $me) includes $inc (suite $other)"
  done
done

# The suite list is the one place that names every suite: below the suites, nothing names a suite's
# entry point (<name>_suite, or run_<name>_suite), not even in a declaration.
entry=$(IFS='|'; echo "(${suites[*]})")
if grep -rnE "\b(run_)?${entry}_suite\b" bench/core bench/engines bench/net 2>/dev/null; then
  violation "a layer below the suites names a suite's entry point; it belongs to the suite's own header"
fi

# Outside its own folder nothing tells a record's suite by its name (suite == "tcp"): a suite states
# what the report needs (Suite::record_kind, Suite::spec_tests). The one exception is the reader of
# files written before records stated their kind, report/model/legacy_figure.cpp.
names=$(IFS='|'; echo "${suites[*]}")
while IFS= read -r hit; do
  [[ -n "$hit" ]] && violation "$hit (compares a suite's name outside bench/suites/; state it as the record's kind or the suite's spec_tests)"
done < <(grep -rnE "suite[[:space:]]*[!=]=[[:space:]]*\"(${names})\"" bench report topology common \
           --include='*.cpp' --include='*.hpp' --include='*.h' 2>/dev/null | grep -vE '^(bench/suites/|report/model/legacy_figure\.cpp:)' || true)

[[ $fail -eq 0 ]] && echo "layering: ok (${#owner[@]} files of ${#suites[@]} suites checked)"
exit $fail
