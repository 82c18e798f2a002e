"""A wheel of ``paperlens`` published with the site, so readers can ``pip install`` it.

Built through the standard PEP 517 interface: the ``build_wheel`` hook of the backend that
``pyproject.toml`` names (flit_core), so the wheel's metadata, its dependencies and extras such
as ``paperlens[notebooks]``, is whatever ``pyproject.toml`` says. The hook is called in this
process, from the backend installed in this environment (the ``docs`` extra pins it), the way
``python -m build --wheel --no-isolation`` calls it in a subprocess: no network, the same
backend version every time, and about 0.05 s instead of 0.4 s per build. flit_core writes
nothing into the source tree, stamps every file with ``SOURCE_DATE_EPOCH`` and normalises
permissions, so the same sources always give the same bytes.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sitekit.paths import BUILD_ENV, ROOT


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def version() -> str:
    """The library's version, as ``pyproject.toml`` names it."""
    return str(_pyproject()["project"]["version"])


def wheel_name() -> str:
    return f"{_pyproject()['project']['name']}-{version()}-py3-none-any.whl"


@contextlib.contextmanager
def _source_date_epoch() -> Iterator[None]:
    """``SOURCE_DATE_EPOCH`` set for the backend, to the build's (``BUILD_ENV``), when unset."""
    if "SOURCE_DATE_EPOCH" in os.environ:
        yield
        return
    os.environ["SOURCE_DATE_EPOCH"] = BUILD_ENV["SOURCE_DATE_EPOCH"]
    try:
        yield
    finally:
        del os.environ["SOURCE_DATE_EPOCH"]


def build_wheel() -> bytes:
    """The wheel's bytes, built from the checkout by its own PEP 517 backend."""
    backend = importlib.import_module(_pyproject()["build-system"]["build-backend"])
    with tempfile.TemporaryDirectory(prefix="paperlens-wheel-") as out:
        # PEP 517: hooks run with the source tree as the working directory.
        with contextlib.chdir(ROOT), _source_date_epoch():
            name: str = backend.build_wheel(out)
        if name != wheel_name():
            raise RuntimeError(f"expected {wheel_name()}, the backend built {name}")
        return (Path(out) / name).read_bytes()
