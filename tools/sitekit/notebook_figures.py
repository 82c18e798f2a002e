"""Notebook figures in the site's style: SVG, light and dark, wide and narrow.

A notebook page (``docs/reproduce/*.py``) draws its figures itself and shows them with
``paperlens.show(fig, alt)``. A reader who downloads it runs it without ``sitekit``: there
`paperlens.show` gives one SVG in matplotlib's defaults. When the site is built, the kernel that
mkdocs-jupyter starts runs `startup` first (an IPython startup file in the folder `ipython_dir`
makes, which the build points ``IPYTHONDIR`` at): matplotlib takes the site's light style, and
a shown figure is drawn four times from the same figure, in each style of `figstyle.STYLES` and
layout of `figstyle.LAYOUTS` (`restyle`), as the build's own figures are
(`sitekit.figures.picture`). The page's HTML then carries those SVGs as ``data:`` URLs, which
`extract` moves into files of their own, named by their content.
"""

from __future__ import annotations

import base64
import hashlib
import html
import os
import posixpath
import re
from pathlib import Path
from typing import Any

from sitekit import figstyle
from sitekit.cache import hash_sitekit, replace_file
from sitekit.paths import cache_root

STARTUP = """\
# Written by sitekit.notebook_figures for the site's build: figures in the site's style.
from sitekit import notebook_figures

notebook_figures.startup()
"""


# The kernels keep no command history: an SQLite file that several kernels would share, and that
# a damaged cache folder would break.
CONFIG = """\
# Written by sitekit.notebook_figures for the site's build.
c.HistoryManager.enabled = False
# The kernel talks to the build over loopback only; its warning that TCP is unencrypted looked
# like an error in every build's output.
c.IPKernelApp.log_level = "ERROR"
# A kernel can log a race in its own message loop as "Uncaught exception in ZMQStream
# callback" and a traceback (ipykernel fixed one such race, for iopub, in its PR 1518); the
# build it printed in still passed, but the traceback looked like a failure in its output
# (once, in a test session's build over damaged caches).
import logging
logging.getLogger("tornado.general").addFilter(
    lambda record: "Uncaught exception in ZMQStream callback" not in record.getMessage()
)
"""


def ipython_dir() -> Path:
    """An IPython folder whose default profile runs `startup` when a kernel starts (its files
    are rewritten whenever they differ from what this module says)."""
    folder = cache_root() / "ipython"
    profile = folder / "profile_default"
    for path, text in (
        (profile / "startup" / "00-paperlens.py", STARTUP),
        (profile / "ipython_kernel_config.py", CONFIG),
    ):
        try:
            intact = path.read_text(encoding="utf-8") == text
        except (OSError, UnicodeDecodeError):
            intact = False
        if not intact:
            replace_file(path, text.encode())
    return folder


def configure_kernels() -> None:
    """Make the kernels the build starts draw in the site's style (``IPYTHONDIR``, read by
    each kernel: `ipython_dir`)."""
    os.environ["IPYTHONDIR"] = str(ipython_dir())


def styling_key() -> str:
    """A hash of the code that styles the kernels' figures (this module, and what it imports)."""
    return hash_sitekit([Path(__file__)])


def startup() -> None:
    """In the kernel: the site's style, and `paperlens.show` figures as `html`. Matplotlib's
    notes that a font is missing and DejaVu Sans stands in (its mathtext fonts) are silenced:
    written to the cells' standard error, they showed in the pages as 21 lines of noise."""
    import logging

    import matplotlib

    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)

    matplotlib.use("svg")
    from IPython import get_ipython

    from paperlens.show import FigureWithAlt

    figstyle.apply(figstyle.LIGHT)
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["text/html"].for_type(FigureWithAlt, html_of)


def _colour_map() -> dict[str, str]:
    """Each colour of the light style, as hex, to the same role's colour in the dark one."""
    mapping: dict[str, str] = {}
    light, dark = figstyle.LIGHT, figstyle.DARK
    for name in light.__dataclass_fields__:
        a, b = getattr(light, name), getattr(dark, name)
        if isinstance(a, str) and a.startswith("#"):
            mapping.setdefault(_hex(a), b)
    for named, role in (("grey", "muted"), ("gray", "muted"), ("black", "foreground")):
        mapping.setdefault(_hex(named), getattr(dark, role))
    mapping[_hex("white")] = dark.background
    return mapping


def _hex(colour: Any) -> str:
    from matplotlib.colors import to_hex

    return str(to_hex(colour, keep_alpha=False)).lower()


def _dark(colour: Any, mapping: dict[str, str]) -> Any:
    """``colour`` in the dark style, keeping its alpha; unknown colours are kept."""
    from matplotlib.colors import to_rgba

    if colour is None or (isinstance(colour, str) and colour == "none"):
        return colour
    rgba = to_rgba(colour)
    if rgba[3] == 0:
        return colour
    target = mapping.get(_hex(rgba))
    if target is None:
        return colour
    return (*to_rgba(target)[:3], rgba[3])


