"""Var(q·k) = d_k: a tower of d_k unit bars beside the sampled variance of the score."""

import numpy as np
from _text import listing, nums

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 4
N = 3000  # scores per d_k
D_KS = (1, 4, 8, 16, 32, 64)
ERRORS = 4  # error bars of ± this many standard errors


def make_figure(style, layout):
    rng = np.random.default_rng(SEED)
    fig, ax = new_figure(height=4.2, layout=layout)
    variances, covered = [], []  # per d_k, for the alt text
    x = np.arange(len(D_KS))  # (6,)
    for i, d_k in enumerate(D_KS):
        # d_k products, each contributing a variance of exactly 1, stacked into a tower
        ax.bar(
            np.full(d_k, x[i] - 0.19),
            np.ones(d_k),
            bottom=np.arange(d_k),
            width=0.36,
            color=style.blue,
            edgecolor=style.background,
            linewidth=0.5,
            label="$d_k$ unit bars: Var(qᵢkᵢ) = 1 each" if i == 0 else None,
        )
        scores = pl.sample_scores(d_k, N, rng=rng)  # (N,)
        var = float(np.var(scores, ddof=1))
        se = pl.sample_variance_stderr(scores)
        variances.append(var)
        covered.append(abs(var - d_k) <= ERRORS * se)  # the error bar reaches the tower's top
        ax.bar(
            x[i] + 0.19,
            var,
            width=0.36,
            color=style.vermilion,
            yerr=ERRORS * se,
            capsize=4,
            error_kw={"ecolor": style.foreground, "lw": 1},
            label=f"sampled Var(q·k), {N} scores, ± {ERRORS} standard errors" if i == 0 else None,
        )
    ax.set_xticks(x, [f"$d_k$ = {d}" for d in D_KS])
    ax.set_ylabel("variance of the score")
    ax.set_yticks([0, 8, 16, 32, 64])
    ax.grid(axis="y", color=style.grid, lw=0.6)
    ax.set_axisbelow(True)
    ax.legend(frameon=False, loc="upper left")
    assert all(covered), "the page's text says the bar reaches the tower's top every time"
    missed = [f"d_k = {d}" for d, ok in zip(D_KS, covered, strict=True) if not ok]
    cover = (
        "covers the tower's top every time"
        if not missed
        else f"covers the tower's top except for {listing(missed)}"
    )
    alt = (
        f"Bar chart for d_k = {nums(D_KS)}. For each, a blue tower stacked from d_k unit bars "
        f"reaches height d_k, and beside it an orange bar of the sampled variance of {N:,} "
        f"scores reaches about the same height ({nums(variances, '.1f')}), with an error bar "
        f"of {ERRORS} standard errors that {cover}."
    )
    return pl.show(fig, alt)
