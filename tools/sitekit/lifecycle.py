"""The life of ``make serve``'s process: what it tells the terminal, how it stops, and its
restart when the build code changes.

**Stopping.** However the server is stopped, it takes its worker processes down with it (the
warm pool that runs the pages' examples, and multiprocessing's resource tracker, which exits
when they do). Ctrl-C interrupts the engine, which shuts down and calls the plugin's
``on_shutdown``; `stop_cleanly_on_signals` makes the other ways behave the same:

- ``kill`` (SIGTERM) of the engine, or of ``make``, which passes SIGTERM on to it;
- ``kill -INT`` of ``make`` alone: make then waits for its children, taking the signal to be
  the terminal's, sent to them too. It shows by no longer catching SIGINT (it restores the
  default to die by it once they exit), which a thread here watches for;
- the death of ``make`` (``kill -9``): the engine is sent SIGTERM (``PR_SET_PDEATHSIG``).

The workers ignore SIGINT (their pool is shut down by the engine) and die with the engine
(`die_with_parent`), even when it is killed with no chance to clean up.

**Restarting.** Modules are never reloaded in place (a reload rebinds nothing that other
modules imported from them, so half the build would run the old code): when ``tools/sitekit``
changes under ``make serve``, the server restarts, as the same process with the same arguments.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import NoReturn

import sitekit

log = logging.getLogger("mkdocs.plugins.paperlens")

# The build code a running server has imported: the sitekit package it was started with.
PACKAGE = Path(sitekit.__file__).resolve().parent


def code_key() -> str:
    """A hash of the build code's modules (``tools/sitekit/**/*.py``), as they are on disk."""
    from sitekit.cache import hash_paths

    return hash_paths(sorted(PACKAGE.rglob("*.py")), PACKAGE)


def tell(message: str) -> None:
    """Print to the terminal running the build (a warning would stop ``serve --strict``)."""
    sys.stderr.write(f"\npaperlens: {message}\n\n")
    sys.stderr.flush()


def restart_server(site_dir: Path) -> NoReturn:
    """Replace this process by a fresh one with the same arguments (the same process id, so
    ``make`` and the terminal keep it): the new one imports the build code as it is now."""
    tell("the build code (tools/sitekit) changed: restarting the server")
    shutil.rmtree(site_dir, ignore_errors=True)  # the old server's temporary site
    logging.shutdown()
    sys.stdout.flush()
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


PR_SET_PDEATHSIG = 1  # prctl(2)
# The signals that stop make; make restores the default for one when it receives it.
STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


def die_with_parent(signum: int = signal.SIGTERM) -> None:
    """Have Linux send this process ``signum`` when its parent exits (nothing elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signum))
    if os.getppid() != parent:  # the parent died before the request took effect
        os.kill(os.getpid(), signum)


def worker_started() -> None:
    """In a worker process: Ctrl-C is the engine's to handle, and the worker dies with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _caught(pid: int) -> int:
    """The set of signals process ``pid`` catches, as the bit mask of /proc/<pid>/status."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("SigCgt:"):
            return int(line.split()[1], 16)
    return 0


def _is_make(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip() in ("make", "gmake")
    except OSError:
        return False


def _watch_make(parent: int) -> None:
    """Interrupt this process, as Ctrl-C would, when the make that started it is stopping
    (it no longer catches a signal that stops it) or gone."""
    mask = sum(1 << (int(s) - 1) for s in STOPPING)
    caught = _caught(parent) & mask
    while True:
        time.sleep(0.3)
        if os.getppid() != parent or _caught(parent) & mask != caught:
            os.kill(os.getpid(), signal.SIGINT)
            return


def stop_cleanly_on_signals() -> None:
    """Under ``make serve`` (called in the engine's main thread): SIGTERM stops the server as
    Ctrl-C does, and so does a make that is stopping or gone (see the module's docstring)."""
    signal.signal(signal.SIGTERM, _interrupt)
    die_with_parent()
    parent = os.getppid()
    if _is_make(parent):
        threading.Thread(target=_watch_make, args=(parent,), name="watch-make", daemon=True).start()
