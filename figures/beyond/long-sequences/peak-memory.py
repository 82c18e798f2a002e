"""Peak memory of attention and chunked_attention against the sequence length n."""

import functools

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


RUNS = {  # label: (attention or chunked_attention, masked)
    "attention (whole weight table)": (pl.attention, False),
    "attention, causal_mask": (pl.attention, True),
    f"chunked_attention (blocks of {BLOCK})": (pl.chunked_attention, False),
    "chunked_attention, causal_mask": (pl.chunked_attention, True),
}


@functools.cache
def measure():
    """The peaks, measured once for the four styles and layouts. Each kind of call is made once
    unmeasured first (at the first length): what its first call allocates once, up to about
    1 KiB, belongs to no call."""
    rng = np.random.default_rng(SEED)
    peaks = {label: [] for label in RUNS}
    for n in LENGTHS:
        Q, K, V = (rng.standard_normal((n, D_K)).astype(np.float32) for _ in range(3))
        mask = pl.causal_mask(n)  # made before measuring: the caller's array
        for label, (attend, masked) in RUNS.items():
            kwargs = {"mask": mask} if masked else {}
            if attend is pl.chunked_attention:
                kwargs["block_size"] = BLOCK
            if n == LENGTHS[0]:
                attend(Q, K, V, **kwargs)
            # Rounded so that a few bytes of interpreter bookkeeping never change the picture.
            peaks[label].append(round(peak_mib(lambda: attend(Q, K, V, **kwargs)), 1))  # noqa: B023
    return peaks


def make_figure(style, layout):
    runs = RUNS
    peaks = measure()
    fig, ax = new_figure(height=3.4, layout=layout)
    for label, (attend, masked) in runs.items():
        colour = style.vermilion if attend is pl.attention else style.blue
        marker = "o" if attend is pl.attention else "s"
        ax.loglog(
            LENGTHS,
            peaks[label],
            marker + ("--" if masked else "-"),
            color=colour,
            lw=2,
            mfc="none" if masked else colour,
            label=label,
        )
    plain, chunked = (
        peaks["attention (whole weight table)"],
        peaks[f"chunked_attention (blocks of {BLOCK})"],  # no mask array: fixed, plus linear in n
    )
    n = np.array(LENGTHS, dtype=float)
    ax.loglog(
        n,
        plain[-1] * (n / n[-1]) ** 2,
        ":",
        color=style.muted,
        lw=1,
        label="slope 2: grows like n²",
    )
    ax.loglog(
        n, chunked[-1] * (n / n[-1]), "-.", color=style.muted, lw=1, label="slope 1: grows like n"
    )
    ax.set_xticks(LENGTHS, [str(v) for v in LENGTHS])
    ax.minorticks_off()
    ax.set_xlabel("sequence length n (queries = keys), float32, d_k = 64")
    ax.set_ylabel("peak memory (MiB)")
    ax.legend(frameon=False, fontsize=8)
    fitted = {label: slope(n, p) for label, p in peaks.items()}
    described = []
    for label, (attend, _) in runs.items():
        guide = 2 if attend is pl.attention else 1
        first, last = peaks[label][0], peaks[label][-1]
        described.append(
            f"{label} from {first:g} to {last:g} MiB, a fitted slope of "
            f"{fitted[label]:.2f}, {against(fitted[label], guide)}"
        )
    alt = (
        f"Log–log plot of peak memory against sequence length from {LENGTHS[0]} to "
        f"{LENGTHS[-1]}, without a mask (filled markers, solid lines) and with the causal mask "
        f"(hollow markers, dashed lines), and grey guide lines of slope 2 and slope 1: "
        + "; ".join(described)
        + ". The causal mask array itself, made by the caller, is not counted."
    )
    return pl.show(fig, alt)
