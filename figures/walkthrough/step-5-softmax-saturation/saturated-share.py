"""How common saturation is over random draws: the share of queries whose largest weight is
above 0.99, against d_k, for 4, 16 and 64 keys, unscaled and divided by sqrt(d_k)."""

import functools

import numpy as np
from _rows import random_rows, saturated_share

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 5
ROWS = 4000  # random queries per d_k and number of keys
D_KS = tuple(2**i for i in range(11))  # 1, 2, 4, ..., 1024
N_KS = (4, 16, 64)


@functools.cache
def shares():
    """{n_k: (unscaled, divided)}, each the share of saturated rows for every d_k."""
    out = {}
    for n_k in N_KS:
        rng = np.random.default_rng([SEED, n_k])
        rows = [random_rows(d_k, n_k, ROWS, rng) for d_k in D_KS]  # (ROWS, n_k) each
        out[n_k] = (
            np.array([saturated_share(S) for S in rows]),
            np.array([saturated_share(S, np.sqrt(d_k)) for d_k, S in zip(D_KS, rows, strict=True)]),
        )
    return out


def make_figure(style, layout):
    fig, ax = new_figure(height=4.0 if layout.stacked else 3.4, layout=layout)
    steps = np.log2(D_KS)  # (len(D_KS),) d_k on a doubling axis
    colours = (style.vermilion, style.orange, style.blue)
    markers = ("o", "s", "^")
    for (n_k, (raw, divided)), colour, marker in zip(
        shares().items(), colours, markers, strict=True
    ):
        ax.plot(steps, raw, color=colour, marker=marker, ms=4, lw=1.8, label=f"{n_k} keys")
        ax.plot(steps, divided, color=colour, lw=1.2, ls="--")
    ax.plot([], [], color=style.muted, lw=1.2, ls="--", label="÷ √dₖ, any keys")
    ax.set_xticks(steps[::2], [str(d) for d in D_KS[::2]])
    ax.set_xlabel("dₖ")
    ax.set_ylim(-0.02, 1.0)
    ax.set_ylabel("share of queries saturated")
    ax.set_title("largest weight above 0.99, unscaled (solid)", fontsize=10.5)
    ax.legend(frameon=False, loc="upper left", fontsize=9.5)
    at_64 = D_KS.index(64)
    per_n = "; ".join(
        f"{n_k} keys: {raw[at_64]:.2f} at d_k = 64, {raw[-1]:.2f} at d_k = {D_KS[-1]}"
        for n_k, (raw, _) in shares().items()
    )
    most_divided = max(divided.max() for _, divided in shares().values())
    # the page's caption: dashed lines "at or near zero ... below 1%"
    assert 0 < most_divided < 0.01, most_divided
    alt = (
        f"Line plot against d_k from {D_KS[0]} to {D_KS[-1]} on a doubling axis, {ROWS:,} "
        "random queries per point, each with its own keys: the share of queries whose largest "
        "softmax weight is above 0.99. Unscaled (solid lines), the share rises with d_k and is "
        f"lower the more keys there are: {per_n}. Divided by √d_k (dashed), it stays at "
        f"{most_divided:.2g} or below for every d_k and number of keys."
    )
    return pl.show(fig, alt)
