"""Headless Chromium on the built site: one place for serving, launching and page discovery.

Used by the print edition's PDFs, the browser tests (tests/browser), ``tools/screenshot.py``,
``tools/gallery.py`` and ``benchmarks/audit.py``. The browser is whichever Chromium or Chrome the
machine has (`find_chromium`), driven by Playwright for Python; nothing is downloaded for it.
"""

from __future__ import annotations

import contextlib
import functools
import gzip as _gzip
import http.server
import importlib.util
import io
import os
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Page,
        Playwright,
        Request,
        Response,
        Route,
    )

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Where people have a browser, after PAPERLENS_CHROMIUM and Playwright's own (`find_chromium`).
ON_PATH = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
MACOS_CHROME = Path("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")
INSTALL_HINT = (
    "install Chromium (Debian: apt-get install chromium; or .venv/bin/playwright install"
    " chromium), or set PAPERLENS_CHROMIUM to a Chromium or Chrome executable"
)

# Pages the theme adds that have no source and are never linked from the navigation.
NOT_FOUND_PAGE = "404.html"


def _runnable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _playwright_chromium() -> Path | None:
    """The Chromium that ``playwright install chromium`` put in place for this Playwright, as
    Playwright itself names it (it starts Playwright's driver: about half a second)."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        return None
    try:
        with sync_playwright() as p:
            return Path(p.chromium.executable_path)
    except Error:
        return None


def playwright_browsers() -> Path:
    """Where ``playwright install`` puts its browsers, as Playwright's registry works it out:
    ``PLAYWRIGHT_BROWSERS_PATH`` (``0``: inside the package), else the user's cache folder."""
    named = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if named == "0":
        import playwright

        return Path(playwright.__file__).parent / "driver" / "package" / ".local-browsers"
    if named:
        return Path(os.environ.get("INIT_CWD") or os.getcwd(), named)
    home = Path.home()
    if sys.platform == "darwin":
        cache = home / "Library" / "Caches"
    elif sys.platform == "win32":
        cache = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    else:
        cache = Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache")
    return cache / "ms-playwright"


@functools.cache
def find_chromium() -> Path | None:
    """The browser to drive, looked for where people have one, in this order: the path in
    ``PAPERLENS_CHROMIUM`` (when set, the only one tried); Playwright's managed Chromium; the
    first of `ON_PATH` on ``PATH``; Chrome's usual macOS path. ``None`` when there is none.
    Playwright is asked for its Chromium only when it has installed one (`playwright_browsers`):
    asking starts its driver, half a second of every build."""
    named = os.environ.get("PAPERLENS_CHROMIUM")
    if named:
        return Path(named) if _runnable(Path(named)) else None
    installed = any(playwright_browsers().glob("chromium*"))
    managed = _playwright_chromium() if installed else None
    found = [managed, *(shutil.which(name) for name in ON_PATH), MACOS_CHROME]
    return next((Path(p) for p in found if p is not None and _runnable(Path(p))), None)


def chromium() -> Path:
    """The browser `find_chromium` found; raises `RuntimeError`, saying why, when there is none."""
    found = find_chromium()
    if found is None:
        raise RuntimeError(chromium_missing())
    return found


def chromium_missing() -> str | None:
    """Why the browser cannot run here, or ``None`` when it can."""
    if find_chromium() is None:
        named = os.environ.get("PAPERLENS_CHROMIUM")
        if named:
            return f"PAPERLENS_CHROMIUM={named} is not an executable file"
        return f"no Chromium found (README, Requirements, says where it looks): {INSTALL_HINT}"
    if importlib.util.find_spec("playwright") is None:  # found, not imported: a third of a second
        return "Playwright for Python is not installed; run `make env`"
    return None


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def handle(self) -> None:
        with contextlib.suppress(ConnectionError):  # a browser that left a page mid-load
            super().handle()


# What a static host (GitHub Pages, Netlify, nginx's gzip_types) compresses.
_COMPRESSIBLE = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".map", ".ipynb")