def recolour(fig: Any) -> None:
    """Turn a figure drawn in the light style into the dark one, in place: every colour that
    is a light-style role (ink, muted, edges, the data colours) becomes the dark style's."""
    import numpy as np
    from matplotlib.collections import Collection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.text import Text

    mapping = _colour_map()
    fig.set_facecolor(figstyle.DARK.background)
    for artist in fig.findobj():
        if isinstance(artist, Text):
            artist.set_color(_dark(artist.get_color(), mapping))
        elif isinstance(artist, Line2D):
            artist.set_color(_dark(artist.get_color(), mapping))
            artist.set_markerfacecolor(_dark(artist.get_markerfacecolor(), mapping))
            artist.set_markeredgecolor(_dark(artist.get_markeredgecolor(), mapping))
        elif isinstance(artist, Patch):
            artist.set_facecolor(_dark(artist.get_facecolor(), mapping))
            artist.set_edgecolor(_dark(artist.get_edgecolor(), mapping))
        elif isinstance(artist, Collection):
            for get, put in (
                (artist.get_facecolor, artist.set_facecolor),
                (artist.get_edgecolor, artist.set_edgecolor),
            ):
                colours = np.atleast_2d(get())
                if colours.size:
                    put([_dark(tuple(c), mapping) for c in colours])
    for ax in fig.axes:
        ax.set_facecolor(figstyle.DARK.background)
        ax.tick_params(which="both", colors=figstyle.DARK.edge, labelcolor=figstyle.DARK.foreground)


def relayout(fig: Any, layout: figstyle.Layout, wide: dict[str, Any]) -> None:
    """Give ``fig`` the width of ``layout``, stacking a row of panels in the narrow one.

    ``wide`` keeps the figure's own size and panels (filled on the first call), so that the
    wide layout can be put back after the narrow one.
    """
    if not wide:
        wide["size"] = tuple(fig.get_size_inches())
        wide["specs"] = [ax.get_subplotspec() for ax in fig.axes]
    width, height = wide["size"]
    specs = wide["specs"]
    panels = [ax for ax, spec in zip(fig.axes, specs, strict=True) if spec is not None]
    in_a_row = len(panels) > 1 and all(s.get_gridspec().nrows == 1 for s in specs if s)
    if layout.stacked and in_a_row:
        grid = fig.add_gridspec(len(panels), 1)
        for i, ax in enumerate(panels):
            ax.set_subplotspec(grid[i])
        fig.set_size_inches(layout.width, height * len(panels))
    else:
        for ax, spec in zip(fig.axes, specs, strict=True):
            if spec is not None:
                ax.set_subplotspec(spec)
        scale = min(1.0, layout.width / width)
        fig.set_size_inches(min(width, layout.width), height * max(scale, 0.75))


def variants(fig: Any) -> dict[tuple[str, str], bytes]:
    """The figure's SVG in each style and layout, by ``(style name, layout name)``."""
    out: dict[tuple[str, str], bytes] = {}
    wide: dict[str, Any] = {}
    order = [
        (figstyle.LIGHT, figstyle.WIDE),
        (figstyle.LIGHT, figstyle.NARROW),
        (figstyle.DARK, figstyle.NARROW),
        (figstyle.DARK, figstyle.WIDE),
    ]
    for style, layout in order:
        if style == figstyle.DARK and figstyle.DARK.name not in {s for s, _ in out}:
            recolour(fig)
        relayout(fig, layout, wide)
        out[(style.name, layout.name)] = _svg(fig)
    return out


def _svg(fig: Any) -> bytes:
    import io

    buffer = io.BytesIO()
    fig.savefig(
        buffer,
        format="svg",
        metadata={"Date": None, "Creator": None},
        facecolor=fig.get_facecolor(),
        edgecolor=fig.get_facecolor(),
    )
    return buffer.getvalue()


def html_of(shown: Any) -> str:
    """A shown figure as the build's figures are embedded: one ``<picture>`` per style."""
    svgs = variants(shown.fig)
    alt = html.escape(shown.alt, quote=True)
    out = []
    for style in figstyle.STYLES:
        wide, narrow = (svgs[(style.name, lay.name)] for lay in figstyle.LAYOUTS)
        (ww, wh), (nw, nh) = _size(wide), _size(narrow)
        out.append(
            f'<picture class="pl-figure pl-figure--{style.name}">'
            f'<source media="{figstyle.NARROW_MEDIA}" srcset="{_data(narrow)}"'
            f' width="{nw}" height="{nh}" />'
            f'<img alt="{alt}" src="{_data(wide)}" width="{ww}" height="{wh}"'
            ' loading="lazy" decoding="async" /></picture>'
        )
    return "".join(out)


def _data(svg: bytes) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


_SIZE = re.compile(rb'<svg\b[^>]*?\swidth="(?P<w>[\d.]+)pt"\s+height="(?P<h>[\d.]+)pt"')


def _size(svg: bytes) -> tuple[int, int]:
    m = _SIZE.search(svg[:2000])
    assert m is not None, "an SVG without width and height"
    return round(float(m.group("w")) * 4 / 3), round(float(m.group("h")) * 4 / 3)


_DATA_SVG = re.compile(
    r'(?P<attr>src|srcset)="data:image/svg\+xml;base64,(?P<data>[A-Za-z0-9+/=]+)"'
)
FOLDER = "figures/notebooks"


def extract(page_html: str, page_url: str, store: dict[str, bytes]) -> str:
    """Move the ``data:`` SVGs of a notebook page's figures into files named by their content:
    each goes into ``store`` by its path in the site, and the page links to it instead."""

    def one(m: re.Match[str]) -> str:
        svg = base64.b64decode(m.group("data"))
        path = f"{FOLDER}/{hashlib.sha256(svg).hexdigest()[:20]}.svg"
        store[path] = svg
        href = posixpath.relpath(path, page_url.rstrip("/") or ".")
        return f'{m.group("attr")}="{html.escape(href)}"'

    return _DATA_SVG.sub(one, page_html)
