"""Explorable: the histogram of scores q·k at initialisation, for d_k from 1 to 512."""

import numpy as np
from _text import num

import paperlens as pl
from sitekit.figstyle import Frames, new_figure

SEED = 3
N = 6000  # scores per frame
FAR = 3  # the page counts the scores farther than this from zero
D_KS = tuple(2**i for i in range(10))  # 1, 2, 4, ..., 512
FRAMES = Frames(
    label="Key dimension dₖ",
    values=D_KS,
    default=64,
    texts=tuple(f"dₖ = {d_k}" for d_k in D_KS),
)
LIMIT = 70  # the shared horizontal axis, from −LIMIT to LIMIT


def make_frame(d_k, style, layout):
    rng = np.random.default_rng([SEED, d_k])  # each frame its own draw, the same every build
    scores = pl.sample_scores(d_k, N, rng=rng)  # (N,)
    spread = float(np.std(scores))
    far = float(np.mean(np.abs(scores) > FAR))
    fig, ax = new_figure(height=3.0 if layout.stacked else 2.5, layout=layout)
    bins = np.linspace(-LIMIT, LIMIT, 2 * LIMIT + 1)  # (2 LIMIT + 1,) one bin per unit
    density, edges = np.histogram(scores, bins=bins, density=True)  # (2 LIMIT,)
    used = np.flatnonzero(density)  # drawn from the first bin used to the last
    span = slice(used[0], used[-1] + 1)
    ax.stairs(density[span], edges[used[0] : used[-1] + 2], fill=True, color=style.blue, alpha=0.85)
    ax.axvspan(-FAR, FAR, color=style.muted, alpha=0.15, lw=0)
    ax.set_xlim(-LIMIT, LIMIT)
    ax.set_yticks([])
    ax.spines["left"].set_visible(False)
    ax.set_xlabel(
        "score q·k" + ("\n" if layout.stacked else "  ") + "(entries of q, k drawn from N(0, 1))"
    )
    ax.set_title(
        f"dₖ = {d_k}:{chr(10) if layout.stacked else '  '}standard deviation ≈ {spread:.1f}, "
        f"{far:.0%} beyond ±{FAR}",
        fontsize=11,
    )
    alt = (
        f"Histogram of {N:,} scores for d_k = {d_k} on a fixed horizontal axis from "
        f"{num(-LIMIT)} to {num(LIMIT)}, with a grey band from {num(-FAR)} to {num(FAR)}: "
        f"centred on zero, standard deviation {spread:.1f}, {far:.0%} of the scores beyond "
        f"±{FAR}, the farthest at {num(scores.min(), '.1f')} and {num(scores.max(), '.1f')}."
    )
    return pl.show(fig, alt)


def make_figure(style, layout):
    return make_frame(FRAMES.default, style, layout)
