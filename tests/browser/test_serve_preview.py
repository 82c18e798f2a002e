"""`make serve` shows what fails in the page, keeps serving, and clears it once fixed: a false
claim in an example, a figure script that raises, and one whose drawing fails a figure check.

One server for the module (its first build is the costly part): it serves a scratch copy of
the pages and the figure scripts (``scratch_with_figures``, tests/conftest.py) with the
checkout's caches, which the session build (``site``) has filled. Each test puts back what it
broke, and waits for the fix to show, before the next one starts.
"""

import contextlib
import html
import os
import signal
import socket
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from sitekit.paths import ROOT, build_env

PAGE = "foundations/softmax.md"
URL = "foundations/softmax/"
PLANTED = '\n```python\nassert 1 + 1 == 3, "planted false claim"\n```\n'
# A figure of that page, and two ways to break it: raise, or draw a label too faint to read.
FIGURE = "foundations/softmax/scores-to-weights.py"
RETURN = "    return pl.show(fig, alt)\n"
BREAKS = {
    "raises": (
        '    raise RuntimeError("planted figure failure")\n',
        "RuntimeError: planted figure failure",
    ),
    "fails the contrast check": (
        '    fig.text(0.5, 0.5, "planted faint label", color="#dddddd")\n',
        "'planted faint label' in #dddddd on #ffffff: contrast",
    ),
}
FAILED_ALT = "The figure could not be drawn"


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode()
    except OSError:
        return ""


def wait_until(check, what: str, timeout: float) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"no {what} within {timeout:.0f} s"
        time.sleep(0.25)


