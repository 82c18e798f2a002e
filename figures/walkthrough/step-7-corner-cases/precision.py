"""Explorable: a row masked with -1e9, replaced or added, in float64, float32, float16 and
bfloat16, through a softmax written out (subtracting the row's largest score, as the page's
stable_softmax does) and through paperlens.softmax. Grey dashes: the weights exact arithmetic
gives for the scores as written, before they are stored in the dtype."""

import numpy as np
from _text import listing, num, nums
from ml_dtypes import bfloat16
from ml_dtypes import finfo as ml_finfo

import paperlens as pl
from sitekit.figstyle import Frames, new_figure

SEED = 0  # no randomness here; kept so every figure script reads the same way

ROW = np.array([2.0, 0.5, -1.0, 1.0])  # (n,) one query's scores
KEEP = np.array([True, True, False, False])  # (n,) the keys a partly masked row may look at
FILL = -1e9  # the mask value of The Annotated Transformer
FILL_TEXT = "−10" + str(round(np.log10(-FILL))).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
DTYPES = {"float64": np.float64, "float32": np.float32, "float16": np.float16, "bfloat16": bfloat16}
FRAMES = Frames(label="Precision", values=tuple(DTYPES), default="float32", control="buttons")


def stable_softmax(s):
    """The softmax written out with the row's largest score subtracted, e^(s − max s) /
    Σ e^(s − max s), in s's dtype (the page's stable_softmax): subtracting the maximum stops
    overflow, and nothing handles a row that is all −∞."""
    with np.errstate(invalid="ignore"):  # −∞ − (−∞) is NaN, which is the point
        e = np.exp(s - s.max())
        return e / e.sum()


def paperlens_softmax(s):
    """paperlens.softmax; it takes NumPy's own dtypes, so bfloat16 goes through float32."""
    if s.dtype == bfloat16:
        return pl.softmax(s.astype(np.float32))
    return pl.softmax(s)


def verdict(weights, exact, tolerance):
    """What a panel's weights are, in a few words, for its title and the alt text."""
    if np.isnan(weights).any():
        return "NaN"
    if not weights.any():
        return "all zeros"
    if np.allclose(weights, exact, atol=tolerance):
        return "exact"
    if np.ptp(weights) == 0:
        return f"uniform, {weights[0]:.2f} each"
    return f"about {nums(weights, '.2f')}"


def make_frame(name, style, layout):
    dtype = DTYPES[name]
    with np.errstate(over="ignore"):  # float16 cannot hold −1e9: it overflows to −inf
        fill = np.asarray(FILL).astype(dtype)  # () the mask value, stored in this dtype
    row = ROW.astype(dtype)  # (n,)
    keys = np.arange(1, ROW.size + 1)  # (n,)
    masked = ", ".join(str(k) for k in keys[~KEEP])
    cases = (  # (title, scores in this dtype, what exact arithmetic gives for the scores)
        (
            f"keys {masked}\nreplaced by {FILL_TEXT}",
            np.where(KEEP, row, fill),
            np.where(KEEP, pl.softmax(np.where(KEEP, ROW, -np.inf)), 0.0),  # e^(−10⁹) ≈ 0
        ),
        (f"every key\nreplaced by {FILL_TEXT}", np.full_like(row, fill), np.full(ROW.size, 0.25)),
        (f"{FILL_TEXT} added\nto every key", row + fill, pl.softmax(ROW)),  # shift invariance
    )
    codes = (
        ("softmax written out", stable_softmax, style.orange),
        ("paperlens.softmax", paperlens_softmax, style.blue),
    )
    tolerance = 4 * float(ml_finfo(dtype).eps)  # a few roundings in this dtype
    shape = (len(cases), len(codes)) if layout.stacked else (len(codes), len(cases))
    fig, axes = new_figure(*shape, height=7.2 if layout.stacked else 4.6, layout=layout)
    said = {}  # (case, code): verdict, for the alt text
    for i, (case, scores, exact) in enumerate(cases):
        for j, (code, softmax, colour) in enumerate(codes):
            ax = axes[i, j] if layout.stacked else axes[j, i]
            weights = np.asarray(softmax(scores), dtype=np.float64)  # (n,)
            said[case, code] = verdict(weights, exact, tolerance)
            if np.isnan(weights).any():
                for key in keys[np.isnan(weights)]:
                    ax.text(
                        key,
                        0.5,
                        "NaN",
                        ha="center",
                        va="center",
                        color=style.text(colour),
                        rotation=90,
                    )
            else:
                ax.bar(keys, weights, color=colour, width=0.7)
            ax.plot(keys, exact, "_", color=style.muted, ms=14, mew=1.5)  # exact arithmetic
            ax.set_xlim(0.4, 4.6)
            ax.set_ylim(0, 1.0)
            ax.set_xticks(keys)
            ax.set_yticks([0, 0.5, 1])
            # Each panel says what it got; the first row and column say which case and code.
            column, row_name = (code, case) if layout.stacked else (case, code)
            top = column + "\n" if ax in axes[0] else ""
            ax.set_title(f"{top}{said[case, code]}", fontsize=9.5)
            if ax in axes[:, 0]:
                ax.set_ylabel(f"{row_name}\nweight")
    for ax in axes[-1]:
        ax.set_xlabel("key")
    stored = "−∞" if np.isneginf(fill) else num(float(fill), ",.0f")
    gap = "\n" if layout.stacked else "; "
    fig.suptitle(
        f"In {name}, {FILL_TEXT} is stored as {stored}{gap}grey dashes: exact arithmetic",
        fontsize=10.5,
    )
    panels = []
    for case, _, _ in cases:
        got = [said[case, code] for code, _, _ in codes]
        if len(set(got)) == 1:
            from_each = f"{got[0]} from both"
        else:
            from_each = listing(
                f"{v} from {code}" for v, (code, _, _) in zip(got, codes, strict=True)
            )
        panels.append(f"{case.replace(chr(10), ' ')}: {from_each}")
    exact_said = "; ".join(
        f"{case.replace(chr(10), ' ')}, {nums(np.round(exact, 2))}" for case, _, exact in cases
    )
    alt = (
        f"{axes.size} panels of weights over {ROW.size} keys, computed in {name}, where "
        f"{FILL_TEXT} is stored as {stored}, by a softmax written out that subtracts the row's "
        "largest score and by paperlens.softmax. Grey dashes mark the weights exact arithmetic "
        f"gives for the scores as written: {exact_said}. "
        f"{'. '.join(p[0].upper() + p[1:] for p in panels)}."
    )
    return pl.show(fig, alt)


def make_figure(style, layout):
    return make_frame(FRAMES.default, style, layout)
