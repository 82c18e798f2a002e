"""K and its transpose side by side: mirrored across the main diagonal, row j of K becomes
column j of K transposed."""

import numpy as np
from _shared import K, draw_grid, vec

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way
MIRROR = "mirror across\nthe diagonal:\nrows become\ncolumns"  # the arrow's label


def make_figure(style, layout):
    fig, ax = new_figure(height=3.0, layout=layout)
    n_k, d_k = K.shape
    draw_grid(ax, K, style, highlight_rows=(0,), color=style.vermilion)
    x1 = d_k + 3.0
    draw_grid(ax, K.T, style, x0=x1, highlight_cols=(0,), color=style.vermilion)
    m = min(n_k, d_k)  # the main diagonal: entries (i, i), which the mirror leaves in place
    for x in (0.0, x1):
        ax.plot([x, x + m], [0, m], color=style.muted, lw=1.2, ls="--")
    ax.text(d_k / 2, -0.4, f"$K$   shape ({n_k}, {d_k})", ha="center", fontsize=12)
    ax.text(x1 + n_k / 2, -0.4, f"$K^T$   shape ({d_k}, {n_k})", ha="center", fontsize=12)
    ax.annotate(
        "",
        xy=(x1 - 0.4, 1.5),
        xytext=(d_k + 0.4, 1.5),
        arrowprops={
            "arrowstyle": "-|>",
            "color": style.muted,
            "lw": 1.8,
            "connectionstyle": "arc3,rad=-0.3",
        },
    )
    ax.text(d_k + 1.5, 2.4, MIRROR, ha="center", va="top", color=style.muted)
    ax.set_xlim(-0.3, x1 + n_k + 0.3)
    ax.set_ylim(d_k + 0.3, -1.0)
    ax.set_aspect("equal")
    ax.axis("off")
    label = MIRROR.replace("\n", " ")
    kept = "the same" if np.array_equal(K.diagonal(), K.T.diagonal()) else "not the same"
    alt = (
        f"Two grids side by side. On the left, K with shape ({n_k}, {d_k}), its first row "
        f"{vec(K[0])} highlighted. A curved arrow labelled “{label}” points "
        f"to the right grid, K transposed, with shape ({d_k}, {n_k}), whose first column holds "
        f"the same numbers {vec(K.T[:, 0])}, highlighted. A dashed line through each grid marks "
        f"the main diagonal, whose entries {vec(K.diagonal())} are {kept} in both."
    )
    return pl.show(fig, alt)
