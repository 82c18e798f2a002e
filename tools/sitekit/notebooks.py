"""A page becomes a notebook: every page a reader can download as ``.ipynb``, and run.

Two kinds of page become notebooks, both written by :func:`to_bytes`, with the cell ids of
:func:`cell_id` (which the notebook pages' HTML uses too, `sitekit.notebook_html`):

- the experiment pages, ``docs/reproduce/*.py`` in jupytext's percent format, which
  mkdocs-jupyter also executes into the page (:func:`percent_to_ipynb`);
- the hand-written Markdown pages (:func:`page_to_notebook`), read through the one model of
  a page (`sitekit.page_model`), so a downloaded page runs exactly the code the tests ran:

- ``python`` fences and invisible setup blocks become code cells, in page order; a fence of
  ``>>>`` examples becomes the code alone (prompts and expected output removed), one cell per
  output the page shows (:func:`doctest_cells`): Jupyter displays only a cell's last value,
  so each shown output ends a cell, and the cell's metadata keeps what the page shows
  (``metadata["paperlens"]["shows"]``), which the reader-install tests compare with what a
  fresh kernel prints;
- a block skipped with ``<!-- skip: next "reason" -->`` stays a code listing in Markdown (it
  is shown to the reader but is not meant to run);
- recall cards become ``<details>`` blocks, hidden until clicked; any other admonition that
  holds code to run (such as "How this page checks it") becomes its title in bold followed
  by its body, so that its code lands in code cells in page order (a ``<details>`` cannot
  span cells); a recall card whose answer holds such code keeps its words in ``<details>``
  and puts its code after them, in cells that show the computed answer;
- figures are embedded as SVG attachments; links to other pages point at the published site.
"""

from __future__ import annotations

import base64
import codeop
import doctest
import hashlib
import io
import json
import posixpath
import re
import tempfile
import tokenize
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

import jupytext
import nbformat

from sitekit import citations, page_model
from sitekit.figures import Rendered
from sitekit.frontmatter import get_data
from sitekit.page_model import Admonition, Block, Page

