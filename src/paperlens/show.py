"""Show a matplotlib figure in a notebook with alt text that says what it shows.

Jupyter displays a figure as a bare PNG, and nbconvert (which renders the site's notebook pages)
then writes ``<img alt="No description has been provided for this image">``. `show`
returns an object that Jupyter displays as HTML instead: the figure as SVG, inlined, at its
own size, with the alt text you give. Nothing here imports matplotlib; any object with
``savefig`` will do. (The site's build shows the same figures in its own light and dark styles:
``sitekit.notebook_figures``.)
"""

from __future__ import annotations

import base64
import html
import io
from typing import Any, Protocol


class _Savable(Protocol):
    def savefig(self, fname: Any, **kwargs: Any) -> None: ...


class FigureWithAlt:
    """A figure and its alt text; Jupyter shows it through `_repr_html_`."""

    def __init__(self, fig: _Savable, alt: str, *, dpi: int = 80) -> None:
        self.fig = fig
        self.alt = alt
        self.dpi = dpi

    def png(self) -> bytes:
        """The figure as PNG bytes at ``dpi``."""
        buffer = io.BytesIO()
        self.fig.savefig(buffer, format="png", dpi=self.dpi, bbox_inches="tight")
        return buffer.getvalue()

    def svg(self) -> bytes:
        """The figure as SVG bytes, at the size it was drawn."""
        buffer = io.BytesIO()
        self.fig.savefig(buffer, format="svg")
        return buffer.getvalue()

    def _repr_html_(self) -> str:
        data = base64.b64encode(self.svg()).decode("ascii")
        return f'<img src="data:image/svg+xml;base64,{data}" alt="{html.escape(self.alt)}">'

    def __repr__(self) -> str:
        return f"<figure: {self.alt}>"


def show(fig: _Savable, alt: str, *, dpi: int = 80) -> FigureWithAlt:
    """Wrap ``fig`` so that a notebook shows it with ``alt`` as its alt text.

    Make it the last expression of a cell. Create the figure with ``matplotlib.figure.Figure``
    rather than ``pyplot``, so the notebook does not also show it a second time without alt text.

    Args:
        fig: a matplotlib figure (anything with ``savefig``).
        alt: what the figure shows, for readers who cannot see it: at least a few words.
        dpi: resolution of `FigureWithAlt.png`, for a PNG copy.

    Returns:
        A `FigureWithAlt`, displayed by Jupyter as ``<img alt=...>``.

    Raises:
        ValueError: ``alt`` has fewer than four words.

    Examples:
        >>> from matplotlib.figure import Figure
        >>> from paperlens import show
        >>> fig = Figure(figsize=(2, 1))
        >>> _ = fig.subplots().plot([0, 1], [0, 1])
        >>> shown = show(fig, "A straight line rising from left to right.")
        >>> shown._repr_html_().startswith('<img src="data:image/svg+xml;base64,')
        True
        >>> 'alt="A straight line rising from left to right."' in shown._repr_html_()
        True
    """
    if len(alt.split()) < 4:
        raise ValueError(f"alt must say what the figure shows in a few words, got {alt!r}")
    return FigureWithAlt(fig, alt, dpi=dpi)
