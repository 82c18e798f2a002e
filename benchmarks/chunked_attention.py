"""Peak memory and time of attention against chunked_attention on long sequences.

    .venv/bin/python benchmarks/chunked_attention.py [--n 16384] [--runs 3]

Float32, one head, d_k = d_v = 64. Peak memory is what NumPy allocates during the call
(tracemalloc, which NumPy reports its buffers to), so it is exact and repeatable; time is the
median of ``--runs`` calls after a warm-up, measured in this one run for both.
Goals (issue 8): at n = 16384, chunked peak memory under 1/8 of the plain one, time within 1.5x.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import paperlens as pl


def peak_mib(fn) -> float:
    return pl.peak_memory(fn) / 2**20


def median_s(fn, runs: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, nargs="+", default=[1024, 4096, 16384])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(
        f"{'n':>6} {'plain MiB':>10} {'chunked MiB':>12} {'mem ratio':>10}"
        f" {'plain s':>8} {'chunked s':>10} {'time ratio':>11}"
    )
    for n in args.n:
        Q, K, V = (rng.standard_normal((n, 64)).astype(np.float32) for _ in range(3))

        def plain() -> None:
            pl.attention(Q, K, V)  # noqa: B023

        def chunked() -> None:
            pl.chunked_attention(Q, K, V)  # noqa: B023

        m_plain, m_chunked = peak_mib(plain), peak_mib(chunked)
        t_plain, t_chunked = median_s(plain, args.runs), median_s(chunked, args.runs)
        print(
            f"{n:>6} {m_plain:>10.1f} {m_chunked:>12.1f} {m_chunked / m_plain:>10.3f}"
            f" {t_plain:>8.3f} {t_chunked:>10.3f} {t_chunked / t_plain:>11.2f}"
        )


if __name__ == "__main__":
    main()
