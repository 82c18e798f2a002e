"""Helpers for the Foundations figures: the running example, a matrix drawn as a grid, and
numbers written the way labels and alt text read them."""

import numpy as np
from matplotlib.patches import Rectangle


def draw_grid(
    ax, values, style, *, x0=0.0, y0=0.0, highlight_rows=(), highlight_cols=(), color=None
):
    """Draw ``values`` (r, c) with its top-left corner at (x0, y0); one unit per cell.

    Rows listed in ``highlight_rows`` (or columns in ``highlight_cols``) are filled lightly with
    ``color`` (default: the style's blue); cells and lines take the style's paper and edge
    colours. The y axis points down, so call ``ax.invert_yaxis()`` once per axes.
    """
    values = np.asarray(values)
    color = style.blue if color is None else color
    rows, cols = values.shape
    for i in range(rows):
        for j in range(cols):
            lit = i in highlight_rows or j in highlight_cols
            ax.add_patch(
                Rectangle(
                    (x0 + j, y0 + i),
                    1,
                    1,
                    facecolor=color if lit else style.paper,
                    alpha=0.25 if lit else 1.0,
                    edgecolor=style.edge,
                    lw=1,
                )
            )
            ax.add_patch(Rectangle((x0 + j, y0 + i), 1, 1, fill=False, edgecolor=style.edge, lw=1))
            ax.text(x0 + j + 0.5, y0 + i + 0.5, num(values[i, j]), ha="center", va="center")


def num(x, spec="g"):
    """``x`` formatted with ``spec`` and a true minus sign: ``num(-2.0)`` is ``'−2'``."""
    return format(x + 0.0, spec).replace("-", "−")  # + 0.0 turns −0 into 0


def vec(values, spec="g"):
    """A vector as prose writes it: ``vec([1, 0, -2])`` is ``'(1, 0, −2)'``."""
    return "(" + ", ".join(num(v, spec) for v in values) + ")"


def nums(values, spec="g"):
    """Numbers as a list in prose: ``nums([1, 0, -2])`` is ``'1, 0 and −2'``."""
    return listing([num(v, spec) for v in values])


def listing(words):
    """``'a, b and c'``."""
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def sub(i):
    """``i`` as subscript digits, for names such as q₁: ``sub(12)`` is ``'₁₂'``."""
    return str(i).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


# The running example of the Foundations pages (the pages build the same arrays in their code):
# two queries and three keys of d_k = 4 numbers, and three values of d_v = 2 numbers.
Q = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 2.0, 0.0, 1.0]])  # (n_q, d_k) = (2, 4)
K = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [-1.0, 0.0, -1.0, 0.0]])  # (3, 4)
V = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # (n_k, d_v) = (3, 2)
