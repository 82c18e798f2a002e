"""Render a figure script (`render`), in one of the build's worker processes (`figures.Renderers`).

Each script's ``make_figure(style, layout)`` (the contract in `sitekit.figstyle`) is called in
every style of `figstyle.STYLES` and every layout of `figstyle.LAYOUTS`, from the same data. The
SVG of each is written to ``OUT`` with the suffix ``.<style>.<layout>.svg`` (`variant_file`),
and the alt text, which must be the same for all of them, to ``OUT`` with the suffix ``.alt``.
Every render is checked: no text smaller than `figstyle.MIN_FONT_PT`, text that contrasts
with the figure's background at least `figstyle.TEXT_CONTRAST` to 1 (text written on a
coloured cell with ``style.ink_on`` is checked against that cell instead, by ``ink_on``), and
no text that overlaps other text or runs off the figure's edge (`sitekit.text_layout`).

The build's workers are fresh processes, so the figures always see the current ``paperlens``.
"""

from __future__ import annotations

import importlib.util
import io
import json
import logging
import sys
from pathlib import Path
from types import ModuleType

import matplotlib

matplotlib.use("svg")
# Matplotlib's notes that a font family it looked up is missing and DejaVu Sans stands in
# (forty "findfont" lines in every cold build's output): the text is checked as drawn, below.
logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from paperlens.show import FigureWithAlt  # noqa: E402
from sitekit import cache, figstyle, text_layout  # noqa: E402


def variant_file(out: Path, style: figstyle.Style, layout: figstyle.Layout) -> Path:
    """Where the render of one style and layout goes: ``OUT.<style>.<layout>.svg``."""
    return out.with_name(f"{out.stem}.{style.name}.{layout.name}.svg")


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


def check_text(fig: Figure, style: figstyle.Style) -> list[str]:
    """Text in ``fig`` that is too small, or too faint on the background of ``style``."""
    problems = []
    for text in fig.findobj(Text):
        label = text.get_text().strip()
        if not label or not text.get_visible():
            continue
        size = float(text.get_fontsize())
        if size < figstyle.MIN_FONT_PT - 1e-9:
            problems.append(f"{label!r} is {size:g} pt, less than {figstyle.MIN_FONT_PT:g} pt")
        colour = matplotlib.colors.to_hex(text.get_color())
        patch = text.get_bbox_patch()
        behind = patch.get_facecolor() if patch is not None else style.background
        if colour in figstyle.CELL_INKS and patch is None:
            continue
        ratio = figstyle.contrast(colour, behind)
        # WCAG's large text (18 pt, or 14 pt bold) needs 3:1.
        bold = text.get_fontweight() in ("bold", "heavy", "black", 700, 800, 900)
        large = size >= 18 or (bold and size >= 14)
        needed = figstyle.GRAPHIC_CONTRAST if large else figstyle.TEXT_CONTRAST
        if ratio < needed:
            problems.append(
                f"{label!r} in {colour} on {matplotlib.colors.to_hex(behind)}: contrast "
                f"{ratio:.2f}, less than {needed:g} ({style.name} style)"
            )
    return problems


def links(fig: Figure) -> list[dict[str, object]]:
    """The links a figure's patches carry (``patch.set_url``, named by ``patch.set_label``),
    each with its box as fractions of the figure from its top left: ``{"url", "name", "left",
    "top", "width", "height"}``. The page
    lays a link over each box, since links inside an SVG shown by ``<img>`` cannot be clicked."""
    width, height = fig.canvas.get_width_height()
    found = []
    for patch in fig.findobj(Patch):
        url = patch.get_url()
        if not url:
            continue
        box = patch.get_window_extent()
        label = str(patch.get_label() or "")
        found.append(
            {
                "url": url,
                "name": label if label and not label.startswith("_") else url,
                "left": round(box.x0 / width, 5),
                "top": round(1 - box.y1 / height, 5),
                "width": round(box.width / width, 5),
                "height": round(box.height / height, 5),
            }
        )
    return found


def render(script: Path, out: Path, sealed: bool = False) -> None:
    """Every style and layout of ``script``'s figure, its alt text and links, beside ``out``;
    ``sealed``: as entries of the build's cache, each with its hash (`sitekit.cache`)."""
    module = load(script)
    alts: dict[str, str] = {}
    contents: list[tuple[Path, bytes]] = []
    known = text_layout.known_key(script) in text_layout.KNOWN
    misplaced = False  # text overlapping or cut off, in a render of a known script
    for style in figstyle.STYLES:
        for layout in figstyle.LAYOUTS:
            result = draw(module, style, layout)
            fig: Figure = result.fig  # type: ignore[assignment]
            buffer = io.BytesIO()  # saving draws the figure: then its tick labels exist
            with text_layout.drawn_texts() as drawn:
                fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
            problems = check_text(fig, style)
            placed = text_layout.problems(fig, drawn)
            misplaced = misplaced or bool(placed)
            problems += [] if known else placed
            if problems:
                plt.close(fig)
                raise ValueError(
                    f"{style.name} {layout.name}: text that readers cannot read:\n  "
                    + "\n  ".join(problems)
                )
            alts[f"{style.name} {layout.name}"] = result.alt
            if style == figstyle.LIGHT:  # the same boxes in every style
                where = out.with_name(f"{out.stem}.{layout.name}.links.json")
                contents.append((where, json.dumps(links(fig)).encode()))
            plt.close(fig)
            contents.append((variant_file(out, style, layout), buffer.getvalue()))
    if known and not misplaced:
        raise ValueError(
            f"{text_layout.known_key(script)} is listed in sitekit.text_layout.KNOWN, but its "
            "text no longer overlaps or runs off the edge: take it off the list"
        )
    if len(set(alts.values())) > 1:
        raise ValueError(
            "the alt text describes the data, so it must not depend on the style or the "
            f"layout: {alts!r}"
        )
    contents.append((out.with_suffix(".alt"), next(iter(alts.values())).encode()))
    for path, content in contents:
        if sealed:  # an entry of the build's cache (sitekit.cache)
            cache.write(path, content)
            continue
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_bytes(content)
        tmp.replace(path)
