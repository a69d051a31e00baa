#!/usr/bin/env python3
"""Every project path that a source file, script or document cites exists.

A citation is a word that starts with one of the repository's top-level folders (bench/, report/, ...),
e.g. "report/CEILINGS.md §1.3" or "see bench/core/measure/"; in Markdown also a relative link target
"[text](path)". Paths with wildcards or placeholders (*, {a,b}, <name>, NAME) are patterns, not
citations, and are skipped. Usage: cited_paths_test.py [REPO_ROOT]; exits 1 listing each dead citation.
"""
import os
import re
import subprocess
import sys

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] != "--selftest" else os.path.join(os.path.dirname(__file__), "..", ".."))
# --selftest: a throw-away repository with one live and one dead citation must fail with the dead one.
SELFTEST = "--selftest" in sys.argv
TOP = ("bench", "topology", "report", "launch", "ci", "tests", "docs", "common")
CITE = re.compile(r"(?<![\w./$~-])((?:%s)/[\w./+-]*)" % "|".join(TOP))
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
SELF = "tests/docs/cited_paths_test.py"  # its self-test cites paths that do not exist, on purpose
TEXT = (".cpp", ".hpp", ".h", ".cu", ".md", ".sh", ".py", ".txt", ".in", ".json", "")


def tracked():
    out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout
    for rel in out.splitlines():
        if os.path.splitext(rel)[1] in TEXT and not rel.startswith("tests/data/") and rel != SELF:
            yield rel


def exists(path, here):
    """A file or folder, from the root or the citing file's folder; a module may be named without its
    extension (bench/suites/suite_list for suite_list.hpp and .cpp)."""
    for base in (root, os.path.join(root, here)):
        for ext in ("", ".hpp", ".cpp", ".py", ".sh", ".md"):
            if os.path.exists(os.path.join(base, path + ext)):
                return True
    return False


def dead_citations(rel, text):
    here = os.path.dirname(rel)
    for n, line in enumerate(text.splitlines(), 1):
        for m in CITE.finditer(line):
            path = m.group(1).rstrip(".,:;")
            if not path or any(c in line[m.end():m.end() + 1] for c in "*{<") or path.endswith("/."):
                continue
            if re.search(r"[A-Z]{3,}", path.split("/")[-1]) and not os.path.splitext(path)[1]:
                continue  # a placeholder such as tests/NAME
            if not exists(path, here):
                yield n, path
        if rel.endswith(".md"):
            for m in LINK.finditer(line):
                target = m.group(1)
                if re.match(r"^[a-z]+:", target) or target.startswith("/") or CITE.fullmatch(target):
                    continue  # a URL, an absolute path, or a citation checked above
                if not os.path.exists(os.path.normpath(os.path.join(root, here, target))):
                    yield n, target


def main():
    dead = []
    for rel in tracked():
        path = os.path.join(root, rel)
        if not os.path.isfile(path):
            continue
        try:
            text = open(path, encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        dead += [f"{rel}:{n}: {p}" for n, p in dead_citations(rel, text)]
    for d in dead:
        print(f"dead citation {d}")
    print(f"cited paths: {len(dead)} dead")
    return 1 if dead else 0


def selftest():
    import tempfile
    global root
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "report"))
        open(os.path.join(tmp, "report", "a.hpp"), "w").write("// see report/a.hpp and report/gone.md\n")
        open(os.path.join(tmp, "README.md"), "w").write("[ok](report/a.hpp) [bad](docs/none.md)\n")
        subprocess.run(["git", "init", "-q", tmp], check=True)
        subprocess.run(["git", "-C", tmp, "add", "."], check=True)
        root = tmp
        found = [f"{r}:{n}: {p}" for r in tracked() for n, p in dead_citations(r, open(os.path.join(tmp, r)).read())]
    expected = ["README.md:1: docs/none.md", "report/a.hpp:1: report/gone.md"]
    if sorted(found) != expected:
        print(f"selftest: found {found}, expected {expected}")
        return 1
    print("selftest: the dead citations were found")
    return 0


if __name__ == "__main__":
    sys.exit(selftest() if SELFTEST else main())
