#!/usr/bin/env python3
"""report.html in headless Chromium, measured in the page itself.

A copy of the page gets a small probe script (the report itself carries none, and its
Content-Security-Policy forbids scripts, so the copy's policy allows inline ones). Chromium loads the
copy at 1280 px wide and runs the probe; the probe writes what it measured into the DOM and
--dump-dom hands it back: the page's scroll width, every chart and every text of a chart that
sticks out of its box (a cut legend), tables wider than the page, the section ids, the pair heatmap's
cells (pair, class, value, the number shown) and the timeline panels. The unmodified page is then
screenshotted at 1280 px wide, as tall as the page.

usage: browser_check.py PAGE_DIR NAME SHOT_DIR [--matrix SLOW_HOST] [--topology required|skip]
  PAGE_DIR  holds report.html (and report.json for --matrix)
  --matrix  the report is from a TCP matrix run in which SLOW_HOST's link is slow: exactly the cells
            of its row and column must be bad, all others good; each cell shows its matrix flow's
            goodput from report.json; a timeline panel exists per matrix flow
Exit 0 when every check passes, 1 with one line per failed check, 77 when Chromium is missing.
"""
import argparse
import html
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

WIDTH = 1280

PROBE = r"""<script>
(function () {
  const vw = window.innerWidth;
  const title = (svg) => { const t = svg.querySelector('title'); return t ? t.textContent : ''; };
  const out = {innerWidth: vw, scrollWidth: document.documentElement.scrollWidth,
               scrollHeight: document.documentElement.scrollHeight, cut: [], wide_tables: []};
  for (const svg of document.querySelectorAll('svg')) {
    const b = svg.getBoundingClientRect();
    if (b.left < -0.5 || b.right > vw + 0.5) out.cut.push('chart outside the page: ' + title(svg));
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1)
        out.cut.push('text "' + t.textContent + '" outside its chart "' + title(svg) + '"');
    }
  }
  for (const t of document.querySelectorAll('table')) {
    const r = t.getBoundingClientRect();
    if (t.scrollWidth > t.clientWidth + 1 || r.right > vw + 0.5)
      out.wide_tables.push((t.previousElementSibling ? t.previousElementSibling.textContent.slice(0, 60) : '?') +
                           ' (' + t.scrollWidth + ' px)');
  }
  out.ids = Array.from(document.querySelectorAll('[id]'), (e) => e.id);
  out.pairs = Array.from(document.querySelectorAll('svg g.pair'), (g) => {
    const value = g.querySelector('text.cell:not(.eff)'), eff = g.querySelector('text.eff');
    return {src: g.dataset.src, dst: g.dataset.dst, cls: g.getAttribute('class'), value: g.dataset.value,
            text: value ? value.textContent : null, eff: eff ? eff.textContent : null,
            fill: getComputedStyle(g.querySelector('rect')).fill};
  });
  out.timelines = Array.from(document.querySelectorAll('svg.timeline'), (s) =>
    ({src: s.dataset.src, dst: s.dataset.dst, test: s.dataset.test, intervals: Number(s.dataset.intervals)}));
  const pre = document.createElement('pre');
  pre.id = 'probe-result';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"""


def value_text(v):
    """The report's number in a heatmap cell: three significant digits, never an exponent."""
    if v == 0:
        return "0"
    return f"{v:.{max(0, 2 - math.floor(math.log10(abs(v))))}f}"


class Browser:
    def __init__(self, work):
        self.exe = shutil.which("chromium") or shutil.which("chromium-browser")
        self.work = work
        # Loopback only, where a network namespace can be made: the page must need no network.
        self.isolate = ["unshare", "--net"] if subprocess.run(["unshare", "--net", "true"],
                                                              capture_output=True).returncode == 0 else []

    def run(self, page, *args):
        profile = tempfile.mkdtemp(dir=self.work)
        cmd = self.isolate + [self.exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                              "--disable-background-networking", "--disable-component-update", "--disable-sync",
                              "--disable-extensions", "--hide-scrollbars", f"--user-data-dir={profile}", *args,
                              "file://" + page]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def probe(browser, page, work):
    text = open(page, encoding="utf-8").read()
    text = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>',
                  '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
                  'style-src \'unsafe-inline\'; script-src \'unsafe-inline\'">', text, count=1)
    assert "</body>" in text, "report.html has no </body>"
    copy = os.path.join(work, "probed.html")
    open(copy, "w", encoding="utf-8").write(text.replace("</body>", PROBE + "</body>", 1))
    r = browser.run(copy, f"--window-size={WIDTH},1000", "--dump-dom")
    m = re.search(r'<pre id="probe-result">(.*?)</pre>', r.stdout, re.S)
    if not m:
        raise SystemExit(f"FAIL: the probe wrote nothing (chromium exit {r.returncode}): {r.stderr[-400:]}")
    return json.loads(html.unescape(m.group(1)))


