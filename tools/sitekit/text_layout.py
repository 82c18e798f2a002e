"""Text a reader cannot read because of where it is: overlapping other text, or cut off by
the figure's edge.

Found from the boxes of the text a figure draws (matplotlib gives each text its extent on the
page once it is drawn), in the units of the SVG, points: two texts whose boxes overlap by more
than `OVERLAP_PT` each way, or a text that runs more than `EDGE_PT` past an edge of the figure
(the SVG is cut there). Only text that is drawn counts: an axis keeps tick labels outside its
limits, which it does not draw, so the boxes are recorded as the figure draws itself
(`drawn_texts`). Overlaps with lines and patches are not looked for: a label on a line is often
meant. Each render of `sitekit.render` and `sitekit.render_frames` is checked, in every style
and layout; the narrow layout is where labels collide.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from pathlib import Path

from matplotlib.backend_bases import RendererBase
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

OVERLAP_PT = 1.0
# How far a text's box may pass the figure's edge: its box is a little wider than its ink (a
# glyph's side bearings), and taller (room for descenders, which digits do not use).
EDGE_PT = {"left": 2.0, "right": 2.0, "bottom": 3.0, "top": 3.0}

# Figures drawn before this check, whose text the check finds overlapping or cut off, each with
# what it finds: it reports them in the terminal instead of failing the build, until their
# owners fix them. A figure listed here that passes fails the build, to be taken off the list.
# Keyed by the script's path inside the figures folder.
KNOWN: dict[str, str] = {
    "beyond/long-sequences/peak-memory.py": "narrow: the x-axis label runs off the right edge",
    "foundations/functions/residual-box.py": "narrow: labels overlap, and the caption runs off "
    "both edges",
    "foundations/matrices/stack-of-rows.py": "narrow: the titles of K and V overlap",
    "walkthrough/step-4-variance-adds/tower.py": "narrow: the d_k tick labels overlap, and the "
    "legend runs off the right edge",
}
# The same, for the frames of explorable figures (`sitekit.render_frames`), whose frames are
# drawn in several processes: no process sees them all, so none can say that one passes now.
KNOWN_FRAMES: dict[str, str] = {
    "walkthrough/step-2-dot-product/angle.py": "frame 0, the key along the query: the labels q "
    "and k overlap",
}


def known_key(script: Path) -> str:
    """``<section>/<page>/<figure>.py``: how `KNOWN` names a script."""
    return "/".join(script.resolve().parts[-3:])


Drawn = dict[int, tuple[Text, Bbox]]


@contextlib.contextmanager
def drawn_texts() -> Iterator[Drawn]:
    """The texts a figure draws inside the block (saving it draws it), each with its box as
    last drawn: a figure with a constrained layout is drawn twice, and the second counts."""
    drawn: Drawn = {}
    original = Text.draw

    def draw(self: Text, renderer: RendererBase) -> None:
        original(self, renderer)
        label = self.get_text().strip()
        if label and self.get_visible() and self.get_alpha() != 0:
            # Text's own box, without an annotation's arrow.
            drawn[id(self)] = (self, Text.get_window_extent(self, renderer))

    Text.draw = draw  # type: ignore[method-assign, assignment]
    try:
        yield drawn
    finally:
        Text.draw = original  # type: ignore[method-assign]


def _name(text: Text) -> str:
    label = " ".join(text.get_text().split())
    return repr(label if len(label) <= 40 else label[:37] + "...")


def problems(fig: Figure, drawn: Drawn) -> list[str]:
    """Text of ``fig`` that overlaps other text, or runs off the figure's edge (``drawn`` as
    `drawn_texts` recorded it while the figure was saved as SVG)."""
    found = []
    boxes = list(drawn.values())
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        both = Bbox.intersection(box_a, box_b)
        if both is not None and both.width > OVERLAP_PT and both.height > OVERLAP_PT:
            found.append(
                f"{_name(a)} overlaps {_name(b)} ({both.width:.0f} × {both.height:.0f} pt)"
            )
    width, height = fig.get_size_inches() * 72  # the SVG's size in points
    for text, box in boxes:
        past = {
            "left": -box.x0,
            "right": box.x1 - width,
            "bottom": -box.y0,
            "top": box.y1 - height,
        }
        edges = [f"{edge} by {pt:.0f} pt" for edge, pt in past.items() if pt > EDGE_PT[edge]]
        if edges:
            found.append(f"{_name(text)} runs off the figure's {', '.join(edges)}")
    return found
