"""The print edition: each section (Foundations, Walkthrough, Reproduce) on one page, in reading
order, and that page as a PDF, linked from the section's index.

The printable page is a page of the site (``<section>/print/``, built from a generated
``<section>/print.md``, outside the navigation and the search index): the build keeps every page's
finished HTML (`Edition.keep`, called last in ``on_page_content``), and once all pages are read
(``on_env``) puts the section's pages into it one after the other (`combine`), each made to live
inside the combined page (`rebase`):

- ids get the page's key as a prefix (``foundations-softmax--the-formula``), and every reference
  to them (``href="#..."``, ``for``, ``aria-describedby``) follows;
- a link to another page of the section becomes a link inside the combined page; a link
  elsewhere is rewritten relative to the combined page, as are images (``src``, ``srcset``);
- headings move one level down, under the combined page's own title;
- interactive parts degrade: an explorable figure keeps its default frame (the figure the page
  shows before its control moves), without its control or frames; an answer box becomes its
  question's label with space to write the answer; collapsed blocks (recall cards, "How this
  page checks it") stay collapsed, so they print their title only.

The PDF is printed by Chromium (Playwright, in print media, light palette; `render_pdf`): the
browser the tests already drive, so the PDF shows the page exactly as the site's browser tests
see it (KaTeX, SVG figures, fonts), and it is tagged: every figure keeps its alt text in the
PDF's structure. WeasyPrint was measured first: 22 s for one page, against 2.6 s in Chromium.
The site is not served: Chromium asks for the published address (``site_url``), and each request
is answered from the built site on disk (any other is refused), so the PDF's links point to the
published site. Chromium writes the time it printed as the PDF's creation and modification
dates, and names the tagged tables' header cells by internal node numbers that vary from run to
run: the dates are set to ``SOURCE_DATE_EPOCH`` and the numbers renumbered by rank
(`fix_dates`, `fix_node_ids`; the same number of bytes, so every offset in the file stays
valid), and the PDF is then byte-identical between builds.

PDFs are cached in ``.cache/print/`` by a hash of everything they are printed from (`pdf_key`):
the combined page's HTML as built and every file it loads, the CSS's fonts and images among
them, Chromium's version and this module. Each entry is stored with its SHA-256 and checked when
read; a damaged one is printed again.
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import logging
import os
import posixpath
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

from sitekit import paths

log = logging.getLogger("mkdocs.plugins.paperlens")

# The sections that have a print edition: their folder in docs/ and the title of their edition.
SECTIONS = {"foundations": "Foundations", "walkthrough": "Walkthrough", "reproduce": "Reproduce"}
PRINT_PAGE = "{folder}/print.md"
PDF_FILE = "{folder}/paperlens-{folder}.pdf"
LINKS_CLASS = "print-links"


def print_source(folder: str) -> str:
    return PRINT_PAGE.format(folder=folder)


def pdf_path(folder: str) -> str:
    return PDF_FILE.format(folder=folder)


def print_markdown(folder: str) -> str:
    """The generated source of a section's printable page; its body is replaced by `combine`."""
    title = SECTIONS[folder]
    return (
        "---\n"
        f"title: {title}, the print edition\n"
        f"description: Every page of {title} on one page, in reading order, to print or to save"
        " as a PDF.\n"
        "search:\n  exclude: true\n"
        "hide:\n  - toc\n"
        "---\n\n"
        f"# {title}, the print edition\n"
    )


def section_links(folder: str, no_pdf: str | None = None) -> str:
    """The paragraph the section's index page gets, linking its print edition; ``no_pdf``: why
    this build has no PDF, said in place of the link to it."""
    pdf = PurePosixPath(pdf_path(folder)).name
    if no_pdf:
        return (
            f'<p class="{LINKS_CLASS}">To read this section on paper: <a href="print/">all its'
            f" pages on one page</a>, to print from the browser. The PDF is not part of this"
            f" build: {no_pdf}.</p>\n"
        )
    return (
        f'<p class="{LINKS_CLASS}">To read this section on paper: <a href="print/">all its'
        f' pages on one page</a>, to print from the browser, or <a href="{pdf}">the same as a'
        " PDF</a>.</p>\n"
    )


