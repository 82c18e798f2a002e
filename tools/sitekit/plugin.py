"""The paperlens plugin: the build reads as the list of steps in each event below.

``mkdocs.yml`` lists it under ``plugins:`` as ``paperlens`` (registered by an entry point in
``tools/pyproject.toml``, in both groups ProperDocs reads). Its options (`PaperlensConfig`) are
what a contributor may switch; the work is done by the ``sitekit`` modules each step names.

What one build computes lives on a `Build`, made afresh by ``on_config``. What must outlive a
build under ``make serve`` lives on the `Session`, made by ``on_startup`` and closed by
``on_shutdown``: the warm pool that runs the pages' examples, and the keys of the pages served.
Nothing is reloaded in place: when the build code itself (``tools/sitekit``) changes under
``make serve``, the server restarts (`Session.restart_if_code_changed`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from paperlens import _cache as experiment_cache
from sitekit import (
    PageError,
    answers,
    browser,
    cards,
    citations,
    concepts,
    copy_code,
    example_report,
    examples,
    explorables,
    figure_placeholder,
    figures,
    glossary,
    guide,
    katex,
    lifecycle,
    notebook_figures,
    notebook_html,
    notebooks,
    numbers,
    paths,
    preview,
    print_edition,
    proof,
    provenance,
    recall,
    report,
    theme,
    wheel,
)

log = logging.getLogger("mkdocs.plugins.paperlens")
T = TypeVar("T")


# mkdocs' Config and BasePlugin define __init_subclass__ without annotations.
class PaperlensConfig(base.Config):  # type: ignore[no-untyped-call]
    """The plugin's options in ``mkdocs.yml`` (the contributing guide explains each)."""

    # The folder of the figure scripts, figures/<section>/<page>/<figure>.py.
    figures = c.Dir(exists=True, default="figures")
    # Run every page's examples at build time, as the tests do.
    run_examples = c.Type(bool, default=True)
    # Render every frame of the explorable figures (else pages show their default frame).
    explorables = c.Type(bool, default=True)
    # Execute the experiment notebooks (else their pages show the code without its output).
    execute_notebooks = c.Type(bool, default=True)


@dataclass
class Build:
    """What one build computes, in the order the events compute it."""

    renderer: katex.Renderer
    library: str  # a hash of src/paperlens
    words: list[glossary.Word]
    tooltips: dict[str, str]
    guide: str = ""  # the contributing guide's generated lists (sitekit.guide), as a key
    commit: provenance.Commit = field(default_factory=provenance.commit)
    start: float = field(default_factory=time.perf_counter)
    figures: dict[str, figures.Rendered] = field(default_factory=dict)
    explorables: dict[str, explorables.Explorable] = field(default_factory=dict)
    outcomes: dict[str, examples.Outcome] = field(default_factory=dict)
    notebooks: notebooks.SiteNotebooks = field(default_factory=notebooks.SiteNotebooks.empty)
    notebook_figures: dict[str, bytes] = field(default_factory=dict)
    works: dict[str, citations.Work] = field(default_factory=dict)  # docs/references.bib
    lists: dict[str, str] = field(default_factory=dict)  # generated lists the guide cannot make
    cited: dict[str, list[str]] = field(default_factory=dict)  # page -> the keys it cites
    numbers: dict[str, int] = field(default_factory=dict)  # numbered page -> its number in nav

    def outcome(self, page: Page) -> examples.Outcome | None:
        return self.outcomes.get(f"docs/{page.file.src_uri}")


