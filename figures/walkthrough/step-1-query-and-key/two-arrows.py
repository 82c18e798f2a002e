"""A query and a key with d_k = 2: two arrows from one origin."""

import numpy as np

from sitekit.figstyle import BLUE, GREY, VERMILION, new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way

q = np.array([0.7, -0.3])  # (d_k,) the query of the page
k = np.array([0.5, 0.4])  # (d_k,) one key


def make_figure():
    fig, ax = new_figure(height=3.4)
    ax.axhline(0, color=GREY, lw=0.6)
    ax.axvline(0, color=GREY, lw=0.6)
    for vec, colour, name in ((q, BLUE, "query q"), (k, VERMILION, "key k")):
        ax.annotate(
            "",
            xy=vec,
            xytext=(0, 0),
            arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 2.4, "mutation_scale": 18},
        )
        ax.text(
            vec[0] + 0.04,
            vec[1] + (0.05 if vec[1] > 0 else -0.1),
            f"{name} = ({vec[0]:.1f}, {vec[1]:.1f})".replace("-", "−"),
            color=colour,
            fontsize=11,
        )
    ax.plot([0], [0], "o", color="#111111", ms=4)
    ax.text(-0.05, 0.04, "origin", ha="right", color="#111111", fontsize=10)
    ax.set_xlim(-0.45, 1.45)
    ax.set_ylim(-0.55, 0.65)
    ax.set_aspect("equal")
    ax.set_xlabel("first number (component 1)")
    ax.set_ylabel("second number\n(component 2)")
    return fig
