"""d_k = 64 scores unscaled, divided by sqrt(d_k) = 8, and over-shrunk by d_k = 64."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import BLUE, GREEN, VERMILION, new_figure

SEED = 6
N = 6000  # scores
D_K = 64


def make_figure():
    rng = np.random.default_rng(SEED)
    scores = pl.sample_scores(D_K, N, rng=rng)  # (N,) unscaled
    cases = (
        (scores, "unscaled q·k", VERMILION, np.linspace(-30, 30, 61)),
        (scores / np.sqrt(D_K), r"q·k / $\sqrt{d_k}$ = q·k / 8", BLUE, np.linspace(-5, 5, 51)),
        (scores / D_K, "q·k / $d_k$ = q·k / 64  (over-shrunk)", GREEN, np.linspace(-0.6, 0.6, 49)),
    )
    fig, axes = new_figure(3, 1, height=4.8, sharex=True)
    for ax, (values, label, colour, bins) in zip(axes, cases, strict=True):
        ax.hist(values, bins=bins, density=True, histtype="stepfilled", color=colour, alpha=0.85)
        ax.axvspan(-1, 1, color="#999999", alpha=0.18, lw=0)
        ax.set_yticks([])
        ax.spines["left"].set_visible(False)
        var = float(np.var(values, ddof=1))
        ax.text(
            0.01,
            0.8,
            f"{label}\nvariance ≈ {var:.3g}",
            transform=ax.transAxes,
            fontsize=10.5,
            color="#111111",
            va="top",
        )
    axes[-1].set_xlim(-30, 30)
    axes[-1].set_xlabel("score for $d_k$ = 64   (grey band: −1 to 1, unit width)")
    return fig
