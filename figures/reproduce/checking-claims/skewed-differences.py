"""Differences with median 0 but a long right tail: their pseudo-median is above 0."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # seeds the pairs that locate the pseudo-median
A = 1.5  # D = exp(A Z) - 1, as on the page
PAIRS = 1_000_000


def _density(d):
    """The density of D = exp(A Z) - 1 with Z ~ N(0, 1), for d > -1."""
    u = np.log1p(d) / A  # the z that gives d
    return np.exp(-(u**2) / 2) / np.sqrt(2 * np.pi) / (A * (1 + d))


def make_figure(style, layout):
    z = np.random.default_rng(SEED).standard_normal((2, PAIRS))
    pseudo_median = float(np.median((np.expm1(A * z[0]) + np.expm1(A * z[1])) / 2))
    d = np.linspace(-0.999, 4, 800)  # (800,)
    density = _density(d)
    fig, ax = new_figure(height=3.0, layout=layout)
    ax.plot(d, density, color=style.blue, lw=2, label="density of D")
    ax.plot(-d, density, color=style.muted, lw=1, ls="--", label="its mirror image")
    ax.fill_between(d, density, where=d < 0, color=style.blue, alpha=0.15, lw=0)
    ax.axvline(0, color=style.foreground, lw=1, label="median, 0")
    ax.axvline(
        pseudo_median, color=style.vermilion, lw=1.5, ls=":",
        label=f"pseudo-median, {pseudo_median:.2f}",
    )  # fmt: skip
    ax.set_xlim(-2, 4)
    ax.set_ylim(0, 1.1 * density.max())
    ax.set_xlabel("difference D = exp(1.5 Z) − 1")
    ax.set_ylabel("density")
    if layout.stacked:  # no room beside the curves: the legend goes below them
        fig.legend(frameon=False, loc="outside lower center", ncols=2, fontsize=10)
    else:
        ax.legend(frameon=False, loc="upper right", fontsize=10)
    # The mode, exp(-A²) - 1, near the lowest value D can take (-1), not near its median 0.
    peak = f"{float(d[np.argmax(density)]):.1f}".replace("-", "−")
    alt = (
        "The density of the difference D = exp(1.5 Z) − 1 for a standard normal Z, from −1 to "
        f"4: a tall peak at {peak}, near the lowest value D can take, and a long tail to the "
        "right, beside its dashed mirror "
        "image, which does not match it. A solid line at 0 marks the median, with half the "
        f"area to its left; a dotted line at {pseudo_median:.2f} marks the pseudo-median, the "
        "median of the average of two independent differences: what the Hodges–Lehmann "
        "estimate estimates for such differences, and what the signed-rank test leans towards."
    )
    return pl.show(fig, alt)
