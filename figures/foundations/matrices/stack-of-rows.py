"""Q, K and V as grids: each row is one vector, and the shape is (rows, columns)."""

from _shared import K, Q, V, draw_grid, listing, sub, vec

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way


def make_figure(style, layout):
    fig, ax = new_figure(height=2.3, layout=layout)
    x = 0.0
    grids = {"Q": (Q, style.blue), "K": (K, style.vermilion), "V": (V, style.green)}
    described = []  # one sentence of the alt text per grid
    for name, (M, color) in grids.items():
        draw_grid(ax, M, style, x0=x, highlight_rows=(0,), color=color)
        r, c = M.shape
        ax.text(x + c / 2, -0.35, f"${name}$   shape ({r}, {c})", ha="center", fontsize=12)
        for i in range(r):
            ax.text(
                x - 0.12, i + 0.5, rf"$\mathbf{{{name.lower()}}}_{i + 1}$", ha="right", va="center"
            )
        x += c + 2.2
        rows = [f"{name.lower()}{sub(i + 1)}" for i in range(r)]
        described.append(
            f"{name}, shape ({r}, {c}), has rows {listing(rows)}, "
            f"with {rows[0]} = {vec(M[0])} highlighted"
        )
    ax.set_xlim(-1.0, x - 1.6)
    ax.set_ylim(3.2, -0.8)
    ax.set_aspect("equal")
    ax.axis("off")
    alt = (
        f"{listing(grids)} as grids side by side. {'. '.join(described)}. "
        "Each highlighted row is one vector."
    )
    return pl.show(fig, alt)
