"""The fast edit loop of ``make serve``: rebuild only the pages an edit touches.

``make serve`` runs the engine's dirty builds (``serve --dirty``): after the first, full build,
a rebuild renders only the pages whose source is newer than their HTML. On its own that is
wrong for this site, where a page's HTML also depends on things outside its source: the
library (its examples' outcome, its notebook's run), the figures it shows (their alt text,
sizes and links), the glossary, the theme. So each rebuild computes, for every page, a key of
everything its HTML depends on, and removes the HTML of every page whose key changed since
the last build; the engine then rebuilds those too. An edit to anything that every page
shares (the configuration, the theme, the build code, the set of pages) rebuilds them all.
``make site`` is always a full, clean build and never comes here.
"""

from __future__ import annotations

import hashlib
import html
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

from sitekit import katex, notebooks
from sitekit.cache import hash_files
from sitekit.examples import Outcome
from sitekit.explorables import Explorable
from sitekit.figures import Rendered

# Everything every page's HTML depends on besides its own inputs.
SHARED = (
    "mkdocs.yml",
    "overrides/**/*",
    "includes/**/*",
    "tools/sitekit/**/*.py",
    "tools/sitekit/*.js",
    "docs/assets/**/*",
)
DIRTY_WARNING = "A 'dirty' build is being performed"


class _DropDirtyWarning(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return DIRTY_WARNING not in record.getMessage()


def allow_dirty_builds() -> None:
    """The engine warns on every dirty build that navigation may be inaccurate, which
    ``--strict`` turns into an aborted rebuild. Here pages are rebuilt whenever anything they
    show changes (:func:`outdated`), so the warning does not apply; it is dropped."""
    for name in ("properdocs.commands.build", "mkdocs.commands.build"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _DropDirtyWarning) for f in logger.filters):
            logger.addFilter(_DropDirtyWarning())


def shared_key(pages: Iterable[str]) -> str:
    """A key of what every page shares: the files in `SHARED` and the list of pages (the nav
    and the links between pages)."""
    digest = hashlib.sha256(hash_files(SHARED).encode())
    for part in sorted(pages):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


def outdated(
    keys: Mapping[str, str], previous: Mapping[str, str], shared: str, previous_shared: str
) -> list[str]:
    """The pages whose HTML must be rebuilt although their source may be unchanged."""
    if shared != previous_shared:
        return sorted(keys)
    return sorted(page for page, key in keys.items() if previous.get(page) != key)


def page_key(source: bytes, outcome: Outcome | None, library: str) -> str:
    """What one page's HTML depends on besides what all pages share: its source, its examples'
    outcome, and ``library`` (a hash of the library's source) for a page that runs or
    documents it (a notebook, or the API page), else ``""``."""
    digest = hashlib.sha256(source)
    if outcome is not None:
        summary = (outcome.collected, outcome.passed, outcome.skipped, outcome.failures)
        digest.update(repr((summary, outcome.answers)).encode())
    digest.update(library.encode())
    return digest.hexdigest()


class PageKeys:
    """The keys of the pages last served, kept across the rebuilds of ``make serve``."""

    def __init__(self) -> None:
        self.keys: dict[str, str] = {}
        self.shared = ""
        self.built_once = False

    def outdate(
        self,
        files: Files,
        figures: Mapping[str, Rendered],
        explorables: Mapping[str, Explorable],
        key: Callable[[File], str],
    ) -> None:
        """Remove the HTML of every page whose inputs changed since the last build, so the
        engine rebuilds it although its source is unchanged."""
        pages = [
            f
            for f in files
            if f.generated_by is None
            and (f.src_uri.endswith(".md") or notebooks.is_notebook(f.src_uri))
        ]
        keys = {
            f.src_uri: with_figures(key(f), f.content_string, figures, explorables) for f in pages
        }
        shared = shared_key(keys)
        stale = set(outdated(keys, self.keys, shared, self.shared))
        for f in pages:
            if f.src_uri in stale:
                Path(f.abs_dest_path).unlink(missing_ok=True)
        self.keys, self.shared = keys, shared
        if self.built_once:
            logging.getLogger("mkdocs.plugins.paperlens").info(
                "paperlens: %d of %d pages rebuilt", len(stale), len(pages)
            )
        self.built_once = True


def with_figures(
    key: str,
    source: str,
    figures: Mapping[str, Rendered],
    explorables: Mapping[str, Explorable],
) -> str:
    """A page's ``key`` extended by what its HTML takes from the figures its source names
    (``figures/<section>/<page>/<name>.svg``): their alt text, their drawings (whose sizes
    the page gives) and links, and an explorable's frames. Another figure's edit leaves the
    page alone."""
    digest = hashlib.sha256(key.encode())
    for path, figure in sorted(figures.items()):
        if path in source:
            digest.update(f"{path}\0{figure.alt}\0{figure.links!r}\0".encode())
            for _, svg in sorted((figure.variants or {"": figure.svg}).items()):
                digest.update(hashlib.sha256(svg).digest())
    for path, explorable in sorted(explorables.items()):
        if path in source:
            for frame in explorable.frames:
                digest.update(f"{path}\0{frame.text}\0{frame.alt}\0".encode())
            digest.update(repr(sorted(explorable.sizes.items())).encode())
    return digest.hexdigest()


def read_titles(nav: Any, config: Any) -> None:
    """Under ``serve --dirty``, pages the engine does not rebuild are not read, and their
    titles would be missing from the navigation of the pages it does; read them (cheap: the
    source and its front matter)."""
    for page in nav.pages:
        if page.markdown is None and not notebooks.is_notebook(page.file.src_uri):
            page.read_source(config)
            if page.title:
                page.title = katex.plain_text(page.title)


