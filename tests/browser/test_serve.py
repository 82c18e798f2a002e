"""`make serve` as a contributor meets it: it shows what fails in the page, keeps serving, and
clears it once fixed (a false claim in an example, a figure script that raises or draws text too
faint to read, a citation's loose ends and a formula KaTeX cannot render, a broken link); it
serves a new page saved before its nav entry, with a note saying what to do; an edit to the
build code restarts it; and stopping it with ``kill -INT`` or ``kill -TERM`` of make's process,
even during its first build, leaves no process of the project behind (issue 25: the examples'
workers and multiprocessing's resource tracker were left running).

One server serves the module's checks of the page (its first build is the costly part), on a
scratch copy of the pages and the figure scripts (``scratch_with_figures``, tests/conftest.py)
with the session's caches, which the session's build (``site``) has filled; each test puts back
what it broke, and waits for the fix to show, before the next one starts, and the last one stops
it. The server of the build-code edit serves a copy of tools/sitekit, and the first-build stop
one empty caches. Each server runs in a session of its own: whatever is left of it afterwards
still carries that session's id.
"""

import contextlib
import html
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
import uuid
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


# The test's own page, saved before its nav entry: a name no contributor's page will take (a
# contributor's "broadcasting.md" once took this test's place in its scratch copy).
NEW_PAGE = "foundations/zz-test-serve-probe.md"
NEW_URL = "foundations/zz-test-serve-probe/"
NEW_SOURCE = """---
title: Serve probe
description: A page saved before its nav entry, by tests/browser/test_serve.py.
---

# Serve probe

```python
import numpy as np

assert (np.ones((2, 3)) + np.arange(3)).shape == (2, 3)
```
"""
# Their examples must run in the server's worker pool, never come from a cache an earlier
# session filled (PAPERLENS_CACHE_DIR may be one): each session's are its own. The session's id
# is in the code, as a comment: the cache's key reads the examples, not the prose around them
# (an id in an HTML comment once left the key unchanged, and a warm cache ran no example).
SESSION = f"  # test session {uuid.uuid4()}"
EXAMPLE = f'\n```python\nassert 2 + 2 == 4, "one more example"{SESSION}\n```\n'
NEW_SOURCE = NEW_SOURCE.replace("== (2, 3)\n", f"== (2, 3){SESSION}\n")
assert SESSION in NEW_SOURCE


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode()
    except OSError:
        return ""


def wait_until(check, what: str, timeout: float, server=None) -> None:
    """Wait for ``check``; ``server``: the (process, log) of a server that must keep running."""
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"no {what} within {timeout:.0f} s"
        if server is not None:
            proc, log = server
            assert proc.poll() is None, f"the server stopped:\n{log.read_text()[-3000:]}"
        time.sleep(0.25)


def left_in(session: int) -> list[str]:
    """The processes still in the session ``session`` (orphans keep their session's id), as
    ``"<pid> <command line>"``."""
    ps = subprocess.run(["ps", "-ww", "-eo", "sid=,pid=,args="], capture_output=True, text=True)
    return [
        line.split(None, 1)[1] for line in ps.stdout.splitlines() if line.split()[0] == str(session)
    ]


def engine(session: int) -> list[str]:
    """The pid of the engine serving the site."""
    return [p.split()[0] for p in left_in(session) if " serve " in p and "properdocs" in p]


@contextlib.contextmanager
def make_serve(config: Path, log: Path, env: dict[str, str] | None = None):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = ["make", "--no-print-directory", "serve", f"CONFIG={config}"]
    command.append(f"SERVE_ADDR=127.0.0.1:{port}")
    with open(log, "w") as out:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env or build_env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # make leads a session of its own: its id is make's pid
            # As a terminal starts it: with Ctrl-C not ignored (a shell ignores it for a job it
            # starts in the background, and make and the engine then ignore kill -INT).
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        try:
            yield proc, f"http://127.0.0.1:{port}/"
        finally:
            if left_in(proc.pid):  # the test failed: clean up what it started
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)


def stop_and_check(proc: subprocess.Popen, signum: int, log: Path) -> None:
    """Send ``signum`` to make's process alone, as ``kill`` does, and wait until nothing of
    the server is left."""
    workers = [p for p in left_in(proc.pid) if "multiprocessing" in p]
    assert any("spawn_main" in p for p in workers), "no example workers: nothing to check"
    assert any("resource_tracker" in p for p in workers), workers
    before = len(log.read_text())
    os.kill(proc.pid, signum)
    proc.wait(timeout=60)
    wait_until(lambda: not left_in(proc.pid), "clean stop", 30)
    output = log.read_text()[before:]  # what the stop printed
    assert "Traceback" not in output, output[-2000:]
    # The pool was shut down, not killed: multiprocessing's tracker found nothing to clean up.
    assert "leaked" not in output, output[-2000:]


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
        wait_until(lambda: "page-checked" in fetch(base + URL), "first build", 600, (proc, log))
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


