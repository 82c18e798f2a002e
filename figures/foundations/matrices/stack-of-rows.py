"""Q, K and V as grids: each row is one vector, and the shape is (rows, columns)."""

from _shared import K, Q, V, draw_grid

from sitekit.figstyle import BLUE, GREEN, VERMILION, new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way


def make_figure():
    fig, ax = new_figure(height=2.3)
    x = 0.0
    for name, M, color in [("Q", Q, BLUE), ("K", K, VERMILION), ("V", V, GREEN)]:
        draw_grid(ax, M, x0=x, highlight_rows=(0,), color=color)
        r, c = M.shape
        ax.text(x + c / 2, -0.35, f"${name}$   shape ({r}, {c})", ha="center", fontsize=12)
        for i in range(r):
            ax.text(
                x - 0.12, i + 0.5, rf"$\mathbf{{{name.lower()}}}_{i + 1}$", ha="right", va="center"
            )
        x += c + 2.2
    ax.set_xlim(-1.0, x - 1.6)
    ax.set_ylim(3.2, -0.8)
    ax.set_aspect("equal")
    ax.axis("off")
    return fig
