"""Where the build keeps things, and the environment it runs in.

``ROOT`` is the repository root, the one definition every tool, test and benchmark imports:
``sitekit`` is installed editable from ``tools/`` (``make env``), so this file is always the
checkout's own. ``PAPERLENS_CACHE_DIR`` moves the content-hash caches (benchmarks and
reproducibility tests use a fresh one). ``BUILD_ENV`` is the environment of a reproducible
build; the Makefile exports the same variables (a test checks they agree).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent.parent
# The environment of a reproducible build, as the Makefile exports it: MkDocs 1.6's banner
# about MkDocs 2 silenced (it would fail a strict build), the timestamp of every generated file
# (the wheel's zip entries; a caller's own SOURCE_DATE_EPOCH wins, as the Makefile's ``?=``
# lets it), and a fixed hash seed for any iteration over sets of strings.
BUILD_ENV: Mapping[str, str] = {
    "NO_MKDOCS_2_WARNING": "1",
    "DISABLE_MKDOCS_2_WARNING": "true",
    "SOURCE_DATE_EPOCH": "1767225600",
    "PYTHONHASHSEED": "0",
}
# The variables a caller may set to its own value (``?=`` in the Makefile).
OVERRIDABLE = frozenset({"SOURCE_DATE_EPOCH"})
# The engine that builds the site: ProperDocs, the maintained fork of MkDocs 1.6 (README, "The
# engine"). The Makefile names it too (ENGINE).
ENGINE = "properdocs"


def engine() -> str:
    """The engine's command in this Python's environment (the project's venv)."""
    return str(Path(sys.executable).with_name(ENGINE))


def build_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (default: this process's environment) with ``BUILD_ENV`` set over it."""
    env = dict(os.environ if base is None else base)
    for name, value in BUILD_ENV.items():
        if name not in OVERRIDABLE or name not in env:
            env[name] = value
    return env


def cache_root() -> Path:
    return Path(os.environ.get("PAPERLENS_CACHE_DIR", ROOT / ".cache"))


def page_url(src: str) -> str:
    """The HTML file MkDocs (``use_directory_urls``) writes for the page source ``src``."""
    stem = PurePosixPath(src).with_suffix("")
    if stem.name in ("index", "README"):
        return str(stem.parent / "index.html").removeprefix("./")
    return str(stem / "index.html")
