"""Histograms of one score q·k for d_k = 64: spread sqrt(64) = 8 before, 1 after dividing by 8."""

import numpy as np
from _shared import num

import paperlens as pl
from sitekit.figstyle import BLUE, GREY, VERMILION, new_figure

SEED = 0
D_K = 64
N = 20_000


def _bell(x, var):
    return np.exp(-(x**2) / (2 * var)) / np.sqrt(2 * np.pi * var)


def make_figure(style, layout):
    rng = np.random.default_rng(SEED)
    raw = pl.sample_scores(D_K, N, rng=rng)  # (N,)
    scaled = pl.sample_scores(D_K, N, rng=rng, scale=1 / np.sqrt(D_K))  # (N,)
    grid = np.linspace(-32, 32, 401)
    bins = np.linspace(-32, 32, 129)
    fig, (top, bottom) = new_figure(2, 1, height=4.4, sharex=True, layout=layout)
    top.hist(raw, bins=bins, density=True, color=VERMILION, alpha=0.55)
    raw_var, scaled_var = np.var(raw, ddof=1), np.var(scaled, ddof=1)
    top.plot(grid, _bell(grid, D_K), color=GREY, lw=1.2, label=f"N(0, {D_K})")
    top.set_title(f"q·k with $d_k$ = {D_K}: sampled variance {raw_var:.1f}")
    bottom.hist(scaled, bins=bins, density=True, color=BLUE, alpha=0.55)
    bottom.plot(grid, _bell(grid, 1.0), color=GREY, lw=1.2, label="N(0, 1)")
    bottom.set_title(f"q·k / √{D_K}: sampled variance {scaled_var:.2f}")
    bottom.set_xlabel("value of one score entry")
    for ax in (top, bottom):
        ax.legend(frameon=False, loc="upper right")
        ax.set_ylabel("density")
    alt = (
        f"Two histograms on the same horizontal scale from {num(bins[0])} to {num(bins[-1])}. "
        f"Top: {N:,} samples of one score q·k with d_k = {D_K}, a wide bell matching the normal "
        f"curve N(0, {D_K}), sampled variance {raw_var:.1f}. Bottom: {N:,} more such scores "
        f"divided by √{D_K} = {np.sqrt(D_K):g}, a narrow bell matching N(0, 1), sampled "
        f"variance {scaled_var:.2f}."
    )
    return pl.show(fig, alt)
