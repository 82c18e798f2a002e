"""The same training rerun with its starting parameters changed in the last bits."""

import functools

import numpy as np

import paperlens as pl
from paperlens.experiments import claims
from paperlens.experiments import residual_depth as res
from sitekit.figstyle import new_figure

SEED = 0  # seeds the task; the nets use seeds 0 to 11, as on the page
DEPTHS = (8, 48)
SETUP = dict(width=16, seeds=range(12), steps=150, lr=0.003, residual=False)


@functools.cache
def _runs():
    """The trainings, once for all four renders (two styles, two layouts)."""
    X, y = res.regression_task(64, 8, rng=np.random.default_rng(SEED))
    first = res.train_depths(X, y, depths=DEPTHS, **SETUP)[..., -1]  # (depth, seed)
    again = res.train_depths(
        X, y, depths=DEPTHS, perturbation=claims.Perturbation(seed=1), **SETUP
    )[..., -1]  # (depth, seed)
    return first, again


def make_figure(style, layout):
    first, again = _runs()
    fig, ax = new_figure(height=3.6, layout=layout)
    for row, colour, depth in zip(range(2), (style.blue, style.vermilion), DEPTHS, strict=True):
        ax.scatter(first[row], again[row], color=colour, s=22, label=f"{depth} layers")
    limits = [min(first.min(), again.min()) / 2, max(first.max(), again.max()) * 2]
    ax.plot(limits, limits, color=style.muted, lw=0.8, ls=":")
    ax.set(xscale="log", yscale="log", xlim=limits, ylim=limits)
    ax.set_xlabel("final loss, first run")
    ax.set_ylabel("final loss, rerun")
    ax.legend(frameon=False)
    change = np.abs(again / first - 1)  # (depth, seed)
    factor = np.maximum(again / first, first / again)  # how far each run moved, (depth, seed)
    verdicts = [
        claims.paired_greater(np.log10(run[1]), np.log10(run[0]), "deeper is worse").holds
        for run in (first, again)
    ]
    alt = (
        f"Final training loss of {first.shape[1]} plain nets per depth, first run against a "
        f"rerun with every starting parameter changed by a factor 1 + {claims.JITTER:g}·z, log "
        f"scales, with a dotted diagonal. The {DEPTHS[0]}-layer nets sit on the diagonal (the "
        f"largest change is {change[0].max():.0e} of the loss); the {DEPTHS[1]}-layer nets "
        f"scatter around it, the farthest moving by a factor of {factor[1].max():.1f}. The test "
        f"that deeper is worse {'holds' if all(verdicts) else 'does not hold'} in both runs."
    )
    return pl.show(fig, alt)
