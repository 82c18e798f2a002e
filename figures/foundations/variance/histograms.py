"""Histograms of one score q·k for d_k = 64: spread sqrt(64) = 8 before, 1 after dividing by 8."""

import numpy as np
from _shared import num

import paperlens as pl
from sitekit.figstyle import new_figure

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
    fig, (top, bottom) = new_figure(2, 1, height=4.4, sharex=True, sharey=True, layout=layout)
    top.hist(raw, bins=bins, density=True, color=style.vermilion, alpha=0.7)
    raw_var, scaled_var = np.var(raw, ddof=1), np.var(scaled, ddof=1)
    top.plot(grid, _bell(grid, D_K), color=style.muted, lw=1.2, label=f"N(0, {D_K})")
    gap = "\n" if layout.stacked else " "
    top.set_title(f"q·k with $d_k$ = {D_K}:{gap}sampled variance {raw_var:.1f}")
    bottom.hist(scaled, bins=bins, density=True, color=style.blue, alpha=0.7)
    bottom.plot(grid, _bell(grid, 1.0), color=style.muted, lw=1.2, label="N(0, 1)")
    bottom.set_title(f"q·k / √{D_K}:{gap}sampled variance {scaled_var:.2f}")
    bottom.set_xlabel("value of one score entry")
    for ax in (top, bottom):
        ax.legend(frameon=False, loc="upper right", fontsize=10)
        ax.set_ylabel("density")
    # One vertical scale for both, so the bells' heights compare: the same area, spread over
    # sqrt(D_K) times the width, stands sqrt(D_K) times lower.
    peaks = _bell(0.0, D_K), _bell(0.0, 1.0)
    top.set_ylim(0, 1.1 * peaks[1])
    top.annotate(
        f"peak {peaks[0]:.3f}",
        (0, peaks[0]),
        xytext=(10, 14),
        textcoords="offset points",
        fontsize=10,
        color=style.foreground,
    )
    bottom.annotate(
        f"peak {peaks[1]:.2f}:\n{peaks[1] / peaks[0]:.0f}× higher",
        (0, peaks[1]),
        xytext=(-14, -14),
        ha="right",
        textcoords="offset points",
        fontsize=10,
        color=style.foreground,
    )
    alt = (
        f"Two histograms on the same scales, horizontal from {num(bins[0])} to {num(bins[-1])} "
        f"and vertical from 0 to {1.1 * peaks[1]:.2f}. "
        f"Top: {N:,} samples of one score q·k with d_k = {D_K}, a wide bell close to the normal "
        f"curve N(0, {D_K}), sampled variance {raw_var:.1f}, so low that it peaks at "
        f"{peaks[0]:.3f}. Bottom: {N:,} more such scores "
        f"divided by √{D_K} = {np.sqrt(D_K):g}, a narrow bell matching N(0, 1), sampled "
        f"variance {scaled_var:.2f}, peaking at {peaks[1]:.2f}: {peaks[1] / peaks[0]:.0f} times "
        "as high as the top one."
    )
    return pl.show(fig, alt)
