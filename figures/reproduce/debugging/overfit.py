"""Fitting ten samples: what passes the check, and correct code that fails it."""

import numpy as np
from _debugging import THRESHOLD, runs

import paperlens as pl
from sitekit.figstyle import new_figure, sci

SEED = 0  # the runs' seeds are fixed in _debugging.py, as on the page


def _steps_to(curve, level):
    """The first step at which the loss is below ``level`` (None if never)."""
    below = np.flatnonzero(curve < level)
    return int(below[0]) if below.size else None


def make_figure(style, layout):
    r = runs()
    start = float(r["loss"][0])
    fig, (left, right) = new_figure(1, 2, height=3.4, layout=layout)
    below = -0.32 if layout.stacked else -0.2  # the legends go under the step axis
    steps = np.arange(r["loss"].size)
    passing = [
        ("loss", "library backward pass", style.blue, "-"),
        ("loss_bug", "planted bug (missing transpose)", style.vermilion, "--"),
        ("frozen", "output layer only", style.green, ":"),
    ]
    failing = [
        ("too_large", "learning rate 0.3", style.vermilion, "-"),
        ("too_small", "learning rate 0.001", style.orange, "--"),
        ("narrow", "2 units per layer", style.purple, "-."),
        ("decayed", "weight decay 0.01", style.sky, ":"),
    ]
    for ax, lines, title in [
        (left, passing, "what passes"),
        (right, failing, "correct code that fails"),
    ]:
        for key, label, colour, ls in lines:
            curve = r[key]
            finite = np.isfinite(curve) & (curve < 1e3 * start)
            ax.plot(steps[finite], curve[finite], color=colour, ls=ls, lw=1.6, label=label)
        ax.axhline(THRESHOLD * start, color=style.muted, lw=0.8, ls=":")
        ax.set_yscale("log")
        ax.set_xlabel("gradient-descent step")
        ax.set_title(title)
        ax.set_ylabel("training loss")
        ax.legend(frameon=False, fontsize="small", loc="upper center", bbox_to_anchor=(0.5, below))
    right.set_ylim(THRESHOLD * start / 10, 1e3 * start)
    above = ~(np.isfinite(r["too_large"]) & (r["too_large"] < 1e3 * start))  # (steps + 1,)
    diverged = int(np.flatnonzero(above)[0])
    alt = (
        f"Training loss on ten samples against gradient-descent steps, log scale, in two panels, "
        f"with a dotted line at the check's threshold, a millionth of the starting loss "
        f"({start:.2g}). Left, what passes: the library's backward pass crosses the threshold "
        f"at step {_steps_to(r['loss'], THRESHOLD * start)} and ends at "
        f"{sci(float(r['loss'][-1]))}; the copy with the planted bug crosses it at step "
        f"{_steps_to(r['loss_bug'], THRESHOLD * start)} and ends at "
        f"{sci(float(r['loss_bug'][-1]))}; training the output layer alone ends at "
        f"{sci(float(r['frozen'][-1]))}. Right, the correct code failing: at learning rate 0.3 "
        f"the loss passes a thousand times its start by step {diverged}; at 0.001 it ends at "
        f"{sci(float(r['too_small'][-1]))}; with 2 units per layer at "
        f"{sci(float(r['narrow'][-1]))}; with weight decay 0.01 at "
        f"{sci(float(r['decayed'][-1]))}."
    )
    return pl.show(fig, alt)
