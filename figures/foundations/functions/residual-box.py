"""A function as a box: the residual block H(x) = F(x) + x, with the shortcut around F."""

from matplotlib.patches import Circle, FancyBboxPatch

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way
BOX = "learned residual"  # the name under F in the box
NOTE = "same input in, same output out: a deterministic box"


def _arrow(ax, start, end, color, **kwargs):
    ax.annotate(
        "",
        xy=end,
        xytext=start,
        arrowprops={"arrowstyle": "-|>", "color": color, "lw": 1.8, **kwargs},
    )


def make_figure(style, layout):
    fig, ax = new_figure(height=2.8, layout=layout)
    ax.add_patch(
        FancyBboxPatch(
            (3.0, 0.4),
            2.4,
            1.2,
            boxstyle="round,pad=0.08",
            fc=style.paper,
            ec=style.vermilion,
            lw=2,
        )
    )
    ax.text(
        4.2,
        1.0,
        r"$\mathcal{F}$" f"\n{BOX}",
        fontsize=12,
        ha="center",
        va="center",
        color=style.text(style.vermilion),
    )
    ax.add_patch(Circle((7.0, 1.0), 0.3, fc=style.paper, ec=style.edge, lw=1.8))
    ax.text(7.0, 1.0, "+", ha="center", va="center", fontsize=16)
    ax.text(0.2, 1.0, r"$\mathbf{x}$", ha="center", va="center", fontsize=15)
    _arrow(ax, (0.5, 1.0), (2.95, 1.0), style.edge)
    _arrow(ax, (5.5, 1.0), (6.68, 1.0), style.edge)
    ax.text(
        6.05,
        1.15,
        r"$\mathcal{F}(\mathbf{x})$",
        ha="center",
        va="bottom",
        color=style.text(style.vermilion),
    )
    # The shortcut: x goes round the box unchanged and is added back.
    ax.plot([1.6, 1.6, 7.0], [1.0, 2.35, 2.35], color=style.blue, lw=1.8)
    _arrow(ax, (7.0, 2.35), (7.0, 1.32), color=style.blue)
    ax.text(
        4.2,
        2.45,
        r"shortcut: $\mathbf{x}$ unchanged",
        ha="center",
        va="bottom",
        color=style.text(style.blue),
    )
    _arrow(ax, (7.32, 1.0), (8.7, 1.0), style.edge)
    ax.text(
        9.6,
        1.0,
        r"$\mathcal{H}(\mathbf{x})$" "\n" r"$= \mathcal{F}(\mathbf{x}) + \mathbf{x}$",
        ha="center",
        va="center",
        fontsize=12,
    )
    ax.text(5.4, -0.15, NOTE, ha="center", color=style.muted)
    ax.set_xlim(-0.2, 10.8)
    ax.set_ylim(-0.45, 3.0)
    ax.set_aspect("equal")
    ax.axis("off")
    alt = (
        f"A box diagram. The input vector x enters a box labelled F, {BOX}, whose output F(x) "
        "goes into a plus node. A second path, the shortcut, carries x around the box "
        "unchanged into the same plus node. Out of the plus node comes H(x) = F(x) + x. "
        f"A note underneath reads: {NOTE}."
    )
    return pl.show(fig, alt)