def page_key(src: str) -> str:
    """A page's key in the combined page: ``foundations/softmax.md`` → ``foundations-softmax``."""
    return re.sub(r"[^A-Za-z0-9]+", "-", PurePosixPath(src).with_suffix("").as_posix()).strip("-")


def url_of(src: str) -> str:
    """The page's URL in the site, as MkDocs' directory URLs write it (``foundations/softmax/``,
    ``foundations/`` for an index)."""
    return paths.page_url(src).removesuffix("index.html")


# --- Combining a section's pages ---------------------------------------------------------------

_PART = re.compile(r"(<!--.*?-->|<script\b.*?</script>|<style\b.*?</style>|<[^>]+>)", re.S)
_ATTR = re.compile(r'(?P<lead>\s)(?P<name>[a-zA-Z_:][-\w:.]*)="(?P<value>[^"]*)"')
_HEADING = re.compile(r"^<(/?)h([1-6])\b", re.I)
_ID_REFS = ("for", "aria-describedby", "aria-labelledby", "aria-controls", "headers")
_ANSWER_BOX = re.compile(r'<form class="answer-box\b.*?</form>', re.S)
_LABEL = re.compile(r"<label\b[^>]*>(.*?)</label>", re.S)
_LEGEND = re.compile(r"<legend\b[^>]*>(.*?)</legend>", re.S)
_TAG = re.compile(r"<[^>]+>")


@dataclass
class _Context:
    key: str  # the page's key
    page_url: str  # the page's URL in the site ("foundations/softmax/")
    print_url: str  # the combined page's URL ("foundations/print/")
    keys: dict[str, str]  # URL of each page of the section -> its key


def _local(url: str) -> bool:
    return not (re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url) or url.startswith(("//", "#")))


def _relative(target: str, start: str) -> str:
    """``target`` (a path from the site root) relative to the page URL ``start``."""
    rel = posixpath.relpath(target or ".", start.rstrip("/") or ".")
    if target.endswith("/") and not rel.endswith("/"):
        rel += "/"
    return "./" if rel == "./" or rel == "." else rel


def _from_root(url: str, page_url: str) -> str:
    """A relative ``url`` written on the page at ``page_url``, as a path from the site root."""
    joined = posixpath.normpath(posixpath.join(page_url, url))
    if joined == ".":
        return ""
    return joined + "/" if url.endswith("/") else joined


def _href(value: str, ctx: _Context) -> str:
    if value.startswith("#"):
        return f"#{ctx.key}--{value[1:]}" if len(value) > 1 else f"#{ctx.key}"
    if not _local(value):
        return value
    path, _, fragment = value.partition("#")
    target = _from_root(path, ctx.page_url) if path else ctx.page_url.rstrip("/")
    as_page = target if target.endswith("/") or not target else target + "/"
    if as_page == "/":
        as_page = ""
    if as_page in ctx.keys and not PurePosixPath(target).suffix:
        key = ctx.keys[as_page]
        return f"#{key}--{fragment}" if fragment else f"#{key}"
    rebased = _relative(target, ctx.print_url)
    return rebased + (f"#{fragment}" if fragment else "")


def _src(value: str, ctx: _Context) -> str:
    if not _local(value) or value.startswith("data:"):
        return value
    return _relative(_from_root(value, ctx.page_url), ctx.print_url)


def _srcset(value: str, ctx: _Context) -> str:
    out = []
    for candidate in value.split(","):
        parts = candidate.strip().split(None, 1)
        if parts:
            out.append(" ".join([_src(parts[0], ctx), *parts[1:]]))
    return ", ".join(out)