class Session:
    """What outlives one build: the warm pool of example workers, and under ``make serve`` the
    keys of the pages served (`sitekit.preview`). Owned by the plugin; closed on shutdown."""

    def __init__(self, command: str, dirty: bool) -> None:
        self.serving = command == "serve"
        self.dirty = dirty
        self.runner = examples.Runner()
        self.notebooks = notebook_html.Ahead()  # the experiment notebooks, run side by side
        self.built = False  # after the first build, `make serve` renders only what an edit touched
        self.started = time.time()  # files saved after this are read by a rebuild (on_serve)
        self.pages = preview.PageKeys()
        self.code = lifecycle.code_key()
        self.stopper: lifecycle.Stopper | None = None
        self.links: preview.LinkProblems | None = None  # under serve: each build's broken links
        # Under serve: each build's author mistakes, by page ("": one the pages share).
        self.problems: dict[str, list[str]] = {}
        # Every page's finished HTML, for the print edition; kept across `make serve`'s
        # rebuilds, which read only the pages an edit touches.
        self.edition = print_edition.Edition()
        # Each page's notebook, by a hash of what it is made from: a rebuild converts only the
        # pages whose notebooks changed.
        self.kept_notebooks: dict[str, tuple[str, bytes]] = {}

    def restart_if_code_changed(self, config: MkDocsConfig) -> None:
        """Under ``make serve``: an edit to the build code restarts the server (this process,
        with its arguments), since modules are not reloaded in place."""
        if self.serving and lifecycle.code_key() != self.code:
            self.close()
            lifecycle.restart_server(Path(config["site_dir"]))

    def kill(self) -> None:
        """End every worker and kernel at once: a stop during a build."""
        self.runner.kill()
        self.notebooks.kill()

    def close(self) -> None:
        self.runner.close()


