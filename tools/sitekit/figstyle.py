"""One look for every figure: sizes, colours, fonts, and reproducible SVG output.

The figure contract. A script ``figures/<section>/<page>/<name>.py`` defines

    def make_figure(style: Style, layout: Layout) -> paperlens.FigureWithAlt

and returns ``paperlens.show(fig, alt)``: the figure, and its alt text formatted from the data
it plots (never typed beside it), so the two cannot drift apart. The build places that alt
text on the page's ``<img>``.

``style`` is one of `STYLES`, how to draw: `LIGHT` (dark ink on white, for Material's
``default`` palette) or `DARK` (light ink on the ``slate`` background). Every colour a script
uses comes from it: ``style.foreground`` for text, ``style.muted`` for secondary text and
reference lines, ``style.edge`` for outlines, ``style.paper`` for the fill of a table cell,
``style.blue`` and the other data colours, ``style.diverging`` and ``style.sequential`` for
colormaps, and ``style.ink_on(colour)`` for text written on a coloured cell.

``layout`` is one of `LAYOUTS`, how wide: `WIDE` for the content column of a desktop page and
`NARROW` for a phone, where a figure's panels are stacked (``layout.stacked``) so that its
text keeps its size. The build renders every script in every style and layout from the same
data; the page shows the one that fits the reader's palette and screen.

The alt text describes the data, so it must not depend on the style or the layout: the build
checks that all four renders give the same one. It also checks that no text is set smaller
than `MIN_FONT_PT` (10 CSS px) and, in each style, that text contrasts with the background
at least `TEXT_CONTRAST` to 1 (WCAG's ratio for text).

Data colours are the Okabe–Ito set, which stays distinguishable for colour-blind readers; the
dark style lightens the ones that would be too dim on the slate background.

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
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import matplotlib
import matplotlib.pyplot as plt
from cycler import cycler
from matplotlib.colors import Colormap, LinearSegmentedColormap, to_hex, to_rgb
from matplotlib.figure import Figure

WIDTH = 7.0  # inches; the content column is about 700 px wide
NARROW_WIDTH = 3.9  # inches, 374 CSS px: a phone's column (390 px less its margins) is ~358 px
# Text at 7.5 pt is 10 CSS px (an SVG point is 4/3 px); on a phone a figure is drawn at no less
# than 0.75 of its size, so text stays at least 7.5 px tall.
MIN_FONT_PT = 7.5
# WCAG 2.1's contrast for text (1.4.3) and for the parts of graphics needed to read them (1.4.11).
TEXT_CONTRAST = 4.5
GRAPHIC_CONTRAST = 3.0
# The two inks of ``Style.ink_on``, for text on a coloured cell; no style uses them elsewhere, so
# the render's contrast check knows such text by its colour and leaves it to ``ink_on``.
CELL_INKS = ("#0a0a0a", "#f4f4f4")


def luminance(colour: Any) -> float:
    """WCAG's relative luminance of a matplotlib colour."""
    channels = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(colour)]
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def contrast(a: Any, b: Any) -> float:
    """WCAG's contrast ratio of two colours, from 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


@dataclass(frozen=True)
class Style:
    """How a figure is drawn: its name, its ink and paper, its data colours and colormaps."""

    name: str
    foreground: str  # text and the main line of a plot
    background: str  # the figure's own background
    muted: str  # secondary text, reference curves and lines
    edge: str  # outlines, axes and ticks
    faint: str  # thin guides such as the x = 0 line
    grid: str  # grid lines and shaded bands
    paper: str  # the fill of a table cell
    blue: str
    vermilion: str
    green: str
    orange: str
    purple: str
    sky: str
    yellow: str
    # Colormaps, by name or as lists of colours from low to high.
    diverging_colours: tuple[str, ...] = field(default=())
    sequential_colours: tuple[str, ...] = field(default=())

    @property
    def cycle(self) -> list[str]:
        return [self.blue, self.vermilion, self.green, self.orange, self.purple, self.sky]

    @property
    def diverging(self) -> Colormap:
        """Negative to positive through a centre that is close to the background."""
        return LinearSegmentedColormap.from_list(f"{self.name}-diverging", self.diverging_colours)

    @property
    def sequential(self) -> Colormap:
        """From the background (0) to a strong blue (1)."""
        return LinearSegmentedColormap.from_list(f"{self.name}-sequential", self.sequential_colours)

    def text(self, colour: Any) -> str:
        """``colour`` for text: mixed towards the foreground until it contrasts with the
        background at least `TEXT_CONTRAST` to 1 (a data colour used to label its data)."""
        rgb, ink = to_rgb(colour), to_rgb(self.foreground)
        for step in range(21):
            t = step / 20
            r, g, b = ((1 - t) * c + t * f for c, f in zip(rgb, ink, strict=True))
            mixed = (r, g, b)
            if contrast(mixed, self.background) >= TEXT_CONTRAST:
                return to_hex(mixed)
        return self.foreground

    def ink_on(self, colour: Any) -> str:
        """The text colour, dark or light, that reads best on ``colour`` (a cell's fill)."""
        dark, light = CELL_INKS
        return dark if contrast(dark, colour) >= contrast(light, colour) else light


LIGHT = Style(
    "light",
    foreground="#111111",
    background="#ffffff",
    muted="#555555",
    edge="#333333",
    faint="#999999",
    grid="#dddddd",
    paper="#ffffff",
    blue="#0072B2",
    vermilion="#D55E00",
    green="#009E73",
    orange="#E69F00",
    purple="#CC79A7",
    sky="#56B4E9",
    yellow="#F0E442",
    # ColorBrewer's RdBu and Blues, the light ends kept light.
    diverging_colours=("#2166ac", "#67a9cf", "#d1e5f0", "#f7f7f7", "#fddbc7", "#ef8a62", "#b2182b"),
    sequential_colours=("#f7fbff", "#c6dbef", "#6baed6", "#2171b5", "#08306b"),
)
# On Material's slate background (hsl(232, 15%, 14%) = #1e2029): light ink, lightened data
# colours (each at least 3:1 on the background, tests/tools/test_figures.py), and colormaps
# whose zero is dark, so a large value is bright as it is on the light page, never pale.
DARK = Style(
    "dark",
    foreground="#e6e6e6",
    background="#1e2029",
    muted="#a8a8a8",
    edge="#c8c8c8",
    faint="#8a8a8a",
    grid="#3a3e4a",
    paper="#1e2029",
    blue="#4FA3E0",
    vermilion="#F07A3A",
    green="#2EC49A",
    orange="#E69F00",
    purple="#E08FC0",
    sky="#A8DAF7",
    yellow="#F0E442",
    diverging_colours=("#8cc4f0", "#3d7fc0", "#24415e", "#1e2029", "#5e2a2a", "#c0503d", "#f5a08c"),
    sequential_colours=("#1e2029", "#1f3a5a", "#2f6aa0", "#5aa0dc", "#b5dcfa"),
)
STYLES = (LIGHT, DARK)


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


WIDE = Layout("wide", WIDTH)
NARROW = Layout("narrow", NARROW_WIDTH, stacked=True)
LAYOUTS = (WIDE, NARROW)
# A phone's screen, where the page shows a figure's narrow layout: below this width the content
# column (the screen less 2 × 0.8 rem) is narrower than 0.75 of a wide figure's 672 px, but wider
# than a narrow figure's 374 px. The one home of the breakpoint: figures, explorable figures and
# notebook figures take it from here, and docs/assets/paperlens.css, which lays each layout's
# links over its figure, says the same (tests/tools/test_figures.py checks it).
NARROW_MEDIA = "(max-width: 640px)"


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
            "axes.prop_cycle": cycler(color=style.cycle),
            "axes.edgecolor": style.edge,
            "axes.labelcolor": style.foreground,
            "axes.titlecolor": style.foreground,
            "text.color": style.foreground,
            "xtick.color": style.edge,
            "ytick.color": style.edge,
            "xtick.labelcolor": style.foreground,
            "ytick.labelcolor": style.foreground,
            "grid.color": style.grid,
            "legend.labelcolor": style.foreground,
            "legend.facecolor": style.background,
            "legend.edgecolor": style.edge,
            "patch.edgecolor": style.edge,
            "hatch.color": style.edge,
            "lines.color": style.foreground,
            "boxplot.flierprops.markeredgecolor": style.foreground,
            "errorbar.capsize": 0,
            "figure.facecolor": style.background,
            "figure.edgecolor": style.background,
            "axes.facecolor": style.background,
            "savefig.facecolor": style.background,
            "savefig.edgecolor": style.background,
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
    stack: bool = True,
    **kwargs: Any,
) -> tuple[Figure, Any]:
    """A figure of the layout's width and its axes (as ``plt.subplots`` returns them).

    In a stacked layout (`NARROW`), a grid of several columns is drawn one panel under the
    other, in reading order, ``ncols`` times as tall (less 15 %), and its axes come back in the
    grid's own shape, so that a script indexes them the same way in every layout. A script
    that lays out its grid itself (merging cells) passes ``stack=False``.
    """
    if layout.stacked and stack and ncols > 1:
        kwargs.pop("width_ratios", None)
        ratios = kwargs.pop("height_ratios", None)
        if ratios is not None:
            kwargs["height_ratios"] = [r for r in ratios for _ in range(ncols)]
        fig, axes = plt.subplots(
            nrows * ncols,
            1,
            figsize=(layout.width, height * ncols * 0.85),
            layout="constrained",
            squeeze=False,
            **kwargs,
        )
        grid = axes.reshape(nrows, ncols)
        return fig, grid[0] if nrows == 1 else grid
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
