"""Peak memory and time of attention against chunked_attention on long sequences, with and
without the causal mask.

    .venv/bin/python benchmarks/chunked_attention.py [--n 1024 4096 16384] [--runs 3]

Float32, one head, d_k = d_v = 64. For each n, three rows: no mask; ``mask=causal_mask(n)``
for both (the mask is made before measuring: its n² bools are the caller's); and
``causal=True`` for chunked_attention, which needs no mask array, beside the masked plain
attention. Peak memory is what NumPy allocates during the call (tracemalloc, which NumPy
reports its buffers to), so it is exact and repeatable; time is the median of ``--runs``
calls after a warm-up, plain and chunked interleaved in this one run.
Goals (issues 8 and 24): at n = 16384, chunked peak memory under 1/8 of the plain one, time
within 1.5x; with the causal mask, chunked peak memory within 1.5x of its unmasked peak.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

import paperlens as pl


def peak_mib(fn) -> float:
    return pl.peak_memory(fn) / 2**20


def median_s(functions, runs: int) -> list[float]:
    """Median time of each function, the runs interleaved so that load falls on all alike."""
    for fn in functions:
        fn()  # warm-up
    times: list[list[float]] = [[] for _ in functions]
    for _ in range(runs):
        for fn, t in zip(functions, times, strict=True):
            start = time.perf_counter()
            fn()
            t.append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, nargs="+", default=[1024, 4096, 16384])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"float32, d_k = d_v = 64, load {os.getloadavg()[0]:.2f}")
    print(
        f"{'n':>6} {'mask':<22} {'plain MiB':>10} {'chunked MiB':>12} {'mem ratio':>10}"
        f" {'plain s':>8} {'chunked s':>10} {'time ratio':>11}"
    )
    for n in args.n:
        Q, K, V = (rng.standard_normal((n, 64)).astype(np.float32) for _ in range(3))
        mask = pl.causal_mask(n)
        cases = {  # the plain call and the chunked call of each row
            "none": ({}, {}),
            "causal_mask": ({"mask": mask}, {"mask": mask}),
            "causal=True (chunked)": ({"mask": mask}, {"causal": True}),
        }
        for name, (plain_kw, chunked_kw) in cases.items():

            def plain(kw=plain_kw) -> None:
                pl.attention(Q, K, V, **kw)  # noqa: B023

            def chunked(kw=chunked_kw) -> None:
                pl.chunked_attention(Q, K, V, **kw)  # noqa: B023

            m_plain, m_chunked = peak_mib(plain), peak_mib(chunked)
            t_plain, t_chunked = median_s([plain, chunked], args.runs)
            print(
                f"{n:>6} {name:<22} {m_plain:>10.1f} {m_chunked:>12.1f}"
                f" {m_chunked / m_plain:>10.3f} {t_plain:>8.3f} {t_chunked:>10.3f}"
                f" {t_chunked / t_plain:>11.2f}"
            )
    print(f"load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
