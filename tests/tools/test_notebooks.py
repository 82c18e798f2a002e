"""A page becomes a notebook (sitekit.notebooks): the experiment pages' percent format, and
the Markdown pages, where code inside a collapsed "How this page checks it" block still runs."""

import json

import nbformat
import pytest

from sitekit import notebooks, page_model

SOURCE = """# %% [markdown]
# See [Checking a claim honestly](checking-claims.md#the-test) and [home](../index.md).

# %%
x = 1
"""


def test_the_downloaded_notebook_links_to_the_published_site():
    nb = json.loads(
        notebooks.percent_to_ipynb(SOURCE, page="reproduce/x.py", site_url="https://pl.example/")
    )
    text = "".join(nb["cells"][0]["source"])
    assert "(https://pl.example/reproduce/checking-claims/#the-test)" in text
    assert "(https://pl.example/)" in text


def test_both_kinds_of_notebook_are_valid_and_numbered_alike():
    percent = notebooks.percent_to_ipynb(SOURCE, page="reproduce/x.py", site_url="https://x/")
    page = notebooks.to_bytes(
        notebooks.page_to_notebook(PAGE, page="a/b.md", figures={}, site_url="https://x/")
    )
    for raw in (percent, page):
        nb = nbformat.reads(raw.decode(), as_version=4)
        nbformat.validate(nb)
        assert [c["id"] for c in nb.cells] == [notebooks.cell_id(i) for i in range(len(nb.cells))]


PAGE = """---
title: T
---
# T

The claim in words.

```python
x = 1
```

??? note "How this page checks it"
    The check, with a [link](../reproduce/checking-claims.md).

    ```python
    assert x == 1
    ```

    After the check.

??? question "What is x?"
    One.
"""


def cells(markdown):
    nb = notebooks.page_to_notebook(
        markdown, page="foundations/t.md", figures={}, site_url="https://x.org/"
    )
    return [(c["cell_type"], c["source"]) for c in nb["cells"]]


def test_a_checking_block_keeps_its_code_in_page_order_and_opens_no_details():
    got = cells(PAGE)
    assert got[1] == ("code", "x = 1")
    kind, text = got[2]
    assert kind == "markdown" and text.startswith("**How this page checks it**")
    assert "https://x.org/reproduce/checking-claims/" in text
    assert got[3] == ("code", "assert x == 1")
    kind, text = got[4]
    assert text.startswith("After the check.")
    # no <details> is left open across cells; the recall card is still hidden until clicked
    for kind, text in got:
        if kind == "markdown":
            assert text.count("<details>") == text.count("</details>")
    assert "<details><summary>What is x?</summary>" in got[-1][1]


def test_a_card_without_code_stays_a_closed_details_block():
    got = cells('# T\n\n??? note "Aside"\n    Only words.\n')
    assert got == [
        ("markdown", "# T\n\n<details><summary>Aside</summary>\n\nOnly words.\n\n</details>")
    ]


DOCTESTS = """>>> z = [0.125, -1.5]
>>> z[0]
0.125
>>> round(sum(z), 2)
-1.38
>>> for v in z:
...     print(v)
0.125
-1.5
>>> w = 2
"""


def test_each_output_a_page_shows_ends_a_cell_that_keeps_it():
    """Jupyter shows only a cell's last value: three outputs shown on the page are three cells,
    each ending with the line whose output the page shows; a trailing line that shows nothing
    is a cell of its own."""
    assert notebooks.doctest_cells(DOCTESTS) == [
        ("z = [0.125, -1.5]\nz[0]\n", "0.125\n"),
        ("round(sum(z), 2)\n", "-1.38\n"),
        ("for v in z:\n    print(v)\n", "0.125\n-1.5\n"),
        ("w = 2\n", None),
    ]
    page = "# T\n\n```python\n" + DOCTESTS + "```\n"
    nb = notebooks.page_to_notebook(page, page="t.md", figures={}, site_url="https://x/")
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert [c["source"] for c in code] == [
        "z = [0.125, -1.5]\nz[0]",
        "round(sum(z), 2)",
        "for v in z:\n    print(v)",
        "w = 2",
    ]
    shows = [c["metadata"].get("paperlens", {}).get("shows") for c in code]
    assert shows == ["0.125\n", "-1.38\n", "0.125\n-1.5\n", None]


def test_a_compound_statement_ends_with_an_empty_line_before_more_code_in_its_cell():
    """As at the ``>>>`` prompt: pasted into ``python3``, the cell must end the loop first
    (doctest drops a comment-only line, so the comment does not reach the cell)."""
    source = ">>> for v in (1, 2):\n...     w = v\n>>> # a comment\n>>> w\n2\n"
    assert notebooks.doctest_cells(source) == [("for v in (1, 2):\n    w = v\n\nw\n", "2\n")]


def test_what_a_kernel_printed_is_read_beside_what_the_page_shows():
    cell = {
        "cell_type": "code",
        "source": "print(1)\n2",
        "metadata": {"paperlens": {"shows": "1\n2\n"}},
        "outputs": [
            {"output_type": "stream", "name": "stdout", "text": "1\n"},
            {"output_type": "execute_result", "data": {"text/plain": "2"}},
        ],
    }
    other = {"cell_type": "code", "source": "x = 1", "metadata": {}, "outputs": []}
    assert notebooks.shown_and_printed({"cells": [cell, other]}) == [
        ("print(1)\n2", "1\n2\n", "1\n2\n")
    ]


