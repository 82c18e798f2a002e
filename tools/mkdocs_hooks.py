"""MkDocs hooks for paperlens: the concept-order and glossary checks, the pages' examples run
as the tests run them, build-time figures, math and answer boxes, and the files generated for
readers (notebooks, the Review page and its deck, the wheel).

MkDocs loads this file once and never reloads it, even under ``mkdocs serve``; so it stays
thin and re-imports the ``sitekit`` modules that do the work at the start of every build.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import os
import sys
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
import sitekit.example_report
import sitekit.examples
import sitekit.explorables
import sitekit.figure_placeholder
import sitekit.figures
import sitekit.frontmatter
import sitekit.glossary
import sitekit.katex
import sitekit.notebook_figures
import sitekit.notebook_html
import sitekit.notebooks
import sitekit.paths
import sitekit.preview
import sitekit.wheel

log = logging.getLogger("mkdocs.plugins.paperlens")
_state: dict[str, Any] = {"command": "build"}


def on_startup(command: str, dirty: bool) -> None:
    # `make site` must fail on a false claim; `make serve` keeps serving and shows it.
    _state.update(command=command, dirty=dirty)
    if dirty:  # `make serve`: rebuild only the pages an edit touches (sitekit.preview)
        sitekit.preview.allow_dirty_builds()


def _serving() -> bool:
    return bool(_state["command"] == "serve")


def on_config(config: Any) -> Any:
    modules = (
        sitekit.paths,
        sitekit.frontmatter,
        sitekit.page_model,
        sitekit.examples,
        sitekit.example_report,
        sitekit.preview,
        sitekit.concepts,
        sitekit.figures,
        sitekit.figure_placeholder,
        sitekit.explorables,
        sitekit.katex,
        sitekit.notebooks,
        sitekit.notebook_figures,
        sitekit.notebook_html,
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
    library = sitekit.figures.hash_files(("src/paperlens/**/*.py",))
    _state.update(
        library=library,
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
        # ... and by the code that styles the notebooks' figures, which their kernel runs first
        # (IPYTHONDIR: sitekit.notebook_figures).
        styling = sitekit.figures.hash_sitekit([Path(sitekit.notebook_figures.__file__)])
        os.environ["IPYTHONDIR"] = str(sitekit.notebook_figures.ipython_dir())
        key = hashlib.sha256(
            (library + styling + sitekit.paths.blas_config()).encode()
        ).hexdigest()[:16]
        jupyter.config["cache_dir"] = str(sitekit.paths.cache_root() / "mkdocs-jupyter" / key)
    return config


def _examples_runner() -> Any:
    """The warm pool that runs the pages' examples; kept across the rebuilds of ``serve``, and
    replaced when the module that defines it was edited."""
    code = Path(sitekit.examples.__file__).read_bytes()
    runner, seen = _state.get("examples_runner", (None, b""))
    if runner is None or seen != code:
        if runner is not None:
            runner.close()
        runner = sitekit.examples.Runner()
        _state["examples_runner"] = (runner, code)
    return runner


def _check_examples(started: Any, config: Any) -> None:
    runner = _examples_runner()
    outcomes = runner.finish(started)
    _state["outcomes"] = outcomes
    failed = [o for o in outcomes.values() if not o.ok]
    log.info(
        "paperlens: %d examples on %d pages checked (%d pages run, %d cached)",
        sum(o.collected for o in outcomes.values()),
        len(outcomes),
        runner.ran,
        len(outcomes) - runner.ran,
    )
    if not failed:
        return
    report = "\n\n".join(o.describe() for o in failed)
    count = sum(len(o.failures) for o in failed)
    title = f"{count} example{'s' * (count != 1)} failed on {len(failed)} page(s)"
    if not _serving():
        raise PluginError(f"{title}:\n\n{report}")
    # Under `serve --strict` a warning would abort the rebuild and leave the old page up; the
    # failure is printed here and shown in the page instead.
    sys.stderr.write(f"\npaperlens: {title} (shown in the page):\n\n{report}\n\n")


def _render_figures() -> tuple[dict[str, sitekit.figures.Rendered], int]:
    """Every figure. A script that raises fails ``make site``; under ``make serve`` its figure
    is a placeholder showing the error (`sitekit.figure_placeholder`) and the rest are drawn."""
    try:
        return sitekit.figures.render_all()
    except sitekit.figures.FigureError as err:
        if not _serving():
            raise PluginError(str(err)) from None
        sys.stderr.write(f"\npaperlens: a figure script failed (shown in the page):\n{err}\n\n")
    figures: dict[str, sitekit.figures.Rendered] = {}
    rendered = 0
    for figure in sitekit.figures.discover():  # one by one: the others are drawn (or cached)
        try:
            one, count = sitekit.figures.render_all([figure])
        except sitekit.figures.FigureError as err:
            figures[figure.site_path] = sitekit.figure_placeholder.placeholder(figure, str(err))
            continue
        figures.update(one)
        rendered += count
    return figures, rendered


def on_files(files: Files, config: Any) -> Files:
    start = time.perf_counter()
    docs = Path(config["docs_dir"])
    pages = [
        Path(f.abs_src_path)
        for f in files
        if f.src_uri.endswith(".md")
        and f.abs_src_path
        and Path(f.abs_src_path).is_relative_to(docs)
    ]
    started = _examples_runner().start(pages, docs)  # runs while the figures render
    figures, rendered = _render_figures()
    _state["figures"] = figures
    try:  # explorable figures: every frame, in every style and layout
        explorables, frames_rendered = sitekit.explorables.render_all()
    except sitekit.figures.FigureError as err:
        if not _serving():
            raise PluginError(str(err)) from None
        # The preview shows the explorable's default frame, an ordinary figure, without its
        # control until the script is fixed.
        sys.stderr.write(f"\npaperlens: an explorable figure failed:\n{err}\n\n")
        explorables, frames_rendered = {}, 0
    _state["explorables"] = explorables
    _check_examples(started, config)
    cards = sitekit.cards.collect(Path(config["docs_dir"]), config["nav"])
    generated = {
        **{p: svg for path, figure in figures.items() for p, svg in figure.files(path).items()},
        **{path: svg for e in explorables.values() for path, svg in e.svgs.items()},
        **sitekit.katex.asset_files(),
        **_notebooks(files, figures, config["site_url"] or "/"),
        f"downloads/{sitekit.wheel.wheel_name()}": sitekit.wheel.build_wheel(),
        sitekit.cards.REVIEW_PAGE: sitekit.cards.review_markdown(cards).encode(),
        sitekit.cards.DECK_FILE: sitekit.cards.anki_csv(cards),
    }
    for path, content in generated.items():
        files.append(File.generated(config, path, content=content))
    if _state.get("dirty"):
        _outdate_pages(files, figures)
        jupyter = config["plugins"].get("mkdocs-jupyter")
        if jupyter is not None:
            # mkdocs-jupyter deletes, after each build, the cached runs it did not use; a
            # dirty rebuild uses none of the notebooks it does not rebuild, so keep them all.
            cached = Path(jupyter.config["cache_dir"]).glob("*.json")
            used: set[Path] = getattr(jupyter, "_used_cache_paths", set())
            used.update(cached)
    log.info(
        "paperlens: %d files generated, %d figures (%d rendered, %d cached), in %.2f s",
        len(generated),
        len(figures),
        rendered,
        len(figures) - rendered,
        time.perf_counter() - start,
    )
    log.info(
        "paperlens: %d explorable figures, %d frames rendered afresh",
        len(explorables),
        frames_rendered,
    )
    return files


def _page_key(f: File) -> str:
    """What one page's HTML depends on besides what all pages share (`sitekit.preview`)."""
    digest = hashlib.sha256(f.content_bytes)
    outcome = _state.get("outcomes", {}).get(f"docs/{f.src_uri}")
    if outcome is not None:
        summary = (outcome.collected, outcome.passed, outcome.skipped, outcome.failures)
        digest.update(repr((summary, outcome.answers)).encode())
    if sitekit.notebooks.is_notebook(f.src_uri) or b"\n::: " in f.content_bytes:
        digest.update(_state["library"].encode())  # executed, or documented from docstrings
    return digest.hexdigest()