class PaperlensPlugin(BasePlugin[PaperlensConfig]):  # type: ignore[no-untyped-call]
    """Checks every page (concept order, glossary, examples, math, figures) and adds what the
    build generates (figures, frames, notebooks, the Review page and its deck, the wheel)."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.build: Build | None = None

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self.session = Session(command, dirty)
        if self.session.serving:  # Ctrl-C, kill, or a make stopped: the server shuts down
            self.session.stopper = lifecycle.stop_cleanly_on_signals(self.session.kill)
        if dirty:  # `make serve`: rebuild only the pages an edit touches (sitekit.preview)
            preview.allow_dirty_builds()

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        session = self._session()
        session.restart_if_code_changed(config)
        session.problems = {}
        if session.serving:  # a new page not yet in nav is served, with a note what to do
            preview.allow_pages_outside_nav(config)
            session.links = preview.keep_link_problems()  # a broken link is shown in its page
        docs = Path(config["docs_dir"])
        words = self._checked(lambda: _check_pages(docs, config), list[glossary.Word]())
        self._checked(lambda: recall.check(docs, config["nav"]), None)
        self.build = Build(katex.Renderer(), figures.library_key(), words, glossary.glossary(words))
        nav = config["nav"]
        self.build.numbers = self._checked(lambda: numbers.check(docs, nav), numbers.numbered(nav))
        self.build.works = self._checked(lambda: citations.load(docs), {})
        unused = citations.uncited_entries(docs, self.build.works)
        self._fail([f"docs/{citations.BIB_FILE}: no page cites {key}" for key in unused])
        self.build.lists = {"cite-this-site": _site_bibtex(config, self.build.commit)}
        lists = self.build.lists
        self.build.guide = repr(
            self._checked(lambda: guide.generated(docs, config["nav"], "", lists), dict[str, str]())
        )
        _configure_notebooks(config, self.config.execute_notebooks)
        session.edition.no_pdf = _why_no_pdfs(session.serving)
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        build, session = self._build(), self._session()
        docs = Path(config["docs_dir"])
        if self.config.execute_notebooks and not session.built:  # a dirty rebuild renders few
            session.notebooks.start(files, config, build.library)
        started = self._start_examples(files, docs)  # run while the figures render
        with figures.Renderers() as renderers:
            build.figures, drawn = self._render_figures(renderers)
            build.explorables, frames = self._render_explorables(renderers)
        if session.serving:  # a page embedding a figure before its script is written
            build.figures.update(self._missing_figures(files, build.figures))
        build.outcomes = self._finish_examples(started)
        build.notebooks = self._checked(
            lambda: _notebooks(files, build, config["site_url"] or "/", session.kept_notebooks),
            notebooks.SiteNotebooks.empty(),
        )
        for src, path in build.notebooks.downloads.items():  # every block pastes into python3
            problems = notebooks.paste_problems(build.notebooks.files[path])
            self._fail([f"docs/{src}: {problem}" for problem in problems], src)
        review = self._checked(lambda: cards.collect(docs, config["nav"]), list[cards.Card]())
        generated = _generated_files(build, review, config)
        for path, content in generated.items():
            files.append(File.generated(config, path, content=content))
        for folder in print_edition.SECTIONS:  # filled in by on_env, when every page is read
            source = print_edition.print_source(folder)
            if files.get_file_from_path(f"{folder}/index.md") is not None:
                markdown = print_edition.print_markdown(folder)
                files.append(
                    File.generated(
                        config, source, content=markdown, inclusion=InclusionLevel.NOT_IN_NAV
                    )
                )
        if session.dirty:  # `make serve`: rebuild the pages whose inputs changed
            session.pages.outdate(files, build.figures, build.explorables, self._page_key)
        _log_files(build, len(generated), drawn, frames)
        return files

    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation:
        if self._session().dirty:  # the titles of pages a dirty build does not read
            preview.read_titles(nav, config)
        if self._session().serving:  # new pages not yet in nav: say what to do
            note = preview.pages_outside_nav(nav, files, config["site_url"] or "/")
            if note is not None:
                lifecycle.tell(note)
        self._session().edition.read_nav(nav.items)
        return nav

    def on_pre_page(self, page: Page, *, config: MkDocsConfig, files: Files) -> Page:
        if notebooks.is_notebook(page.file.src_uri):  # an executed notebook: a verified cache
            entry = notebook_html.cache_entry(page.file, config, self._build().library)
            notebook_html.cache_rendering(page, entry, self._session().notebooks)
        return page

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        outcome = self._build().outcome(page)
        docs = Path(config["docs_dir"])
        lists = self._build().lists
        src = page.file.src_uri
        markdown = numbers.fill(markdown, src, self._build().numbers)
        markdown = self._checked(
            lambda: guide.expand(markdown, src, docs, config["nav"], lists), markdown, src
        )
        markdown = example_report.mark_failures(markdown, page, outcome)  # under serve
        markdown = self._cite(markdown, page)
        return self._checked(lambda: answers.fill_boxes(markdown, page, outcome), markdown, src)

    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        build = self._build()
        src, where = page.file.src_uri, f"docs/{page.file.src_uri}"
        if notebooks.is_notebook(src):  # nbconvert's HTML, made to read like the other pages
            html = notebook_html.clean_page(html, page, build.tooltips)
            html = self._cite(html, page, markdown=False)
        # Every formula KaTeX renders, now, while a mistake can still reach the page's notice
        # (`_notice`); the page shows them once the search plugin has read it (`on_post_page`).
        self._checked(lambda: build.renderer.render_page(html, where=where), html, src)
        html = glossary.without_own_tooltips(html, build.words, src)
        html = glossary.without_everyday_tooltips(html)  # a use the writer marked everyday
        html = self._checked(lambda: cards.add_anchors(html, page.markdown or "", where), html, src)
        html = glossary.definitions_html(html)
        html = self._checked(
            lambda: figures.embed(html, page.url, build.figures, where=where), html, src
        )
        html = self._checked(
            lambda: explorables.embed(html, page.url, build.explorables, where=where), html, src
        )
        if notebooks.is_notebook(src):
            html = notebook_figures.extract(html, page.url, build.notebook_figures)
        html = copy_code.add_copy_text(html)
        self._uncited_names(html, page)
        html = self._notice(src) + html
        footer = example_report.footer(build.outcome(page), build.notebooks.cells.get(src))
        html += footer
        html += report.link(
            config["repo_url"],
            address=page.canonical_url or page.url,
            source=where,
            check=report.check_line(footer),
            commit=build.commit.label,
        )
        katex.plain_titles(page)
        html = notebook_html.download_button(build.notebooks.downloads.get(src), page) + html
        folder = src.split("/")[0]
        if src == f"{folder}/index.md" and folder in print_edition.SECTIONS:
            head, found, rest = html.partition("</h1>")
            links = self._session().edition.links(folder)
            html = f"{head}{found}\n{links}{rest}" if found else links + html
        self._session().edition.keep(src, html)
        return html

    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> Any:
        """Every page is read: the print edition's pages take their sections' pages. The theme's
        templates load with this site's changes (`sitekit.theme`)."""
        edition = self._session().edition
        for folder in edition.order:
            file = files.get_file_from_path(print_edition.print_source(folder))
            if file is not None and file.page is not None:
                toc = list(file.page.toc)
                heading = toc[0].id if toc else "print-edition"
                file.page.content = edition.combine(folder, heading)
        return theme.apply(env)

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        # Math goes in last, once the search plugin has indexed the page (on_page_context): it
        # reads each formula's TeX, not KaTeX's three copies of it (HTML, MathML and TeX), in a
        # page a third of the size. Every formula was rendered in on_page_content (cached), and
        # one KaTeX could not render was told there: under make serve its page keeps its TeX.
        with contextlib.suppress(PageError):
            output = self._build().renderer.render_page(output, where=f"docs/{page.file.src_uri}")
        links = self._session().links
        if links is not None:
            output = preview.show_link_problems(output, links.pages.get(page.file.src_uri, []))
        return proof.mark(output, self._proof(page, config))  # checked by make site after

    def on_post_template(
        self, output_content: str, *, template_name: str, config: MkDocsConfig
    ) -> str:
        if not template_name.endswith(".html"):  # the theme's pages (404.html)
            return output_content
        return proof.mark(output_content, {"checks": proof.checks(dict(self.config))})

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        build = self._build()
        self._session().built = True
        build.renderer.close()
        site = Path(config["site_dir"])
        for path, svg in sorted(build.notebook_figures.items()):
            (site / path).parent.mkdir(parents=True, exist_ok=True)
            (site / path).write_bytes(svg)
        if not self._session().serving:  # `make serve` leaves the PDFs out: its edits stay quick
            self._print_pdfs(site, config)
        log.info(
            "paperlens: %d formulas rendered by KaTeX (others cached); the plugin took %.2f s",
            build.renderer.rendered,
            time.perf_counter() - build.start,
        )

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        stopper = self._session().stopper
        if stopper is not None:  # stopped between builds, not inside one
            stopper.server = server
        watched = [Path(config["docs_dir"]), Path(config["config_file_path"])]
        watched += [Path(w) for w in config["watch"]]
        preview.rebuild_for_saves_during_first_build(server, watched, self._session().started)
        return server

    def on_build_error(self, *, error: Exception) -> None:
        if self.build is not None:
            self.build.renderer.close()

    def on_shutdown(self) -> None:
        if self.session is not None:
            self.session.close()

    # --- The steps -------------------------------------------------------------------------

    def _print_pdfs(self, site: Path, config: MkDocsConfig) -> None:
        """The print edition's PDFs; without a browser, one notice (below WARNING, so strict
        mode keeps it a notice) says they were left out and how to get them."""
        edition = self._session().edition
        if edition.no_pdf is not None:
            missing = browser.chromium_missing()
            log.info("paperlens: the print edition's PDFs were left out: %s", missing)
            return
        try:
            printed = print_edition.render_pdfs(site, config["site_url"] or "", list(edition.order))
        except RuntimeError as err:
            raise PluginError(str(err)) from None
        for folder, (cached, seconds) in printed.items():
            log.info(
                "paperlens: %s (%s, %.1f s)",
                print_edition.pdf_path(folder),
                "cached" if cached else "printed",
                seconds,
            )

    def _cite(self, text: str, page: Page, *, markdown: bool = True) -> str:
        """The page's citations written as links, and its reference list at its end
        (`sitekit.citations`); an unknown key fails ``make site``, and under ``make serve`` is
        marked in place and named in the page's notice (`_uncited_names`)."""
        build, src = self._build(), page.file.src_uri
        text, keys, errors = citations.expand(
            text, build.works, where=f"docs/{src}", source=page.file.content_string
        )
        self._fail(errors, src)  # under make serve: marked in place, and in the page's notice
        if src == cards.REVIEW_PAGE:  # generated from the cards: it cites what they name
            keys += [key for key in citations.named(text, build.works) if key not in keys]
        build.cited[src] = keys
        return citations.with_references(text, keys, build.works, markdown=markdown)

    def _uncited_names(self, page_html: str, page: Page) -> None:
        """A work the page names ("He et al.", a title) without citing it is a mistake."""
        src = page.file.src_uri
        build = self._build()
        if src == citations.PAGE:  # which names every work, and lists them all
            return
        text = citations.page_text(page_html)
        named = citations.uncited_names(text, build.cited.get(src, []), build.works)
        self._fail(
            [f"docs/{src}: names {name} but does not cite it: add [@key]" for name in named], src
        )

    def _fail(self, errors: list[str], page: str = "") -> None:
        """An author's mistake, in ``page`` ("": in what the pages share). It fails ``make
        site``; under ``make serve`` the terminal says it, the page shows it at its top (every
        page, for a shared one), and the preview keeps serving."""
        if not errors:
            return
        if not self._session().serving:
            raise PluginError("\n".join(errors))
        lifecycle.tell("\n".join(errors) + "\n(shown in the page; make site fails until fixed)")
        self._session().problems.setdefault(page, []).extend(errors)

    def _checked(self, step: Callable[[], T], fallback: T, page: str = "") -> T:
        """``step()``; if it finds an author's mistake (`sitekit.PageError`), `_fail` with it,
        and under ``make serve`` go on with ``fallback``."""
        try:
            return step()
        except PageError as err:
            self._fail([str(err)], page)
            return fallback

    def _notice(self, page: str) -> str:
        """Under ``make serve``: the box at the top of ``page`` with its mistakes and those
        the pages share (a ``nav`` entry for a missing file among them); "" if there are none."""
        session = self._session()
        problems = session.problems
        nav = session.links.pages.get("", []) if session.links is not None else []
        shown = problems.get(page, []) + problems.get("", []) + nav
        # Once each: the engine logs a nav entry's missing file once per mention.
        return preview.notice(
            "What make site fails on", list(dict.fromkeys(shown)), "page-problems"
        )

    def _session(self) -> Session:
        if self.session is None:  # an engine that skipped on_startup
            self.session = Session("build", dirty=False)
        return self.session

    def _build(self) -> Build:
        if self.build is None:
            raise PluginError("paperlens: on_config did not run")
        return self.build

    def _start_examples(self, files: Files, docs: Path) -> dict[str, Any]:
        if not self.config.run_examples:
            return {}
        pages = [
            Path(f.abs_src_path)
            for f in files
            if f.src_uri.endswith(".md")
            and f.abs_src_path
            and Path(f.abs_src_path).is_relative_to(docs)
        ]
        return dict(self._session().runner.start(pages, docs))

    def _finish_examples(self, started: dict[str, Any]) -> dict[str, examples.Outcome]:
        """Every page's outcome; a failure fails ``make site``, and under ``make serve`` it is
        printed here and shown in the page (`sitekit.example_report`)."""
        runner = self._session().runner
        outcomes = runner.finish(started)
        log.info(
            "paperlens: %d examples on %d pages checked (%d pages run, %d cached)",
            sum(o.collected for o in outcomes.values()),
            len(outcomes),
            runner.ran,
            len(outcomes) - runner.ran,
        )
        report = example_report.failures_report(outcomes)
        if report is not None:
            title, text = report
            if not self._session().serving:
                raise PluginError(f"{title}:\n\n{text}")
            lifecycle.tell(f"{title} (shown in the page):\n\n{text}")
        return outcomes

    def _render_figures(
        self, renderers: figures.Renderers
    ) -> tuple[dict[str, figures.Rendered], int]:
        """Every figure. A script that raises fails ``make site``; under ``make serve`` its
        figure is a placeholder showing the error, and the others are drawn."""
        found = figures.discover(Path(self.config.figures))
        failed = self._failures()
        try:
            rendered, drawn = figures.render_all(found, renderers=renderers, failed=failed)
        except PageError as err:
            raise PluginError(str(err)) from None
        for figure, error in (failed or {}).items():
            rendered[figure.site_path] = figure_placeholder.placeholder(figure, error)
            said = f"figure script {figure.name} failed:\n{error}"
            lifecycle.tell(f"a figure script failed (shown in the page):\n{said}")
        return rendered, drawn

    def _failures(self) -> dict[figures.Figure, str] | None:
        """Under ``make serve``, where a failed figure script is told and shown, not raised."""
        return {} if self._session().serving else None

    def _missing_figures(
        self, files: Files, rendered: dict[str, figures.Rendered]
    ) -> dict[str, figures.Rendered]:
        """Under ``make serve``: a placeholder for each figure a page embeds whose script does
        not exist yet, naming the script to write (`figure_placeholder.missing`)."""
        folder = Path(self.config.figures).resolve()

        def script(site_path: str) -> str:
            rel = site_path.removeprefix("figures/").removesuffix(".svg") + ".py"
            return figures.Figure(folder / rel, folder).name

        pages = {f.src_uri: f.content_string for f in files.documentation_pages()}
        found = figure_placeholder.missing(pages, rendered, script)
        for target, placeholder in found.items():
            lifecycle.tell(f"{placeholder.alt} ({target} is embedded before it is drawn)")
        return found

    def _render_explorables(
        self, renderers: figures.Renderers
    ) -> tuple[dict[str, explorables.Explorable], int]:
        """Every frame of every explorable figure, in every style and layout. Under ``make
        serve`` a failing script leaves its page the default frame (or the placeholder of
        `_render_figures`) without its control; the other explorables keep theirs."""
        if not self.config.explorables:
            return {}, 0
        found = explorables.discover(Path(self.config.figures))
        failed = self._failures()
        try:
            out = explorables.render_all(found, renderers=renderers, failed=failed)
        except PageError as err:
            raise PluginError(str(err)) from None
        for figure, error in (failed or {}).items():
            lifecycle.tell(
                f"an explorable figure failed:\nfigure script {figure.name} failed:\n{error}"
            )
        return out

    def _proof(self, page: Page, config: MkDocsConfig) -> dict[str, str]:
        """What the plugin checked on ``page`` (`sitekit.proof`)."""
        build, src = self._build(), page.file.src_uri
        facts = {"source": f"docs/{src}"}
        if notebooks.is_notebook(src):
            jupyter = config["plugins"].get("mkdocs-jupyter")
            executed = jupyter is not None and bool(jupyter.config["execute"])
            facts["cells"] = str(build.notebooks.cells.get(src, 0))
            facts["executed"] = "yes" if executed else "no"
        else:
            outcome = build.outcome(page)
            facts["examples"] = str(outcome.collected if outcome is not None else 0)
            facts["status"] = _status(outcome, generated=page.file.generated_by is not None)
        facts["checks"] = proof.checks(dict(self.config))
        return facts

    def _page_key(self, f: File) -> str:
        """What one page's HTML depends on besides what all pages share (`sitekit.preview`)."""
        build = self._build()
        outcome = build.outcomes.get(f"docs/{f.src_uri}")
        executed = notebooks.is_notebook(f.src_uri) or b"\n::: " in f.content_bytes
        extra = build.library if executed else ""
        if guide.uses_lists(f.content_string):  # lists generated from the other pages
            extra += build.guide
        if "[@" in f.content_string or "[-@" in f.content_string:  # entries of the bibliography
            extra += repr(build.works)
        extra += repr(self._session().problems.get("", []))  # shown on every page
        return preview.page_key(f.content_bytes, outcome, extra)