def _rewrite_tag(tag: str, ctx: _Context) -> str:
    def attr(m: re.Match[str]) -> str:
        name, value = m.group("name").lower(), html.unescape(m.group("value"))
        if name == "id":
            value = f"{ctx.key}--{value}"
        elif name in _ID_REFS:
            value = " ".join(f"{ctx.key}--{v}" for v in value.split())
        elif name == "href":
            value = _href(value, ctx)
        elif name in ("src", "poster"):
            value = _src(value, ctx)
        elif name == "srcset":
            value = _srcset(value, ctx)
        else:
            return m.group(0)
        return f'{m.group("lead")}{m.group("name")}="{html.escape(value)}"'

    if tag.startswith('<p class="page-checked"'):
        # The page's check line, as text: its machine-readable counts stay on the page itself
        # (the built-site tests read them there, one page's claim per page).
        tag = re.sub(r'\sdata-(?:examples|cells|status)="[^"]*"', "", tag)
    heading = _HEADING.match(tag)
    if heading:
        level = min(int(heading.group(2)) + 1, 6)
        tag = f"<{heading.group(1)}h{level}" + tag[heading.end() :]
    if tag.startswith('<figure class="explorable"'):
        # The default frame stays; the other frames' data goes (explorables.js is left out).
        tag = re.sub(r'\sdata-frames="[^"]*"', "", tag)
        tag = tag.replace('<figure class="explorable"', '<figure class="explorable-print"', 1)
    return _ATTR.sub(attr, tag)


def _text(fragment: str) -> str:
    return " ".join(_TAG.sub("", fragment).split())


def _answer_space(m: re.Match[str]) -> str:
    """An answer box on paper: its question's label and room to write the answer, or for a
    choice, its options to tick."""
    form = m.group(0)
    legend = _LEGEND.search(form)
    if legend:  # a choice: the options, each with a box to tick
        options = "".join(
            f"<li>☐ {_text(label)}</li>" for label in _LABEL.findall(form[legend.end() :])
        )
        return (
            f'<div class="answer-space"><p class="answer-space__label">{_text(legend.group(1))}:'
            f'</p><ul class="answer-space__choices">{options}</ul></div>'
        )
    label = _LABEL.search(form)
    text = _text(label.group(1)) if label else "Your answer"
    return (
        f'<div class="answer-space"><p class="answer-space__label">{text}:</p>'
        '<div class="answer-space__lines" aria-hidden="true"></div></div>'
    )


_DETAILS = re.compile(r"<(/?)details\b([^>]*)>", re.I)
_SUMMARY = re.compile(r"<summary\b[^>]*>(.*?)</summary>", re.S | re.I)
_CLASS = re.compile(r'\bclass="([^"]*)"')


def collapse(page_html: str) -> str:
    """Every closed ``<details>`` as its title alone, in an admonition box: on paper a reader
    cannot open it (and the theme opens every ``<details>`` for printing, which would print the
    recall cards' answers under their questions). One opened on the page (``???+``) stays."""
    out: list[str] = []
    at = 0
    depth = 0  # inside a closed <details> being left out: its nesting depth
    start, opened = 0, ""  # where the closed <details> began, and its tag's attributes
    for m in _DETAILS.finditer(page_html):
        closing, attrs = m.group(1) == "/", m.group(2)
        if depth:
            depth += -1 if closing else 1
            if depth == 0:
                block = page_html[start : m.end()]
                summary = _SUMMARY.search(block)
                title = summary.group(1) if summary else ""
                classes = _CLASS.search(opened)  # the <details> tag's own class, not its content's
                kind = classes.group(1) if classes else "note"
                out.append(
                    f'<div class="admonition {kind} print-collapsed">'
                    f'<p class="admonition-title">{title}</p></div>'
                )
                at = m.end()
            continue
        if not closing and not re.search(r"\bopen\b", attrs):
            out.append(page_html[at : m.start()])
            start, depth, opened = m.start(), 1, attrs
    out.append(page_html[at:])
    return "".join(out)


def rebase(page_html: str, ctx: _Context) -> str:
    """One page's content HTML, made to live inside the combined page (the module's docstring
    says how)."""
    page_html = collapse(_ANSWER_BOX.sub(_answer_space, page_html))
    out = []
    for part in _PART.split(page_html):
        if not part:
            continue
        if part.startswith("<script"):
            if "explorables.js" in part:
                continue  # the frames' script: the print shows the default frame
            out.append(part)
        elif part.startswith("<!--") or part.startswith("<style") or not part.startswith("<"):
            out.append(part)
        else:
            out.append(_rewrite_tag(part, ctx))
    return "".join(out)


