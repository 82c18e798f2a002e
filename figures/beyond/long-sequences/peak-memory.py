"""Peak memory of attention and chunked_attention against the sequence length n."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0
LENGTHS = [256, 512, 1024, 2048, 4096]
D_K = 64
BLOCK = 256


def peak_mib(fn):
    return pl.peak_memory(fn) / 2**20


def slope(n, mib):
    """The slope of a straight line fitted to the points on log–log axes: 2 means ∝ n²."""
    return np.polyfit(np.log(n), np.log(mib), 1)[0]


def against(fitted, guide):
    """How a fitted slope compares with a guide line's, in words."""
    if abs(fitted - guide) < 0.15:
        return f"close to the slope-{guide} guide"
    return f"{'flatter' if fitted < guide else 'steeper'} than the slope-{guide} guide"


def make_figure(style, layout):
    rng = np.random.default_rng(SEED)
    plain, chunked = [], []
    for n in LENGTHS:
        Q, K, V = (rng.standard_normal((n, D_K)).astype(np.float32) for _ in range(3))
        # Rounded so that a few bytes of interpreter bookkeeping never change the picture.
        plain.append(round(peak_mib(lambda: pl.attention(Q, K, V)), 1))  # noqa: B023
        chunked.append(
            round(peak_mib(lambda: pl.chunked_attention(Q, K, V, block_size=BLOCK)), 1)  # noqa: B023
        )
    fig, ax = new_figure(height=3.4, layout=layout)
    ax.loglog(
        LENGTHS, plain, "o-", color=style.vermilion, lw=2, label="attention (whole weight table)"
    )
    ax.loglog(
        LENGTHS,
        chunked,
        "s-",
        color=style.blue,
        lw=2,
        label=f"chunked_attention (blocks of {BLOCK})",
    )
    n = np.array(LENGTHS, dtype=float)
    ax.loglog(
        n, plain[0] * (n / n[0]) ** 2, ":", color=style.muted, lw=1, label="slope 2: grows like n²"
    )
    ax.loglog(
        n, chunked[-1] * (n / n[-1]), "--", color=style.muted, lw=1, label="slope 1: grows like n"
    )
    ax.set_xticks(LENGTHS, [str(v) for v in LENGTHS])
    ax.minorticks_off()
    ax.set_xlabel("sequence length n (queries = keys), float32, d_k = 64")
    ax.set_ylabel("peak memory (MiB)")
    ax.legend(frameon=False, fontsize=9)
    fitted = slope(n, plain), slope(n, chunked)
    alt = (
        f"Log–log plot of peak memory against sequence length from {LENGTHS[0]} to "
        f"{LENGTHS[-1]}, with grey guide lines of slope 2 and slope 1. Plain attention climbs "
        f"from {plain[0]:g} MiB to {plain[-1]:g} MiB, a fitted slope of {fitted[0]:.2f}, "
        f"{against(fitted[0], 2)}. Chunked attention with blocks of {BLOCK} stays between "
        f"{min(chunked):g} and {max(chunked):g} MiB, a fitted slope of {fitted[1]:.2f}, "
        f"{against(fitted[1], 1)} over these lengths."
    )
    return pl.show(fig, alt)