def _why_no_pdfs(serving: bool) -> str | None:
    """Why this build prints no PDF, as the section pages say it; ``None`` when it prints them.
    Without a browser the build goes on (`on_post_build` says so in a notice, below WARNING so
    that strict mode keeps it a notice), unless ``PAPERLENS_REQUIRE_BROWSER=1``, which CI and
    the publishing workflow set: the published site never lacks its PDFs."""
    if serving:
        return "<code>make serve</code> leaves it out, and <code>make site</code> prints it"
    missing = browser.chromium_missing()
    if missing is None:
        return None
    if os.environ.get("PAPERLENS_REQUIRE_BROWSER") == "1":
        raise PluginError(
            f"PAPERLENS_REQUIRE_BROWSER=1, but the print edition needs a browser: {missing}"
        )
    return "it is printed by Chromium, and this build found none (the README says how to add it)"


def _site_bibtex(config: MkDocsConfig, commit: provenance.Commit) -> str:
    """The site's BibTeX entry for the home page, from the repository's ``CITATION.cff``."""
    year = datetime.fromtimestamp(commit.time, UTC).year
    return citations.site_bibtex(
        paths.ROOT / citations.CFF_FILE,
        site_url=config["site_url"] or "",
        version=wheel.version(),
        year=year,
    )