@dataclass
class Edition:
    """The pages' finished HTML, kept as the build reads them, and the sections' order."""

    pages: dict[str, str] = field(default_factory=dict)  # src -> content HTML
    order: dict[str, list[Any]] = field(default_factory=dict)  # folder -> its pages, in order
    no_pdf: str | None = None  # why this build prints no PDF, said where the PDF is linked
    # src -> (its HTML, its context, the two rebased): a rebuild under `make serve` rebases
    # only the pages it read again.
    rebased: dict[str, tuple[str, _Context, str]] = field(default_factory=dict)

    def links(self, folder: str) -> str:
        """The section index's paragraph linking its print edition (`section_links`)."""
        return section_links(folder, self.no_pdf)

    def keep(self, src: str, content: str) -> None:
        if PurePosixPath(src).parts[0] in SECTIONS and not src.endswith("/print.md"):
            self.pages[src] = content

    def read_nav(self, items: Iterable[Any]) -> None:
        """Each printed section's pages, in navigation order (nested sections flattened)."""
        self.order = {}

        def pages(entries: Iterable[Any]) -> list[Any]:
            out = []
            for entry in entries:
                if getattr(entry, "is_page", False) and getattr(entry, "file", None) is not None:
                    out.append(entry)
                out += pages(getattr(entry, "children", None) or [])
            return out

        for item in items:
            found = pages(getattr(item, "children", None) or [])
            folders = {PurePosixPath(p.file.src_uri).parts[0] for p in found}
            index = [p for p in found if p.file.src_uri in {f"{f}/index.md" for f in folders}]
            if len(folders & set(SECTIONS)) and index:
                folder = PurePosixPath(index[0].file.src_uri).parts[0]
                if folder in SECTIONS:
                    self.order[folder] = found

    def combine(self, folder: str, heading_id: str = "print-edition") -> str:
        """The content of the section's printable page: a contents list, then every page.
        ``heading_id``: the id of its title, as the page's table of contents names it."""
        # Titles are read now, when every page is read (the navigation has them only then).
        entries = [(p.file.src_uri, str(p.title)) for p in self.order.get(folder, [])]
        print_url = url_of(print_source(folder))
        keys = {url_of(src): page_key(src) for src, _ in entries}
        missing = [src for src, _ in entries if src not in self.pages]
        title = SECTIONS[folder]
        pdf = PurePosixPath(pdf_path(folder)).name
        out = [
            f'<h1 id="{heading_id}">{html.escape(title)}, the print edition</h1>',
            f'<div class="print-edition" data-section="{folder}">',
            f'<p class="print-edition__intro">The {len(entries)} pages of {html.escape(title)},'
            + (
                f" in reading order, to print from your browser (the PDF is not part of this"
                f" build: {self.no_pdf})."
                if self.no_pdf
                else f" in reading order, to print from your browser or to read as"
                f' <a href="../{pdf}">a PDF</a>.'
            )
            + " Figures show their default view; answer boxes leave room to write; the"
            " collapsed blocks (recall cards, how each page checks its claims) print their"
            " title: open them on the site.</p>",
            '<nav class="print-edition__contents" aria-label="Pages in this edition"><ol>',
        ]
        out += [
            f'<li><a href="#{page_key(src)}">{html.escape(page_title)}</a></li>'
            for src, page_title in entries
        ]
        out.append("</ol></nav>")
        for src, _ in entries:
            key = page_key(src)
            ctx = _Context(key, url_of(src), print_url, keys)
            page, last = self.pages.get(src, ""), self.rebased.get(src)
            if last is None or last[0] is not page or last[1] != ctx:
                last = self.rebased[src] = (page, ctx, rebase(page, ctx))
            body = last[2]
            out.append(
                f'<section class="print-edition__page" id="{key}" data-source="docs/{src}">'
                f"{body}</section>"
            )
        if missing:  # under `make serve`, pages not built since it started
            out.append(
                '<p class="print-edition__missing">Missing here (not built since'
                f" <code>make serve</code> started): {', '.join(missing)}.</p>"
            )
        out.append("</div>")
        return "\n".join(out)


# --- The PDF ---------------------------------------------------------------------------------

