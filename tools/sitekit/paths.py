"""Where the build keeps things: the repository root and the content-hash caches.

``PAPERLENS_CACHE_DIR`` moves the caches (benchmarks and reproducibility tests use a fresh one).
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def cache_root() -> Path:
    return Path(os.environ.get("PAPERLENS_CACHE_DIR", ROOT / ".cache"))
