"""The score table Q K^T as a heatmap: one dot product per query–key pair, values written in."""

import numpy as np
from _shared import K, Q

from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way


def make_figure():
    scores = Q @ K.T  # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)
    n_q, n_k = scores.shape
    fig, ax = new_figure(height=2.6)
    top = np.abs(scores).max()
    image = ax.imshow(scores, cmap="RdBu_r", vmin=-top, vmax=top)
    for i in range(n_q):
        for j in range(n_k):
            dark = abs(scores[i, j]) > 0.6 * top
            ax.text(
                j,
                i,
                f"{scores[i, j]:g}".replace("-", "−"),
                ha="center",
                va="center",
                fontsize=14,
                color="white" if dark else "black",
            )
    ax.set_xticks(range(n_k), [rf"$\mathbf{{k}}_{j + 1}$" for j in range(n_k)])
    ax.set_yticks(range(n_q), [rf"$\mathbf{{q}}_{i + 1}$" for i in range(n_q)])
    ax.xaxis.tick_top()
    ax.set_title(
        f"$QK^T$, shape ({n_q}, {n_k}): entry $(i, j)$ is " + r"$\mathbf{q}_i \cdot \mathbf{k}_j$",
        pad=28,
    )
    for side in ax.spines.values():
        side.set_visible(False)
    fig.colorbar(image, ax=ax, shrink=0.8, label="dot product")
    return fig