_URL_IN_HTML = re.compile(r'\s(?:src|href|srcset)="([^"]+)"')
_URL_IN_CSS = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")
PDF_DATE = re.compile(rb"/(CreationDate|ModDate) \(D:\d{14}[^)]*\)")


def _files_loaded(site: Path, page: Path) -> list[Path]:
    """Every file of the site that ``page`` may load: what its HTML names (src, href, srcset),
    and what the CSS among them names (fonts, images), recursively."""
    seen: set[Path] = set()
    todo = [page]
    while todo:
        current = todo.pop()
        text = current.read_text(encoding="utf-8", errors="replace")
        pattern = _URL_IN_CSS if current.suffix == ".css" else _URL_IN_HTML
        for found in pattern.findall(text):
            for url in found.split(","):
                url = url.strip().split(" ")[0]
                if not url or not _local(url) or url.startswith("data:"):
                    continue
                path = unquote(urlsplit(url).path)
                if not path:
                    continue
                target = (current.parent / path).resolve()
                if target.is_dir():
                    target = target / "index.html"
                if target.suffix not in (".css", ".js", ".svg", ".png", ".woff2", ".woff", ".ttf"):
                    continue
                if target.is_file() and target.is_relative_to(site) and target not in seen:
                    seen.add(target)
                    if target.suffix == ".css":
                        todo.append(target)
    return sorted(seen)