def test_a_rebuild_converts_only_the_pages_whose_notebooks_changed(monkeypatch):
    """Under `make serve` each rebuild made every page's notebook again (about 0.5 s of each);
    a page's notebook is kept while its source, the figures and the bibliography are the same,
    and is the same bytes a fresh conversion makes."""
    from sitekit.figures import Rendered

    pages = [("a.md", "# A\n\n```python\nx = 1\n```\n"), ("b.md", "# B\n\nProse.\n")]
    figures = {"f.svg": Rendered(b"<svg/>", "alt")}
    kept: dict[str, tuple[str, bytes]] = {}
    first = notebooks.site_notebooks(pages, figures, "/", None, kept)
    converted = []
    convert = notebooks.page_to_notebook
    monkeypatch.setattr(
        notebooks,
        "page_to_notebook",
        lambda markdown, **kw: converted.append(kw["page"]) or convert(markdown, **kw),
    )
    edited = [pages[0], ("b.md", "# B\n\nProse, edited.\n")]
    again = notebooks.site_notebooks(edited, figures, "/", None, kept)
    assert converted == ["b.md"]
    redrawn = {"f.svg": Rendered(b"<svg></svg>", "alt")}  # a figure changed: all again
    notebooks.site_notebooks(edited, redrawn, "/", None, kept)
    assert converted == ["b.md", "a.md", "b.md"]
    assert again.files == notebooks.site_notebooks(edited, figures, "/").files != first.files


def _notebook(*sources: str) -> bytes:
    return notebooks.to_bytes(
        nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    )


def test_a_block_that_python3_would_refuse_when_pasted_is_named_with_the_fix():
    """A newcomer's try/except followed straight by an assert passed the page's tests and the
    preview, and failed only make test's paste into python3, nine minutes later."""
    refused = "try:\n    x = 1\nexcept ValueError as err:\n    m = str(err)\nassert x == 1"
    broken_block = "def f():\n    a = 1\n\n    return a"
    (first, second) = notebooks.paste_problems(_notebook(refused, "y = 2", broken_block))
    assert first.startswith("the block starting 'try:' cannot be pasted into python3's prompt")
    assert "at 'assert x == 1' it gives SyntaxError" in first and "Leave an empty line" in first
    assert "at '    return a' it gives IndentationError" in second


# What the prompt of Python 3.11 and 3.12 does with each paste, as a reviewer saw it in a
# terminal (a pty, for each interpreter): True where it refuses the paste.
PASTES = {
    "try:\n    x = 1\nexcept ValueError:\n    x = 2\n\nprint(x)": False,
    "for i in range(3): t = i\nprint(t)": True,  # a compound statement on one line
    "x = 1\nif x:\n    y = 1\n\nelse:\n    y = 2\n\nprint(y)": True,
    # codeop alone takes these as unfinished; the prompt ends them at the empty line
    "try:\n    x = 1\n\nexcept ValueError:\n    x = 2\n\nprint(x)": True,
    "import functools\n@functools.cache\n\ndef g(n):\n    return n\n\nprint(g(2))": True,
    "class A:\n\n    z = 1\n\nprint(A.z)": True,
    # an empty line inside brackets or a string is content; a line of spaces is not empty
    'def f():\n    """One.\n\n    Two."""\n    return 1\n\nprint(f())': False,
    "xs = [\n    1,\n\n    2,\n]\nprint(xs)": False,
    "def f(x):\n    y = x + 1\n    \n    return y * 2\n\nprint(f(1))": False,
}


@pytest.mark.parametrize("source", PASTES)
def test_the_check_refuses_what_the_prompt_refuses(source):
    assert (notebooks.paste_error(source) is not None) == PASTES[source]


def test_copied_examples_paste_too():
    """The copy button of a block of ``>>>`` examples copies their code alone
    (`page_model.doctest_to_code`): an empty line follows a compound statement, as the
    ``>>>`` prompt needs it, so that the copy pastes into python3."""
    examples = ">>> t = 0\n>>> for i in range(3):\n...     t += i\n>>> t\n3\n"
    code = page_model.doctest_to_code(examples)
    assert code == "t = 0\nfor i in range(3):\n    t += i\n\nt"
    assert notebooks.paste_error(code) is None


def test_blocks_that_paste_cleanly_pass():
    fine = [
        "try:\n    x = 1\nexcept ValueError:\n    pass\n\nassert x == 1",
        "for i in range(2):\n    y = i\n\nprint(y)",
        "",
    ]
    assert notebooks.paste_problems(_notebook(*fine)) == []


def test_a_line_of_spaces_in_copied_examples_stays_spaces():
    """A ``...`` line of only spaces inside a def is a line of the body (the prompt goes on);
    stripped to an empty line, it would end the def and break the paste (a reviewer's find)."""
    code = page_model.doctest_to_code(">>> def f():\n...     a = 1\n...     \n...     return a\n")
    assert code == "def f():\n    a = 1\n    \n    return a"
    assert notebooks.paste_error(code + "\n\nf()") is None


def test_a_statement_whose_last_line_holds_spaces_still_gets_its_empty_line():
    """The prompt ignores a line of spaces: the copy must still end the loop with an empty
    line (a third reviewer's find: the copy had none, the notebook cell had one)."""
    code = page_model.doctest_to_code(
        ">>> for i in range(2):\n...     last = i\n...     \n>>> last\n1\n"
    )
    assert code == "for i in range(2):\n    last = i\n    \n\nlast"
    assert notebooks.paste_error(code) is None
