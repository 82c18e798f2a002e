"""What a reader takes away: every page as a notebook (test_reader_install.py runs them), the
Review page and deck, and ``>>>`` blocks that copy as runnable code."""

import csv
import email
import html
import io
import re
import subprocess
import sys
import tomllib
import zipfile

import nbformat
import pytest
from packaging.requirements import Requirement

from sitekit import cards, notebooks
from sitekit.paths import ROOT, page_url
from sitekit.wheel import wheel_name

DOCS = ROOT / "docs"
CARD_LINE = re.compile(r'^[ \t]*\?\?\? question "', re.MULTILINE)


def hand_written_pages():
    return sorted(
        p.relative_to(DOCS).as_posix()
        for p in DOCS.rglob("*.md")
        if notebooks.offers_notebook(p.read_text())
    )


def test_only_the_api_page_and_pages_that_need_the_repository_offer_no_notebook():
    offered = set(hand_written_pages())
    others = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")} - offered
    assert others == {"reference/api.md", "contributing/index.md"}


@pytest.mark.parametrize("src", hand_written_pages())
def test_every_page_offers_its_notebook(site, pages, src):
    notebook = site / notebooks.notebook_path(src)
    assert notebook.is_file(), f"{src}: no notebook"
    nb = nbformat.reads(notebook.read_text(), as_version=4)
    nbformat.validate(nb)
    page_code = (DOCS / src).read_text().count("```python")
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    assert len(code_cells) >= page_code - (DOCS / src).read_text().count("skip: next")
    built = pages[page_url(src)]
    links = [h for h in built.links if h.endswith(".ipynb")]
    assert links, f"{src}: no download link on the page"
    assert (site / page_url(src)).parent.joinpath(links[0]).resolve() == notebook.resolve()


# Every notebook runs in a fresh kernel after the home page's install: test_reader_install.py.


def expected_cards():
    return sum(
        len(CARD_LINE.findall(p.read_text()))
        for p in DOCS.rglob("*.md")
        if not p.relative_to(DOCS).as_posix().startswith(cards.EXCLUDED)
    )


def test_review_page_holds_every_card_hidden(pages):
    review = pages["review/index.html"]
    n = expected_cards()
    assert n > 0
    assert review.classes.count("question") == n
    assert review.tags.count("details") == n  # closed <details>: answers hidden until clicked


def test_csv_deck_has_one_row_per_card_in_anki_import_format(site):
    text = (site / cards.DECK_CSV).read_text()
    header, body = [], []
    for line in text.splitlines():
        (header if line.startswith("#") and not body else body).append(line)
    assert header == [
        "#separator:Comma",
        "#html:true",
        "#columns:Front,Back,Tags",
        "#tags column:3",
    ]
    rows = list(csv.reader(io.StringIO("\n".join(body))))
    assert len(rows) == expected_cards()
    for front, back, tags in rows:
        assert front and back and tags.startswith("paperlens::")
        assert "$" not in front + back, "math must use Anki's \\( \\) delimiters"


def test_doctest_blocks_copy_as_runnable_code(site):
    blocks = 0
    for page in site.rglob("*.html"):
        for value in re.findall(r'data-copy="([^"]*)"', page.read_text()):
            code = html.unescape(value)
            blocks += 1
            assert ">>>" not in code and "..." not in code.split("\n")[0][:3]
            compile(code, str(page), "exec")
    assert blocks > 0


def test_the_published_wheel_metadata_follows_pyproject(site):
    """Dependencies and extras (``paperlens[notebooks]``, which the home page installs) as
    ``pyproject.toml`` declares them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    with zipfile.ZipFile(site / "downloads" / wheel_name()) as wheel:
        meta = email.message_from_bytes(
            wheel.read(f"{project['name']}-{project['version']}.dist-info/METADATA")
        )
    assert meta["Name"] == project["name"] and meta["Version"] == project["version"]
    assert meta["Requires-Python"] == project["requires-python"]
    extras = project["optional-dependencies"]
    assert set(meta.get_all("Provides-Extra")) == set(extras)
    assert "notebooks" in extras
    declared = {str(Requirement(d)) for d in project["dependencies"]} | {
        str(Requirement(f'{d}; extra == "{extra}"')) for extra, deps in extras.items() for d in deps
    }
    assert {str(Requirement(r)) for r in meta.get_all("Requires-Dist")} == declared


def test_the_published_wheel_installs_and_imports(site, tmp_path):
    """The package readers install from the site holds the whole library and works."""
    wheel = site / "downloads" / wheel_name()
    assert wheel.is_file()
    target = tmp_path / "installed"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    modules = {p.name for p in (ROOT / "src" / "paperlens").glob("*.py")}
    assert modules <= {p.name for p in (target / "paperlens").glob("*.py")}
    code = (
        "import numpy as np, paperlens as pl; "
        f"assert pl.__file__.startswith({str(target)!r}); "
        "print(pl.softmax(np.zeros(4)).sum())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": str(target)},
        check=True,
        capture_output=True,
        text=True,
    )
    assert out.stdout.strip() == "1.0"
