"""A fully masked row of scores under seven treatments: -1e9 replaced or added, in float64 and
float32, -inf, and float16, where -1e9 overflows and finfo(float16).min is the safe fill."""

import numpy as np
from _text import nums

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way

ROW = np.array([2.0, 0.5, -1.0, 1.0])  # (n,) one query's scores, every key to be masked


def naive_softmax(x):
    """e^x / sum e^x with no safeguards, as a first implementation would write it."""
    with np.errstate(invalid="ignore"):
        e = np.exp(x)
        return e / e.sum()


def describe(weights, unmasked):
    """One panel's weights in words, for the alt text."""
    if np.isnan(weights).all():
        return "NaN for every key"
    if not weights.any():
        return "all weights 0"
    if np.ptp(weights) == 0:
        return f"{weights.size} equal weights of {weights[0]:.2f}"
    if unmasked is not None and np.allclose(weights, unmasked):
        return "the same weights as no mask"
    return f"weights about {nums(weights, '.2f')}"


def make_figure(style, layout):
    row32 = ROW.astype(np.float32)  # (n,) the same scores in float32
    with np.errstate(over="ignore"):
        row16 = np.full(ROW.shape, -1e9, dtype=np.float16)  # masked_fill(-1e9) in float16
    low16 = np.full(ROW.shape, np.finfo(np.float16).min, dtype=np.float16)  # (n,) -65504
    cases = (
        ("no mask", pl.softmax(ROW), style.blue),
        ("replace by −10⁹\n(masked_fill)", pl.softmax(np.full_like(ROW, -1e9)), style.green),
        ("add −10⁹\nin float64", pl.softmax(ROW - 1e9), style.orange),
        ("add −10⁹\nin float32", pl.softmax(row32 - np.float32(1e9)).astype(float), style.sky),
        ("−∞, naive\nsoftmax", naive_softmax(np.full_like(ROW, -np.inf)), style.vermilion),
        ("−∞ in paperlens", pl.softmax(np.full_like(ROW, -np.inf)), style.purple),
        ("replace by −10⁹ in\nNumPy float16 (= −∞)", pl.softmax(row16).astype(float), style.muted),
        ("replace by float16's\nfinfo.min", pl.softmax(low16).astype(float), style.green),
    )
    shape = (4, 2) if layout.stacked else (2, 4)
    height = 7.6 if layout.stacked else 4.6
    fig, axes = new_figure(*shape, height=height, sharey=True, layout=layout)
    keys = np.arange(1, ROW.size + 1)  # (n,)
    for ax, (label, weights, colour) in zip(axes.flat, cases, strict=True):
        if np.isnan(weights).any():
            ax.text(
                2.5,
                0.5,
                "NaN NaN\nNaN NaN",
                ha="center",
                va="center",
                color=style.text(colour),
                fontsize=14,
                fontweight="bold",
            )
        else:
            ax.bar(keys, weights, color=colour, width=0.7)
            if not weights.any():
                ax.text(
                    2.5,
                    0.5,
                    "all weights 0",
                    ha="center",
                    va="center",
                    color=style.text(colour),
                    fontsize=11,
                )
        ax.set_xlim(0.4, 4.6)
        ax.set_ylim(0, 1.0)
        ax.set_xticks(keys)
        ax.set_title(label, fontsize=9.5)
    for ax in axes[:, 0]:
        ax.set_ylabel("weight")
    for ax in axes[-1]:
        ax.set_xlabel("key")
    unmasked = cases[0][1]  # (n,)
    panels = []  # one sentence of the alt text per panel, its title first
    for i, (label, weights, _) in enumerate(cases):
        title = label.replace("\n", " ")
        said = describe(weights, None if i == 0 else unmasked)
        panels.append(f"{title[0].upper()}{title[1:]}: {said}")
    alt = (
        f"{len(cases)} panels: the weights of one row of {ROW.size} scores, "
        f"unmasked and then with every key masked in {len(cases) - 1} ways. "
        f"{'. '.join(panels)}."
    )
    return pl.show(fig, alt)
