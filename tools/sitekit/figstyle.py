"""One look for every figure: sizes, colours, fonts, and reproducible SVG output.

Figures are drawn dark-on-white; in the dark palette the site's CSS inverts their lightness
(keeping hues), so one SVG reads well in both palettes. Colours are the Okabe–Ito set, which
stays distinguishable for colour-blind readers and after inversion.
"""

from __future__ import annotations

import io

import matplotlib
import matplotlib.pyplot as plt
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


def apply() -> None:
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
            "axes.prop_cycle": matplotlib.cycler(color=CYCLE),
            "axes.edgecolor": "#333333",
            "axes.labelcolor": "#111111",
            "xtick.color": "#333333",
            "ytick.color": "#333333",
            "figure.facecolor": "white",
            "axes.facecolor": "white",
            "savefig.facecolor": "white",
            "figure.dpi": 100,
            "path.simplify": True,
        }
    )


def new_figure(nrows: int = 1, ncols: int = 1, *, height: float = 3.2, **kwargs: object) -> tuple:
    """A figure of the site's width and its axes (as ``plt.subplots`` returns them)."""
    return plt.subplots(nrows, ncols, figsize=(WIDTH, height), layout="constrained", **kwargs)


def to_svg(fig: Figure) -> bytes:
    """Serialise a figure to SVG bytes that are identical from build to build."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return buffer.getvalue()
