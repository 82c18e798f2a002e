"""The typical query's attention weights over 16 keys: unscaled, divided by sqrt(d_k), divided
by d_k. Typical: of 201 random queries, each with its own keys, the one whose largest unscaled
weight is the median."""

import numpy as np
from _rows import typical_query
from _text import listing

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 1
D_K = 64
N_K = 16


def make_figure(style, layout):
    q, K = typical_query(D_K, N_K, np.random.default_rng(SEED))  # (d_k,), (n_k, d_k)
    q = q[None]  # (n_q, d_k) with n_q = 1
    V = np.eye(N_K)  # (n_k, d_v), unused: only the weights are drawn
    cases = (
        (1.0, "unscaled", style.vermilion),
        (1 / np.sqrt(D_K), r"÷ $\sqrt{d_k}$ = 8", style.blue),
        (1 / D_K, "÷ $d_k$ = 64", style.green),
    )
    fig, axes = new_figure(1, 3, height=2.9, sharey=True, layout=layout)
    drawn = []  # each panel's weights, for the alt text
    keys = np.arange(1, N_K + 1)  # (n_k,)
    for ax, (scale, label, colour) in zip(axes, cases, strict=True):
        weights = pl.attention(q, K, V, scale=scale).weights[0]  # (n_k,)
        drawn.append(weights)
        ax.bar(keys, weights, color=colour, width=0.8)
        ax.axhline(1 / N_K, color=style.muted, lw=1, ls="--")
        ax.set_title(f"{label}\nlargest weight {weights.max():.2f}", fontsize=11)
        ax.set_xticks([1, 8, 16])
        ax.set_xlabel("key")
    axes[0].set_ylabel("attention weight")
    axes[0].set_ylim(0, 1.02)
    axes[2].text(N_K + 0.5, 1 / N_K + 0.03, f"1/{N_K}", ha="right", color=style.muted, fontsize=10)
    unscaled, tamed, shrunk = drawn
    top = np.argsort(unscaled)[::-1][:2]  # (2,) the two heaviest keys
    alt = (
        f"Attention weights over {N_K} keys of the typical query (the median largest unscaled "
        f"weight of 201 random queries), in three panels. Unscaled (orange), "
        f"keys {listing(str(j + 1) for j in top)} take {unscaled[top].sum():.0%} of the weight, "
        f"the largest {unscaled.max():.2f}. Divided by √d_k = {np.sqrt(D_K):g} (blue), the "
        f"weights vary from key to key, from {tamed.min():.3f} to {tamed.max():.2f}. Divided "
        f"by d_k = {D_K} (green), all {N_K} bars sit close to the dashed line at 1/{N_K} = "
        f"{1 / N_K:g}, between {shrunk.min():.3f} and {shrunk.max():.3f}."
    )
    return pl.show(fig, alt)
