"""A vector two ways: an arrow in the plane, and a column of numbers."""

import numpy as np
from _shared import num, nums, sub, vec
from matplotlib.patches import Rectangle

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way


def make_figure(style, layout):
    x = np.array([2.0, 1.0])  # (2,): d_k = 2, so it can be drawn in the plane
    long = np.array([0.5, -1.0, 2.0, 0.0])  # (4,): d_k = 4, drawn as a column
    fig, (left, right) = new_figure(1, 2, height=3.0, width_ratios=[2, 1], layout=layout)
    left.annotate(
        "", xy=x, xytext=(0, 0), arrowprops={"arrowstyle": "-|>", "color": style.blue, "lw": 2.5}
    )
    left.plot([x[0], x[0]], [0, x[1]], ls=":", color=style.muted)
    left.plot([0, x[0]], [x[1], x[1]], ls=":", color=style.muted)
    left.text(
        x[0] + 0.08, x[1] + 0.08, rf"$\mathbf{{x}} = {vec(x)}$", color=style.blue, fontsize=13
    )
    left.text(x[0] / 2, -0.25, f"$x_1 = {num(x[0])}$", ha="center", color=style.muted)
    left.text(-0.1, x[1] / 2, f"$x_2 = {num(x[1])}$", ha="right", va="center", color=style.muted)
    left.set_xlim(-0.8, 3.2)
    left.set_ylim(-0.5, 1.8)
    left.set_aspect("equal")
    left.axhline(0, color=style.faint, lw=0.8)
    left.axvline(0, color=style.faint, lw=0.8)
    left.set_title(f"{x.size} numbers: an arrow in the plane")
    for i, v in enumerate(long):
        right.add_patch(Rectangle((0, -i - 1), 1, 1, facecolor=style.paper, edgecolor=style.edge))
        right.text(0.5, -i - 0.5, num(v), ha="center", va="center", fontsize=12)
        right.text(-0.15, -i - 0.5, f"$q_{i + 1}$", ha="right", va="center", color=style.muted)
    right.text(1.25, -2, f"$d_k = {long.size}$\nnumbers", va="center", color=style.blue)
    right.set_xlim(-0.9, 2.6)
    right.set_ylim(-4.3, 0.3)
    right.set_aspect("equal")
    right.axis("off")
    right.set_title(f"{long.size} numbers: a column")
    alt = (
        f"Left: the vector x = {vec(x)} drawn as an arrow from the origin, with dotted lines "
        f"showing its entries x₁ = {num(x[0])} along the horizontal axis and x₂ = {num(x[1])} "
        f"along the vertical. Right: a vector of {long.size} numbers, {nums(long)}, drawn as a "
        f"column of {long.size} boxes labelled q₁ to q{sub(long.size)}, with d_k = {long.size}."
    )
    return pl.show(fig, alt)
