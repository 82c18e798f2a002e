"""Time the edit loop: from saving a file to the served page carrying the change.

    .venv/bin/python benchmarks/edit_loop.py [--edits 5]

Three edits under ``make serve``, each repeated ``--edits`` times:

- **prose**: a sentence added to a page;
- **example**: an example added to a page (the build runs that page's examples before it
  serves the page, so the time includes running them);
- **figure**: the figure script of that page edited (the time runs to the new SVG served).

The baseline is a bare ``serve`` of the same pages and theme (no hooks, no plugins), timed on
the same prose edit in this same run: before and after the site's own server, never at the same
time (both watch ``docs/``), so drift on a shared machine shows. Prints the median of each and
its ratio to the bare median. The checkout is edited in place and restored after each edit (and
on exit); the caches are the checkout's own, as a contributor's are.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

from site_build import bare_config  # benchmarks/site_build.py

from sitekit.paths import ROOT, build_env, engine

PAGE = ROOT / "docs/contributing/sample-page.md"
PAGE_URL = "contributing/sample-page/"
FIGURE = ROOT / "figures/contributing/sample-page/softmax-two-scores.py"
FIGURE_URL = "figures/contributing/sample-page/softmax-two-scores.svg"
TIMEOUT = 180.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fetch(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return bytes(response.read())
    except OSError:
        return b""


def wait_for(check: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> float:
    start = time.perf_counter()
    while not check():
        if time.perf_counter() - start > timeout:
            raise TimeoutError(f"no {what} after {timeout:.0f} s")
        time.sleep(0.02)
    return time.perf_counter() - start


@contextlib.contextmanager
def server(command: list[str], port: int) -> Iterator[str]:
    """A serve process, ready once its first build is served."""
    log = open(ROOT / ".cache" / f"edit-loop-{port}.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        env=build_env(),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}/"
    try:

        def served() -> bool:
            if proc.poll() is not None:  # a failed build ends the server: say so at once
                raise RuntimeError(f"the server exited ({proc.returncode}): see {log.name}")
            return bool(fetch(base + PAGE_URL))

        wait_for(served, "first build", timeout=900)
        time.sleep(1.0)  # let the watcher settle
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        log.close()


@contextlib.contextmanager
def edited(path: Path, change: Callable[[str], str]) -> Iterator[None]:
    original = path.read_bytes()
    try:
        path.write_text(change(original.decode()))
        yield
    finally:
        path.write_bytes(original)


def settle(base: str, url: str, gone: bytes) -> None:
    """After restoring a file, wait until the server no longer serves ``gone``."""
    wait_for(lambda: gone not in fetch(base + url), "restored page")
    time.sleep(0.5)


def prose_edit(base: str, n: int) -> float:
    marker = f"Edit-loop marker {n} {time.time_ns()}."
    with edited(PAGE, lambda text: text.rstrip("\n") + f"\n\n{marker}\n"):
        seconds = wait_for(lambda: marker.encode() in fetch(base + PAGE_URL), "prose edit")
    settle(base, PAGE_URL, marker.encode())
    return seconds


def example_edit(base: str, n: int) -> float:
    marker = f"edit_loop_{n}_{time.time_ns()}"
    block = f"\n\n```python\n{marker} = {n} + 1\nassert {marker} == {n + 1}\n```\n"
    with edited(PAGE, lambda text: text.rstrip("\n") + block):
        seconds = wait_for(lambda: marker.encode() in fetch(base + PAGE_URL), "example edit")
    settle(base, PAGE_URL, marker.encode())
    return seconds


def figure_edit(base: str, n: int) -> float:
    before = fetch(base + FIGURE_URL)

    def thicker(text: str) -> str:
        new, count = re.subn(r"\blw=2\b", f"lw=2.{n + 1}", text, count=1)
        if count != 1:
            raise RuntimeError(f"{FIGURE}: the edit no longer applies")
        return new

    with edited(FIGURE, thicker):
        seconds = wait_for(lambda: fetch(base + FIGURE_URL) not in (b"", before), "figure edit")
    settle(base, FIGURE_URL, before)
    return seconds


def measure(base: str, edit: Callable[[str, int], float], edits: int) -> list[float]:
    times = [edit(base, n) for n in range(edits)]
    print(f"  {edit.__name__}: " + ", ".join(f"{t:.2f}" for t in times), flush=True)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--edits", type=int, default=5)
    args = parser.parse_args()
    (ROOT / ".cache").mkdir(exist_ok=True)
    bare = bare_config(ROOT)  # ROOT/mkdocs-bare.yml, removed at the end
    times: dict[str, list[float]] = {"bare prose": []}
    try:
        port = free_port()
        bare_cmd = [engine(), "serve", "-f", str(bare), "-a", f"127.0.0.1:{port}"]
        with server(bare_cmd, port) as base:
            times["bare prose"] += measure(base, prose_edit, (args.edits + 1) // 2)
        port = free_port()
        make = ["make", "--no-print-directory", "serve", f"SERVE_ADDR=127.0.0.1:{port}"]
        with server(make, port) as base:
            times["prose"] = measure(base, prose_edit, args.edits)
            times["example"] = measure(base, example_edit, args.edits)
            times["figure"] = measure(base, figure_edit, args.edits)
        port = free_port()
        bare_cmd[-1] = f"127.0.0.1:{port}"
        with server(bare_cmd, port) as base:
            times["bare prose"] += measure(base, prose_edit, args.edits // 2 + 1)
    finally:
        bare.unlink(missing_ok=True)
    baseline = statistics.median(times["bare prose"])
    print(f"{'edit':<12} {'median s':>9} {'range s':>13} {'× bare':>7}  runs")
    for name in ("bare prose", "prose", "example", "figure"):
        values = times[name]
        median = statistics.median(values)
        spread = f"{min(values):.2f}–{max(values):.2f}"
        print(f"{name:<12} {median:>9.2f} {spread:>13} {median / baseline:>7.2f}  {len(values)}")
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    sys.exit(main())