def _status(outcome: examples.Outcome | None, *, generated: bool) -> str:
    """A page's examples, in its proof: ``passed``, ``failed``, ``none`` (a page without
    examples, or one the build generated) or ``not-run`` (``run_examples: false``)."""
    if outcome is None:
        return "none" if generated else "not-run"
    if not outcome.collected:
        return "none"
    return "passed" if outcome.ok else "failed"


def _check_pages(docs: Path, config: MkDocsConfig) -> list[glossary.Word]:
    """The checks of the pages' sources as a whole: concepts in reading order, and every word
    of the glossary defined where it is first used; returns the glossary's words."""
    concepts.check_order(concepts.load(docs, config["nav"]))
    root = Path(config["config_file_path"]).parent
    return glossary.check(docs, config["nav"], root / glossary.GLOSSARY_FILE)


def _configure_notebooks(config: MkDocsConfig, execute: bool) -> None:
    """mkdocs-jupyter executes the notebooks; this plugin caches what it renders
    (`sitekit.notebook_html`), so mkdocs-jupyter's own cache must be off. Their kernels draw
    figures in the site's style, and share the experiments' cache with the tests."""
    jupyter = config["plugins"].get("mkdocs-jupyter")
    if jupyter is None:
        return
    if jupyter.config.get("cache", False):
        raise PluginError(
            "mkdocs.yml: set `cache: false` under mkdocs-jupyter; the paperlens plugin caches "
            "executed notebooks itself, keyed by the library and the BLAS kernel too"
        )
    jupyter.config["execute"] = jupyter.config["execute"] and execute
    notebook_figures.configure_kernels()
    os.environ.setdefault(experiment_cache.ENV, str(paths.cache_root() / "experiments"))


