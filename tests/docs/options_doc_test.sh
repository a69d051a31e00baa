#!/usr/bin/env bash
# docs/options.md shows every option as `gpunet-bench --help` prints it: the fenced block after the line
# "Every option, as `gpunet-bench --help` prints it:" must equal the binary's --help text.
#   options_doc_test.sh BIN            check (exit 1 with the diff when they differ)
#   options_doc_test.sh BIN --update   rewrite that block from BIN --help
set -euo pipefail
bin=$1
doc=$(cd "$(dirname "$0")/../.." && pwd)/docs/options.md
marker='Every option, as `gpunet-bench --help` prints it:'
help=$("$bin" --help)
grep -qF "$marker" "$doc" || { echo "FAIL: $doc has no line '$marker'"; exit 1; }
shown=$(awk -v m="$marker" 'found && /^```$/ { if (open) exit; open = 1; next } open { print } $0 == m { found = 1 }' "$doc")
if [[ ${2:-} == --update ]]; then
  { awk -v m="$marker" '{ print } $0 == m { exit }' "$doc"; printf '\n```\n%s\n```\n' "$help"; } >"$doc.tmp"
  mv "$doc.tmp" "$doc"
  echo "docs/options.md: the --help block rewritten"
  exit 0
fi
if [[ "$shown" != "$help" ]]; then
  diff <(printf '%s\n' "$shown") <(printf '%s\n' "$help") || true
  echo "FAIL: docs/options.md differs from '$bin --help' (rewrite it: tests/docs/options_doc_test.sh $bin --update)"
  exit 1
fi
echo "docs/options.md matches --help ($(printf '%s\n' "$help" | wc -l) lines)"
