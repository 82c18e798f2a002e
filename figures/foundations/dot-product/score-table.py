"""The score table Q K^T as a heatmap: one dot product per query–key pair, values written in."""

import numpy as np
from _shared import K, Q, listing, num, sub

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way


def _cell(score, q, k):
    """One cell as the alt text reads it: its value, its colour, and the angle if it is exact."""
    colour = "red" if score > 0 else "blue" if score < 0 else "white"
    cos = score / (np.linalg.norm(q) * np.linalg.norm(k))
    angle = {1.0: "aligned", 0.0: "perpendicular", -1.0: "opposed"}
    words = [colour] + [word for c, word in angle.items() if np.isclose(cos, c)]
    return f"{num(score)} ({', '.join(words)})"


def make_figure(style, layout):
    scores = Q @ K.T  # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)
    n_q, n_k = scores.shape
    fig, ax = new_figure(height=2.6, layout=layout)
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
    rows = [
        f"q{sub(i + 1)} reads " + listing(_cell(scores[i, j], Q[i], K[j]) for j in range(n_k))
        for i in range(n_q)
    ]
    alt = (
        f"A heatmap of the score matrix Q Kᵀ with shape ({n_q}, {n_k}): rows labelled "
        f"{listing(f'q{sub(i + 1)}' for i in range(n_q))}, columns "
        f"{listing(f'k{sub(j + 1)}' for j in range(n_k))}. Row {'; row '.join(rows)}. "
        "Each cell is the dot product of its query with its key."
    )
    return pl.show(fig, alt)
