"""The whole walkthrough as one pipeline, from one seeded example with d_k = 64 and 8 keys: the
typical of 1001 random queries (the median largest unscaled weight), as on the page."""

import numpy as np
from _rows import typical_query
from _text import num

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 12
D_K = 64
N_K = 8
DRAWS = 1001  # random queries, each with its own keys; the figure shows the typical one


def make_figure(style, layout):
    q, K = typical_query(D_K, N_K, np.random.default_rng(SEED), draws=DRAWS)  # (d_k,), (n_k, d_k)
    scores = np.sum(q * K, axis=-1)  # (n_k, d_k) -> (n_k,): the dot products, as on the page
    tame = scores / np.sqrt(D_K)  # (n_k,)
    band = np.sqrt(D_K)  # the grey band of panel 3: ±√d_k, the typical size of a score
    fig, axes = new_figure(2, 3, height=5.2, layout=layout)
    i = np.arange(1, D_K + 1)  # (d_k,)
    keys = np.arange(1, N_K + 1)  # (n_k,)

    ax = axes[0, 0]
    ax.bar(i, q, bottom=0, color=style.blue, width=1.0)
    ax.text(66, 0, "q", color=style.text(style.blue), va="center")
    ax.text(66, -7, "k₁", color=style.text(style.vermilion), va="center")
    ax.bar(i, K[0], bottom=-7, color=style.vermilion, width=1.0)
    ax.set_yticks([])
    ax.set_xticks([1, 64])
    ax.set_xlabel("entry i")
    ax.set_title("① two random arrows,\n64 numbers each", fontsize=11)

    ax = axes[0, 1]
    products = q * K[0]  # (d_k,)
    ax.bar(i, products, color=style.muted, width=1.0)
    ax.set_xticks([1, 64])
    ax.set_xlabel("entry i")
    ax.set_title(
        f"② products qᵢkᵢ, summed:\nq·k₁ = {products.sum():.1f}".replace("-", "−"), fontsize=11
    )

    ax = axes[0, 2]
    ax.bar(keys, scores, color=style.vermilion)
    ax.axhspan(-band, band, color=style.faint, alpha=0.2, lw=0)
    ax.set_ylim(-25, 25)
    ax.set_xticks(keys)
    ax.set_xlabel("key")
    ax.set_title("③ wide scores q·kⱼ\n(grey: ±8 = ±√64)", fontsize=11)

    ax = axes[1, 0]
    ax.bar(keys, tame, color=style.blue)
    ax.axhspan(-1, 1, color=style.faint, alpha=0.2, lw=0)
    ax.set_ylim(-25 / 8, 25 / 8)
    ax.set_xticks(keys)
    ax.set_xlabel("key")
    ax.set_title(r"④ ÷ $\sqrt{d_k}$ = 8: tame scores" "\n(grey: ±1)", fontsize=11)

    ax = axes[1, 1]
    soft, spike = pl.softmax(tame), pl.softmax(scores)  # (n_k,), (n_k,)
    ax.bar(keys, soft, color=style.green)
    ax.set_ylim(0, 1.02)
    ax.set_xticks(keys)
    ax.set_xlabel("key")
    ax.set_title(f"⑤ softmax: soft weights\n(largest {soft.max():.2f})", fontsize=11)

    ax = axes[1, 2]
    ax.bar(keys, spike, color=style.orange)
    ax.set_ylim(0, 1.02)
    ax.set_xticks(keys)
    ax.set_xlabel("key")
    ax.set_title(f"without ÷ 8: peaked\n(largest {spike.max():.2f})", fontsize=11)
    outside = int((np.abs(scores) > band).sum())
    inside = int((np.abs(tame) <= 1).sum())
    alt = (
        f"A {axes.size}-panel pipeline from one seeded example, the typical of {DRAWS:,} random "
        f"queries (the median largest unscaled weight). Panel 1: the {D_K} entries of the "
        "query and of its first key as two strips of bars. Panel 2: their "
        f"{products.size} products, {(products > 0).sum()} positive and "
        f"{(products < 0).sum()} negative, summing to a dot product of "
        f"{num(products.sum(), '.1f')}. Panel 3: the {N_K} unscaled scores of the query against "
        f"{N_K} keys, spread from {num(scores.min(), '.1f')} to {num(scores.max(), '.1f')}, "
        f"{outside} of them outside a grey band at ±{band:g}. Panel 4: the same scores divided "
        f"by {np.sqrt(D_K):g}, between {num(tame.min(), '.1f')} and {num(tame.max(), '.1f')}, "
        f"{inside} of the {N_K} inside a grey band at ±1. Panel 5: their softmax, soft weights "
        f"with the largest {soft.max():.2f}. Panel 6: for contrast, the softmax of the unscaled "
        f"scores, peaked at {spike.max():.2f} on key {keys[spike.argmax()]}."
    )
    return pl.show(fig, alt)
