"""Peak memory of attention and chunked_attention against the sequence length n."""

import numpy as np

import paperlens as pl
from sitekit.figstyle import BLUE, GREY, VERMILION, new_figure

SEED = 0
LENGTHS = [256, 512, 1024, 2048, 4096]
D_K = 64
BLOCK = 256


def peak_mib(fn):
    return pl.peak_memory(fn) / 2**20


def make_figure():
    rng = np.random.default_rng(SEED)
    plain, chunked = [], []
    for n in LENGTHS:
        Q, K, V = (rng.standard_normal((n, D_K)).astype(np.float32) for _ in range(3))
        # Rounded so that a few bytes of interpreter bookkeeping never change the picture.
        plain.append(round(peak_mib(lambda: pl.attention(Q, K, V)), 1))  # noqa: B023
        chunked.append(
            round(peak_mib(lambda: pl.chunked_attention(Q, K, V, block_size=BLOCK)), 1)  # noqa: B023
        )
    fig, ax = new_figure(height=3.4)
    ax.loglog(LENGTHS, plain, "o-", color=VERMILION, lw=2, label="attention (whole weight table)")
    ax.loglog(
        LENGTHS, chunked, "s-", color=BLUE, lw=2, label=f"chunked_attention (blocks of {BLOCK})"
    )
    n = np.array(LENGTHS, dtype=float)
    ax.loglog(n, plain[0] * (n / n[0]) ** 2, ":", color=GREY, lw=1, label="slope 2: grows like n²")
    ax.loglog(n, chunked[-1] * (n / n[-1]), "--", color=GREY, lw=1, label="slope 1: grows like n")
    ax.set_xticks(LENGTHS, [str(v) for v in LENGTHS])
    ax.minorticks_off()
    ax.set_xlabel("sequence length n (queries = keys), float32, d_k = 64")
    ax.set_ylabel("peak memory (MiB)")
    ax.legend(frameon=False, fontsize=9)
    return fig
