"""One look for every figure: sizes, colours, fonts, and reproducible SVG output.

The figure contract. A script ``figures/<section>/<page>/<name>.py`` defines

    def make_figure(style: Style, layout: Layout) -> paperlens.FigureWithAlt

and returns ``paperlens.show(fig, alt)``: the figure, and its alt text formatted from the data
it plots (never typed beside it), so the two cannot drift apart. The build places that alt
text on the page's ``<img>``. ``style`` says how to draw (today only `LIGHT`) and ``layout``
how wide (`WIDE` for the content column, `NARROW` for a phone); the alt text describes the
data, so it must not depend on either, and the tests check that it does not.

Explorable figures extend the same contract with frames: a figure a reader changes with a
control, every frame drawn at build time. Such a script also defines

    FRAMES = Frames(label=..., values=(...), default=..., texts=(...), control="range")

    def make_frame(value, style: Style, layout: Layout) -> paperlens.FigureWithAlt

``make_frame`` draws the frame for one of ``FRAMES.values`` under the rules of ``make_figure``
(alt text computed from that frame's data, the same in every style and layout), and
``make_figure(style, layout)`` is ``make_frame(FRAMES.default, style, layout)``: the frame a page
shows without JavaScript, rendered and placed like any other figure. The build renders every
frame in every style and layout (`sitekit.explorables`) and gives the page a control named by
``FRAMES.label``: a range input over the values in order, or one button each
(``control="buttons"``), announcing each value by its ``FRAMES.texts`` entry.

Figures are drawn dark-on-white; in the dark palette the site's CSS inverts their lightness
(keeping hues), so one SVG reads well in both palettes. Colours are the Okabe–Ito set, which
stays distinguishable for colour-blind readers and after inversion.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import matplotlib
import matplotlib.pyplot as plt
from cycler import cycler
from matplotlib.figure import Figure

# Okabe–Ito palette.
BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
VERMILION = "#D55E00"
PURPLE = "#CC79A7"
SKY = "#56B4E9"
YELLOW = "#F0E442"
GREY = "#555555"
CYCLE = [BLUE, VERMILION, GREEN, ORANGE, PURPLE, SKY]

WIDTH = 7.0  # inches; the content column is about 700 px wide


@dataclass(frozen=True)
class Style:
    """How a figure is drawn: its name and the colours that are not data colours."""

    name: str
    foreground: str = "#111111"
    background: str = "white"


@dataclass(frozen=True)
class Layout:
    """How wide a figure is drawn, in inches, and whether its panels should be stacked."""

    name: str
    width: float
    stacked: bool = False


@dataclass(frozen=True)
class Frames:
    """The frames of an explorable figure: its one parameter's values and how a control names them.

    ``label`` is the control's accessible name; ``texts`` says each value as the control
    announces it (``aria-valuetext``), computed by the script like its alt text (default:
    ``str(value)``); ``default`` is the frame shown without JavaScript.
    """

    label: str
    values: tuple[Any, ...]
    default: Any
    texts: tuple[str, ...] = ()
    control: str = "range"

    def __post_init__(self) -> None:
        if self.control not in ("range", "buttons"):
            raise ValueError(f"control must be 'range' or 'buttons', got {self.control!r}")
        if len(self.values) < 2 or len(set(self.values)) != len(self.values):
            raise ValueError(f"frames need two or more distinct values, got {self.values!r}")
        if self.default not in self.values:
            raise ValueError(f"the default {self.default!r} is not one of {self.values!r}")
        if self.texts and len(self.texts) != len(self.values):
            raise ValueError(f"{len(self.texts)} texts for {len(self.values)} values")

    def text(self, index: int) -> str:
        """How the control announces the value at ``index``."""
        return self.texts[index] if self.texts else str(self.values[index])


LIGHT = Style("light")
WIDE = Layout("wide", WIDTH)
NARROW = Layout("narrow", 3.9, stacked=True)


def apply(style: Style = LIGHT) -> None:
    """Reset matplotlib to the site's style (called before each figure script)."""
    matplotlib.rcdefaults()
    matplotlib.rcParams.update(
        {
            "svg.hashsalt": "paperlens",
            "svg.fonttype": "path",
            "font.family": "DejaVu Sans",
            "font.size": 11,
            "axes.titlesize": 12,
            "axes.labelsize": 11,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.prop_cycle": cycler(color=CYCLE),
            "axes.edgecolor": "#333333",
            "axes.labelcolor": style.foreground,
            "xtick.color": "#333333",
            "ytick.color": "#333333",
            "figure.facecolor": style.background,
            "axes.facecolor": style.background,
            "savefig.facecolor": style.background,
            "figure.dpi": 100,
            "path.simplify": True,
        }
    )


def new_figure(
    nrows: int = 1,
    ncols: int = 1,
    *,
    height: float = 3.2,
    layout: Layout = WIDE,
    **kwargs: Any,
) -> tuple[Figure, object]:
    """A figure of the layout's width and its axes (as ``plt.subplots`` returns them)."""
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(layout.width, height),
        layout="constrained",
        **kwargs,
    )
    return fig, axes


def to_svg(fig: Figure) -> bytes:
    """Serialise a figure to SVG bytes that are identical from build to build."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return buffer.getvalue()


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def sci(x: float, digits: int = 2) -> str:
    """``x`` in scientific notation as alt text reads it: ``sci(4.1e-9)`` is ``'4.1 × 10⁻⁹'``."""
    mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"
