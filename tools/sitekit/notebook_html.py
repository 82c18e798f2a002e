"""The HTML of notebook pages: percent-format ``.py`` sources in ``docs/reproduce/``,
executed and converted by mkdocs-jupyter at build time. (The ``.ipynb`` files readers
download are made in `sitekit.notebooks`.)

What mkdocs-jupyter renders is cached here (`cache_rendering`), not by mkdocs-jupyter itself
(``cache: false`` in ``mkdocs.yml``): its cache is keyed by the notebook's source alone, trusts
what it reads, and deletes after each build the runs the build did not use, which under
``make serve``'s dirty rebuilds would be most of them.

mkdocs-jupyter's HTML carries JupyterLab's whole stylesheet (≈570 KB per page), a MathJax
configuration, an empty ``<script src="">`` and a loader that imports mermaid from a CDN. None of
that is needed here — math is rendered by KaTeX at build time and the site's own stylesheet
styles the cells — so it is removed. The ``.ipynb`` a reader downloads is generated from the
same source (`sitekit.notebooks.percent_to_ipynb`).
"""

from __future__ import annotations

import contextlib
import hashlib
import html
import itertools
import posixpath
import re
import threading
from concurrent.futures import Future
from pathlib import Path, PurePosixPath
from types import SimpleNamespace
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink, get_toc
from mkdocs.utils import get_relative_url

from sitekit import cache, glossary, katex, notebook_figures, notebooks, paths

_CELL_ID = re.compile(r'id="cell-id=[0-9a-f-]+"')
_STYLE = re.compile(r"<style[^>]*>.*?</style>", re.S)
_SCRIPT = re.compile(r"<script[^>]*>.*?</script>", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
# nbconvert's copy widget (a custom element plus a hidden copy of the code); Material's own copy
# button replaces it once the code sits in <pre><code> inside a .highlight block.
_CLIPBOARD = re.compile(
    r'<div class="zeroclipboard-container">.*?</div>\s*</clipboard-copy>\s*</div>', re.S
)
_CLIPBOARD_TEXT = re.compile(r'<div class="clipboard-copy-txt"[^>]*>.*?</div>', re.S)
_CODE = re.compile(
    r'<div class="highlight-ipynb hl-python"><pre><span></span>(.*?)</pre></div>', re.S
)
# A Markdown cell's paragraph (paragraphs do not nest) and the display math ($$...$$) in it.
_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.S)
_DISPLAY_MATH = re.compile(r"(\$\$.+?\$\$)", re.S)


_HREF = re.compile(r'href="(?P<href>(?![a-z]+:|#|/)[^"]+\.md(?:#[^"]*)?)"')


def page_links(page_html: str, page: str, page_url: str) -> str:
    """Links to ``.md`` pages in a notebook page's HTML, as URLs relative to the page.

    MkDocs resolves such links in Markdown pages, but mkdocs-jupyter leaves them as written.
    """
    folder = PurePosixPath(page).parent

    def one(m: re.Match[str]) -> str:
        url = notebooks.page_url_of(html.unescape(m.group("href")), folder)
        if url is None:
            return m.group(0)
        return f'href="{html.escape(_relative(url, page_url))}"'

    return _HREF.sub(one, page_html)


def _relative(url: str, from_url: str) -> str:
    """The site URL ``url`` (``a/b/#x``) as seen from the page at ``from_url`` (``a/c/``)."""
    path, _, anchor = url.partition("#")
    rel = posixpath.relpath(path or ".", from_url or ".")
    rel = "./" if rel == "." else rel + ("/" if path in ("", ".") or path.endswith("/") else "")
    return rel + (f"#{anchor}" if anchor else "")


def clean_html(page_html: str) -> str:
    """Strip mkdocs-jupyter's inline styles, scripts and copy widget; number the cells."""
    body = _COMMENT.sub("", _SCRIPT.sub("", _STYLE.sub("", page_html)))
    body = _display_math_out_of_paragraphs(body)
    body = _CLIPBOARD_TEXT.sub("", _CLIPBOARD.sub("", body))
    # Cell ids are random per conversion; number them so two builds give the same bytes.
    counter = itertools.count()
    body = _CELL_ID.sub(lambda _: f'id="{notebooks.cell_id(next(counter))}"', body)
    return _CODE.sub(r'<div class="highlight"><pre><span></span><code>\1</code></pre></div>', body)


def _display_math_out_of_paragraphs(body: str) -> str:
    """Move ``$$...$$`` out of the ``<p>`` around it: rendered, it is a ``<div>``, which a
    paragraph cannot hold (the parser closes the paragraph there and the ``</p>`` is stray)."""

    def split(m: re.Match[str]) -> str:
        parts = _DISPLAY_MATH.split(m.group(1))
        if len(parts) == 1:
            return m.group(0)
        out = []
        for i, part in enumerate(parts):
            if i % 2:
                out.append(part)
            elif part.strip():
                out.append(f"<p>{part.strip()}</p>")
        return "\n".join(out)

    return _PARAGRAPH.sub(split, body)


def clean_page(page_html: str, page: Any, tooltips: dict[str, str]) -> str:
    """A notebook page's HTML as the other pages read: mkdocs-jupyter's extras stripped
    (`clean_html`), links to pages resolved (`page_links`), math marked up as arithmatex marks
    it (`katex.mark_text_math`; the plugin renders every page's math last), and the glossary's
    tooltips, which Markdown pages get from the abbr extension."""
    page_html = page_links(clean_html(page_html), page.file.src_uri, page.url)
    return glossary.abbreviate_html(katex.mark_text_math(page_html), tooltips)