def _outdate_pages(files: Files, figures: dict[str, sitekit.figures.Rendered]) -> None:
    """Under ``serve --dirty``: remove the HTML of every page whose inputs changed, so the
    engine rebuilds it although its source is unchanged."""
    pages = [
        f
        for f in files
        if f.generated_by is None
        and (f.src_uri.endswith(".md") or sitekit.notebooks.is_notebook(f.src_uri))
    ]
    keys = {f.src_uri: _page_key(f) for f in pages}
    alts = [f"{path}\0{figure.alt}" for path, figure in sorted(figures.items())]
    for path, explorable in sorted(_state.get("explorables", {}).items()):  # their page markup
        alts += [f"{path}\0{frame.text}\0{frame.alt}" for frame in explorable.frames]
    shared = sitekit.preview.shared_key(keys, alts)
    stale = set(
        sitekit.preview.outdated(
            keys, _state.get("page_keys", {}), shared, _state.get("shared_key", "")
        )
    )
    for f in pages:
        if f.src_uri in stale:
            Path(f.abs_dest_path).unlink(missing_ok=True)
    _state.update(page_keys=keys, shared_key=shared)
    if _state.get("built_once"):
        log.info("paperlens: %d of %d pages rebuilt", len(stale), len(pages))
    _state["built_once"] = True


