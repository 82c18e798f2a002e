"""Render the frames of an explorable figure, in the build's worker processes (`figures.Renderers`).

An explorable script (the contract in `sitekit.figstyle`) has ``FRAMES`` and ``make_frame(value,
style, layout)``. `write_manifest` writes ``DIR/frames.json``, what the page's control needs
(`sitekit.explorables` reads it); `render_one` writes, for one frame, in every style of `STYLES`
and layout of `LAYOUTS`, ``DIR/<i>-<style>-<layout>.svg`` and the frame's alt text ``DIR/<i>.alt``,
after checking that the alt text is the same in every style and layout. Each frame is a task of
its own, so the workers share a script's frames. Every file is an entry of the build's cache,
written through a temporary file of its writer's own (`sitekit.cache.write`): two builds may
write one entry at once.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import matplotlib

matplotlib.use("svg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from paperlens.show import FigureWithAlt  # noqa: E402
from sitekit import cache, figstyle, render, text_layout  # noqa: E402

# Every frame is rendered in each of the site's styles and layouts.
STYLES: tuple[figstyle.Style, ...] = figstyle.STYLES
LAYOUTS: tuple[figstyle.Layout, ...] = figstyle.LAYOUTS


def frames_of(module: ModuleType, script: Path) -> figstyle.Frames:
    frames = getattr(module, "FRAMES", None)
    if not isinstance(frames, figstyle.Frames) or not callable(getattr(module, "make_frame", None)):
        raise TypeError(
            f"{script} is an explorable figure: it needs FRAMES = figstyle.Frames(...) and "
            "make_frame(value, style, layout) (see sitekit.figstyle)"
        )
    return frames


def draw_frame(
    module: ModuleType, value: Any, style: figstyle.Style, layout: figstyle.Layout
) -> FigureWithAlt:
    """One frame, drawn as `sitekit.render.draw` draws a figure, and checked the same way."""
    figstyle.apply(style)
    result = module.make_frame(value, style, layout)
    if not isinstance(result, FigureWithAlt):
        raise TypeError(
            f"make_frame must return paperlens.show(fig, alt), the figure and its alt text "
            f"computed from its data; got {type(result).__name__}"
        )
    return result


def render_frame(module: ModuleType, frames: figstyle.Frames, index: int, out: Path) -> None:
    """Every style and layout of frame ``index``, and its alt text, into the folder ``out``."""
    alts: dict[str, str] = {}
    for style in STYLES:
        for layout in LAYOUTS:
            result = draw_frame(module, frames.values[index], style, layout)
            alts[f"{style.name} {layout.name}"] = result.alt
            fig: Figure = result.fig  # type: ignore[assignment]
            with text_layout.drawn_texts() as drawn:  # saving draws it: its tick labels exist
                svg = figstyle.to_svg(fig)
            # The checks every figure passes (`sitekit.render`): legible size, contrast and
            # text that neither overlaps nor runs off the edge.
            problems = render.check_text(fig, style)
            if text_layout.known_key(Path(str(module.__file__))) not in text_layout.KNOWN_FRAMES:
                problems += text_layout.problems(fig, drawn)
            if problems:
                raise ValueError(
                    f"frame {frames.values[index]!r}, {style.name} {layout.name}: text that "
                    "readers cannot read:\n  " + "\n  ".join(problems)
                )
            cache.write(out / f"{index}-{style.name}-{layout.name}.svg", svg)
    if len(set(alts.values())) != 1:
        raise ValueError(
            "the alt text describes the data, so it must not depend on the style or layout; "
            f"frame {frames.values[index]!r} gives {alts!r}"
        )
    alt = next(iter(alts.values()))
    if frames.values[index] == frames.default:
        default = render.draw(module, STYLES[0], LAYOUTS[0])
        plt.close(default.fig)  # type: ignore[arg-type]
        if default.alt != alt:
            raise ValueError(
                "make_figure(style, layout) must draw the default frame, "
                f"make_frame({frames.default!r}, style, layout): its alt text differs"
            )
    cache.write(out / f"{index}.alt", alt.encode())


def manifest(frames: figstyle.Frames) -> dict[str, Any]:
    return {
        "label": frames.label,
        "control": frames.control,
        "default": frames.values.index(frames.default),
        "texts": [frames.text(i) for i in range(len(frames.values))],
        "styles": [s.name for s in STYLES],
        "layouts": [layout.name for layout in LAYOUTS],
    }


@functools.cache
def _loaded(script: Path) -> tuple[ModuleType, figstyle.Frames]:
    """The script, imported once per worker, and its frames."""
    module = render.load(script)
    return module, frames_of(module, script)


def write_manifest(script: Path, folder: Path) -> int:
    """Write ``folder/frames.json`` for ``script``; return how many frames it has."""
    frames = _loaded(script)[1]
    folder.mkdir(parents=True, exist_ok=True)
    text = json.dumps(manifest(frames), ensure_ascii=False, sort_keys=True)
    cache.write(folder / "frames.json", text.encode())
    return len(frames.values)


def render_one(script: Path, folder: Path, index: int) -> None:
    """Frame ``index`` of ``script``, in every style and layout, into ``folder``."""
    module, frames = _loaded(script)
    render_frame(module, frames, index, folder)
