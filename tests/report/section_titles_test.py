#!/usr/bin/env python3
"""report.md and report.html have the same section titles (## / <h2>, ### / <h3>) in the same order,
for reports of every kind in tests/data/report and for a pair matrix over 160 hosts (drawn as blocks,
its flows and matrix shown in part). The html is parsed with html.parser, the md line by line outside
code blocks.

usage: section_titles_test.py PATH/TO/gpunet-bench SOURCE_DIR [--without-large-matrix]
(the sanitizer build leaves out the 160-host matrix: minutes to render there)"""
import csv
import html.parser
import json
import os
import subprocess
import sys
import tempfile


class Headings(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.titles, self._level, self._text = [], None, ""

    def handle_starttag(self, tag, attrs):
        if tag in ("h2", "h3"):
            self._level, self._text = tag, ""

    def handle_data(self, data):
        if self._level:
            self._text += data

    def handle_endtag(self, tag):
        if tag == self._level:
            self.titles.append(("#" * int(tag[1]) + " " + self._text.strip()))
            self._level = None


def md_titles(text):
    out, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (line.startswith("## ") or line.startswith("### ")):
            out.append(line.replace("\\", "").strip())
    return out


def check(binary, source, out, extra=()):
    subprocess.run([binary, "report", source, "-o", out, *extra], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=120)
    md = md_titles(open(os.path.join(out, "report.md")).read())
    parser = Headings()
    parser.feed(open(os.path.join(out, "report.html")).read())
    assert md, f"{source}: report.md has no sections"
    assert md == parser.titles, f"{source}: the sections differ\n md:   {md}\n html: {parser.titles}"
    return md


def main():
    binary, src = sys.argv[1], sys.argv[2]
    data = os.path.join(src, "tests", "data", "report")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("fixture.json", "default_np2.json", "rdma_matrix.json", "hostile.json"):
            titles = check(binary, os.path.join(data, name), os.path.join(tmp, name), ["--step-compute-s", "1.2"])
            print(f"ok: {name}: {len(titles)} sections agree")
        if "--without-large-matrix" in sys.argv[3:]:
            print("the 160-host matrix is left out (a sanitizer build: its layout is checked without them)")
            return
        big = os.path.join(tmp, "matrix160.jsonl")
        made = subprocess.run([sys.executable, os.path.join(src, "bench", "perf", "gen_pair_matrix.py"), "--hosts", "160",
                               "--slow", "1", big], check=True, stdout=subprocess.PIPE, text=True).stdout
        host = made.strip().split("slow hosts: ")[1]  # the one host whose flows run at a quarter of the rate
        out = os.path.join(tmp, "matrix160")
        titles = check(binary, big, out)
        assert "### Host pair matrix" in titles, titles
        md = open(os.path.join(out, "report.md")).read()
        page = open(os.path.join(out, "report.html")).read()
        # 160 x 159 flows: the documents show the worst 1000 and say where the rest are.
        assert "1000 of 25440 flows shown" in md and "1000 of 25440 flows shown" in page
        assert "160 x 160 ends, too wide for a page: every cell is in tcp_matrix.csv" in md
        # The CSVs hold what the documents leave out: every flow, and every row of the matrix.
        with open(os.path.join(out, "tcp_flows.csv")) as f:
            flows = list(csv.reader(f))
        assert len(flows) == 1 + 25440 and flows[0][:2] == ["sender", "receiver"], (len(flows), flows[0])
        assert sum(1 for row in flows[1:] if host in row[:2]) == 2 * 159, "the slow host's flows, both ways"
        with open(os.path.join(out, "tcp_matrix.csv")) as f:
            matrix = list(csv.reader(f))
        assert len(matrix) == 1 + 160 and all(len(row) == 161 for row in matrix), (len(matrix), {len(r) for r in matrix})
        # The heatmap is drawn in blocks, the slow host named beside it, and no other.
        assert 'class="block bad"' in page, "no blocks"
        named = {part.split("<")[0] for part in page.split('class="tick worst">')[1:]}
        assert named == {host}, f"named beside the heatmap: {named}, made slow: {host}"
        assert os.path.getsize(os.path.join(out, "report.html")) < 6 * 2**20
        # report.json keeps whole the slow host's flows (both ways) and summarises every host's.
        with open(os.path.join(out, "report.json")) as f:
            report = json.load(f)
        part = report["extra"]["flows_in_part"]
        whole = [r for r in report["results"] if r.get("kind") == "tcp_flow"]
        assert part["flows"] == 25440 and part["whole"] == len(whole) == 2 * 159, (part["flows"], part["whole"], len(whole))
        assert all(host in (r["figure"]["subject"]["host"], r["figure"]["subject"]["dst_host"]) for r in whole)
        sides = {h["host"]: h for h in part["hosts"]}
        assert len(sides) == 160 and sides[host]["sent"]["flows"] == 159, sides.get(host)
        other = next(h for h in sides if h != host)
        assert sides[host]["sent"]["efficiency"]["median"] < 0.5 < sides[other]["sent"]["efficiency"]["median"]
        assert os.path.getsize(os.path.join(out, "report.json")) < 2**20 * 4
        try:
            import jsonschema  # python3-jsonschema, as the outputs test uses
            with open(os.path.join(src, "report", "schema", "report.schema.json")) as f:
                jsonschema.validate(report, json.load(f))
        except ImportError:
            print("python3-jsonschema is missing: report.json at scale is not checked against the schema")
        again = subprocess.run([binary, "report", os.path.join(out, "report.json"), "-o", out + "-again"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert again.returncode in (0, 1), again.stderr
        said = f"report.json kept {2 * 159} of 25440 TCP flows whole and summarised the rest by host"
        assert said in again.stderr and said in open(os.path.join(out + "-again", "report.md")).read(), again.stderr
        print(f"ok: 160 hosts: {len(titles)} sections agree; {host} named beside the heatmap")


if __name__ == "__main__":
    main()