def pdf_key(site: Path, page: Path, chromium: str, site_url: str, epoch: str) -> str:
    digest = hashlib.sha256()
    for part in (Path(__file__).read_bytes(), chromium.encode(), site_url.encode(), epoch.encode()):
        digest.update(hashlib.sha256(part).digest())
    digest.update(page.read_bytes())
    for path in _files_loaded(site, page):
        digest.update(path.relative_to(site).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def fix_dates(pdf: bytes, epoch: int) -> bytes:
    """``pdf`` with Chromium's creation and modification dates set to ``epoch``: the same
    number of bytes, so the cross-reference offsets stay valid."""
    stamp = datetime.fromtimestamp(epoch, UTC).strftime("%Y%m%d%H%M%S").encode()

    def fix(m: re.Match[bytes]) -> bytes:
        old = m.group(0)
        new = b"/" + m.group(1) + b" (D:" + stamp + b"+00'00')"
        return new if len(new) == len(old) else old

    fixed, count = PDF_DATE.subn(fix, pdf)
    if count != 2 or PDF_DATE.sub(b"", fixed) != PDF_DATE.sub(b"", pdf):
        raise ValueError(f"expected Chromium's two PDF dates, found {count}")
    return fixed


_NODE_ID = re.compile(rb"\(node(\d{8})\)")


def fix_node_ids(pdf: bytes) -> bytes:
    """``pdf`` with the ids of its tagged table headers numbered from 0 in their order.

    Chromium names a header cell of a tagged PDF by the browser's internal id of its DOM node
    (``(node00000366)``, referred to by the data cells' ``/Headers`` and listed in the
    ``/IDTree``); those ids depend on how many nodes the browser had numbered before, which
    varies from run to run. Renumbered by rank they keep their order (the ``/IDTree`` stays
    sorted) and their width (every offset in the file stays valid)."""
    found = sorted({int(m.group(1)) for m in _NODE_ID.finditer(pdf)})
    rank = {number: i for i, number in enumerate(found)}
    return _NODE_ID.sub(lambda m: b"(node%08d)" % rank[int(m.group(1))], pdf)


def _cache_read(path: Path) -> bytes | None:
    """A cache entry, checked against the SHA-256 stored beside it; None when missing or
    damaged (a damaged entry is removed and printed again)."""
    digest = path.with_suffix(path.suffix + ".sha256")
    if not (path.is_file() and digest.is_file()):
        return None
    content = path.read_bytes()
    if hashlib.sha256(content).hexdigest() != digest.read_text().strip():
        log.info("paperlens: a damaged print cache entry was dropped: %s", path.name)
        path.unlink(missing_ok=True)
        digest.unlink(missing_ok=True)
        return None
    return content


def _cache_write(path: Path, content: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    for target, data in (
        (path, content),
        (path.with_suffix(path.suffix + ".sha256"), hashlib.sha256(content).hexdigest().encode()),
    ):
        tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.replace(target)


# The footer of every PDF page: the edition's name and the page number.
FOOTER = (
    '<div style="width:100%;font-size:8px;color:#555;padding:0 12mm;'
    'display:flex;justify-content:space-between;font-family:sans-serif">'
    "<span>paperlens · {title}</span>"
    '<span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>'
)


def render_pdfs(site: Path, site_url: str, folders: list[str]) -> dict[str, tuple[bool, float]]:
    """Print each section's page of the built ``site`` to its PDF, the sections at once (one
    tab each, in one Chromium); returns, per section, whether the PDF came from the cache and
    how long it took. Raises `RuntimeError`, saying why, when there is no browser to print
    with (`sitekit.browser.chromium`)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "0")
    cache = paths.cache_root() / "print"
    base = site_url.rstrip("/") + "/"
    chromium = _chromium_version()
    results: dict[str, tuple[bool, float]] = {}
    todo: list[tuple[str, str]] = []
    for folder in folders:
        start = time.perf_counter()  # the key's hash: the whole cost of a cached PDF
        page = site / paths.page_url(print_source(folder))
        key = pdf_key(site, page, chromium, base, epoch)
        cached = _cache_read(cache / f"{key}.pdf")
        if cached is not None:
            (site / pdf_path(folder)).write_bytes(cached)
            results[folder] = (True, time.perf_counter() - start)
        else:
            todo.append((folder, key))
    if todo:
        printed = asyncio.run(_print_all(site, base, [f for f, _ in todo], int(epoch)))
        for folder, key in todo:
            data, seconds = printed[folder]
            _cache_write(cache / f"{key}.pdf", data)
            (site / pdf_path(folder)).write_bytes(data)
            results[folder] = (False, seconds)
    return results


async def _print_all(
    site: Path, base: str, folders: list[str], epoch: int
) -> dict[str, tuple[bytes, float]]:
    from playwright.async_api import Route, async_playwright

    from sitekit import browser

    prefix = urlsplit(base)
    root = site.resolve()

    async def answer(route: Route) -> None:
        """The published address, answered from the built site; anything else refused."""
        url = urlsplit(route.request.url)
        if (url.scheme, url.netloc) != (prefix.scheme, prefix.netloc) or not url.path.startswith(
            prefix.path
        ):
            await route.abort()
            return
        target = (root / unquote(url.path[len(prefix.path) :])).resolve()
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file() or not target.is_relative_to(root):
            await route.fulfill(status=404, body="")
            return
        await route.fulfill(path=str(target))

    async with async_playwright() as p:
        b = await p.chromium.launch(
            executable_path=str(browser.chromium()), args=browser.CHROMIUM_ARGS
        )
        try:
            context = await b.new_context(
                color_scheme="light", viewport={"width": 1000, "height": 1400}
            )
            await context.route("**/*", answer)

            async def one(folder: str) -> tuple[bytes, float]:
                start = time.perf_counter()
                tab = await context.new_page()
                await tab.goto(base + url_of(print_source(folder)), wait_until="load")
                await tab.emulate_media(media="print", color_scheme="light")
                await tab.evaluate(
                    """async () => {
                        await document.fonts.ready;
                        const imgs = [...document.images];
                        for (const img of imgs) img.loading = "eager";
                        await Promise.all(imgs.map(img => img.decode().catch(() => null)));
                    }"""
                )
                data = await tab.pdf(
                    format="A4",
                    margin={"top": "16mm", "bottom": "18mm", "left": "14mm", "right": "14mm"},
                    print_background=True,
                    display_header_footer=True,
                    header_template="<span></span>",
                    footer_template=FOOTER.format(title=html.escape(SECTIONS[folder])),
                    tagged=True,
                    outline=True,
                )
                await tab.close()
                return fix_node_ids(fix_dates(data, epoch)), time.perf_counter() - start

            done = await asyncio.gather(*(one(folder) for folder in folders))
        finally:
            await b.close()
    return dict(zip(folders, done, strict=True))


def _chromium_version() -> str:
    import subprocess

    from sitekit import browser

    found = subprocess.run(
        [str(browser.chromium()), "--version"], capture_output=True, text=True, check=False
    )
    return found.stdout.strip()
