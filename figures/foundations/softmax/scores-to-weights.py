"""Softmax turns a row of scores (any sign) into positive weights that sum to 1."""

import numpy as np
from _shared import K, Q, listing, num, nums, sub

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way


def make_figure(style, layout):
    scores = (Q @ K.T)[0]  # (n_k,): the first query's row of scores
    weights = pl.softmax(scores)  # (n_k,)
    labels = [rf"$\mathbf{{k}}_{j + 1}$" for j in range(scores.size)]
    fig, (left, right) = new_figure(1, 2, height=2.8, layout=layout)
    left.bar(labels, scores, color=style.vermilion)
    left.axhline(0, color=style.muted, lw=0.8)
    left.set_title(r"scores of $\mathbf{q}_1$ (any sign)")
    right.bar(labels, weights, color=style.blue)
    right.set_ylim(0, 1)
    right.set_title(f"softmax weights (sum = {weights.sum():.0f})")
    for j, w in enumerate(weights):
        right.text(j, w + 0.02, f"{w:.3f}", ha="center")
    for j, s in enumerate(scores):
        left.text(
            j,
            s + (0.1 if s >= 0 else -0.1),
            num(s),
            ha="center",
            va="bottom" if s >= 0 else "top",
        )
    left.set_ylim(np.min(scores) - 0.6, np.max(scores) + 0.6)
    keys = [f"k{sub(j + 1)}" for j in range(scores.size)]
    below = [key for key, s in zip(keys, scores, strict=True) if s < 0]
    sign = "all positive" if (weights > 0).all() else "none negative"
    alt = (
        f"Two bar charts. Left: the scores of q₁ against keys {listing(keys)} are "
        f"{nums(scores)}, the bar of {listing(below)} below zero. Right: their softmax weights "
        f"are {nums(weights, '.3f')}, {sign}, summing to {weights.sum():.0f}."
    )
    return pl.show(fig, alt)
