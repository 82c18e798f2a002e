"""One score pattern at gentle scale and multiplied by 8: soft weights versus a spike."""

import numpy as np
from matplotlib import pyplot as plt

import paperlens as pl
from sitekit.figstyle import BLUE, GREY, VERMILION, WIDTH

SEED = 0  # no randomness here; kept so every figure script reads the same way

PATTERN = np.array([1.5, 0.3, -0.6, 0.7, -1.1, 0.2])  # (n,) six scores of unit size
BIG = 8.0  # sqrt(64): the typical size of an unscaled score when d_k = 64


def make_figure():
    fig = plt.figure(figsize=(WIDTH, 4.4), layout="constrained")
    axes = fig.subplot_mosaic([["sa", "sb", "g"], ["wa", "wb", "g"]], width_ratios=[1, 1, 1.15])
    keys = np.arange(1, PATTERN.size + 1)  # (n,)
    for col, factor, colour in (("a", 1.0, BLUE), ("b", BIG, VERMILION)):
        scores = factor * PATTERN  # (n,)
        weights = pl.softmax(scores)  # (n,)
        norm = pl.softmax_gradient_norm(scores)
        ax = axes["s" + col]
        ax.bar(keys, scores, color=colour)
        ax.axhline(0, color=GREY, lw=0.6)
        ax.set_ylim(-10, 13)
        ax.set_xticks(keys)
        ax.set_title("scores × 1 (gentle)" if factor == 1 else f"scores × {BIG:g} (large)")
        ax = axes["w" + col]
        ax.bar(keys, weights, color=colour)
        ax.set_ylim(0, 1.05)
        ax.set_xticks(keys)
        ax.set_xlabel("key")
        ax.set_title(f"softmax weights\ngradient norm {norm:.3f}", fontsize=11)
    axes["sa"].set_ylabel("score")
    axes["wa"].set_ylabel("weight")
    factors = np.geomspace(0.1, 20, 120)  # (120,)
    norms = pl.softmax_gradient_norm(factors[:, None] * PATTERN)  # (120, n) -> (120,)
    ax = axes["g"]
    ax.plot(factors, norms, color="#111111", lw=2)
    for factor, colour in ((1.0, BLUE), (BIG, VERMILION)):
        ax.plot(factor, pl.softmax_gradient_norm(factor * PATTERN), "o", color=colour, ms=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("score multiplier")
    ax.set_ylabel("gradient norm ‖J‖ of the softmax")
    ax.set_title("the gradient vanishes\nas the scores grow", fontsize=11)
    return fig
