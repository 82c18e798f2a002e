"""Saturation: the softmax Jacobian's size falls towards 0 as the scores are multiplied up."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import BLUE, GREY, new_figure, sci

SEED = 0  # no randomness here; kept so every figure script reads the same way


def make_figure(style, layout):
    scores = np.array([2.0, 0.0, -2.0])  # (n_k,): the first query's scores on the page
    factors = np.logspace(-1, 2, 61)  # (61,)
    norms = np.array([pl.softmax_gradient_norm(c * scores) for c in factors])  # (61,)
    fig, ax = new_figure(height=3.0, layout=layout)
    ax.loglog(factors, norms, color=BLUE, lw=2)
    marked = {c: pl.softmax_gradient_norm(c * scores) for c in (1, 10, 100)}
    for c, n in marked.items():
        ax.plot([c], [n], "o", color=BLUE)
        ax.annotate(f"×{c}: {n:.1e}", (c, n), xytext=(8, 4), textcoords="offset points", color=GREY)
    ax.set_xlabel("factor c multiplying the scores (2, 0, −2)")
    ax.set_ylabel("size of the Jacobian\n(Frobenius norm)")
    alt = (
        "A line on log–log axes: the size of the softmax Jacobian for the scores (2, 0, −2) "
        f"multiplied by a factor c from {factors[0]:g} to {factors[-1]:g}. It falls from "
        f"{norms[0]:.2f} at c = {factors[0]:g} to {marked[1]:.2f} at c = 1, then plunges: "
        f"{sci(marked[10])} at c = 10 and {sci(marked[100])} at c = 100."
    )
    return pl.show(fig, alt)