def on_nav(nav: Any, config: Any, files: Files) -> Any:
    """Under ``serve --dirty``, pages the engine does not rebuild are not read, and their
    titles would be missing from the navigation of the pages it does; read them (cheap: the
    source and its front matter)."""
    if not _state.get("dirty"):
        return nav
    for page in nav.pages:
        if page.markdown is None and not sitekit.notebooks.is_notebook(page.file.src_uri):
            page.read_source(config)
            if page.title:
                page.title = sitekit.katex.plain_text(page.title)
    return nav


def _notebooks(
    files: Files, figures: dict[str, sitekit.figures.Rendered], site_url: str
) -> dict[str, bytes]:
    """The ``.ipynb`` of every page readers can download, keyed by its path in the site."""
    # Every file, not documentation_pages(): mkdocs-jupyter may not have claimed the .py yet.
    pages = [
        (f.src_uri, f.content_string)
        for f in files
        if f.src_uri.endswith(".md") or sitekit.notebooks.is_notebook(f.src_uri)
    ]
    made = sitekit.notebooks.site_notebooks(pages, figures, site_url)
    _state.update(downloads=made.downloads, cells=made.cells)
    return made.files


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


def _outcome(page: Any) -> Any:
    return _state.get("outcomes", {}).get(f"docs/{page.file.src_uri}")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    """A failing example is marked where it fails (under ``serve``; ``build`` has stopped
    already), and answer boxes get the answers the page's examples computed."""
    outcome = _outcome(page)
    if outcome is not None and not outcome.ok:
        source = Path(page.file.abs_src_path).read_text(encoding="utf-8")
        markdown = sitekit.example_report.mark(markdown, source, outcome)
    if not sitekit.answers.has_boxes(markdown):
        return markdown
    try:
        answers = outcome.answers if outcome is not None else None
        if not isinstance(answers, dict):
            raise sitekit.answers.AnswerError(
                f"docs/{page.file.src_uri}: the page's code defines no `answers` dictionary"
            )
        return sitekit.answers.expand(
            markdown, answers, page=f"docs/{page.file.src_uri}", missing_ok=not outcome.ok
        )
    except sitekit.answers.AnswerError as err:
        raise PluginError(str(err)) from None


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    renderer: sitekit.katex.Renderer = _state["renderer"]
    src = page.file.src_uri
    where = f"docs/{src}"
    try:
        if sitekit.notebooks.is_notebook(src):
            html = sitekit.notebook_html.page_links(
                sitekit.notebook_html.clean_html(html), src, page.url
            )
            html = renderer.render_text_math(html, where=where)
            # Markdown pages get the glossary's tooltips from the abbr extension; notebooks
            # are rendered by nbconvert, so they get the same ones here.
            html = sitekit.glossary.abbreviate_html(html, _state["glossary"])
        else:
            html = renderer.render_page(html, where=where)
        html = sitekit.glossary.without_own_tooltips(html, _state["words"], src)
        html = sitekit.figures.embed(html, page.url, _state["figures"], where=where)
        html = sitekit.explorables.embed(html, page.url, _state["explorables"], where=where)
        if sitekit.notebooks.is_notebook(src):
            html = sitekit.notebook_figures.extract(html, page.url, _state["notebook_figures"])
    except (sitekit.katex.MathError, sitekit.figures.FigureError) as err:
        raise PluginError(str(err)) from None
    html = sitekit.copy_code.add_copy_text(html)
    html += sitekit.example_report.footer(_outcome(page), _state.get("cells", {}).get(src))
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


def on_shutdown() -> None:
    runner, _ = _state.pop("examples_runner", (None, b""))
    if runner is not None:
        runner.close()
