"""The gradient check: each parameter's relative difference from finite differences."""

import numpy as np
from _debugging import checks

import paperlens as pl
from sitekit.figstyle import new_figure, sci

SEED = 0  # the network's seed is fixed in _debugging.py, as on the page
PASS = 1e-7  # the check passes below this relative difference, as on the page


def make_figure(style, layout):
    c = checks()
    names = list(c["errors"])
    fig, ax = new_figure(height=3.0, layout=layout)
    x = np.arange(len(names))
    for shift, key, label, colour in [
        (-0.2, "errors", "library backward pass", style.blue),
        (0.2, "errors_bug", "planted bug", style.vermilion),
    ]:
        values = [c[key][n] for n in names]
        ax.bar(x + shift, values, width=0.38, color=colour, label=label)
    ax.axhline(PASS, color=style.muted, lw=0.8, ls=":")
    ax.annotate("pass below", (x[-1] + 0.5, PASS), xytext=(0, 3), textcoords="offset points",
                ha="right", va="bottom", color=style.muted, fontsize="small")  # fmt: skip
    ax.set_yscale("log")
    ax.set_xticks(x, names, rotation=90 if layout.stacked else 30)
    ax.set_xlabel("parameter (input layer → output layer)")
    ax.set_ylabel("relative difference\nfrom finite differences")
    fig.legend(frameon=False, loc="outside upper center", ncols=1 if layout.stacked else 2)
    wrong = [n for n in names if c["errors_bug"][n] > PASS]
    alt = (
        f"Bars on a log scale: for each parameter of the network ({', '.join(names)}), the "
        f"relative difference between its gradient and finite differences, with a dotted line "
        f"at the check's threshold, {sci(PASS, 1)}. The library's backward pass stays between "
        f"{sci(min(c['errors'].values()))} and {sci(max(c['errors'].values()))}. The copy with "
        f"the planted bug is above the threshold for {', '.join(wrong)}, from "
        f"{min(c['errors_bug'][n] for n in wrong):.2f} to "
        f"{max(c['errors_bug'][n] for n in wrong):.2f}, and below it for "
        f"{', '.join(n for n in names if n not in wrong)}."
    )
    return pl.show(fig, alt)
