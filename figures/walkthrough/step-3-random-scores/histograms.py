"""Scores q·k at initialisation for d_k = 1, 8 and 64, on one shared axis."""

import numpy as np
from _text import num

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 3
N = 6000  # scores per panel
D_KS = (1, 8, 64)


def make_figure(style, layout):
    rng = np.random.default_rng(SEED)
    fig, axes = new_figure(3, 1, height=4.8, sharex=True, layout=layout)
    spreads, extremes = [], []  # per panel, for the alt text
    bins = np.linspace(-30, 30, 61)  # (61,) one bin per unit of score
    colours = (style.blue, style.green, style.vermilion)
    for ax, d_k, colour in zip(axes, D_KS, colours, strict=True):
        scores = pl.sample_scores(d_k, N, rng=rng)  # (N,)
        ax.hist(scores, bins=bins, density=True, histtype="stepfilled", color=colour, alpha=0.85)
        ax.set_yticks([])
        ax.spines["left"].set_visible(False)
        spread = float(np.std(scores))
        spreads.append(spread)
        extremes.append((scores.min(), scores.max()))
        ax.text(
            0.01,
            0.85,
            f"$d_k$ = {d_k}:  standard deviation ≈ {spread:.1f}",
            transform=ax.transAxes,
            fontsize=11,
            color=style.foreground,
        )
    axes[-1].set_xlabel("score q·k  (q, k with entries drawn from N(0, 1))")
    axes[-1].set_xlim(-30, 30)
    (d1, d2, d3), (s1, s2, s3) = D_KS, [round(s, 1) for s in spreads]  # as the text shows them
    low, high = extremes[-1]
    left, right = axes[-1].get_xlim()
    cut = " (the axis is cut at its ends)" if low < left or high > right else ""
    alt = (
        f"Three histograms of {N:,} scores each on one shared horizontal axis from "
        f"{num(bins[0])} to {num(bins[-1])}. For d_k = {d1} the scores form a narrow spike at "
        f"zero (standard deviation {s1:.1f}); for d_k = {d2} a bell {s2 / s1:.1f} times wider "
        f"({s2:.1f}); for d_k = {d3} a broad bell ({s3:.1f}) whose samples reach {num(low, '.1f')} "
        f"and {num(high, '.1f')}{cut}."
    )
    return pl.show(fig, alt)
