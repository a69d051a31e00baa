#!/usr/bin/env bash
# Opens report.html in headless Chromium: takes a screenshot (kept in OUT_DIR for a person to look
# at), checks the page logs nothing to the console (no script error, no blocked resource), that the
# SVG charts are in the DOM, that the verdict banner is at the top, and that hostile strings stayed
# text. A known-bad page first proves that the console check does catch errors.
# Chromium runs in a network namespace of its own (loopback only) when unshare is allowed.
#
# usage: html_chromium.sh RENDER_TOOL SOURCE_DIR OUT_DIR      (exit 77: Chromium is not installed)
set -euo pipefail

tool=$1 src=$2 out=$3
browser=$(command -v chromium || command -v chromium-browser || true)
[[ -n $browser ]] || { echo "SKIP: chromium is not installed (ci/setup.sh --tests installs it)"; exit 77; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

isolate=()
if unshare --net true 2>/dev/null; then isolate=(unshare --net); fi

chrome() {  # chrome PAGE EXTRA_ARGS... ; stdout/stderr as the caller redirects
  local page=$1; shift
  timeout 120 "${isolate[@]}" "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-extensions \
    --user-data-dir="$(mktemp -d -p "$work")" "$@" "file://$page"
}

fail() { echo "FAIL: $*"; exit 1; }

# Console messages of the page: Chromium logs them as INFO:CONSOLE lines with --enable-logging.
dump() {  # dump PAGE NAME -> $work/NAME.dom, $work/NAME.log
  chrome "$1" --enable-logging=stderr --v=0 --dump-dom >"$work/$2.dom" 2>"$work/$2.log" ||
    fail "chromium exited $? on $1"
}
console_lines() { grep -E 'CONSOLE|Uncaught' "$work/$1.log" || true; }

# 0. The detector works: a page with a script error and a CSP-blocked script must be caught.
cat >"$work/bad.html" <<'EOF'
<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="script-src 'none'"></head>
<body><p>bad</p><script>notDefined();</script></body></html>
EOF
dump "$work/bad.html" bad
[[ -n $(console_lines bad) ]] || fail "the console check did not see the error of a known-bad page"

# 1. The fixture report.
"$tool" "$src/tests/data/report/fixture.json" -o "$work/fixture" || fail "rendering the fixture failed"
page="$work/fixture/report.html"
sed 's#http://www.w3.org/2000/svg##g' "$page" | grep -qiE 'https?://|//[a-z0-9.-]+\.[a-z]{2,}/' &&
  fail "report.html refers to a network address"
dump "$page" fixture
[[ -z $(console_lines fixture) ]] || fail "console messages: $(console_lines fixture)"
dom="$work/fixture.dom"
svgs=$(grep -o '<svg' "$dom" | wc -l)
((svgs >= 5)) || fail "only $svgs SVG charts in the DOM"
# (The pair heatmap and the timelines need matrix flows with samples, which this version-1 fixture
# lacks: tests/report/browser checks them on a fake-cluster run.)
for title in 'busbw vs message size' 'vs node count' 'topology of node-a'; do
  grep -q "$title" "$dom" || fail "no chart '$title' in the DOM"
done
first=$(grep -o '<body><[a-z]* class="[^"]*"' "$dom" | head -1)
[[ $first == '<body><header class="verdict FAIL"' ]] || fail "the verdict is not the first thing in the page: $first"

chrome "$page" --screenshot="$out/report.png" --window-size=1280,2000 >"$work/shot.log" 2>&1 ||
  fail "chromium could not take a screenshot"
python3 - "$out/report.png" <<'EOF' || fail "the screenshot is not what the page should look like"
# Decodes the top rows of the PNG (stdlib only) and checks size and the colour of the FAIL banner.
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR": ihdr = struct.unpack(">IIBBBBB", body)
    if kind == b"IDAT": idat += body
    pos += 12 + n
w, h, depth, ctype = ihdr[:4]
assert (w, h) == (1280, 2000), f"screenshot is {w}x{h}"
assert depth == 8 and ctype in (2, 6), f"unexpected PNG format {depth}/{ctype}"
bpp = 3 if ctype == 2 else 4
raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
for y in range(30):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a, b, c = (line[i - bpp] if i >= bpp else 0), prev[i], (prev[i - bpp] if i >= bpp else 0)
        p = a + b - c
        pr = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else (b if abs(p - b) <= abs(p - c) else c)
        line[i] = (line[i] + [0, a, b, (a + b) // 2, pr][f]) & 0xFF
    rows.append(line); prev = line
r, g, b = rows[20][1200 * bpp:1200 * bpp + 3]
assert abs(r - 0xb0) < 12 and g < 24 and abs(b - 0x20) < 16, f"banner pixel is {r},{g},{b}, not the FAIL red"
EOF

# 2. Hostile strings stay text: no element the renderer does not write.
"$tool" "$src/tests/data/report/hostile.json" -o "$work/hostile" || fail "rendering the hostile report failed"
dump "$work/hostile/report.html" hostile
[[ -z $(console_lines hostile) ]] || fail "console messages on the hostile page: $(console_lines hostile)"
grep -qiE '<(script|img|iframe)' "$work/hostile.dom" && fail "a hostile string became an element"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$work/hostile.dom" || fail "the hostile host name is not shown as text"
echo "ok: $svgs SVG charts, no console messages, verdict at the top, hostile strings inert; screenshot $out/report.png"
