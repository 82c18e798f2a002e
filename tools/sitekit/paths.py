"""Where the build keeps things: the repository root and the content-hash caches.

``PAPERLENS_CACHE_DIR`` moves the caches (benchmarks and reproducibility tests use a fresh one).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent.parent
# The engine that builds the site: ProperDocs, the maintained fork of MkDocs 1.6 (README, "The
# engine"). The Makefile names it too (ENGINE).
ENGINE = "properdocs"


def engine() -> str:
    """The engine's command in this Python's environment (the project's venv)."""
    return str(Path(sys.executable).with_name(ENGINE))


def cache_root() -> Path:
    return Path(os.environ.get("PAPERLENS_CACHE_DIR", ROOT / ".cache"))


def page_url(src: str) -> str:
    """The HTML file MkDocs (``use_directory_urls``) writes for the page source ``src``."""
    stem = PurePosixPath(src).with_suffix("")
    if stem.name in ("index", "README"):
        return str(stem.parent / "index.html").removeprefix("./")
    return str(stem / "index.html")


def blas_config() -> str:
    """The BLAS kernel and thread count NumPy runs with here, e.g. ``openblas SkylakeX x2``.

    Results of matrix products differ between kernels in their last bits, so every cache of
    computed output (figures, executed notebooks) is keyed by this too: a build under another
    kernel (``OPENBLAS_CORETYPE``, or another CPU) never reuses this one's results.
    """
    import numpy  # noqa: F401  (threadpoolctl only sees libraries already loaded)
    from threadpoolctl import threadpool_info

    return ", ".join(
        f"{lib.get('internal_api')} {lib.get('architecture')} x{lib.get('num_threads')}"
        for lib in threadpool_info()
    )
