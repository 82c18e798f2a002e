"""A notebook's prose types no number its run computes: results are written by code.

The Reproduce notebooks state their setup and results in Markdown *outputs*, formatted from the
experiment's setup and result (``Markdown(f"...")`` and ``pl.show(fig, alt)``), so a number in
prose cannot drift from the run. This checks their hand-written Markdown cells: outside math,
the only numbers allowed are citations (a year, a section, a footnote, an equation) and heading
numbers. Inside math, no symbol may be set to a typed value (``$d_k = 256$``). A quotation set as
a Markdown blockquote (lines starting ``>``) is the paper's text, copied exactly, numbers and all.
"""

import re

import jupytext
import pytest

from sitekit import notebooks
from sitekit.paths import ROOT

NOTEBOOKS = sorted(
    p
    for p in (ROOT / "docs").rglob("*.py")
    if notebooks.is_notebook(p.relative_to(ROOT / "docs").as_posix())
)
MATH = re.compile(r"\$\$.+?\$\$|\$[^$\n]+\$", re.DOTALL)
CODE = re.compile(r"`[^`\n]*`")
LINK_TARGET = re.compile(r"\]\([^)]*\)")
CITATION = re.compile(
    r"(?:§\s*[\d.]+|\b(?:19|20)\d\d\b|[Ff]ootnote\s+\d+|Eq\.\s*\d+|^#+\s*\d+\.|\[\d+(?:,\s*\d+)*\])",
    re.MULTILINE,
)
# The page's own parts: a numbered list's markers, and its sections, parts and claims by number.
SELF_REFERENCE = re.compile(
    r"^\s*\d+\.\s|\b(?:[Ss]ections?|[Pp]arts?|[Cc]laims?)\b,?\s*\(?\d+"
    r"(?:\s*(?:,|and|to|or|–)\s*\d+)*\)?",
    re.MULTILINE,
)
FORMULA = re.compile(r"\d+/√\w+|√\d+")  # 1/√d_k, √10: symbols in Unicode, not results
NUMBER = re.compile(r"(?<![\w.])(?<![A-Za-z]-)\d+(?:[.,]\d+)*(?:st|nd|rd|th)?\b")  # not GPT-2
QUOTE = re.compile(r"^\s*>.*$", re.MULTILINE)  # a blockquote line: a paper's words, verbatim
TYPED_VALUE = re.compile(r"=\s*-?\d+(?:\.\d+)?\s*(?:\$|,|;|\)|\\q?quad)")  # $d_k = 256$


def typed_numbers(markdown: str) -> list[str]:
    """The numbers a Markdown cell types by hand, math and citations aside."""
    markdown = QUOTE.sub(" ", markdown)
    found = [f"math sets a value: {m}" for m in MATH.findall(markdown) if TYPED_VALUE.search(m)]
    text = MATH.sub(" ", markdown)
    text = LINK_TARGET.sub("]", CODE.sub(" ", text))
    text = FORMULA.sub(" ", CITATION.sub(" ", SELF_REFERENCE.sub(" ", text)))
    return found + NUMBER.findall(text)


def test_the_rule_catches_a_typed_result_and_allows_citations():
    assert typed_numbers("the unscaled seeds end between 0.08 and 0.17") == ["0.08", "0.17"]
    assert typed_numbers("with $d_k = 256$ keys") == ["math sets a value: $d_k = 256$"]
    assert typed_numbers("## 2. Training\nHe et al. (2015), §3.2.1 and footnote 4") == []
    assert typed_numbers("variance $d_k$ and weights $N(0, 1)$, see `pl.softmax(x, 2)`") == []
    assert typed_numbers("Attention's 1/√d_k, as GPT-2 does, $c = 1/\\sqrt{d_k}$") == []
    assert typed_numbers('> "as reported in [11, 42] and (3×)"\nwe found 0.5') == ["0.5"]
    listed = "1. **Setup**, as section 2 shows; claims (5 and 6) and claims 1 to 4, part 3"
    assert typed_numbers(listed) == []
    assert typed_numbers("its reference [3], Britz et al.") == []
    assert typed_numbers("claim 3 ends 0.7 lower, at width 16") == ["0.7", "16"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_prose_types_no_number(path):
    notebook = jupytext.read(path)
    typed = {
        i: numbers
        for i, cell in enumerate(notebook.cells)
        if cell.cell_type == "markdown" and (numbers := typed_numbers(cell.source))
    }
    assert not typed, (
        f"{path.name}: numbers typed in Markdown cells (cell index: numbers); write them from "
        f"the run with Markdown(f'...') instead: {typed}"
    )
