"""The whole walkthrough as one pipeline, from one seeded example with d_k = 64 and 8 keys."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import BLUE, GREEN, GREY, ORANGE, VERMILION, new_figure

SEED = 12
D_K = 64
N_K = 8


def make_figure():
    rng = np.random.default_rng(SEED)
    q = rng.standard_normal(D_K)  # (d_k,)
    K = rng.standard_normal((N_K, D_K))  # (n_k, d_k)
    scores = K @ q  # (n_k, d_k) x (d_k,) -> (n_k,)
    tame = scores / np.sqrt(D_K)  # (n_k,)
    fig, axes = new_figure(2, 3, height=5.2)
    i = np.arange(1, D_K + 1)  # (d_k,)
    keys = np.arange(1, N_K + 1)  # (n_k,)

    ax = axes[0, 0]
    ax.bar(i, q, bottom=0, color=BLUE, width=1.0)
    ax.text(66, 0, "q", color=BLUE, va="center")
    ax.text(66, -7, "k₁", color=VERMILION, va="center")
    ax.bar(i, K[0], bottom=-7, color=VERMILION, width=1.0)
    ax.set_yticks([])
    ax.set_xticks([1, 64])
    ax.set_xlabel("entry i")
    ax.set_title("① two random arrows,\n64 numbers each", fontsize=11)

    ax = axes[0, 1]
    products = q * K[0]  # (d_k,)
    ax.bar(i, products, color=GREY, width=1.0)
    ax.set_xticks([1, 64])
    ax.set_xlabel("entry i")
    ax.set_title(
        f"② products qᵢkᵢ, summed:\nq·k₁ = {products.sum():.1f}".replace("-", "−"), fontsize=11
    )

    ax = axes[0, 2]
    ax.bar(keys, scores, color=VERMILION)
    ax.axhspan(-8, 8, color="#999999", alpha=0.2, lw=0)
    ax.set_ylim(-25, 25)
    ax.set_xticks(keys)
    ax.set_xlabel("key")
    ax.set_title("③ wide scores q·kⱼ\n(grey: ±8 = ±√64)", fontsize=11)

    ax = axes[1, 0]
    ax.bar(keys, tame, color=BLUE)
    ax.axhspan(-1, 1, color="#999999", alpha=0.2, lw=0)
    ax.set_ylim(-25 / 8, 25 / 8)
    ax.set_xticks(keys)
    ax.set_xlabel("key")
    ax.set_title(r"④ ÷ $\sqrt{d_k}$ = 8: tame scores" "\n(grey: ±1)", fontsize=11)

    ax = axes[1, 1]
    ax.bar(keys, pl.softmax(tame), color=GREEN)
    ax.set_ylim(0, 1.02)
    ax.set_xticks(keys)
    ax.set_xlabel("key")
    ax.set_title("⑤ softmax: soft weights\n(gradient flows)", fontsize=11)

    ax = axes[1, 2]
    ax.bar(keys, pl.softmax(scores), color=ORANGE)
    ax.set_ylim(0, 1.02)
    ax.set_xticks(keys)
    ax.set_xlabel("key")
    ax.set_title("without ÷ 8: a spike\n(saturated)", fontsize=11)
    return fig
