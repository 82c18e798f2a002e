"""Softmax of two scores: the weight of the first as the gap between them grows."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import BLUE, VERMILION, new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way


def make_figure():
    gap = np.linspace(-6, 6, 241)  # (241,)
    scores = np.stack([gap, np.zeros_like(gap)], axis=-1)  # (241, 2)
    weights = pl.softmax(scores, axis=-1)  # (241, 2)
    fig, ax = new_figure(height=2.8)
    ax.plot(gap, weights[:, 0], color=BLUE, lw=2, label="weight of score 1")
    ax.plot(gap, weights[:, 1], color=VERMILION, lw=2, ls="--", label="weight of score 2")
    ax.set_xlabel("score 1 − score 2")
    ax.set_ylabel("softmax weight")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(frameon=False, loc="center right")
    return fig
