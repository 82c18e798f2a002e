"""One score pattern at gentle scale and multiplied by 8: soft weights versus a spike."""

import numpy as np
from _text import num

import paperlens as pl
from sitekit.figstyle import new_figure, sci

SEED = 0  # no randomness here; kept so every figure script reads the same way

PATTERN = np.array([1.5, 0.3, -0.6, 0.7, -1.1, 0.2])  # (n,) six scores of unit size
BIG = 8.0  # sqrt(64): the typical size of an unscaled score when d_k = 64


def make_figure(style, layout):
    if layout.stacked:  # the bars in two columns, the curve across the bottom
        fig, grid = new_figure(3, 2, height=7.6, layout=layout, stack=False)
        for ax in grid[2]:
            ax.remove()
        curve = fig.add_subplot(grid[0, 0].get_gridspec()[2, :])
    else:  # the right column becomes one tall axes for the curve
        fig, grid = new_figure(2, 3, height=4.4, layout=layout, width_ratios=[1, 1, 1.15])
        for ax in grid[:, 2]:
            ax.remove()
        curve = fig.add_subplot(grid[0, 0].get_gridspec()[:, 2])
    keys = np.arange(1, PATTERN.size + 1)  # (n,)
    cases = {}  # factor -> (scores, weights, gradient norm), for the alt text
    for col, factor, colour in ((0, 1.0, style.blue), (1, BIG, style.vermilion)):
        scores = factor * PATTERN  # (n,)
        weights = pl.softmax(scores)  # (n,)
        norm = pl.softmax_gradient_norm(scores)
        cases[factor] = scores, weights, norm
        ax = grid[0, col]
        ax.bar(keys, scores, color=colour)
        ax.axhline(0, color=style.muted, lw=0.6)
        ax.set_ylim(-10, 13)
        ax.set_xticks(keys)
        gap = "\n" if layout.stacked else " "
        title = f"scores × 1{gap}(gentle)" if factor == 1 else f"scores × {BIG:g}{gap}(large)"
        ax.set_title(title, fontsize=11)
        ax = grid[1, col]
        ax.bar(keys, weights, color=colour)
        ax.set_ylim(0, 1.05)
        ax.set_xticks(keys)
        ax.set_xlabel("key")
        ax.set_title(f"softmax weights\ngradient norm {norm:.3f}", fontsize=10)
    grid[0, 0].set_ylabel("score")
    grid[1, 0].set_ylabel("weight")
    factors = np.geomspace(0.1, 20, 120)  # (120,)
    norms = pl.softmax_gradient_norm(factors[:, None] * PATTERN)  # (120, n) -> (120,)
    ax = curve
    ax.plot(factors, norms, color=style.foreground, lw=2)
    for factor, colour in ((1.0, style.blue), (BIG, style.vermilion)):
        ax.plot(factor, pl.softmax_gradient_norm(factor * PATTERN), "o", color=colour, ms=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("score multiplier")
    ax.set_ylabel("gradient norm ‖J‖ of the softmax")
    ax.set_title("for this row, ‖J‖ vanishes\nas the scores grow", fontsize=11)
    (gentle, soft, soft_norm), (large, spike, spike_norm) = cases[1.0], cases[BIG]
    flat = norms[factors <= 1]  # (m,) the flat stretch, multipliers up to 1
    alt = (
        f"Left two columns: the same {PATTERN.size} scores drawn as bars at gentle scale (blue, "
        f"between {num(gentle.min())} and {num(gentle.max())}) and multiplied by {BIG:g} "
        f"(orange, between {num(large.min())} and {num(large.max())}); below each, its softmax "
        f"weights. The gentle weights are spread over all {PATTERN.size} keys, from "
        f"{soft.min():.2f} to {soft.max():.2f}, with gradient norm {soft_norm:.3f}; the "
        f"multiplied ones are a single bar of height {spike.max():.3f} on key "
        f"{keys[spike.argmax()]}, with gradient norm {spike_norm:.3f}. Right: the softmax's "
        "gradient norm against the score multiplier on log–log axes, flat between "
        f"{flat.min():.2f} and {flat.max():.2f} from {factors[0]:g} up to 1, then falling "
        f"steeply to {sci(norms[-1])} at {factors[-1]:g}, with the two cases marked as dots."
    )
    return pl.show(fig, alt)
