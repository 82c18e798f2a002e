"""`make serve` as a contributor meets it: a new page saved before its nav entry is served with
a note saying what to do; an edit to the build code restarts the server; and stopping it with
``kill -INT`` or ``kill -TERM`` of make's process leaves no process of the project behind
(issue 25: the examples' workers and multiprocessing's resource tracker were left running).

The server runs on a scratch copy of the pages (``scratch_config``, tests/conftest.py) with the
session's caches, in a session of its own: whatever is left of it afterwards still carries that
session's id.
"""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
import uuid
from pathlib import Path

from sitekit.paths import ROOT, build_env

# The test's own page, saved before its nav entry: a name no contributor's page will take (a
# contributor's "broadcasting.md" once took this test's place in its scratch copy).
NEW_PAGE = "foundations/zz-test-serve-probe.md"
NEW_URL = "foundations/zz-test-serve-probe/"
NEW_SOURCE = """---
title: Serve probe
description: A page saved before its nav entry, by tests/site/test_serve.py.
---

# Serve probe

```python
import numpy as np

assert (np.ones((2, 3)) + np.arange(3)).shape == (2, 3)
```
"""
EXAMPLE = '\n```python\nassert 2 + 2 == 4, "one more example"\n```\n'
# Their examples must run in the server's worker pool, never come from a cache an earlier
# session filled (PAPERLENS_CACHE_DIR may be one): each session's are its own.
SESSION = f"\n<!-- {uuid.uuid4()} -->\n"
NEW_SOURCE += SESSION
EXAMPLE += SESSION


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
    os.kill(proc.pid, signum)
    proc.wait(timeout=60)
    wait_until(lambda: not left_in(proc.pid), "clean stop", 30)
    output = log.read_text()
    assert "Traceback" not in output
    # The pool was shut down, not killed: multiprocessing's tracker found nothing to clean up.
    assert "leaked" not in output, output[-2000:]


def test_a_new_page_before_its_nav_entry_is_served_and_a_stop_by_kill_int_is_clean(
    scratch_config, tmp_path
):
    """The guide's order: create the page (step 1), then add it to nav (step 2)."""
    docs, log = tmp_path / "docs", tmp_path / "serve.log"
    with make_serve(scratch_config, log) as (proc, base):
        wait_until(
            lambda: "page-checked" in fetch(base + "foundations/softmax/"), "site", 600, (proc, log)
        )
        assert not (docs / NEW_PAGE).exists(), f"docs/{NEW_PAGE} exists: rename this test's page"
        (docs / NEW_PAGE).write_text(NEW_SOURCE, encoding="utf-8")
        wait_until(lambda: "Serve probe" in fetch(base + NEW_URL), "the new page", 180)
        assert 'data-examples="1" data-status="passed"' in fetch(base + NEW_URL)
        assert "Softmax" in fetch(base + "foundations/")  # and the rest are still served
        output = log.read_text()
        assert f"docs/{NEW_PAGE}, served at {base}{NEW_URL}" in output
        assert "add each under `nav:` in mkdocs.yml" in output
        stop_and_check(proc, signal.SIGINT, log)


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


def test_a_stop_during_the_first_build_ends_every_process_at_once(scratch_config, tmp_path):
    """kill -TERM of make while the first build renders the figures and runs the examples
    (empty caches): the engine, its example workers and its figure renderers are gone within
    seconds (an interrupted pool once left make, the engine and both workers waiting forever)."""
    log = tmp_path / "serve.log"
    env = build_env() | {"PAPERLENS_CACHE_DIR": str(tmp_path / "empty-cache")}
    with make_serve(scratch_config, log, env) as (proc, _):

        def busy() -> bool:
            running = left_in(proc.pid)
            return any("spawn_main" in p for p in running) and any(
                "sitekit.render" in p for p in running
            )

        wait_until(busy, "examples and figures under way", 120, (proc, log))
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)  # make, once the engine has exited
        wait_until(lambda: not left_in(proc.pid), "every process gone", 10)
    assert "Serving on" not in log.read_text()