def test_serve_shows_an_author_s_mistakes_in_the_page_and_clears_them_once_fixed(served, tab):
    """An unknown key, a paper named but not cited, and a formula KaTeX cannot render: `make
    site` fails on each (tests/site/test_citations.py, tests/tools/test_katex.py); the preview
    shows them at the top of the page, marks the key in place, and keeps serving."""
    page_file = served.folder / "docs" / PAGE
    original = page_file.read_text(encoding="utf-8")
    text = original.rstrip("\n") + "\n"
    line = text.count("\n") + 2
    planted = "\nAs Vaswani et al. say [@planted-missing2020], $\\frac{1}{$.\n"
    try:
        page_file.write_text(text + planted, encoding="utf-8")
        wait_until(lambda: "page-problems" in fetch(served.base + URL), "notice shown", 180)

        tab.goto(served.base + URL)
        notice = tab.locator(".admonition.page-problems")
        assert notice.count() == 1 and notice.is_visible()
        said = notice.inner_text()
        assert f"docs/{PAGE}:{line}: [@planted-missing2020] names no entry" in said
        assert f"docs/{PAGE}: names Vaswani et al. but does not cite it" in said
        assert f"docs/{PAGE}: KaTeX cannot render inline math '\\\\frac{{1}}{{'" in said
        marked = tab.locator("mark.citation-unknown")
        assert marked.count() == 1 and marked.inner_text() == "@planted-missing2020?"
        served.still_serving()
        assert "[@planted-missing2020] names no entry" in served.log.read_text()
    finally:
        page_file.write_text(original, encoding="utf-8")
    wait_until(lambda: "page-problems" not in fetch(served.base + URL), "notice cleared", 180)


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


def test_a_new_page_before_its_nav_entry_is_served_with_a_note_saying_what_to_do(served):
    """The guide's order: create the page (step 1), then add it to nav (step 2)."""
    new = served.folder / "docs" / NEW_PAGE
    assert not new.exists(), f"docs/{NEW_PAGE} exists: rename this test's page"
    new.write_text(NEW_SOURCE, encoding="utf-8")
    wait_until(lambda: "Serve probe" in fetch(served.base + NEW_URL), "the new page", 180)
    assert 'data-examples="1" data-status="passed"' in fetch(served.base + NEW_URL)
    served.still_serving()
    output = served.log.read_text()
    assert f"docs/{NEW_PAGE}, served at {served.base}{NEW_URL}" in output
    assert "add each under `nav:` in mkdocs.yml" in output


def test_a_stop_by_kill_int_is_clean(served):
    """The module's server, stopped as Ctrl-C stops it, after every check above."""
    stop_and_check(served.proc, signal.SIGINT, served.log)


def test_an_edit_to_the_build_code_restarts_the_server_and_a_stop_by_kill_term_is_clean(
    scratch_config, tmp_path
):
    """On a copy of tools/sitekit, first on PYTHONPATH, so the checkout's is never touched. The
    copy finds the repository (sitekit.paths.ROOT) as the folder above tools/: the scratch
    folder, given a copy of the library and the checkout's other files and folders as links."""
    tools = tmp_path / "tools"
    shutil.copytree(
        ROOT / "tools" / "sitekit", tools / "sitekit", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(ROOT / "src", tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):  # the wheel's backend refuses links out
        shutil.copy(ROOT / name, tmp_path / name)
    for entry in ROOT.iterdir():
        if not (tmp_path / entry.name).exists() and entry.name not in (".cache", "site", ".git"):
            (tmp_path / entry.name).symlink_to(entry)
    text = scratch_config.read_text(encoding="utf-8")
    scratch_config.write_text(text.replace(str(ROOT / "tools" / "sitekit"), str(tools / "sitekit")))
    env = build_env() | {"PYTHONPATH": str(tools)}
    page, log = tmp_path / "docs" / "foundations" / "softmax.md", tmp_path / "serve.log"
    with make_serve(scratch_config, log, env) as (proc, base):
        wait_until(
            lambda: "page-checked" in fetch(base + "foundations/softmax/"), "site", 600, (proc, log)
        )
        serving = engine(proc.pid)
        edited = tools / "sitekit" / "copy_code.py"
        edited.write_text(edited.read_text() + "\n# edited under make serve\n")
        wait_until(lambda: "restarting the server" in log.read_text(), "restart", 180)
        wait_until(lambda: log.read_text().count("Serving on") == 2, "restarted server", 600)
        assert engine(proc.pid) == serving  # restarted in place, as make's child
        page.write_text(page.read_text(encoding="utf-8") + EXAMPLE, encoding="utf-8")
        wait_until(lambda: "one more example" in fetch(base + "foundations/softmax/"), "edit", 180)
        stop_and_check(proc, signal.SIGTERM, log)


def test_a_stop_during_the_first_build_ends_every_process(scratch_config, tmp_path):
    """kill -TERM of make while the first build renders the figures and runs the examples
    (empty caches): the engine, its example workers and its figure renderers are gone (an
    interrupted pool once left make, the engine and both workers waiting forever). They go
    within seconds on a quiet machine; the bound is a minute, for a loaded one: 10 s failed
    twice beside the rest of the test session, and a timing goal is not a test's."""
    log = tmp_path / "serve.log"
    env = build_env() | {"PAPERLENS_CACHE_DIR": str(tmp_path / "empty-cache")}
    with make_serve(scratch_config, log, env) as (proc, _):

        def busy() -> bool:  # two example workers, and two figure renderers beside them
            return sum("spawn_main" in p for p in left_in(proc.pid)) >= 4

        wait_until(busy, "examples and figures under way", 120, (proc, log))
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)  # make, once the engine has exited
        end = time.monotonic() + 60
        while left_in(proc.pid) and time.monotonic() < end:
            time.sleep(0.25)
        assert not left_in(proc.pid), f"still running a minute later: {left_in(proc.pid)}"
    assert "Serving on" not in log.read_text()
