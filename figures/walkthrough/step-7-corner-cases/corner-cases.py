"""Four corner cases of scaled attention, one small panel each."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import new_figure, sci

SEED = 7
N = 4  # keys in the small examples


def alike(unscaled, divided):
    """Whether a result is the same with the scores divided by 8, as the alt text says it."""
    if unscaled == divided:
        return "unscaled and divided by 8 alike"
    return f"unscaled (divided by 8: {divided})"


def make_figure(style, layout):
    rng = np.random.default_rng(SEED)
    fig, axes = new_figure(2, 2, height=5.4, layout=layout)
    keys = np.arange(1, N + 1)  # (n,)

    # d_k = 1: dividing by sqrt(1) = 1 changes no score.
    ax = axes[0, 0]
    raw = pl.sample_scores(1, 4000, rng=np.random.default_rng(SEED))  # (4000,)
    scaled = pl.sample_scores(1, 4000, rng=np.random.default_rng(SEED), scale=1 / np.sqrt(1))
    bins = np.linspace(-4, 4, 41)  # (41,)
    ax.hist(raw, bins=bins, histtype="stepfilled", color=style.blue, alpha=0.6, label="q·k")
    ax.hist(
        scaled, bins=bins, histtype="step", color=style.vermilion, lw=1.6, ls="--", label="q·k / √1"
    )
    ax.set_yticks([])
    ax.spines["left"].set_visible(False)
    ax.set_xlabel("score")
    ax.set_title("$d_k$ = 1: scaling does nothing", fontsize=11)
    ax.legend(frameon=False, fontsize=9, loc="upper right")

    # All scores equal: uniform weights 1/n, with or without scaling.
    ax = axes[0, 1]
    tied = np.full(N, 3.0)  # (n,)
    tied_weights = pl.softmax(tied), pl.softmax(tied / 8)  # (n,), (n,)
    ax.bar(keys - 0.2, tied_weights[0], width=0.4, color=style.blue, label="unscaled")
    ax.bar(keys + 0.2, tied_weights[1], width=0.4, color=style.orange, label="÷ 8")
    ax.axhline(1 / N, color=style.muted, lw=1, ls=":")
    ax.set_ylim(0, 1.05)
    ax.set_xticks(keys)
    ax.set_ylabel("weight")
    ax.set_title("all scores equal: 1/n each", fontsize=11)
    ax.legend(frameon=False, fontsize=9, loc="upper right")

    # One score enormous: one-hot weights and zero gradient, scaled or not.
    ax = axes[1, 0]
    huge = np.array([1e300, 0.5, -0.3, 0.8])  # (n,)
    one_hot = []  # (weights, gradient norm) unscaled and ÷ 8, for the alt text
    for shift, scale, colour, label in (
        (-0.2, 1.0, style.blue, "unscaled"),
        (0.2, 1 / 8, style.orange, "÷ 8"),
    ):
        s = huge * scale  # (n,)
        norm = pl.softmax_gradient_norm(s)
        one_hot.append((pl.softmax(s), norm))
        ax.bar(
            keys + shift, pl.softmax(s), width=0.4, color=colour, label=f"{label}: ‖J‖ = {norm:g}"
        )
    ax.set_ylim(0, 1.05)
    ax.set_xticks(keys)
    ax.set_xlabel("key")
    ax.set_ylabel("weight")
    ax.set_title("one score → +∞: one-hot, no gradient", fontsize=11)
    ax.legend(frameon=False, fontsize=9, loc="upper right")

    # V constant across rows: the output is that constant whatever the weights.
    ax = axes[1, 1]
    Q = rng.standard_normal((5, 8))  # (n_q, d_k)
    K = rng.standard_normal((N, 8))  # (n_k, d_k)
    V = np.full((N, 1), 2.5)  # (n_k, d_v): every row of V the same
    out, weights = pl.attention(Q, K, V, scale=1.0)  # (5, 1), (5, n)
    queries = np.arange(1, 6)  # (5,)
    bottom = np.zeros(5)  # (5,)
    for j, colour in enumerate((style.blue, style.orange, style.green, style.sky)):
        ax.bar(
            queries,
            weights[:, j],
            bottom=bottom,
            width=0.6,
            color=colour,
            edgecolor=style.background,
        )
        bottom += weights[:, j]
    for i in range(5):
        ax.text(
            queries[i], 1.03, f"{out[i, 0]:.2f}", ha="center", fontsize=9.5, color=style.foreground
        )
    ax.set_ylim(0, 1.15)
    ax.set_yticks([0, 0.5, 1])
    ax.set_xticks(queries)
    ax.set_xlabel("query (bars: its weights on the 4 keys)")
    ax.set_title("V constant: every output is 2.50", fontsize=11)
    rows, cols = axes.shape
    same = "lie exactly on top of each other" if np.array_equal(raw, scaled) else "differ"
    tie = [f"{w.max():g}" for w in tied_weights]  # unscaled, ÷ 8
    spike = [(int(w.argmax()) + 1, f"{w.max():g}", f"{n:g}") for w, n in one_hot]  # unscaled, ÷ 8
    (key, top, norm), largest = spike[0], weights.max(axis=1)  # largest: (5,)
    alt = (
        f"A {rows} × {cols} grid of small panels. Top left, d_k = 1: the histograms of scores "
        f"and of scores divided by √1 {same}. Top right, all {N} scores equal: every weight is "
        f"{tie[0]}, {alike(*tie)}. Bottom left, one score of {sci(huge[0], 1)}: key {key} gets "
        f"weight {top} and the gradient norm is {norm}, {alike(*spike)}. Bottom right, V "
        f"constant at {V[0, 0]:g}: {len(queries)} queries with very different stacked weights "
        f"over {N} keys (each query's largest between {largest.min():.2f} and "
        f"{largest.max():.2f}) all produce output "
        f"{' or '.join(sorted({f'{o:.2f}' for o in out[:, 0]}))}."
    )
    return pl.show(fig, alt)
