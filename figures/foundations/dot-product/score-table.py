"""The score table Q K^T as a heatmap: one dot product per query–key pair, values written in."""

from dataclasses import replace

import numpy as np
from _shared import K, Q, listing, num, sub

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way


def _cell(score, q, k):
    """One cell as the alt text reads it: its value, its colour, and the angle if it is exact."""
    colour = "red" if score > 0 else "blue" if score < 0 else "neutral"
    cos = score / (np.linalg.norm(q) * np.linalg.norm(k))
    angle = {1.0: "aligned", 0.0: "perpendicular", -1.0: "opposed"}
    words = [colour] + [word for c, word in angle.items() if np.isclose(cos, c)]
    return f"{num(score)} ({', '.join(words)})"


def make_figure(style, layout):
    scores = Q @ K.T  # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)
    n_q, n_k = scores.shape
    # As wide as the cells need, not the column: 1.1 inches a cell, and room for the labels.
    cell, room = (0.75, 1.6) if layout.stacked else (1.1, 2.4)
    width = min(cell * n_k + room, layout.width)
    fig, ax = new_figure(height=cell * n_q + 1.3, layout=replace(layout, width=width))
    top = np.abs(scores).max()
    image = ax.imshow(scores, cmap=style.diverging, vmin=-top, vmax=top)
    for i in range(n_q):
        for j in range(n_k):
            ink = style.ink_on(image.to_rgba(scores[i, j]))
            ax.text(j, i, num(scores[i, j]), ha="center", va="center", fontsize=15, color=ink)
    ax.set_xticks(range(n_k), [rf"$\mathbf{{k}}_{j + 1}$" for j in range(n_k)])
    ax.set_yticks(range(n_q), [rf"$\mathbf{{q}}_{i + 1}$" for i in range(n_q)])
    ax.tick_params(length=0, labelsize=13)
    ax.xaxis.tick_top()
    ax.set_title(r"$QK^T$: entry $(a, b)$ is $\mathbf{q}_a \cdot \mathbf{k}_b$", fontsize=12)
    for side in ax.spines.values():
        side.set_visible(False)
    # Cell borders, so that a zero cell, close to the background, still reads as a cell.
    ax.hlines(np.arange(n_q + 1) - 0.5, -0.5, n_k - 0.5, color=style.faint, lw=1)
    ax.vlines(np.arange(n_k + 1) - 0.5, -0.5, n_q - 0.5, color=style.faint, lw=1)
    bar = fig.colorbar(image, ax=ax, fraction=0.08, pad=0.04, ticks=[-top, 0, top])
    bar.set_label("dot product", fontsize=10)
    bar.ax.tick_params(labelsize=10)
    bar.outline.set_visible(False)
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
