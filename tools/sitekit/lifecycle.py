"""The life of ``make serve``'s process: what it tells the terminal, how it stops, and its
restart when the build code changes.

**Stopping.** However the server is stopped, it takes its worker processes down with it (the
warm pool that runs the pages' examples, and multiprocessing's resource tracker, which exits
when they do): the engine shuts the server down after the build in progress and calls the
plugin's ``on_shutdown`` (`Stopper`). `stop_cleanly_on_signals` makes every way do that:

- Ctrl-C (SIGINT to make, the engine and its workers alike);
- ``kill`` (SIGTERM) of the engine, or of ``make``, which passes SIGTERM on to it;
- ``kill -INT`` of ``make`` alone: make then waits for its children, taking the signal to be
  the terminal's, sent to them too. It shows by no longer catching SIGINT (it restores the
  default to die by it once they exit), which a thread here watches for;
- the death of ``make`` (``kill -9``): the engine is sent SIGTERM (``PR_SET_PDEATHSIG``).

The workers ignore SIGINT (their pool is shut down by the engine) and die with the engine
(`die_with_parent`), even when it is killed with no chance to clean up. A stop during the first
build (before the server serves) interrupts the build: the workers are ended first (an
interrupted pool would leave them, and the engine, waiting on each other forever), and so are
the figure renderers (`sitekit.figures.Renderers`).

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
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

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


class Stopper:
    """Stops ``make serve``'s engine as Ctrl-C does, but between two builds: the server is told
    to shut down (`server`, from the plugin's ``on_serve``), its loop ends after the build in
    progress, and the engine calls the plugin's ``on_shutdown``. Before the server serves (the
    first build), or on a second signal, it interrupts the engine as Ctrl-C would."""

    def __init__(self, before_interrupt: Callable[[], None] = lambda: None) -> None:
        self.server: Any = None
        self.stopping = False
        self.before_interrupt = before_interrupt  # ends what the interrupt would leave waiting

    def serving(self) -> bool:
        """Whether the server's loop runs (its thread that answers requests has started)."""
        thread = getattr(self.server, "serve_thread", None)
        return thread is not None and thread.is_alive()

    def stop(self) -> None:
        if self.stopping or not self.serving():
            self.before_interrupt()
            raise KeyboardInterrupt
        self.stopping = True
        # In a thread: shutdown() waits for the server's loop, which this (main) thread runs.
        threading.Thread(target=self.server.shutdown, name="stop-server", daemon=True).start()

    def on_signal(self, signum: int, frame: FrameType | None) -> None:
        self.stop()


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


def _watch_make(parent: int, stopper: Stopper) -> None:
    """Stop this process when the make that started it is stopping (it no longer catches a
    signal that stops it) or gone: SIGTERM to itself, which the main thread handles, unless
    it is stopping already (make passes its own SIGTERM on)."""
    mask = sum(1 << (int(s) - 1) for s in STOPPING)
    caught = _caught(parent) & mask
    while True:
        time.sleep(0.3)
        if os.getppid() != parent or _caught(parent) & mask != caught:
            if not stopper.stopping:
                os.kill(os.getpid(), signal.SIGTERM)
            return


def stop_cleanly_on_signals(before_interrupt: Callable[[], None]) -> Stopper:
    """Under ``make serve`` (called in the engine's main thread): Ctrl-C, SIGTERM, and a make
    that is stopping or gone, stop the server (see the module's docstring); returns the
    `Stopper`, to be given the server. ``before_interrupt`` runs before a stop that interrupts
    a build (the first one, or a second signal): it ends the example workers."""
    stopper = Stopper(before_interrupt)
    signal.signal(signal.SIGTERM, stopper.on_signal)
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # started in the background
        signal.signal(signal.SIGINT, stopper.on_signal)
    die_with_parent()
    parent = os.getppid()
    if _is_make(parent):
        watch = threading.Thread(target=_watch_make, args=(parent, stopper), daemon=True)
        watch.start()
    return stopper