class LinkProblems(logging.Filter):
    """Under ``make serve``, the engine's warnings about a page's links (a missing page, a
    missing anchor): ``serve --strict`` would abort the rebuild on one, and every request
    would hang until a build passed. They are kept here instead, by page, and said in the
    terminal; a link to a missing page is shown in its page too (`show_link_problems`), while
    one to a missing anchor is not (the engine checks anchors after writing every page).
    ``make site`` still fails on both."""

    PATTERN = re.compile(r"^Doc file '(?P<page>[^']+)' contains ")
    # A nav entry for a file that is not there: every page shows it (kept under "").
    NAV = re.compile(r"^A reference to '[^']+' is included in the 'nav' configuration")

    def __init__(self) -> None:
        super().__init__()
        self.pages: dict[str, list[str]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        found = self.PATTERN.match(message)
        if record.levelno < logging.WARNING or (found is None and not self.NAV.match(message)):
            return True
        self.pages.setdefault(found["page"] if found else "", []).append(message)
        # The engine checks anchors after every page is written: too late for the page's box.
        shown = (
            ""
            if "does not contain an anchor" in message or "no such anchor" in message
            else "the preview shows it in the page; "
        )
        logging.getLogger("mkdocs.plugins.paperlens").info(
            "paperlens: %s (%smake site fails until it is fixed)", message, shown
        )
        return False


def keep_link_problems() -> LinkProblems:
    """Install a fresh `LinkProblems` on the engine's page logger, for one build."""
    kept = LinkProblems()
    for name in (
        f"{engine}.structure.{part}"
        for engine in ("properdocs", "mkdocs")
        for part in ("pages", "nav")
    ):
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, LinkProblems)]:
            logger.removeFilter(old)
        logger.addFilter(kept)
    return kept


def notice(title: str, problems: list[str], kind: str) -> str:
    """The box at the top of a page under ``make serve`` that lists ``problems``, which fail
    ``make site``; "" if there are none. ``kind`` is its class, for the tests."""
    if not problems:
        return ""
    items = "".join(f"<li>{html.escape(p)}</li>" for p in problems)
    return (
        f'<div class="admonition failure {kind}"><p class="admonition-title">{title}</p>'
        f"<ul>{items}</ul><p><code>make site</code> fails until it is fixed.</p></div>\n\n"
    )


def show_link_problems(output: str, problems: list[str]) -> str:
    """A page's HTML with its link problems in a box at the top of the article."""
    title = "A link on this page goes nowhere" if len(problems) == 1 else "Links that go nowhere"
    box = notice(title, problems, "link-problems")
    head, tag, rest = output.partition('<article class="md-content__inner md-typeset">')
    return head + tag + box + rest if tag and box else output


def allow_pages_outside_nav(config: Any) -> None:
    """Under ``make serve``: a page not yet listed in ``nav`` is served. The engine's warning
    about it would stop ``serve --strict``'s rebuild and leave the old site up, the new page
    missing; `pages_outside_nav` says what to do instead. ``make site`` still fails on it."""
    config["validation"]["nav"]["omitted_files"] = logging.INFO


def pages_outside_nav(nav: Any, files: Files, site_url: str) -> str | None:
    """What to tell a contributor whose new pages are not in ``nav`` yet, or None."""
    listed = {page.file.src_uri for page in nav.pages}
    outside = [
        f
        for f in files.documentation_pages()
        if f.src_uri not in listed and f.inclusion.is_in_nav()  # type: ignore[no-untyped-call]
    ]
    if not outside:
        return None
    lines = [f"  docs/{f.src_uri}, served at {site_url.rstrip('/')}/{f.url}" for f in outside]
    return (
        "these pages are not in mkdocs.yml's nav yet:\n"
        + "\n".join(lines)
        + "\nThe preview serves them; add each under `nav:` in mkdocs.yml, in reading order"
        ' ("Add a page", step 2, in docs/contributing/index.md): `make site` fails until then.'
    )


def saved_since(folders: Iterable[Path], since: float) -> list[Path]:
    """The files under ``folders`` (or the files themselves) modified after ``since``, but
    Python's bytecode (``__pycache__``), which importing the library writes."""
    found = []
    for folder in folders:
        paths = [folder] if folder.is_file() else folder.rglob("*") if folder.is_dir() else []
        found += [
            p
            for p in paths
            if "__pycache__" not in p.parts and p.is_file() and p.stat().st_mtime > since
        ]
    return sorted(found)


def rebuild_for_saves_during_first_build(
    server: Any, watched: Iterable[Path], since: float
) -> None:
    """Under ``make serve``, once its first build is done: the engine's file watcher starts
    only now, from what the files are now, so a page saved during that (minutes long) build
    would never be rebuilt. Ask for a rebuild if any watched file changed since it started.
    (The engine's server has no public call for it: its build loop waits on these two.)"""
    saved = saved_since(watched, since)
    if not saved or not hasattr(server, "_rebuild_cond"):
        return
    names = ", ".join(p.name for p in saved[:5]) + (" ..." if len(saved) > 5 else "")
    logging.getLogger("mkdocs.plugins.paperlens").info(
        "paperlens: saved during the first build (%s): building again", names
    )
    with server._rebuild_cond:
        server._want_rebuild = True
        server._rebuild_cond.notify_all()