@contextlib.contextmanager
def make_serve(config: Path, log: Path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = ["make", "--no-print-directory", "serve", f"CONFIG={config}"]
    command.append(f"SERVE_ADDR=127.0.0.1:{port}")
    with open(log, "w") as out:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env=build_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            yield proc, f"http://127.0.0.1:{port}/"
        finally:
            # Stopped as `kill` stops it: SIGTERM to make, which stops the server (whose clean
            # stop tests/site/test_serve.py checks); what is left after a minute is killed.
            os.kill(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)


@dataclass
class Served:
    folder: Path  # the scratch copy: docs/, figures/, mkdocs.yml
    proc: subprocess.Popen[bytes]
    base: str
    log: Path

    def still_serving(self) -> None:
        """The server kept running, and serves the other pages."""
        assert self.proc.poll() is None
        assert "Softmax" in fetch(self.base + "foundations/")


@pytest.fixture(scope="module")
def served(site, scratch_with_figures):
    folder = scratch_with_figures.parent
    log = folder / "serve.log"
    with make_serve(scratch_with_figures, log) as (proc, base):
        wait_until(lambda: "page-checked" in fetch(base + URL), "first build", 600)
        yield Served(folder, proc, base, log)


@pytest.fixture
def tab(browser):
    # The served pages poll the server to reload themselves after each rebuild; the tests
    # load them themselves instead, so that no reload lands in the middle of a check.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(60_000)
    context.route("**/livereload/**", lambda route: route.abort())
    yield context.new_page()
    context.close()


def test_serve_marks_a_failing_example_and_clears_it_once_fixed(served, tab):
    page_file = served.folder / "docs" / PAGE
    original = page_file.read_text(encoding="utf-8")
    try:
        page_file.write_text(original.rstrip("\n") + "\n" + PLANTED, encoding="utf-8")
        wait_until(lambda: "example-failure" in fetch(served.base + URL), "failure shown", 180)

        tab.goto(served.base + URL)
        box = tab.locator(".admonition.example-failure")
        assert box.count() == 1
        assert box.is_visible()
        text = box.inner_text()
        assert "planted false claim" in text and "Traceback" in text
        assert f'File "docs/{PAGE}"' in text
        # The notice at the top of the page links to the box.
        notice = tab.locator(".admonition.example-failures")
        assert notice.bounding_box()["y"] < box.bounding_box()["y"]
        # Material's instant navigation (on under `make serve`, whose address the sitemap names)
        # writes a page's links out in full: the fragment is what points at the box.
        link = notice.locator("a[href*='#example-failure-']")
        assert link.count() == 1
        target = link.get_attribute("href").split("#", 1)[1]
        assert box.locator(f"#{target}").count() == 1
        link.click()
        tab.wait_for_function(f"location.hash === '#{target}'")
        assert tab.locator(".page-checked").get_attribute("data-status") == "failed"

        # The server kept serving, and said the same in its terminal.
        served.still_serving()
        assert "planted false claim" in served.log.read_text()
    finally:
        page_file.write_text(original, encoding="utf-8")
    wait_until(lambda: "example-failure" not in fetch(served.base + URL), "failure cleared", 180)
    tab.goto(served.base + URL)
    assert tab.locator(".example-failure, .example-failures").count() == 0
    assert tab.locator(".page-checked").get_attribute("data-status") == "passed"


def page_text(served: Served) -> str:
    return html.unescape(fetch(served.base + URL))


def _shown(tab, base: str) -> dict[str, object]:
    """The page's drawing of the figure, as the browser shows it (light palette, wide)."""
    tab.goto(base + URL)
    image = tab.locator(f"img[src$='{Path(FIGURE).stem}.svg']").first
    image.scroll_into_view_if_needed()  # figures load lazily
    tab.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    return {
        "alt": image.get_attribute("alt") or "",
        "visible": image.is_visible(),
        "src": image.evaluate("img => img.currentSrc"),
    }


def test_serve_shows_a_failing_figure_in_its_place_and_clears_it_once_fixed(served, tab):
    """The figure's script raises, then (one save later) draws a label too faint to read,
    then is fixed: three rebuilds of one server."""
    script = served.folder / "figures" / FIGURE
    original = script.read_text(encoding="utf-8")
    assert original.count(RETURN) == 1
    try:
        for how, (planted, message) in BREAKS.items():
            script.write_text(original.replace(RETURN, planted + RETURN), encoding="utf-8")
            wait_until(lambda m=message: m in page_text(served), f"a script that {how}", 180)

            shown = _shown(tab, served.base)
            assert shown["visible"], how
            alt = str(shown["alt"])
            assert alt.startswith(f"{FAILED_ALT}: its script figures/{FIGURE} failed"), how
            assert message in alt, how
            # The drawing itself shows the script and its error.
            svg = html.unescape(fetch(str(shown["src"])))
            assert f"figures/{FIGURE}" in svg and message in svg, how

            # The server kept serving, and printed the error in its terminal.
            served.still_serving()
            log = served.log.read_text()
            assert "a figure script failed (shown in the page)" in log and message in log, how
    finally:
        script.write_text(original, encoding="utf-8")
    wait_until(lambda: FAILED_ALT not in fetch(served.base + URL), "figure redrawn", 180)
    shown = _shown(tab, served.base)
    assert shown["visible"] and str(shown["alt"]).startswith("Two bar charts.")


def test_serve_shows_a_citation_s_loose_ends_in_the_page_and_clears_them_once_fixed(served, tab):
    """An unknown key and a paper named but not cited: `make site` fails on either
    (tests/site/test_citations.py); the preview marks them and keeps serving."""
    page_file = served.folder / "docs" / PAGE
    original = page_file.read_text(encoding="utf-8")
    text = original.rstrip("\n") + "\n"
    line = text.count("\n") + 2
    try:
        page_file.write_text(
            text + "\nAs Vaswani et al. say [@planted-missing2020].\n", encoding="utf-8"
        )
        wait_until(lambda: "citation-errors" in fetch(served.base + URL), "notice shown", 180)

        tab.goto(served.base + URL)
        notice = tab.locator(".admonition.citation-errors")
        assert notice.count() == 1 and notice.is_visible()
        said = notice.inner_text()
        assert f"docs/{PAGE}:{line}: [@planted-missing2020] names no entry" in said
        assert f"docs/{PAGE}: names Vaswani et al. but does not cite it" in said
        marked = tab.locator("mark.citation-unknown")
        assert marked.count() == 1 and marked.inner_text() == "@planted-missing2020?"
        served.still_serving()
        assert "[@planted-missing2020] names no entry" in served.log.read_text()
    finally:
        page_file.write_text(original, encoding="utf-8")
    wait_until(lambda: "citation-errors" not in fetch(served.base + URL), "notice cleared", 180)


def test_serve_shows_a_broken_link_in_the_page_and_keeps_serving_until_it_is_fixed(served, tab):
    """A link to a page that does not exist: `make site` fails on it (strict); under `make
    serve` the page says so at its top, and every page is still served (a strict rebuild
    aborted on it once, and every request hung until a build passed)."""
    page_file = served.folder / "docs" / PAGE
    original = page_file.read_text(encoding="utf-8")
    try:
        page_file.write_text(
            original.rstrip("\n") + "\n\nSee [the planted page](planted-nowhere.md).\n",
            encoding="utf-8",
        )
        wait_until(lambda: "link-problems" in fetch(served.base + URL), "link shown", 180)

        tab.goto(served.base + URL)
        box = tab.locator(".admonition.link-problems")
        assert box.count() == 1 and box.is_visible()
        said = box.inner_text()
        assert "A link on this page goes nowhere" in said
        assert "contains a link 'planted-nowhere.md'" in said and "make site fails" in said
        served.still_serving()
        assert "planted-nowhere.md" in served.log.read_text()
    finally:
        page_file.write_text(original, encoding="utf-8")
    wait_until(lambda: "link-problems" not in fetch(served.base + URL), "link cleared", 180)