def matrix_checks(page_dir, got, slow):
    problems = []
    rep = json.load(open(os.path.join(page_dir, "report.json")))
    flows = {}
    for r in rep["results"]:
        f = r.get("figure") or {}
        if f.get("metric") == "tcp.goodput" and f.get("parameters", {}).get("test") == "matrix" and r["status"] == "passed":
            flows[(f["subject"]["host"], f["subject"]["dst_host"])] = f
    if not flows:
        return ["report.json has no passed matrix flow"]
    if not any(slow in pair for pair in flows):
        problems.append(f"no matrix flow involves the slow host {slow}")
    cells = {(p["src"], p["dst"]): p for p in got["pairs"]}
    if set(cells) != set(flows):
        problems.append(f"heatmap cells {sorted(cells)} are not the matrix flows {sorted(flows)}")
    for pair, f in sorted(flows.items()):
        c = cells.get(pair)
        if not c:
            continue
        want = "pair bad" if slow in pair else "pair good"
        if c["cls"] != want:
            problems.append(f"{pair[0]} -> {pair[1]} is '{c['cls']}', expected '{want}'")
        if c["value"] is None or abs(float(c["value"]) - f["value"]) > 1e-7 * max(1.0, abs(f["value"])):
            problems.append(f"{pair[0]} -> {pair[1]}: data-value {c['value']}, report.json {f['value']}")
        if c["text"] != value_text(f["value"]):
            problems.append(f"{pair[0]} -> {pair[1]} shows {c['text']!r}, report.json goodput {f['value']} "
                            f"({value_text(f['value'])})")
        eff = f.get("efficiency")
        if eff is not None and c["eff"] != f"{eff * 100:.0f}%":
            problems.append(f"{pair[0]} -> {pair[1]} shows efficiency {c['eff']!r}, report.json {eff}")
    good = {c["fill"] for c in got["pairs"] if c["cls"] == "pair good"}
    bad = {c["fill"] for c in got["pairs"] if c["cls"] == "pair bad"}
    if good & bad:
        problems.append(f"good and bad cells share a colour: {good & bad}")
    panels = {(t["src"], t["dst"]): t["intervals"] for t in got["timelines"] if t["test"] == "matrix"}
    for pair, f in flows.items():
        n = len(f.get("samples", []))
        if n >= 2 and panels.get(pair) != n:
            problems.append(f"timeline of {pair[0]} -> {pair[1]}: {panels.get(pair)} intervals drawn, {n} measured")
    for section in ("pair-matrix", "timeline"):
        if section not in got["ids"]:
            problems.append(f"no section id={section}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page_dir")
    ap.add_argument("name")
    ap.add_argument("shot_dir")
    ap.add_argument("--matrix", metavar="SLOW_HOST")
    ap.add_argument("--topology", choices=["required", "skip"], default="required")
    a = ap.parse_args()
    work = tempfile.mkdtemp()
    try:
        browser = Browser(work)
        if not browser.exe:
            print("SKIP: chromium is not installed (ci/setup.sh --tests installs it)")
            return 77
        page = os.path.join(os.path.abspath(a.page_dir), "report.html")
        got = probe(browser, page, work)
        problems = []
        if got["innerWidth"] != WIDTH:
            problems.append(f"the window is {got['innerWidth']} px wide, not {WIDTH}")
        if got["scrollWidth"] > got["innerWidth"]:
            problems.append(f"horizontal overflow: the page is {got['scrollWidth']} px wide in a {got['innerWidth']} px window")
        problems += got["cut"]
        problems += [f"table wider than the page: {t}" for t in got["wide_tables"]]
        if a.topology == "required" and "topology" not in got["ids"]:
            problems.append("no section id=topology")
        if a.matrix:
            problems += matrix_checks(a.page_dir, got, a.matrix)
        os.makedirs(a.shot_dir, exist_ok=True)
        shot = os.path.join(os.path.abspath(a.shot_dir), a.name + ".png")
        height = min(max(int(got["scrollHeight"]), 600), 16000)
        r = browser.run(page, f"--window-size={WIDTH},{height}", f"--screenshot={shot}")
        if not os.path.exists(shot):
            problems.append(f"no screenshot (chromium exit {r.returncode})")
        for p in problems:
            print("FAIL:", p)
        if problems:
            return 1
        print(f"ok: {a.name}: {got['scrollWidth']} px wide at {WIDTH} px, no cut text, {len(got['pairs'])} heatmap "
              f"cells, {len(got['timelines'])} timeline panels; screenshot {shot} ({WIDTH}x{height})")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
