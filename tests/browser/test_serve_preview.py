"""`make serve` shows a false claim in the page, keeps serving, and clears it once fixed.

The server runs on a scratch copy of the pages (``scratch_config``, tests/conftest.py) with the
checkout's caches, which the session build (``site``) has filled.
"""

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from sitekit.paths import ROOT, build_env

PAGE = "foundations/softmax.md"
URL = "foundations/softmax/"
PLANTED = '\n```python\nassert 1 + 1 == 3, "planted false claim"\n```\n'


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
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)


def test_serve_marks_a_failing_example_and_clears_it_once_fixed(
    site, browser, scratch_config, tmp_path
):
    page_file = tmp_path / "docs" / PAGE
    original = page_file.read_text(encoding="utf-8")
    log = tmp_path / "serve.log"
    with make_serve(scratch_config, log) as (proc, base):
        wait_until(lambda: "page-checked" in fetch(base + URL), "first build", 600)
        page_file.write_text(original.rstrip("\n") + "\n" + PLANTED, encoding="utf-8")
        wait_until(lambda: "example-failure" in fetch(base + URL), "failure shown", 180)

        # The served pages poll the server to reload themselves after each rebuild; the test
        # loads them itself instead, so that no reload lands in the middle of a check.
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(60_000)
        context.route("**/livereload/**", lambda route: route.abort())
        tab = context.new_page()
        tab.goto(base + URL)
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
        assert proc.poll() is None
        assert "Softmax" in fetch(base + "foundations/")
        assert "planted false claim" in log.read_text()

        page_file.write_text(original, encoding="utf-8")
        wait_until(lambda: "example-failure" not in fetch(base + URL), "failure cleared", 180)
        tab.goto(base + URL)
        assert tab.locator(".example-failure, .example-failures").count() == 0
        assert tab.locator(".page-checked").get_attribute("data-status") == "passed"
        context.close()
