"""Render figure scripts: ``python -m sitekit.render SCRIPT OUT [SCRIPT OUT ...]``.

Each script's ``make_figure(style, layout)`` (the contract in `sitekit.figstyle`) gives a
figure and its alt text; ``OUT`` is written as the SVG and ``OUT`` with the suffix ``.alt``
as the alt text. Runs in a fresh process for each build so the figures always see the current
``paperlens``. On failure prints one JSON line ``{"script", "error"}`` and exits 1.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import traceback
from pathlib import Path
from types import ModuleType

import matplotlib

matplotlib.use("svg")

import matplotlib.pyplot as plt  # noqa: E402

from paperlens.show import FigureWithAlt  # noqa: E402
from sitekit import figstyle  # noqa: E402


def load(script: Path) -> ModuleType:
    """Import a figure script as a module."""
    # A section's shared helpers (figures/<section>/_name.py) import as ``from _name import``.
    sys.path.insert(0, str(script.resolve().parent.parent))
    spec = importlib.util.spec_from_file_location(f"figure_{script.stem}", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not callable(getattr(module, "make_figure", None)):
        raise TypeError(f"{script} defines no make_figure(style, layout) function")
    return module


def draw(module: ModuleType, style: figstyle.Style, layout: figstyle.Layout) -> FigureWithAlt:
    """Call a figure script's ``make_figure`` in the site's style and check what it returns."""
    figstyle.apply(style)
    result = module.make_figure(style, layout)
    if not isinstance(result, FigureWithAlt):
        raise TypeError(
            f"make_figure must return paperlens.show(fig, alt), the figure and its alt text "
            f"computed from its data; got {type(result).__name__}"
        )
    return result


def render(script: Path, out: Path) -> None:
    module = load(script)
    result = draw(module, figstyle.LIGHT, figstyle.WIDE)
    narrow = draw(module, figstyle.LIGHT, figstyle.NARROW)
    plt.close(narrow.fig)  # type: ignore[arg-type]
    if narrow.alt != result.alt:
        raise ValueError(
            "the alt text describes the data, so it must not depend on the layout: "
            f"wide gives {result.alt!r}, narrow {narrow.alt!r}"
        )
    for path, content in [
        (out, figstyle.to_svg(result.fig)),  # type: ignore[arg-type]
        (out.with_suffix(".alt"), result.alt.encode()),
    ]:
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_bytes(content)
        tmp.replace(path)


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
