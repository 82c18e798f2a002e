"""One look for every figure: sizes, colours, fonts, and reproducible SVG output.

The figure contract. A script ``figures/<section>/<page>/<name>.py`` defines

    def make_figure(style: Style, layout: Layout) -> paperlens.FigureWithAlt

and returns ``paperlens.show(fig, alt)``: the figure, and its alt text formatted from the data
it plots (never typed beside it), so the two cannot drift apart. The build places that alt
text on the page's ``<img>``. ``style`` says how to draw (today only `LIGHT`) and ``layout``
how wide (`WIDE` for the content column, `NARROW` for a phone); the alt text describes the
data, so it must not depend on either, and the tests check that it does not.

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
