"""The life of ``make serve``'s process: what it tells the terminal, and its restart when the
build code changes.

Modules are never reloaded in place (a reload rebinds nothing that other modules imported
from them, so half the build would run the old code): when ``tools/sitekit`` changes under
``make serve``, the server restarts, as the same process with the same arguments.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
from pathlib import Path
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
