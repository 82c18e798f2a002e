"""Explorable: for d_k from 1 to 512, unscaled scores beside scores divided by sqrt(d_k): their
histogram, one query's softmax weights, and the softmax gradient norm."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import Frames, new_figure

SEED = 6
N = 4000  # sampled scores per histogram
N_Q, N_K = 200, 16  # queries and keys for the weights and the gradient norm
D_KS = tuple(2**i for i in range(10))  # 1, 2, 4, ..., 512
FRAMES = Frames(
    label="Key dimension dₖ",
    values=D_KS,
    default=64,
    texts=tuple(f"dₖ = {d_k}, √dₖ ≈ {np.sqrt(d_k):.3g}" for d_k in D_KS),
)
LIMIT = 70  # histograms share the horizontal axis from −LIMIT to LIMIT


def queries_and_keys(d_k):
    """The queries and keys of one d_k, the same in every frame that uses them."""
    rng = np.random.default_rng([SEED, d_k])
    Q = rng.standard_normal((N_Q, d_k))  # (n_q, d_k)
    K = rng.standard_normal((N_K, d_k))  # (n_k, d_k)
    return Q, K


def gradient_norms(scale_of):
    """The mean softmax gradient norm over the queries, for every d_k: shape (len(D_KS),)."""
    norms = []
    for d_k in D_KS:
        Q, K = queries_and_keys(d_k)
        scores = Q @ K.T * scale_of(d_k)  # (n_q, d_k) x (d_k, n_k) -> (n_q, n_k)
        norms.append(pl.softmax_gradient_norm(scores).mean())
    return np.array(norms)


def make_frame(d_k, style, layout):
    rng = np.random.default_rng([SEED, d_k, 1])
    raw = pl.sample_scores(d_k, N, rng=rng)  # (N,)
    Q, K = queries_and_keys(d_k)
    V = np.eye(N_K)  # (n_k, d_v): only the weights are drawn
    cases = (  # (title, scale, colour)
        ("unscaled q·k", lambda d: 1.0, style.vermilion),
        ("q·k ÷ √dₖ", lambda d: 1 / np.sqrt(d), style.blue),
    )
    height = 7.4 if layout.stacked else 6.4
    fig, axes = new_figure(3, 2, height=height, layout=layout)
    for row in axes[1:]:  # weights and gradient norms on one scale; each histogram its own
        row[1].sharey(row[0])
        row[1].tick_params(labelleft=False)
    gap = "\n" if layout.stacked else " "  # narrow panels break their titles
    keys = np.arange(1, N_K + 1)  # (n_k,)
    said = []  # per column, for the alt text
    for column, (title, scale_of, colour) in zip(axes.T, cases, strict=True):
        hist, bars, curve = column
        scale = scale_of(d_k)
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
        weights = pl.attention(Q[:1], K, V, scale=scale).weights[0]  # (n_k,) the first query
        bars.bar(keys, weights, color=colour, width=0.8)
        bars.axhline(1 / N_K, color=style.muted, lw=1, ls="--")
        bars.set_ylim(0, 1.02)
        bars.set_yticks([0, 0.5, 1])
        bars.set_xticks([1, 8, 16])
        bars.set_title(f"one query's weights,{gap}largest {weights.max():.2f}", fontsize=10.5)
        norms = gradient_norms(scale_of)  # (len(D_KS),)
        now = norms[D_KS.index(d_k)]
        steps = np.log2(D_KS)  # (len(D_KS),) d_k on a doubling axis
        curve.plot(steps, norms, color=colour, lw=1.8, marker="o", ms=3)
        curve.plot([np.log2(d_k)], [now], "o", color=colour, ms=9, mfc="none", mew=2)
        curve.set_xticks(steps[::3], [str(d) for d in D_KS[::3]])
        curve.set_xlabel("dₖ")
        name = "gradient norm" if layout.stacked else "softmax gradient norm"
        curve.set_title(f"{name}{gap}at dₖ = {d_k}: {now:.2g}", fontsize=10.5)
        said.append((spread, weights.max(), now, norms))
    axes[1, 0].set_xlabel("key")
    axes[1, 1].set_xlabel("key")
    axes[1, 0].set_ylabel("weight")
    axes[2, 0].set_ylabel("mean ‖J‖")
    top = max(n.max() for _, _, _, n in said)
    axes[2, 0].set_ylim(0, top * 1.15)
    axes[2, 0].set_yticks(np.arange(0, top + 0.05, 0.1).round(1))
    (s_raw, w_raw, g_raw, n_raw), (s_fix, w_fix, g_fix, n_fix) = said
    alt = (
        f"For d_k = {d_k}, unscaled scores on the left, scores divided by √d_k = "
        f"{np.sqrt(d_k):.3g} on the right. Histograms of {N:,} scores on one axis from "
        f"−{LIMIT} to {LIMIT}: standard deviation {s_raw:.2g} unscaled, {s_fix:.2g} divided. "
        f"One query's softmax weights over {N_K} keys: the largest is {w_raw:.2f} unscaled, "
        f"{w_fix:.2f} divided (uniform would be {1 / N_K:g}). The softmax gradient norm, "
        f"averaged over {N_Q} queries and drawn for every d_k from {D_KS[0]} to {D_KS[-1]}: "
        f"{g_raw:.2g} here unscaled, against {n_raw[0]:.2g} at d_k = {D_KS[0]} and "
        f"{n_raw[-1]:.2g} at d_k = {D_KS[-1]}; {g_fix:.2g} here divided, between "
        f"{n_fix.min():.2g} and {n_fix.max():.2g} for every d_k."
    )
    return pl.show(fig, alt)


def make_figure(style, layout):
    return make_frame(FRAMES.default, style, layout)
