"""Render figure scripts to SVG files: ``python -m sitekit.render SCRIPT OUT [SCRIPT OUT ...]``.

Runs in a fresh process for each build so the figures always see the current ``paperlens``.
On failure prints one JSON line ``{"script", "error"}`` and exits 1.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import traceback
from pathlib import Path

import matplotlib

matplotlib.use("svg")

from sitekit import figstyle  # noqa: E402


def render(script: Path, out: Path) -> None:
    # A section's shared helpers (figures/<section>/_name.py) import as ``from _name import``.
    sys.path.insert(0, str(script.resolve().parent.parent))
    spec = importlib.util.spec_from_file_location(f"figure_{script.stem}", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not callable(getattr(module, "make_figure", None)):
        raise TypeError(f"{script} defines no make_figure() function")
    figstyle.apply()
    fig = module.make_figure()
    svg = figstyle.to_svg(fig)
    tmp = out.with_suffix(".tmp")
    tmp.write_bytes(svg)
    tmp.replace(out)


def main(argv: list[str]) -> int:
    pairs = list(zip(argv[::2], argv[1::2], strict=True))
    for script, out in pairs:
        try:
            render(Path(script), Path(out))
        except Exception:
            path = Path(script).resolve()
            cwd = Path.cwd().resolve()
            name = path.relative_to(cwd).as_posix() if path.is_relative_to(cwd) else str(path)
            print(json.dumps({"script": name, "error": traceback.format_exc()}))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