DOWNLOAD_TITLE = "Download this page as a Jupyter notebook"
# Material's "download" icon, drawn inline (no icon font, no request).
_DOWNLOAD_ICON = (
    '<svg viewBox="0 0 24 24" aria-hidden="true">'
    '<path d="M5 20h14v-2H5m14-9h-4V3H9v6H5l7 7z"/></svg>'
)


def download_button(notebook: str | None, page: Any) -> str:
    """The button that downloads a page's notebook (at ``notebook`` in the site), or ``""``
    for a page without one."""
    if notebook is None:
        return ""
    href = get_relative_url(notebook, page.url)
    return (
        f'<a class="md-content__button md-icon notebook-download" href="{href}" download'
        f' title="{DOWNLOAD_TITLE}" aria-label="{DOWNLOAD_TITLE}">{_DOWNLOAD_ICON}</a>'
    )


def _tokens(items: Any) -> list[dict[str, Any]]:
    """A table of contents as the tokens `get_toc` reads back."""
    return [
        {"level": a.level, "id": a.id, "name": a.title, "children": _tokens(a.children)}
        for a in items
        if isinstance(a, AnchorLink)
    ]


def _valid(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("content"), str)
        and isinstance(entry.get("toc"), list)
        and isinstance(entry.get("title"), str | None)
    )


def cache_entry(file: File, config: Any, library: str) -> Path:
    """Where a notebook page's rendering is cached: keyed by its source, mkdocs-jupyter's
    options, ``library`` (a hash of the library's source), the code that styles its figures,
    the versions it runs with and the BLAS kernel."""
    jupyter = config["plugins"]["mkdocs-jupyter"]
    digest = hashlib.sha256(file.content_bytes)
    for part in (
        repr(sorted((k, repr(v)) for k, v in jupyter.config.items())),
        library,
        notebook_figures.styling_key(),
        repr(sorted(cache.versions().items())),
        cache.version("nbconvert"),
        cache.version("mkdocs-jupyter"),
        cache.blas_config(),
    ):
        digest.update(b"\0" + part.encode())
    return paths.cache_root() / "notebooks" / f"{digest.hexdigest()[:32]}.json"


class Ahead:
    """Notebooks executed side by side, from the start of a build, instead of one after the
    other when the build reaches each page: each runs in a kernel of its own, while the figures
    render and the examples run. Each is rendered by mkdocs-jupyter's own ``render`` (made by
    its ``on_pre_page`` for a stand-in page), and its page takes the result (`cache_rendering`).
    """

    def __init__(self) -> None:
        self.renders: dict[str, tuple[Future[None], SimpleNamespace]] = {}

    def start(self, files: Any, config: Any, library: str) -> None:
        """Start rendering every notebook page of ``files`` that has no cache entry."""
        jupyter = config["plugins"]["mkdocs-jupyter"]
        for f in files.documentation_pages():
            if not notebooks.is_notebook(f.src_uri) or not jupyter.should_include(f):
                continue
            if _valid(cache.read_json(cache_entry(f, config, library))):
                continue
            stand_in = SimpleNamespace(file=f, abs_url="")
            jupyter.on_pre_page(stand_in, config=config, files=files)
            future: Future[None] = Future()
            # A daemon thread: an interrupted `make site` exits without waiting for it (its
            # kernel notices its parent is gone and exits too).
            threading.Thread(
                target=_settle, args=(future, stand_in.render, config, files), daemon=True
            ).start()
            self.renders[f.src_uri] = (future, stand_in)

    def take(self, page: Page) -> bool:
        """Give ``page`` its rendering if one was started for it; False if none was."""
        if page.file.src_uri not in self.renders:
            return False
        future, stand_in = self.renders.pop(page.file.src_uri)
        future.result()  # a failed cell raises here, as it would have in mkdocs-jupyter
        page.content, page.toc = stand_in.content, stand_in.toc
        if stand_in.title is not None:
            page.title = stand_in.title
        return True

    def kill(self) -> None:
        """End the kernels at once (a stop during a build): each render then fails and its
        thread ends."""
        import psutil  # type: ignore[import-untyped]  # ipykernel needs it: there with any kernel

        for child in psutil.Process().children():
            with contextlib.suppress(psutil.Error):
                if any("ipykernel_launcher" in part for part in child.cmdline()):
                    child.kill()


def _settle(future: Future[None], render: Any, *args: Any) -> None:
    """Run ``render(*args)`` and settle ``future`` with its outcome."""
    try:
        render(*args)
    except BaseException as error:  # handed to the page that takes it (`Ahead.take`)
        future.set_exception(error)
    else:
        future.set_result(None)


def cache_rendering(page: Page, path: Path, ahead: Ahead) -> None:
    """Make ``page`` (a notebook page, after mkdocs-jupyter's ``on_pre_page``) take its rendered
    content, table of contents and title from the cache entry ``path`` when it holds them
    intact, or from ``ahead`` when it was rendered there, and store them in the entry when it
    renders them (`sitekit.cache`)."""
    render = page.render  # mkdocs-jupyter's: executes and converts the notebook
    if getattr(render, "__func__", None) is Page.render:
        raise PluginError(
            f"{page.file.src_uri}: mkdocs-jupyter did not take this notebook page; it must come "
            "before paperlens in mkdocs.yml's plugins, with its `include` matching the page"
        )

    def cached_render(config: Any, files: Any) -> None:
        entry = cache.read_json(path)
        if not _valid(entry):
            if not ahead.take(page):
                render(config, files)
            entry = {"content": page.content, "toc": _tokens(page.toc), "title": page.title}
            cache.write_json(path, entry)
            return
        page.content = entry["content"]
        page.toc = get_toc(entry["toc"])
        if entry["title"] is not None:
            page.title = entry["title"]

    page.render = cached_render  # type: ignore[method-assign]
