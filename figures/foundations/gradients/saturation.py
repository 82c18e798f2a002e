"""Saturation: as the scores are multiplied up, the largest weight climbs to 1 and the
softmax Jacobian's size falls to 0, both on linear axes against the factor."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import new_figure, sci

SEED = 0  # no randomness here; kept so every figure script reads the same way


def make_figure(style, layout):
    scores = np.array([2.0, 0.0, -2.0])  # (n_k,): the first query's scores on the page
    factors = np.linspace(0, 10, 201)  # (201,)
    largest = np.array([pl.softmax(c * scores).max() for c in factors])  # (201,)
    norms = np.array([pl.softmax_gradient_norm(c * scores) for c in factors])  # (201,)
    marked = {c: pl.softmax_gradient_norm(c * scores) for c in (1, 10, 100)}
    fig, axes = new_figure(
        2 if layout.stacked else 1,
        1 if layout.stacked else 2,
        height=4.6 if layout.stacked else 2.8,
        layout=layout,
        sharex=True,
    )
    weight_ax, norm_ax = axes
    weight_ax.plot(factors, largest, color=style.vermilion, lw=2)
    weight_ax.axhline(1, color=style.muted, lw=0.8, ls=":")
    weight_ax.set_ylim(0, 1.05)
    weight_ax.set_ylabel("largest weight")
    weight_ax.set_title("the weights turn one-hot", fontsize=11)
    norm_ax.plot(factors, norms, color=style.blue, lw=2)
    norm_ax.set_ylim(0, None)
    norm_ax.set_ylabel("size of the Jacobian")
    norm_ax.set_title("and the Jacobian vanishes", fontsize=11)
    for ax in axes:
        ax.axvline(1, color=style.faint, lw=0.8, ls="--")
        ax.set_xlim(0, factors[-1])
    for ax in axes[-1:] if layout.stacked else axes:
        ax.set_xlabel("factor c on the scores (2, 0, −2)")
    c_one = int(np.argmin(np.abs(factors - 1)))
    norm_ax.annotate(
        f"c = 1: {marked[1]:.2f}",
        (1, norms[c_one]),
        xytext=(12, 6),
        textcoords="offset points",
        color=style.foreground,
        fontsize=10,
    )
    half = factors[np.argmax(norms < norms.max() / 100)]
    alt = (
        "Two line plots on linear axes against a factor c from "
        f"{factors[0]:g} to {factors[-1]:g} that multiplies the scores (2, 0, −2). The largest "
        f"softmax weight climbs from {largest[0]:.2f} at c = 0 to {pl.softmax(scores).max():.2f} "
        f"at c = 1 and {largest[-1]:.4f} at c = {factors[-1]:g}. The size of the softmax "
        f"Jacobian (its Frobenius norm) peaks at {norms.max():.2f}, is {marked[1]:.2f} at c = 1, "
        f"falls below a hundredth of its peak by c = {half:g} and reaches {sci(marked[10])} at "
        f"c = 10 (and {sci(marked[100])} at c = 100, off the plot)."
    )
    return pl.show(fig, alt)
