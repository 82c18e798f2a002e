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
    x = np.linspace(-3, 3.5, 651)  # (651,): a score minus the system's mean, in BLEU
    dx = x[1] - x[0]
    single = _pdf(x)  # one run's density
    best = RUNS * _pdf(x) * _cdf(x) ** (RUNS - 1)  # the density of the best of RUNS
    best_mean = float(np.sum(x * best) * dx)  # the grid is fine and wide enough
    # One run minus the best of ten, drawn independently: density and the share within MARGIN
    t = np.linspace(-3.5, 1.5, 501)  # (501,)
    gap = np.sum(_pdf(x[None, :] + t[:, None]) * best[None, :], axis=1) * dx  # (501,)
    within = float(np.sum(best * (1 - _cdf(x - MARGIN))) * dx)  # P(one >= best - MARGIN)

    fig, (left, right) = new_figure(1, 2, height=3.0, layout=layout)
    left.plot(x, single, color=style.blue, lw=2, label="one run")
    left.plot(x, best, color=style.vermilion, lw=2, label=f"best of {RUNS}")
    left.axvline(0, color=style.blue, lw=1, ls=":")
    left.axvline(best_mean, color=style.vermilion, lw=1, ls=":")
    left.set_xlabel("score minus the system's mean (BLEU)")
    left.set_ylabel("density")
    left.set_ylim(0, 1.15 * best.max())
    left.legend(frameon=False, loc="upper left", fontsize=10)

    right.plot(t, gap, color=style.blue, lw=2)
    right.fill_between(
        t, gap, where=t >= -MARGIN, color=style.blue, alpha=0.3, lw=0,
        label=f"within {MARGIN:g} of the best, or above: {within:.0%}",
    )  # fmt: skip
    right.axvline(-best_mean, color=style.muted, lw=1, ls=":")
    right.set_xlabel(f"one run minus the best of {RUNS} (BLEU)")
    right.set_ylabel("density")
    right.set_ylim(0, 1.3 * gap.max())
    right.legend(frameon=False, loc="upper left", fontsize=10)

    alt = (
        f"Two panels, for one system whose score has a standard deviation of {SIGMA:.2f} BLEU "
        f"across seeds. Left: the density of one run, centred on the system's mean, and of "
        f"the best of {RUNS} runs, centred {best_mean:.2f} to its right and narrower. Right: "
        f"the density of one run minus the best of {RUNS} runs drawn with it, centred on "
        f"{-best_mean:.2f}; the area from {-MARGIN:g} up, where the single run lands within "
        f"{MARGIN:g} of the best or above it, is shaded: {within:.0%} of the whole."
    )
    return pl.show(fig, alt)
