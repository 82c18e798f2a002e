"""The attention weights of the toy sentence "the cat sat": who looks at whom."""

import numpy as np
from _text import listing, num, nums

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


def _table(ax, weights, style):
    n = len(TOKENS)
    image = ax.imshow(weights, cmap=style.sequential, vmin=0, vmax=1)
    for i in range(n):
        for j in range(n):
            ink = style.ink_on(image.to_rgba(weights[i, j]))
            ax.text(j, i, f"{weights[i, j]:.2f}", ha="center", va="center", fontsize=12, color=ink)
    ax.set_xticks(range(n), [f"“{t}”" for t in TOKENS])
    ax.set_yticks(range(n), [f"“{t}”" for t in TOKENS])
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    ax.set_xlabel("attended to (key)")
    ax.set_ylabel("asking (query)")
    for side in ax.spines.values():
        side.set_visible(False)


def _one_query(ax, scores, scaled, weights, d_k, style):
    rows = np.arange(len(TOKENS))[::-1]  # the first token on top
    ax.barh(rows, weights, color=style.blue, height=0.6)
    for r, s, c, w in zip(rows, scores, scaled, weights, strict=True):
        ax.text(w + 0.03, r, f"{num(s)} → {num(c, '.2f')} → {w:.2f}", va="center", fontsize=10)
    ax.set_yticks(rows, [f"“{t}”" for t in TOKENS])
    ax.set_xlim(0, 1.75)
    ax.set_xticks([0, 0.5, 1])
    ax.set_xlabel("weight")
    ax.set_title(f"“{TOKENS[-1]}” asks: q·k → ÷√{d_k} → softmax", fontsize=11)


def make_figure(style, layout):
    Q, K, V = pl.linear(X, W_Q), pl.linear(X, W_K), pl.linear(X, W_V)  # (n, 2) each
    weights = pl.attention(Q, K, V).weights  # (n, n): softmax(Q Kᵀ / √d_k), row by row
    d_k = Q.shape[-1]
    scores = K @ Q[-1]  # (n,): the last token's query against every key
    scaled = scores / np.sqrt(d_k)
    assert np.allclose(pl.softmax(scaled), weights[-1])
    shape = (2, 1) if layout.stacked else (1, 2)
    fig, (left, right) = new_figure(*shape, height=6.4 if layout.stacked else 3.2, layout=layout)
    _table(left, weights, style)
    _one_query(right, scores, scaled, weights[-1], d_k, style)
    rows = "; ".join(_row(t, weights[i]) for i, t in enumerate(TOKENS))
    n = len(TOKENS)
    alt = (
        f"Left, a {n} by {n} table of the attention weights of the sentence "
        f"“{' '.join(TOKENS)}”: one row per token asking, one column per token attended to, "
        f"each row adding up to {num(weights.sum(axis=1).mean(), '.0f')}. {rows}. Right, the "
        f"last row worked out as bars: “{TOKENS[-1]}”'s scores q·k with "
        f"{listing(f'“{t}”' for t in TOKENS)} are {nums(scores)}; divided by √{d_k} they are "
        f"{nums(scaled, '.2f')}; the softmax turns them into the weights "
        f"{nums(weights[-1], '.2f')}."
    )
    return pl.show(fig, alt)
