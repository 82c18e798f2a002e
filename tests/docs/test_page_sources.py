"""Every Python fence a reader sees runs: nothing on a page is silently untested.

The pages are read through `sitekit.page_model`, the one parse the build, the notebooks and
the cards use too; its examples are the ones the tests' Sybil collects.
"""

import re

import pytest

from sitekit import page_model
from sitekit.paths import ROOT

PAGES = sorted((ROOT / "docs").rglob("*.md"))
# Spellings of Python that Sybil would not run.
UNTESTED_PYTHON = re.compile(r"^(?:py|pycon|python3|ipython|\{[^}]*\.py(?:thon)?[ }].*)$")


def ids(paths):
    return [p.relative_to(ROOT).as_posix() for p in paths]


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_python_fences_are_spelled_so_they_run(page):
    model = page_model.parse_file(page)
    bad = [(b.line, b.info) for b in model.blocks if UNTESTED_PYTHON.match(b.info)]
    assert not bad, f"fences that would not run (write ```python): {bad}"


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_every_python_block_is_collected(page):
    model = page_model.parse_file(page)
    missed = [b.line for b in model.blocks if b.language == "python" and not b.examples]
    assert not missed, f"python blocks at lines {missed} collected no example"


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_every_example_is_in_a_block_or_is_a_directive(page):
    """The model's blocks and Sybil's examples agree: no example outside a block, except the
    skip and clear-namespace directives themselves."""
    model = page_model.parse_file(page)
    inside = {i for b in model.blocks for i in b.examples}
    outside = [
        e.line
        for i, e in enumerate(model.examples)
        if i not in inside and not page_model.is_directive(e)
    ]
    assert len(inside) + sum(map(page_model.is_directive, model.examples)) == len(model.examples)
    assert not outside, f"examples outside any block at lines {outside}"


@pytest.mark.parametrize("page", PAGES, ids=ids(PAGES))
def test_every_skip_says_why(page):
    for skip in page_model.parse_file(page).skips:
        if skip.action in ("next", "start"):
            reason = skip.reason or ""
            assert re.fullmatch(r'\s*"[^"]{5,}"\s*', reason), (
                f"line {skip.line}: skip without a reason: {reason!r}"
            )


SOURCES = sorted((ROOT / "docs").rglob("*.md")) + sorted((ROOT / "docs").rglob("*.py"))
# Any C0 control character but the newline: a tab, or a BEL left by "\a" in a non-raw Python
# string that rewrote "\approx", shows on the page as a gap or a lost letter.
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")


@pytest.mark.parametrize("source", SOURCES, ids=ids(SOURCES))
def test_no_control_characters_in_page_sources(source):
    text = source.read_text(encoding="utf-8")
    bad = [
        (n, repr(m.group()))
        for n, line in enumerate(text.split("\n"), 1)
        for m in CONTROL.finditer(line)
    ]
    assert not bad, f"control characters (line, char): {bad}"
