"""Scores q·k at initialisation for d_k = 1, 8 and 64, on one shared axis."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import BLUE, GREEN, VERMILION, new_figure

SEED = 3
N = 6000  # scores per panel
D_KS = (1, 8, 64)
COLOURS = (BLUE, GREEN, VERMILION)


def make_figure():
    rng = np.random.default_rng(SEED)
    fig, axes = new_figure(3, 1, height=4.8, sharex=True)
    bins = np.linspace(-30, 30, 61)  # (61,) one bin per unit of score
    for ax, d_k, colour in zip(axes, D_KS, COLOURS, strict=True):
        scores = pl.sample_scores(d_k, N, rng=rng)  # (N,)
        ax.hist(scores, bins=bins, density=True, histtype="stepfilled", color=colour, alpha=0.85)
        ax.set_yticks([])
        ax.spines["left"].set_visible(False)
        spread = float(np.std(scores))
        ax.text(
            0.01,
            0.85,
            f"$d_k$ = {d_k}:  standard deviation ≈ {spread:.1f}",
            transform=ax.transAxes,
            fontsize=11,
            color="#111111",
        )
    axes[-1].set_xlabel("score q·k  (q, k with entries drawn from N(0, 1))")
    axes[-1].set_xlim(-30, 30)
    return fig
