"""Softmax of two scores: the weight of the first as the gap between them grows."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way


def make_figure(style, layout):
    gap = np.linspace(-6, 6, 241)  # (241,)
    scores = np.stack([gap, np.zeros_like(gap)], axis=-1)  # (241, 2)
    weights = pl.softmax(scores, axis=-1)  # (241, 2)
    fig, ax = new_figure(height=2.8, layout=layout)
    ax.plot(gap, weights[:, 0], color=style.blue, lw=2, label="weight of score 1")
    ax.plot(gap, weights[:, 1], color=style.vermilion, lw=2, ls="--", label="weight of score 2")
    ax.set_xlabel("score 1 − score 2")
    ax.set_ylabel("softmax weight")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(frameon=False, loc="center right")
    # The alt text says what the figure shows, every number taken from the arrays plotted.
    cross = np.argmin(np.abs(weights[:, 0] - weights[:, 1]))  # where the two curves meet
    first = weights[:, 0]  # (241,)
    low, high = (f"{g:g}".replace("-", "−") for g in (gap[0], gap[-1]))
    alt = (
        f"Two curves crossing at {first[cross]:g} at a gap of {gap[cross]:g}, where the two "
        f"scores are equal: the first score's softmax weight rises from {first[0]:.3f} to "
        f"{first[-1]:.3f} as its lead over the second score grows from {low} to {high}, and "
        "the second weight mirrors it."
    )
    return pl.show(fig, alt)
