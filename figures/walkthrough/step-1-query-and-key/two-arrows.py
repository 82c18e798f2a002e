"""A query and a key with d_k = 2: two arrows from one origin."""

import numpy as np
from _text import vec

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way

q = np.array([0.7, -0.3])  # (d_k,) the query of the page
k = np.array([0.5, 0.4])  # (d_k,) one key


def heading(v):
    """Which way the arrow ``v`` points: 'right and slightly down (23° below the horizontal)'."""
    tilt = np.degrees(np.arctan2(abs(v[1]), abs(v[0])))  # (°) from the horizontal, either way
    side = "right" if v[0] > 0 else "left"
    rise, where = ("up", "above") if v[1] > 0 else ("down", "below")
    slightly = "slightly " if tilt < 30 else ""
    return f"{side} and {slightly}{rise} ({tilt:.0f}° {where} the horizontal)"


def make_figure(style, layout):
    fig, ax = new_figure(height=3.4, layout=layout)
    ax.axhline(0, color=style.muted, lw=0.6)
    ax.axvline(0, color=style.muted, lw=0.6)
    for v, colour, name in ((q, style.blue, "query q"), (k, style.vermilion, "key k")):
        ax.annotate(
            "",
            xy=v,
            xytext=(0, 0),
            arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 2.4, "mutation_scale": 18},
        )
        ax.text(
            v[0] + 0.04,
            v[1] + (0.05 if v[1] > 0 else -0.1),
            f"{name} = {vec(v, '.1f')}",
            color=style.text(colour),
            fontsize=11,
        )
    ax.plot([0], [0], "o", color=style.foreground, ms=4)
    ax.text(-0.05, 0.04, "origin", ha="right", color=style.foreground, fontsize=10)
    ax.set_xlim(-0.45, 1.45)
    ax.set_ylim(-0.55, 0.65)
    ax.set_aspect("equal")
    ax.set_xlabel("first number (component 1)")
    ax.set_ylabel("second number\n(component 2)")
    alt = (
        "Two arrows drawn from the same origin in the plane: the query q = "
        f"{vec(q, '.1f')} in blue points {heading(q)}, the key k = {vec(k, '.1f')} in orange "
        f"points {heading(k)}."
    )
    return pl.show(fig, alt)