def _notebooks(
    files: Files, build: Build, site_url: str, kept: dict[str, tuple[str, bytes]]
) -> notebooks.SiteNotebooks:
    """The ``.ipynb`` of every page readers can download."""
    # Every file, not documentation_pages(): mkdocs-jupyter may not have claimed the .py yet.
    pages = [
        (f.src_uri, numbers.fill(f.content_string, f.src_uri, build.numbers))
        for f in files
        if f.src_uri.endswith(".md") or notebooks.is_notebook(f.src_uri)
    ]
    return notebooks.site_notebooks(pages, build.figures, site_url, build.works, kept)


def _generated_files(
    build: Build, review: list[cards.Card], config: MkDocsConfig
) -> dict[str, bytes]:
    """Every file the build adds to the site, by its path in the site (``review``: the
    recall cards, for the Review page and the deck)."""
    deck = cards.anki_package(
        review, site_url=config["site_url"] or "/", timestamp=build.commit.time
    )
    return {
        **{p: svg for path, fig in build.figures.items() for p, svg in fig.files(path).items()},
        **{path: svg for e in build.explorables.values() for path, svg in e.svgs.items()},
        **katex.asset_files(),
        **build.notebooks.files,
        f"downloads/{wheel.wheel_name()}": wheel.build_wheel(),
        cards.REVIEW_PAGE: cards.review_markdown(review).encode(),
        citations.PAGE: citations.references_page(build.works).encode(),
        cards.DECK_FILE: deck,
        cards.DECK_CSV: cards.anki_csv(review),
    }


def _log_files(build: Build, generated: int, drawn: int, frames: int) -> None:
    log.info(
        "paperlens: %d files generated, %d figures (%d rendered, %d cached), in %.2f s",
        generated,
        len(build.figures),
        drawn,
        len(build.figures) - drawn,
        time.perf_counter() - build.start,
    )
    log.info(
        "paperlens: %d explorable figures, %d frames rendered afresh",
        len(build.explorables),
        frames,
    )
