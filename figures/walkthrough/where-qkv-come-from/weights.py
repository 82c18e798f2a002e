"""The attention weights of the toy sentence "the cat sat": who looks at whom."""

import numpy as np
from _text import listing, num

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way

# The page's toy example (tests/docs/test_where_qkv.py checks that the two agree).
TOKENS = ["the", "cat", "sat"]
X = np.array(
    [
        [1.0, 0.0, 0.0, 0.0],  # the: function word
        [0.0, 1.0, 0.0, 1.0],  # cat: noun, content
        [0.0, 0.0, 1.0, 1.0],  # sat: verb, content
    ]
)  # (n, d_model)
W_Q = np.array([[1, 0], [0, 0], [2, 0], [0, 1]], dtype=float)  # (d_model, d_k)
W_K = np.array([[0, 0], [2, 0], [0, 0], [0, 1]], dtype=float)  # (d_model, d_k)
W_V = np.array([[0, 0], [1, 0], [0, 1], [0, 0]], dtype=float)  # (d_model, d_v)


def _row(token, weights):
    """One row as the alt text reads it: the largest weight(s) and where they go."""
    top = weights.max()
    most = [TOKENS[j] for j in np.flatnonzero(np.isclose(weights, top, atol=5e-4))]
    return f"“{token}” gives {num(top, '.2f')} to " + listing(f"“{t}”" for t in most)


def make_figure(style, layout):
    Q, K, V = pl.linear(X, W_Q), pl.linear(X, W_K), pl.linear(X, W_V)  # (n, 2) each
    weights = pl.attention(Q, K, V).weights  # (n, n): softmax(Q Kᵀ / √d_k), row by row
    n = len(TOKENS)
    fig, ax = new_figure(height=3.0 if not layout.stacked else 3.4, layout=layout)
    ax.imshow(weights, cmap="Blues", vmin=0, vmax=1)
    for i in range(n):
        for j in range(n):
            ax.text(
                j,
                i,
                f"{weights[i, j]:.2f}",
                ha="center",
                va="center",
                fontsize=13,
                color="white" if weights[i, j] > 0.6 else "black",
            )
    ax.set_xticks(range(n), [f"“{t}”" for t in TOKENS])
    ax.set_yticks(range(n), [f"“{t}”" for t in TOKENS])
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel("attended to (key)")
    ax.set_ylabel("asking (query)")
    for side in ax.spines.values():
        side.set_visible(False)
    rows = "; ".join(_row(t, weights[i]) for i, t in enumerate(TOKENS))
    alt = (
        f"A {n} by {n} table of the attention weights of the sentence “{' '.join(TOKENS)}”: "
        f"one row per token asking, one column per token attended to, each row adding up to "
        f"{num(weights.sum(axis=1).mean(), '.0f')}. {rows}."
    )
    return pl.show(fig, alt)
