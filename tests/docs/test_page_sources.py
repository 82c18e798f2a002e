"""Every Python fence a reader sees runs: nothing on a page is silently untested."""

import re

import pytest
from sybil import Document
from sybil.parsers.markdown import SkipParser

from sitekit.paths import ROOT
from sitekit.sybil_parsers import PythonBlockParser

PAGES = sorted((ROOT / "docs").rglob("*.md"))
FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)$", re.MULTILINE)
# Spellings of Python that Sybil would not run.
UNTESTED_PYTHON = re.compile(r"^(?:py|pycon|python3|ipython|\{[^}]*\.py(?:thon)?[ }].*)$")
SKIP = re.compile(r"^[ \t]*<!--\s*skip:\s*(?P<rest>[^\n]*?)\s*-->", re.MULTILINE)


def fences(text):
    """``(info, start, end)`` of every fenced block (an opening fence, then its closing one)."""
    out, opening = [], None
    for m in FENCE.finditer(text):
        info = m.group("info").strip()
        if opening is None:
            opening = (info, m.start())
        elif not info:
            out.append((opening[0], opening[1], m.end()))
            opening = None
    return out


def ids(paths):
    return [p.relative_to(ROOT).as_posix() for p in paths]


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_python_fences_are_spelled_so_they_run(page):
    bad = [info for info, _, _ in fences(page.read_text()) if UNTESTED_PYTHON.match(info)]
    assert not bad, f"fences that would not run (write ```python): {bad}"


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_every_python_fence_is_collected(page):
    text = page.read_text()
    document = Document.parse(str(page), PythonBlockParser(), SkipParser())
    regions = list(document)
    missed = [
        text.count("\n", 0, start) + 1
        for info, start, end in fences(text)
        if info.split(" ")[0] == "python" and not any(start <= r.start < end for r in regions)
    ]
    assert not missed, f"python fences at lines {missed} collected no example"


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_every_skip_says_why(page):
    for m in SKIP.finditer(page.read_text()):
        rest = m.group("rest")
        if rest.startswith(("next", "start")):
            assert re.search(r'"[^"]{5,}"', rest), f"skip without a reason: {m.group(0)}"
