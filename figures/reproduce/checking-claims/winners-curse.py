"""The best of ten runs of one system sits to the right of a single run: the winner's curse."""

import math

import numpy as np

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way
RUNS = 10
SIGMA = float(np.hypot(0.6, 0.2))  # the page's simulated seed spread, in BLEU
MARGIN = 0.5


def _pdf(x):
    return np.exp(-((x / SIGMA) ** 2) / 2) / (SIGMA * np.sqrt(2 * np.pi))


def _cdf(x):
    return 0.5 * (1 + np.vectorize(math.erf)(x / (SIGMA * np.sqrt(2))))


def make_figure(style, layout):
    x = np.linspace(-2.5, 3, 551)  # (701,): a score minus the system's mean, in BLEU
    single = _pdf(x)  # one run's density
    best = RUNS * _pdf(x) * _cdf(x) ** (RUNS - 1)  # the density of the best of RUNS
    best_mean = float(np.sum(x * best) / np.sum(best))  # the grid is fine and wide enough
    fig, ax = new_figure(height=3.0, layout=layout)
    ax.plot(x, single, color=style.blue, lw=2, label="one run")
    ax.plot(x, best, color=style.vermilion, lw=2, label=f"best of {RUNS} runs")
    ax.axvline(0, color=style.blue, lw=1, ls=":")
    ax.axvline(best_mean, color=style.vermilion, lw=1, ls=":")
    ax.axvspan(
        best_mean - MARGIN, best_mean, color=style.grid, alpha=0.6, lw=0,
        label=f"within {MARGIN:g} of its mean",
    )  # fmt: skip
    ax.set_xlabel("score minus the system's mean (BLEU)")
    ax.set_ylabel("density")
    ax.set_ylim(0, 1.1 * best.max())
    if layout.stacked:  # no room beside the curves: the legend goes below them
        fig.legend(frameon=False, loc="outside lower center", ncols=2, fontsize=10)
    else:
        ax.legend(frameon=False, loc="upper right", fontsize=10)
    alt = (
        f"Two densities of one system's score, with the seed spread of the page's simulation, "
        f"a standard deviation of {SIGMA:.2f} BLEU: one run, centred on the system's mean, and "
        f"the best of {RUNS} runs, centred {best_mean:.2f} to its right and narrower. A shaded "
        f"band of width {MARGIN:g} ends at the best's mean; most of the single run's curve lies "
        f"left of it."
    )
    return pl.show(fig, alt)
