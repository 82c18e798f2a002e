"""The HTML of notebook pages: percent-format ``.py`` sources in ``docs/reproduce/``,
executed and converted by mkdocs-jupyter at build time. (The ``.ipynb`` files readers
download are made in `sitekit.notebooks`.)

mkdocs-jupyter's HTML carries JupyterLab's whole stylesheet (≈570 KB per page), a MathJax
configuration, an empty ``<script src="">`` and a loader that imports mermaid from a CDN. None of
that is needed here — math is rendered by KaTeX at build time and the site's own stylesheet
styles the cells — so it is removed. The ``.ipynb`` a reader downloads is generated from the
same source (`sitekit.notebooks.percent_to_ipynb`).
"""

from __future__ import annotations

import html
import itertools
import posixpath
import re
from pathlib import PurePosixPath
from typing import Any

from mkdocs.utils import get_relative_url

from sitekit import glossary, notebooks
from sitekit.katex import Renderer

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


def clean_page(page_html: str, page: Any, renderer: Renderer, tooltips: dict[str, str]) -> str:
    """A notebook page's HTML as the other pages read: mkdocs-jupyter's extras stripped
    (`clean_html`), links to pages resolved (`page_links`), math rendered by KaTeX, and the
    glossary's tooltips, which Markdown pages get from the abbr extension."""
    src = page.file.src_uri
    page_html = page_links(clean_html(page_html), src, page.url)
    page_html = renderer.render_text_math(page_html, where=f"docs/{src}")
    return glossary.abbreviate_html(page_html, tooltips)


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
