"""One query's attention weights over 16 keys: unscaled, divided by sqrt(d_k), divided by d_k."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import BLUE, GREEN, GREY, VERMILION, new_figure

SEED = 1
D_K = 64
N_K = 16


def make_figure():
    rng = np.random.default_rng(SEED)
    q = rng.standard_normal((1, D_K))  # (n_q, d_k)
    K = rng.standard_normal((N_K, D_K))  # (n_k, d_k)
    V = np.eye(N_K)  # (n_k, d_v), unused: only the weights are drawn
    cases = (
        (1.0, "unscaled", VERMILION),
        (1 / np.sqrt(D_K), r"÷ $\sqrt{d_k}$ = 8", BLUE),
        (1 / D_K, "÷ $d_k$ = 64", GREEN),
    )
    fig, axes = new_figure(1, 3, height=2.9, sharey=True)
    keys = np.arange(1, N_K + 1)  # (n_k,)
    for ax, (scale, label, colour) in zip(axes, cases, strict=True):
        weights = pl.attention(q, K, V, scale=scale).weights[0]  # (n_k,)
        ax.bar(keys, weights, color=colour, width=0.8)
        ax.axhline(1 / N_K, color=GREY, lw=1, ls="--")
        ax.set_title(f"{label}\nlargest weight {weights.max():.2f}", fontsize=11)
        ax.set_xticks([1, 8, 16])
        ax.set_xlabel("key")
    axes[0].set_ylabel("attention weight")
    axes[0].set_ylim(0, 1.02)
    axes[2].text(16.5, 1 / N_K + 0.03, "1/16", ha="right", color=GREY, fontsize=10)
    return fig