COMMENT_LINE = re.compile(r"^[ \t]*<!--.*-->\s*$")
IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)\)")
LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<href>(?![a-z]+:|#)[^)\s]+)\)")
# A block of the page stands on one line of its own while the prose around it is rewritten.
PLACEHOLDER = "\x00block:"


@dataclass
class _Builder:
    cells: list[dict[str, object]] = field(default_factory=list)
    markdown: list[str] = field(default_factory=list)

    def flush(self) -> None:
        text = "\n".join(self.markdown).strip("\n")
        if text.strip():
            self.cells.append(_cell("markdown", text))
        self.markdown = []

    def code(self, source: str, shows: str | None = None) -> None:
        self.flush()
        cell = _cell("code", source.strip("\n"))
        if shows is not None:
            cell["metadata"] = {"paperlens": {"shows": shows}}
        self.cells.append(cell)


def _cell(kind: str, source: str) -> dict[str, object]:
    cell: dict[str, object] = {"cell_type": kind, "id": "", "metadata": {}, "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def doctest_cells(source: str) -> list[tuple[str, str | None]]:
    """A fence of ``>>>`` examples as notebook cells: ``(code, shown output or None)``.

    Each example whose output the page shows ends a cell, so that the cell's last value is that
    output (Jupyter displays only a cell's last value); examples that show nothing join the
    next cell. The output is as the page writes it (``<BLANKLINE>`` as an empty line). A
    compound statement (a ``def``, a loop) followed by more code in its cell gets an empty line
    after it, as at the ``>>>`` prompt, so that the cell pasted into ``python3`` ends it first.
    """
    cells: list[tuple[str, str | None]] = []
    code: list[str] = []
    for example in doctest.DocTestParser().get_examples(source):
        code += ["\n"] if code and page_model.ends_compound(code[-1]) else []
        code.append(example.source)
        if example.want:
            want = example.want.replace("<BLANKLINE>", "")
            cells.append(("".join(code), want))
            code = []
    if code:
        cells.append(("".join(code), None))
    return cells


def _dedent(line: str, indent: int) -> str:
    expanded = line.expandtabs(4)
    return expanded[min(indent, len(expanded) - len(expanded.lstrip())) :]


@dataclass(frozen=True)
class _Lines:
    """The page's lines with each block replaced by one placeholder line (at the block's
    indent), and the page's admonitions as ranges of those lines."""

    lines: list[str]
    admonitions: dict[int, tuple[int, Admonition]]  # first line -> (end line, admonition)
    blocks: tuple[Block, ...]

    def block(self, line: str) -> Block | None:
        head, mark, number = line.partition(PLACEHOLDER)
        return self.blocks[int(number)] if mark and not head.strip() else None


def _placeholders(page: Page) -> _Lines:
    lines = page.text.splitlines()
    starts = {block.line - 1: (n, block) for n, block in enumerate(page.blocks)}
    out: list[str] = []
    where: list[int] = []  # the new index of each original line
    i = 0
    while i < len(lines):
        if i in starts:
            n, block = starts[i]
            where += [len(out)] * (block.end_line - block.line + 1)
            out.append(f"{block.indent}{PLACEHOLDER}{n}")
            i = block.end_line
            continue
        where.append(len(out))
        out.append(lines[i])
        i += 1
    where.append(len(out))
    ranges = {where[a.line]: (where[a.end], a) for a in page.admonitions}
    return _Lines(out, ranges, page.blocks)


def _cards_to_details(page: _Lines) -> list[str]:
    """Admonitions as HTML details: ``???`` (recall cards) closed, ``!!!`` open."""
    lines = page.lines
    out: list[str] = []
    i = 0
    while i < len(lines):
        if i not in page.admonitions:
            out.append(lines[i])
            i += 1
            continue
        end, admonition = page.admonitions[i]
        body = [_dedent(line, admonition.indent + 4) for line in lines[i + 1 : end]]
        i = end
        title = admonition.title or admonition.kind.title()

        def runs(line: str) -> bool:
            block = page.block(line)
            return block is not None and block.runs

        if admonition.kind != "question" and any(runs(line) for line in body):
            out += [f"**{title}**", "", *body, ""]
            continue
        if any(runs(line) for line in body):  # a card whose answer is computed (self-test)
            first = next(n for n, line in enumerate(body) if runs(line))
            words, code = body[:first], body[first:]
            out += [f"**{title}**", "", "<details><summary>Answer</summary>", "", *words]
            out += ["", "</details>", "", *code, ""]
            continue
        opening = "<details open>" if admonition.mark == "!!!" else "<details>"
        out += [f"{opening}<summary>{title}</summary>", "", *body, "", "</details>", ""]
    return out


def page_to_notebook(
    markdown: str, *, page: str, figures: dict[str, Rendered], site_url: str
) -> dict[str, object]:
    """The notebook (nbformat 4 dictionary) for one page's Markdown source."""
    body, meta = get_data(markdown)
    model = page_model.parse(markdown, page)
    placed = _placeholders(model)
    front = markdown[: len(markdown) - len(body)].count("\n") if markdown.endswith(body) else 0
    lines = _cards_to_details(
        _Lines(placed.lines[front:], _shift(placed.admonitions, front), placed.blocks)
    )
    folder = PurePosixPath(page).parent
    attachments: dict[str, dict[str, str]] = {}
    nb = _Builder()
    for line in lines:
        block = placed.block(line)
        if block is not None:
            if block.runs and block.is_doctest:
                for code, shows in doctest_cells(block.source):
                    nb.code(code, shows)
            elif block.runs:
                nb.code(block.code)
            else:
                nb.markdown += [f"```{block.language}", *block.source.splitlines(), "```"]
            continue
        if COMMENT_LINE.match(line):
            continue
        nb.markdown.append(_rewrite(line, folder, figures, site_url, attachments, nb))
    nb.flush()
    _attach(nb.cells, attachments)
    number_cells(nb.cells)
    return {
        "cells": nb.cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "paperlens": {"page": page, "title": str(meta.get("title", ""))},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _shift(ranges: dict[int, tuple[int, Admonition]], by: int) -> dict[int, tuple[int, Admonition]]:
    return {start - by: (end - by, a) for start, (end, a) in ranges.items() if start >= by}


def cell_id(number: int) -> str:
    """The id of a notebook's cell ``number``: stable, so two builds give the same bytes
    (nbformat and jupytext draw random ones)."""
    return f"cell-{number:03d}"


def number_cells(cells: list[Any]) -> None:
    for number, cell in enumerate(cells):
        cell["id"] = cell_id(number)


def _rewrite(
    line: str,
    folder: PurePosixPath,
    figures: dict[str, Rendered],
    site_url: str,
    attachments: dict[str, dict[str, str]],
    nb: _Builder,
) -> str:
    def image(m: re.Match[str]) -> str:
        target = posixpath.normpath(folder / m.group("src"))
        if target in figures:
            name = target.replace("/", "-")
            svg = base64.b64encode(figures[target].svg).decode()
            attachments[name] = {"image/svg+xml": svg}
            alt = re.sub(r"([\\\[\]])", r"\\\1", figures[target].alt)  # escape \ [ ]
            return f"![{alt}](attachment:{name})"
        return m.group(0)

    return published_links(IMAGE.sub(image, line), folder, site_url)


def page_url_of(href: str, folder: PurePosixPath) -> str | None:
    """The site URL (``reproduce/checking-claims/#anchor``) of a link to a ``.md`` page, or None.

    ``href`` is relative to ``folder``, the linking page's folder in ``docs/``.
    """
    path, _, anchor = href.partition("#")
    if not path.endswith(".md"):
        return None
    target = PurePosixPath(posixpath.normpath(folder / path))
    url = str(target.with_suffix("")) + "/"
    if target.name in ("index.md", "README.md"):
        url = str(target.parent) + "/" if str(target.parent) != "." else ""
    return url + (f"#{anchor}" if anchor else "")


def published_links(markdown: str, folder: PurePosixPath, site_url: str) -> str:
    """Markdown links to other pages made absolute, pointing at the published site: a
    downloaded notebook has no neighbouring pages to link to."""

    def link(m: re.Match[str]) -> str:
        url = page_url_of(m.group("href"), folder)
        if url is None:
            return m.group(0)
        return f"[{m.group('text')}]({site_url.rstrip('/')}/{url})"

    return LINK.sub(link, markdown)


def _attach(cells: list[dict[str, object]], attachments: dict[str, dict[str, str]]) -> None:
    """Put each attachment on the Markdown cell that refers to it (nbformat's rule)."""
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        used = {n: a for n, a in attachments.items() if f"attachment:{n}" in str(cell["source"])}
        if used:
            cell["attachments"] = used


def offers_notebook(markdown: str) -> bool:
    """Whether a Markdown page is offered as a notebook a reader can run after one install.

    Every hand-written page is, except the API page (generated from docstrings by ``::: ``) and
    pages whose front matter says ``notebook: false``: their code needs a clone of the
    repository (the contributing guide's figure example imports the build's ``sitekit``).
    """
    _, meta = get_data(markdown)
    return meta.get("notebook", True) is not False and not re.search(r"^::: ", markdown, re.M)


def notebook_path(page: str) -> str:
    """Where a page's notebook is published: beside the page's folder, named after it."""
    return str(PurePosixPath(page).with_suffix(".ipynb"))


def to_bytes(notebook: dict[str, Any]) -> bytes:
    """The one writer of the site's ``.ipynb`` files (nbformat's layout: keys sorted, one
    space of indent, UTF-8)."""
    return (json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


NOTEBOOK_GLOB = "reproduce/*.py"


def is_notebook(src_uri: str) -> bool:
    """Is this page a percent-format notebook (executed by mkdocs-jupyter)?"""
    return PurePosixPath(src_uri).match(NOTEBOOK_GLOB)


def percent_notebook(
    source: str, *, page: str, site_url: str, works: dict[str, citations.Work] | None = None
) -> dict[str, Any]:
    """A percent-format source as a notebook, unexecuted, with its links to other pages
    pointing at the published site, and its citations (`sitekit.citations`) ending in a cell
    of references."""
    notebook = jupytext.reads(source, fmt="py:percent")
    folder = PurePosixPath(page).parent
    cited: list[str] = []
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = published_links(cell.source, folder, site_url)
            if works:
                cell.source, keys, _ = citations.expand(
                    cell.source, works, where=page, to_paper=True
                )
                cited += [k for k in keys if k not in cited]
    if works and cited:
        references = citations.with_references("", cited, works).strip()
        notebook.cells.append(nbformat.v4.new_markdown_cell(references))  # type: ignore[no-untyped-call]
    number_cells(notebook.cells)
    notebook.metadata.pop("jupytext", None)  # the percent header's bookkeeping
    return dict(notebook)


def percent_to_ipynb(
    source: str, *, page: str, site_url: str, works: dict[str, citations.Work] | None = None
) -> bytes:
    return to_bytes(percent_notebook(source, page=page, site_url=site_url, works=works))


def code_cells(source: str) -> int:
    """How many code cells a percent-format notebook has (the build runs every one)."""
    notebook = jupytext.reads(source, fmt="py:percent")
    return sum(1 for cell in notebook.cells if cell.cell_type == "code")


def paste_problems(notebook: bytes) -> list[str]:
    """The code cells of ``notebook`` that a reader cannot paste into ``python3``, as the home
    page invites. The prompt of Python 3.11 and 3.12 (and of 3.13 and later with
    ``PYTHON_BASIC_REPL=1``; 3.13's new prompt takes a terminal's paste whole) reads a paste
    line by line and ends a statement at an empty line (`paste_error`). One line per cell."""
    problems = []
    for cell in json.loads(notebook)["cells"]:
        source = "".join(cell["source"])
        found = paste_error(source) if cell["cell_type"] == "code" else None
        if found is not None:
            at, err = found
            lines = source.splitlines()
            line = repr(lines[at]) if at < len(lines) and lines[at] else ""
            where = line or f"the empty line after {lines[at - 1]!r}"
            problems.append(
                f"the block starting {lines[0]!r} cannot be pasted into python3's prompt (3.11,"
                f" 3.12): at {where} it gives {type(err).__name__} ({err.msg}). Leave an"
                " empty line (no spaces on it) after each top-level compound statement (for,"
                " while, if, try, with, match, def, class, also on one line) and none inside"
                " it, not even before else, except or between methods (one inside brackets or"
                " a triple-quoted string is fine)"
            )
    return problems


def paste_error(source: str) -> tuple[int, SyntaxError] | None:
    """The line (from 0) at which the interactive prompt refuses ``source`` pasted line by
    line, and its error; None if it takes it. Each line is compiled with what is pending in
    ``"single"`` mode (`codeop`, as `code.InteractiveConsole` does); an empty line ends what
    is pending, as the prompt's tokenizer does, unless a bracket or a string is still open.
    (`codeop` alone takes ``try:`` and an empty line as unfinished; the prompt refuses it.)"""
    pending: list[str] = []
    for at, line in enumerate([*source.splitlines(), ""]):  # the last: the reader's Enter
        try:
            if not line and pending and not _unclosed("\n".join(pending)):
                compile("\n".join(pending) + "\n", "<stdin>", "single")
                pending = []
                continue
            pending.append(line)
            if codeop.compile_command("\n".join(pending), "<stdin>", "single") is not None:
                pending = []
        except SyntaxError as err:
            return at, err
    return None


def _unclosed(source: str) -> bool:
    """Whether ``source`` ends inside brackets or a string, where an empty line is content."""
    try:
        for _ in tokenize.generate_tokens(io.StringIO(source + "\n").readline):
            pass
    except tokenize.TokenError:
        return True
    except SyntaxError:  # an indentation error: compiling it says so
        return False
    return False


@dataclass(frozen=True)
class SiteNotebooks:
    files: dict[str, bytes]  # the .ipynb files, by their path in the site
    downloads: dict[str, str]  # page source -> its notebook's path in the site
    cells: dict[str, int]  # notebook page source -> its number of code cells

    @classmethod
    def empty(cls) -> SiteNotebooks:
        return cls({}, {}, {})


def site_notebooks(
    pages: list[tuple[str, str]],
    figures: dict[str, Rendered],
    site_url: str,
    works: dict[str, citations.Work] | None = None,
    kept: dict[str, tuple[str, bytes]] | None = None,
) -> SiteNotebooks:
    """The notebook of every page readers can download, from ``(src_uri, source)`` pairs,
    with the pages' citations of ``works`` and their reference lists.

    Experiment pages (``reproduce/*.py``) are notebooks already; Markdown pages are
    converted, where :func:`offers_notebook` says so. ``kept``: each page's notebook from the
    last build, by a hash of all it is made from (`make serve` converts only what changed).
    """
    files: dict[str, bytes] = {}
    downloads: dict[str, str] = {}
    cells: dict[str, int] = {}
    shared = _made_from(figures, site_url, works)
    for src, source in pages:
        path = notebook_path(src)
        if not is_notebook(src) and not (src.endswith(".md") and offers_notebook(source)):
            continue
        key = hashlib.sha256(f"{shared}\0{src}\0{source}".encode()).hexdigest()
        last = kept.get(src) if kept is not None else None
        if last is not None and last[0] == key:
            files[path] = last[1]
        elif is_notebook(src):
            files[path] = percent_to_ipynb(source, page=src, site_url=site_url, works=works)
        else:
            cited = citations.cite_markdown(source, works, where=src) if works else source
            notebook = page_to_notebook(cited, page=src, figures=figures, site_url=site_url)
            files[path] = to_bytes(notebook)
        if kept is not None:
            kept[src] = (key, files[path])
        if is_notebook(src):
            cells[src] = code_cells(source)
        downloads[src] = path
    return SiteNotebooks(files, downloads, cells)


def _made_from(
    figures: dict[str, Rendered], site_url: str, works: dict[str, citations.Work] | None
) -> str:
    """A hash of what every page's notebook is made from besides the page: the figures it
    embeds, the site's address and the bibliography."""
    digest = hashlib.sha256(f"{site_url}\0{works!r}".encode())
    for path, figure in sorted(figures.items()):
        digest.update(f"\0{path}\0{figure.alt}\0{figure.links!r}".encode())
        digest.update(figure.svg)
        for name, svg in sorted((figure.variants or {}).items()):
            digest.update(name.encode() + svg)
    return digest.hexdigest()


def execute(path: str, kernel: str = "python3", *, save: bool = False) -> str | None:
    """Run a notebook top to bottom in a fresh kernel (the named kernelspec), as a reader would,
    in the notebook's folder; with ``save``, write it back with its outputs.

    Returns None on success, else a short report naming the notebook. Used by the tests,
    one process per notebook batch (nbclient is not safe to run in threads here).
    """
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    folder = str(PurePosixPath(path).parent)
    # Over IPC sockets (files in a scratch folder), not TCP: kernels started side by side
    # cannot race for the same free port ("Address already in use", "Kernel died before
    # replying to kernel_info").
    with tempfile.TemporaryDirectory(prefix="kernel-") as sockets:
        manager = KernelManager(kernel_name=kernel, transport="ipc", ip=f"{sockets}/k")
        try:
            NotebookClient(
                notebook, km=manager, timeout=120, resources={"metadata": {"path": folder}}
            ).execute()
        except Exception as err:  # report every failing notebook, not just the first
            return f"{path}: {type(err).__name__}: {str(err)[-800:]}"
    if save:
        nbformat.write(notebook, path)  # type: ignore[no-untyped-call]
    return None


def shown_and_printed(notebook: Any) -> list[tuple[str, str, str]]:
    """For every cell of an executed notebook whose page shows an output: ``(code, what the
    page shows, what the kernel printed)``, the printed text being the cell's standard output
    followed by its displayed value, as Jupyter shows them."""
    out = []
    for cell in notebook["cells"]:
        shows = cell.get("metadata", {}).get("paperlens", {}).get("shows")
        if cell["cell_type"] != "code" or shows is None:
            continue
        printed = ""
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream" and output["name"] == "stdout":
                printed += "".join(output["text"])
            elif output["output_type"] in ("execute_result", "display_data"):
                text = output["data"].get("text/plain", "")
                printed += ("".join(text) if isinstance(text, list) else text) + "\n"
        out.append(("".join(cell["source"]), shows, printed))
    return out
