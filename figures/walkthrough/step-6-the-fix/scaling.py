"""Explorable: for d_k from 1 to 512, unscaled scores beside scores divided by sqrt(d_k): their
histogram, the typical query's softmax weights, and the share of saturated queries."""

import functools

import numpy as np
from _rows import random_rows, saturated_share, typical_query

import paperlens as pl
from sitekit.figstyle import Frames, new_figure

SEED = 6
N = 4000  # sampled scores per histogram, and random queries per share of saturated ones
N_K = 16  # keys per query
D_KS = tuple(2**i for i in range(10))  # 1, 2, 4, ..., 512
FRAMES = Frames(
    label="Key dimension dₖ",
    values=D_KS,
    default=64,
    texts=tuple(f"dₖ = {d_k}, √dₖ ≈ {np.sqrt(d_k):.3g}" for d_k in D_KS),
)
LIMIT = 70  # histograms share the horizontal axis from −LIMIT to LIMIT


@functools.cache
def shares():
    """The share of saturated queries (largest weight above 0.99) for every d_k, unscaled and
    divided by sqrt(d_k): two arrays of shape (len(D_KS),), from the same rows."""
    rng = np.random.default_rng([SEED, 2])
    rows = [random_rows(d_k, N_K, N, rng) for d_k in D_KS]  # (N, n_k) each
    raw = np.array([saturated_share(S) for S in rows])
    divided = np.array(
        [saturated_share(S, np.sqrt(d_k)) for d_k, S in zip(D_KS, rows, strict=True)]
    )
    return raw, divided


def make_frame(d_k, style, layout):
    rng = np.random.default_rng([SEED, d_k, 1])
    raw = pl.sample_scores(d_k, N, rng=rng)  # (N,)
    cases = (  # (title, scale, colour, share of saturated queries for every d_k)
        ("unscaled q·k", 1.0, style.vermilion, shares()[0]),
        ("q·k ÷ √dₖ", 1 / np.sqrt(d_k), style.blue, shares()[1]),
    )
    height = 7.4 if layout.stacked else 6.4
    fig, axes = new_figure(3, 2, height=height, layout=layout)
    for row in axes[1:]:  # weights and gradient norms on one scale; each histogram its own
        row[1].sharey(row[0])
        row[1].tick_params(labelleft=False)
    gap = "\n" if layout.stacked else " "  # narrow panels break their titles
    keys = np.arange(1, N_K + 1)  # (n_k,)
    said = []  # per column, for the alt text
    for column, (title, scale, colour, share) in zip(axes.T, cases, strict=True):
        hist, bars, curve = column
        scores = raw * scale  # (N,)
        spread = float(np.std(scores))
        width = max(spread, 1.0) / 4  # four bins to a standard deviation, or to a unit
        bins = np.arange(-LIMIT, LIMIT + width, width)  # (n_bins + 1,)
        density, edges = np.histogram(scores, bins=bins, density=True)  # (n_bins,)
        used = np.flatnonzero(density)  # drawn from the first bin used to the last
        span = slice(used[0], used[-1] + 1)
        hist.stairs(density[span], edges[used[0] : used[-1] + 2], fill=True, color=colour)
        hist.set_xlim(-LIMIT, LIMIT)
        hist.set_xticks([-50, 0, 50] if layout.stacked else [-60, -30, 0, 30, 60])
        hist.set_yticks([])
        hist.spines["left"].set_visible(False)
        hist.set_title(f"{title}\nstandard deviation{gap}{spread:.2g}", fontsize=10.5)
        # the typical query at this column's scale, from the same 201 draws in both columns
        q, K = typical_query(d_k, N_K, np.random.default_rng([SEED, d_k]), scale=scale)
        weights = pl.softmax(K @ q * scale)  # (n_k,) the typical query's weights
        bars.bar(keys, weights, color=colour, width=0.8)
        bars.axhline(1 / N_K, color=style.muted, lw=1, ls="--")
        bars.set_ylim(0, 1.02)
        bars.set_yticks([0, 0.5, 1])
        bars.set_xticks([1, 8, 16])
        bars.set_title(f"typical query's weights,{gap}largest {weights.max():.2f}", fontsize=10.5)
        now = share[D_KS.index(d_k)]
        steps = np.log2(D_KS)  # (len(D_KS),) d_k on a doubling axis
        curve.plot(steps, share, color=colour, lw=1.8, marker="o", ms=3)
        curve.plot([np.log2(d_k)], [now], "o", color=colour, ms=9, mfc="none", mew=2)
        curve.set_xticks(steps[::3], [str(d) for d in D_KS[::3]])
        curve.set_xlabel("dₖ")
        curve.set_title(f"saturated queries,{gap}at dₖ = {d_k}: {now:.0%}", fontsize=10.5)
        said.append((spread, weights.max(), now))
    axes[1, 0].set_xlabel("key")
    axes[1, 1].set_xlabel("key")
    axes[1, 0].set_ylabel("weight")
    axes[2, 0].set_ylabel("share")
    axes[2, 0].set_ylim(-0.03, 1.0)
    axes[2, 0].set_yticks([0, 0.5, 1])
    (s_raw, w_raw, g_raw), (s_fix, w_fix, g_fix) = said
    raw_shares, divided_shares = shares()
    alt = (
        f"For d_k = {d_k}, unscaled scores on the left, scores divided by √d_k = "
        f"{np.sqrt(d_k):.3g} on the right. Histograms of {N:,} scores on one axis from "
        f"−{LIMIT} to {LIMIT}: standard deviation {s_raw:.2g} unscaled, {s_fix:.2g} divided. "
        f"The weights over {N_K} keys of the typical query (the median largest weight of 201 "
        f"random queries, at each side's scale): the largest is {w_raw:.2f} unscaled, "
        f"{w_fix:.2f} divided (uniform would be {1 / N_K:g}). The share of saturated queries "
        "(largest weight above 0.99) "
        f"among {N:,} random ones, drawn for every d_k from {D_KS[0]} to {D_KS[-1]}: "
        f"{g_raw:.0%} here unscaled, rising from {raw_shares[0]:.0%} at d_k = {D_KS[0]} to "
        f"{raw_shares[-1]:.0%} at d_k = {D_KS[-1]}; {g_fix:.0%} here divided, and "
        + (
            f"at most {100 * divided_shares.max():.2g}% at any d_k."
            if divided_shares.max() > 0
            else "none at any d_k."
        )
    )
    return pl.show(fig, alt)


def make_figure(style, layout):
    return make_frame(FRAMES.default, style, layout)