class _GzipHandler(_QuietHandler):
    """Serves text files gzip-compressed when the client accepts it, as a static host does."""

    def send_head(self) -> BinaryIO | io.BytesIO | None:
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # the redirect to the folder's URL
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.is_file() and path.suffix in _COMPRESSIBLE):
            return super().send_head()
        body = _gzip.compress(path.read_bytes(), mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


@contextlib.contextmanager
def serve(directory: Path, *, gzip: bool = False) -> Iterator[str]:
    """Serve ``directory`` on a free 127.0.0.1 port; yields the base URL (ending in ``/``).

    ``gzip=True`` compresses text files as a static host would (for transfer-size audits).
    """
    handler_class = _GzipHandler if gzip else _QuietHandler
    handler = functools.partial(handler_class, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def launch(playwright: Playwright) -> Browser:
    """The machine's Chromium (`find_chromium`), headless, with no traffic of its own (updates,
    sync, first run)."""
    return playwright.chromium.launch(executable_path=str(chromium()), args=CHROMIUM_ARGS)


@dataclass
class Visit:
    """One page load in a :class:`Tab`, with what went wrong during it and since."""

    page: Page
    url: str
    errors: list[str] = field(default_factory=list)  # console errors, uncaught exceptions
    failed: list[str] = field(default_factory=list)  # requests that failed or answered >= 400
    offsite: list[str] = field(default_factory=list)  # requests for another origin, aborted
    pending: set[Request] = field(default_factory=set)

    def settle(self, quiet_ms: int = 50, timeout_s: float = 10.0) -> None:
        """Wait until no request has been in flight for ``quiet_ms`` (the search index, fonts).

        Playwright's ``networkidle`` waits 500 ms, which over many pages adds up.
        """
        deadline = time.monotonic() + timeout_s
        quiet = 0
        while quiet < 2 and time.monotonic() < deadline:
            self.page.wait_for_timeout(quiet_ms / 2)
            quiet = 0 if self.pending else quiet + 1


# Material keeps the reader's palette in localStorage; forgetting it before each load makes every
# page start from the system's colour scheme, whatever the previous page switched to.
FORGET_PALETTE = """
for (const key of Object.keys(localStorage)) {
  if (key.endsWith("__palette")) localStorage.removeItem(key);
}
"""


class Tab:
    """One browser tab that visits page after page, watching each load.

    Every request is routed (``page.route("**/*")``, which also sees the search worker's): one
    for another origin than the visited page's is recorded and aborted, so a page that would
    reach out to the network fails its test instead of reaching it. Console errors, uncaught
    exceptions, failed requests and HTTP errors are recorded on the current :class:`Visit`.
    Reusing the tab keeps one renderer process, which compiles injected scripts (axe-core) once.
    """

    def __init__(self, context: BrowserContext) -> None:
        self.page = context.new_page()
        self.current = Visit(self.page, "about:blank")
        self._owner: dict[Request, Visit] = {}
        self._error: Exception | None = None
        page = self.page
        page.route("**/*", self._route)
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.current.errors.append(f"uncaught: {e}"))
        page.on("request", self._started)
        page.on("requestfinished", self._finished)
        page.on("requestfailed", self._failed)
        page.on("response", self._response)

    def start(self, url: str) -> None:
        """Begin loading ``url``; returns once the server has answered, while the page loads."""
        from playwright.sync_api import Error

        self.current = Visit(self.page, url)
        self._error = None
        try:
            self.page.goto(url, wait_until="commit")
        except Error as error:
            self._error = error

    def finish(self) -> Visit:
        """Wait for the page :meth:`start` began to load and go quiet."""
        if self._error is not None:
            raise self._error
        self.page.wait_for_load_state("load")
        self.current.settle()
        return self.current

    def visit(self, url: str) -> Visit:
        """Load ``url`` and wait for it to load and go quiet."""
        self.start(url)
        return self.finish()

    def _route(self, route: Route) -> None:
        target = urlsplit(route.request.url)
        origin = urlsplit(self.current.url)
        if target.scheme in ("http", "https", "ws", "wss") and (target.scheme, target.netloc) != (
            origin.scheme,
            origin.netloc,
        ):
            self.current.offsite.append(route.request.url)
            route.abort("blockedbyclient")
        else:
            route.continue_()

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.current.errors.append(f"console: {message.text}")

    def _started(self, request: Request) -> None:
        self._owner[request] = self.current
        self.current.pending.add(request)

    def _finished(self, request: Request) -> None:
        owner = self._owner.pop(request, self.current)
        owner.pending.discard(request)

    def _failed(self, request: Request) -> None:
        owner = self._owner.pop(request, self.current)
        owner.pending.discard(request)
        if request.url in owner.offsite:
            return
        if "ERR_ABORTED" in (request.failure or "") and (
            owner is not self.current or _asked_by_another_page(request, owner)
        ):
            return  # cancelled by leaving the page that asked for it
        owner.failed.append(f"{request.url}: {request.failure}")

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            owner = self._owner.get(response.request, self.current)
            owner.failed.append(f"{response.url}: HTTP {response.status}")


def _asked_by_another_page(request: Request, visit: Visit) -> bool:
    """Whether the page that asked for ``request`` (its Referer, when that is a page rather
    than a stylesheet) is not the one ``visit`` loaded. A load the previous page started just
    before the tab left it (an image its last check brought into view) can be reported after
    the next visit has begun: its cancellation is not the next page's failure."""
    referer = urlsplit(request.headers.get("referer", ""))
    if not referer.path.endswith(("/", ".html")):
        return False
    page = urlsplit(visit.url)
    return (referer.netloc, referer.path) != (page.netloc, page.path)


class Tabs:
    """Two tabs in one context taking turns: while the caller looks at one page, the next one
    loads in the other tab (and runs what ``init_script`` starts on load), on another core.
    """

    def __init__(
        self, browser: Browser, *, init_script: str | None = None, **context_options: object
    ) -> None:
        self.context: BrowserContext = browser.new_context(**context_options)  # type: ignore[arg-type]
        self.context.add_init_script(FORGET_PALETTE)
        if init_script:
            self.context.add_init_script(init_script)
        self.tabs = [Tab(self.context), Tab(self.context)]
        self._preloaded: tuple[str, Tab] | None = None

    def visit(self, url: str, next_url: str | None = None) -> Visit:
        """Load ``url`` (or take it from the tab that preloaded it), then start ``next_url``."""
        if self._preloaded and self._preloaded[0] == url:
            tab = self._preloaded[1]
        else:
            tab = self.tabs[0]
            tab.start(url)
        self._preloaded = None
        tab.page.bring_to_front()  # a hidden tab gets no animation frames: clicks would wait
        v = tab.finish()
        if next_url:
            other = self.tabs[1] if tab is self.tabs[0] else self.tabs[0]
            other.start(next_url)
            self._preloaded = (next_url, other)
        return v

    def visit_in_order(self, base_url: str, page: str, pages: list[str]) -> Visit:
        """Load ``base_url + page``, then start loading the page after it in ``pages``."""
        following = pages[pages.index(page) + 1 :] if page in pages else []
        return self.visit(base_url + page, base_url + following[0] if following else None)

    def close(self) -> None:
        self.context.close()


def page_paths(site: Path, *, include_not_found: bool = False) -> list[str]:
    """Every page of a built site as a URL path relative to its root: ``""``, ``foundations/``.

    Discovered from the site's HTML files, so new pages are included without listing them.
    """
    paths = []
    for html in sorted(site.rglob("*.html")):
        rel = html.relative_to(site).as_posix()
        if rel == NOT_FOUND_PAGE:
            if include_not_found:
                paths.append(rel)
            continue
        paths.append(rel.removesuffix("index.html"))
    return paths


def page_name(path: str) -> str:
    """A file-name-safe name for a page path: ``index``, ``foundations_softmax``."""
    return path.strip("/").removesuffix(".html").replace("/", "_") or "index"


FINISH_FADES = """() => new Promise(resolve => requestAnimationFrame(() =>
    requestAnimationFrame(() => {
        document.getAnimations().forEach(a => a.finish());
        resolve();
    })))"""


def open_cards(page: Page) -> None:
    """Open every ``<details>`` of the article, with the colours of what they show final: a
    code block first drawn in the dark palette fades in from the light one's colours."""
    page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")
    page.evaluate(FINISH_FADES)


def set_palette(page: Page, scheme: str) -> None:
    """Switch the page to ``"slate"`` (dark) or ``"default"`` (light) with the header toggle."""
    body = page.locator("body")
    for _ in range(4):  # as many toggles as palettes, at most
        current = body.get_attribute("data-md-color-scheme")
        if current == scheme:
            return
        page.locator("form[data-md-component=palette] label:visible").first.click()
        page.wait_for_function(
            "s => document.body.getAttribute('data-md-color-scheme') !== s", arg=current
        )
        # The theme fades colours over ~0.25 s: jump to the end, so what is measured is final.
        # The fades start on a later frame than the attribute's change, so wait two frames
        # first: finished at once, a check straight after the toggle saw half-switched colours.
        page.evaluate(FINISH_FADES)
    raise AssertionError(f"the palette toggle never reached {scheme!r}")
