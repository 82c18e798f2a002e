"""MkDocs hooks for paperlens: the concept-order and glossary checks, build-time figures, math
and answer boxes, and the files generated for readers (notebooks, the Review page and its deck,
the wheel).

MkDocs loads this file once and never reloads it, even under ``mkdocs serve``; so it stays
thin and re-imports the ``sitekit`` modules that do the work at the start of every build.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import os
import time
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

import sitekit.answers
import sitekit.cards
import sitekit.concepts
import sitekit.copy_code
import sitekit.figures
import sitekit.frontmatter
import sitekit.glossary
import sitekit.katex
import sitekit.notebook_figures
import sitekit.notebooks
import sitekit.page_notebooks
import sitekit.paths
import sitekit.wheel

log = logging.getLogger("mkdocs.plugins.paperlens")
_state: dict[str, Any] = {}


def on_config(config: Any) -> Any:
    modules = (
        sitekit.paths,
        sitekit.frontmatter,
        sitekit.concepts,
        sitekit.figures,
        sitekit.katex,
        sitekit.notebooks,
        sitekit.notebook_figures,
        sitekit.page_notebooks,
        sitekit.copy_code,
        sitekit.cards,
        sitekit.wheel,
        sitekit.glossary,
        sitekit.answers,
    )
    for module in modules:
        importlib.reload(module)
    try:
        declarations = sitekit.concepts.load(Path(config["docs_dir"]), config["nav"])
        introduced = sitekit.concepts.check_order(declarations)
    except sitekit.concepts.ConceptError as err:
        raise PluginError(str(err)) from None
    try:
        root = Path(config["config_file_path"]).parent
        words = sitekit.glossary.check(
            Path(config["docs_dir"]), config["nav"], root / sitekit.glossary.GLOSSARY_FILE
        )
    except sitekit.glossary.GlossaryError as err:
        raise PluginError(str(err)) from None
    _state.update(
        renderer=sitekit.katex.Renderer(),
        concepts=introduced,
        words=words,
        glossary=sitekit.glossary.glossary(words),
        t0=time.perf_counter(),
        notebook_figures={},
    )
    # mkdocs-jupyter caches executed notebooks by their source alone; key its cache by the
    # library's source and the BLAS kernel too, so an edit to src/paperlens, or a build under
    # another kernel, re-executes the notebooks.
    jupyter = config["plugins"].get("mkdocs-jupyter")
    if jupyter is not None:
        library = sitekit.figures.hash_files(("src/paperlens/**/*.py",))
        # ... and by the code that styles the notebooks' figures, which their kernel runs first
        # (IPYTHONDIR: sitekit.notebook_figures).
        styling = sitekit.figures.hash_sitekit([Path(sitekit.notebook_figures.__file__)])
        os.environ["IPYTHONDIR"] = str(sitekit.notebook_figures.ipython_dir())
        key = hashlib.sha256(
            (library + styling + sitekit.paths.blas_config()).encode()
        ).hexdigest()[:16]
        jupyter.config["cache_dir"] = str(sitekit.paths.cache_root() / "mkdocs-jupyter" / key)
    return config


def on_files(files: Files, config: Any) -> Files:
    start = time.perf_counter()
    try:
        figures, rendered = sitekit.figures.render_all()
    except sitekit.figures.FigureError as err:
        raise PluginError(str(err)) from None
    _state["figures"] = figures
    cards = sitekit.cards.collect(Path(config["docs_dir"]), config["nav"])
    generated = {
        **{p: svg for path, figure in figures.items() for p, svg in figure.files(path).items()},
        **sitekit.katex.asset_files(),
        **_notebooks(files, figures, config["site_url"] or "/"),
        f"downloads/{sitekit.wheel.wheel_name()}": sitekit.wheel.build_wheel(),
        sitekit.cards.REVIEW_PAGE: sitekit.cards.review_markdown(cards).encode(),
        sitekit.cards.DECK_FILE: sitekit.cards.anki_csv(cards),
    }
    for path, content in generated.items():
        files.append(File.generated(config, path, content=content))
    log.info(
        "paperlens: %d files generated, %d figures (%d rendered, %d cached), in %.2f s",
        len(generated),
        len(figures),
        rendered,
        len(figures) - rendered,
        time.perf_counter() - start,
    )
    return files


def _notebooks(
    files: Files, figures: dict[str, sitekit.figures.Rendered], site_url: str
) -> dict[str, bytes]:
    """The ``.ipynb`` of every page readers can download, keyed by its path in the site.

    Experiment pages (``reproduce/*.py``) are notebooks already; Markdown pages written by hand
    are converted, where `sitekit.page_notebooks.offers_notebook` says so.
    """
    out: dict[str, bytes] = {}
    downloads: dict[str, str] = {}
    for f in files:  # not documentation_pages(): mkdocs-jupyter may not have claimed the .py yet
        path = sitekit.page_notebooks.notebook_path(f.src_uri)
        if sitekit.notebooks.is_notebook(f.src_uri):
            out[path] = sitekit.notebooks.to_ipynb(
                f.content_string, page=f.src_uri, site_url=site_url
            )
        elif f.src_uri.endswith(".md") and sitekit.page_notebooks.offers_notebook(f.content_string):
            notebook = sitekit.page_notebooks.page_to_notebook(
                f.content_string, page=f.src_uri, figures=figures, site_url=site_url
            )
            out[path] = sitekit.page_notebooks.to_bytes(notebook)
        else:
            continue
        downloads[f.src_uri] = path
    _state["downloads"] = downloads
    return out


def _download_button(href: str, title: str) -> str:
    # Material's "download" icon, drawn inline (no icon font, no request).
    icon = (
        '<svg viewBox="0 0 24 24" aria-hidden="true">'
        '<path d="M5 20h14v-2H5m14-9h-4V3H9v6H5l7 7z"/></svg>'
    )
    return (
        f'<a class="md-content__button md-icon notebook-download" href="{href}" download'
        f' title="{title}" aria-label="{title}">{icon}</a>'
    )


def _plain_math_in_titles(page: Any) -> None:
    """Math in headings, spelled in Unicode where only text can go (TOC, nav, <title>)."""

    def walk(items: Any) -> None:
        for item in items:
            item.title = sitekit.katex.plain_text(item.title)
            walk(item.children)

    walk(page.toc)
    if page.title:
        page.title = sitekit.katex.plain_text(page.title)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """Answer boxes: the page's code runs (as the tests run it) to fill in the answers."""
    if not sitekit.answers.has_boxes(markdown):
        return markdown
    try:
        answers = sitekit.answers.compute(Path(page.file.abs_src_path))
        return sitekit.answers.expand(markdown, answers, page=f"docs/{page.file.src_uri}")
    except sitekit.answers.AnswerError as err:
        raise PluginError(str(err)) from None


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    renderer: sitekit.katex.Renderer = _state["renderer"]
    src = page.file.src_uri
    where = f"docs/{src}"
    try:
        if sitekit.notebooks.is_notebook(src):
            html = sitekit.notebooks.page_links(sitekit.notebooks.clean_html(html), src, page.url)
            html = renderer.render_text_math(html, where=where)
            # Markdown pages get the glossary's tooltips from the abbr extension; notebooks
            # are rendered by nbconvert, so they get the same ones here.
            html = sitekit.glossary.abbreviate_html(html, _state["glossary"])
        else:
            html = renderer.render_page(html, where=where)
        html = sitekit.glossary.without_own_tooltips(html, _state["words"], src)
        html = sitekit.figures.embed(html, page.url, _state["figures"], where=where)
        if sitekit.notebooks.is_notebook(src):
            html = sitekit.notebook_figures.extract(html, page.url, _state["notebook_figures"])
    except (sitekit.katex.MathError, sitekit.figures.FigureError) as err:
        raise PluginError(str(err)) from None
    html = sitekit.copy_code.add_copy_text(html)
    _plain_math_in_titles(page)
    notebook = _state["downloads"].get(src)
    if notebook is not None:
        href = get_relative_url(notebook, page.url)
        html = _download_button(href, "Download this page as a Jupyter notebook") + html
    return html


def on_post_build(config: Any) -> None:
    renderer: sitekit.katex.Renderer = _state["renderer"]
    renderer.close()
    for path, svg in sorted(_state["notebook_figures"].items()):
        target = Path(config["site_dir"]) / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(svg)
    log.info(
        "paperlens: %d formulas rendered by KaTeX (others cached); build hooks %.2f s",
        renderer.rendered,
        time.perf_counter() - _state["t0"],
    )


def on_build_error(error: Exception) -> None:
    renderer = _state.get("renderer")
    if renderer is not None:
        renderer.close()
