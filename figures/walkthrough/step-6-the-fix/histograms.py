"""d_k = 64 scores unscaled, divided by sqrt(d_k) = 8, and over-shrunk by d_k = 64."""

import numpy as np
from _text import num

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 6
N = 6000  # scores
D_K = 64
BAND = 1.0  # the grey band: scores of unit size, from −BAND to BAND


def make_figure(style, layout):
    rng = np.random.default_rng(SEED)
    scores = pl.sample_scores(D_K, N, rng=rng)  # (N,) unscaled
    cases = (
        (scores, "unscaled q·k", style.vermilion, np.linspace(-30, 30, 61)),
        (
            scores / np.sqrt(D_K),
            r"q·k / $\sqrt{d_k}$ = q·k / 8",
            style.blue,
            np.linspace(-5, 5, 51),
        ),
        (
            scores / D_K,
            "q·k / $d_k$ = q·k / 64  (over-shrunk)",
            style.green,
            np.linspace(-0.6, 0.6, 49),
        ),
    )
    fig, axes = new_figure(3, 1, height=4.8, sharex=True, layout=layout)
    variances, inside = [], []  # per panel, for the alt text
    for ax, (values, label, colour, bins) in zip(axes, cases, strict=True):
        ax.hist(values, bins=bins, density=True, histtype="stepfilled", color=colour, alpha=0.85)
        ax.axvspan(-BAND, BAND, color=style.faint, alpha=0.18, lw=0)
        ax.set_yticks([])
        ax.spines["left"].set_visible(False)
        var = float(np.var(values, ddof=1))
        variances.append(var)
        inside.append(np.mean(np.abs(values) <= BAND))  # share of the scores in the grey band
        ax.text(
            0.01,
            0.8,
            f"{label}\nvariance ≈ {var:.3g}",
            transform=ax.transAxes,
            fontsize=10.5,
            color=style.foreground,
            va="top",
        )
    axes[-1].set_xlim(-30, 30)
    band = f"{num(-BAND)} to {num(BAND)}"
    axes[-1].set_xlabel(f"score for $d_k$ = {D_K}   (grey band: {band}, unit width)")
    low, high = axes[-1].get_xlim()
    alt = (
        f"Three histograms of the same {N:,} scores with d_k = {D_K} on one axis from "
        f"{num(low)} to {num(high)}, with a grey band marking {band}. Unscaled (orange) they "
        f"form a wide bell, variance {variances[0]:.3g}, only {inside[0]:.0%} of them inside "
        f"the band. Divided by {np.sqrt(D_K):g} (blue) they form a narrow bell, variance "
        f"{variances[1]:.3g}, {inside[1]:.0%} inside the band. Divided by {D_K} (green) they "
        f"collapse into a thin needle, variance {variances[2]:.3g}, {inside[2]:.0%} inside the "
        "band."
    )
    return pl.show(fig, alt)
