"""How fast is paperlens.attention? Against PyTorch's fused kernel and the two bare matmuls.

Prints median wall times (ms) over several runs, after warm-up, each function timed in blocks
of its own runs (`median_ms`: interleaved with NumPy's products, torch's kernel ran 2-3 times
slower, its cores taken by OpenBLAS's spinning threads), of

- ``paperlens.attention(Q, K, V)`` (returns the output and the normalised weights),
- ``torch.nn.functional.scaled_dot_product_attention`` on CPU without autograd (output only),
- ``Q @ K^T`` then ``P @ V`` in NumPy, the floor for any NumPy version that forms the scores,

for float32 inputs, and the ratios paperlens/torch and paperlens/bare.

    .venv/bin/python benchmarks/attention.py [--threads 2] [--repeat 9] [--profile]

``--profile`` adds, for each shape, where paperlens.attention's time goes: the steps of its
kernel (`paperlens._kernels.attention`), each timed and summed over the kernel's blocks, the
median over the runs. The two products are the floor of any NumPy version that forms the
scores; the softmax's passes over each block (max, subtract, exp, sum, multiply; max and
subtract only if a score could reach `paperlens._kernels.exp_safe` in size) are each one NumPy
call on one thread, whatever ``--threads`` says.

NumPy (OpenBLAS) and torch are given the same number of threads; the thread variables are set
before NumPy is imported. Run it on an idle machine: the numbers are only as quiet as it is.
On a loaded one, each product OpenBLAS shares among threads waits for the slowest of them, so
code that makes more such calls (paperlens, a block of rows at a time) suffers more.

What the three do differs: paperlens returns the weights, so it writes the whole (n, n) table,
which torch's fused kernel never forms, and its softmax's passes over the table are NumPy
calls, each on one thread whatever ``--threads`` says; ``--profile`` shows their share.
"""

import argparse
import os
import statistics
import sys
import time

SHAPES = [(8, 8, 512, 64), (1, 1, 4096, 64)]  # (batch, heads, n, d_k = d_v)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=9, help="timed runs per block (median), >= 5")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="where paperlens's time goes")
    return parser.parse_args()


ROUNDS = 3
"""Rounds of `median_ms`: in each, every function runs in a block of its own, in turn."""


def median_ms(functions, repeat, warmup):
    """Median time in ms of each function over ``ROUNDS * repeat`` timed runs.

    Each function runs in a block of its own (``warmup`` untimed runs, then ``repeat`` timed
    ones), never interleaved with another's runs: after a product, OpenBLAS's worker threads
    spin for a while, and so do PyTorch's OpenMP threads after a kernel, holding the cores
    that the other library's next call needs. Interleaved, torch's kernel here ran 2-3 times
    slower after a NumPy call than in a block of its own. The blocks take turns over
    `ROUNDS` rounds, in a rotated order, so that a change of load falls on all of them.
    """
    names = list(functions)
    times = {name: [] for name in names}
    for r in range(ROUNDS):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            fn = functions[name]
            for _ in range(warmup):
                fn()
            for _ in range(repeat):
                start = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - start)
    return {name: 1e3 * statistics.median(t) for name, t in times.items()}


def main():
    args = parse_args()
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = str(args.threads)

    import numpy as np  # after the thread variables, which OpenBLAS reads once at load

    import paperlens

    try:
        import torch
        from torch.nn.functional import scaled_dot_product_attention
    except ImportError:
        torch = None
    if torch is not None:
        torch.set_num_threads(args.threads)

    coretype = os.environ.get("OPENBLAS_CORETYPE", "(unset)")
    print(f"numpy {np.__version__}, torch {torch.__version__ if torch else '(absent)'}, ", end="")
    print(f"threads {args.threads}, OPENBLAS_CORETYPE {coretype}, load {os.getloadavg()[0]:.2f}")
    runs = f"{ROUNDS} x {args.repeat} runs"
    print(f"median of {runs}, each function in blocks of its own after {args.warmup} warm-up,")
    print("float32, ms;")
    print("'bare' is only Q @ K^T and P @ V")
    header = f"{'shape (B, H, n, d)':<18} {'paperlens':>9} {'torch':>7} {'bare':>7}"
    print(f"{header} {'pl/torch':>8} {'pl/bare':>7}")

    rng = np.random.default_rng(0)
    for shape in SHAPES:
        Q, K, V = (rng.standard_normal(shape, dtype=np.float32) for _ in range(3))

        def bare(Q=Q, K=K, V=V):
            P = Q @ K.swapaxes(-1, -2)  # (B, H, n, d) x (B, H, d, n) -> (B, H, n, n)
            return P @ V  # (B, H, n, n) x (B, H, n, d) -> (B, H, n, d)

        functions = {
            "paperlens": lambda Q=Q, K=K, V=V: paperlens.attention(Q, K, V),
            "bare": bare,
        }
        if torch is not None:
            q, k, v = (torch.from_numpy(x) for x in (Q, K, V))

            def reference(q=q, k=k, v=v):
                with torch.no_grad():
                    return scaled_dot_product_attention(q, k, v)

            functions["torch"] = reference
        ms = median_ms(functions, args.repeat, args.warmup)
        ours = ms["paperlens"]
        theirs = f"{ms['torch']:>7.2f}" if torch else f"{'-':>7}"
        ratio = f"{ours / ms['torch']:>8.2f}" if torch else f"{'-':>8}"
        row = f"{str(shape):<18} {ours:>9.2f} {theirs} {ms['bare']:>7.2f}"
        print(f"{row} {ratio} {ours / ms['bare']:>7.2f}")
    if args.profile:
        for shape in SHAPES:
            Q, K, V = (rng.standard_normal(shape, dtype=np.float32) for _ in range(3))
            profile(Q, K, V, args.repeat, args.warmup)
    print(f"load at the end {os.getloadavg()[0]:.2f}")
    return 0


def profile(Q, K, V, repeat, warmup):
    """Print the median time of each step of paperlens._kernels.attention, over its blocks.

    The steps are those of the kernel, in its order, with its block sizes (score_blocks), and
    the checks of paperlens.attention before them; softmax_'s own tests of the row maxima and
    sums, on (bq, 1) arrays, are left out.
    """
    import numpy as np

    from paperlens import _kernels
    from paperlens._checks import check_attention_inputs

    steps = ["checks", "scale Q", "overflow bound", "Q K^T", "overflow look", "max", "subtract"]
    steps += ["exp"]
    steps += ["sum", "multiply", "P V"]

    def run(times):
        clock = time.perf_counter
        t = clock()

        def tick(step):
            nonlocal t
            now = clock()
            times[step] += now - t
            t = now

        x = check_attention_inputs(Q, K, V, None, None)
        tick("checks")
        Qs = x.Q * x.Q.dtype.type(x.scale)
        K_T = x.K.swapaxes(-1, -2)
        P = np.empty((*x.batch, Q.shape[-2], K.shape[-2]), np.float32)
        output = np.empty((*x.batch, Q.shape[-2], V.shape[-1]), np.float32)
        tick("scale Q")
        bound = _kernels.score_bound(Qs, x.K)  # Cauchy-Schwarz: |q . k| <= |q| |k|
        look = _kernels.may_overflow(bound, Qs.dtype)
        shift = not bound < _kernels.exp_safe(Qs.dtype)  # no mask here
        tick("overflow bound")
        for rows in _kernels.score_blocks(x.batch, Q.shape[-2], K.shape[-2]):
            heads = rows[:-1]
            S = np.matmul(Qs[rows], K_T[heads], out=P[rows])
            tick("Q K^T")
            if look:  # only if the bound cannot rule an overflow out
                np.isfinite(np.sum(S))
            tick("overflow look")
            if shift:  # only if a score could reach exp_safe in size
                top = np.max(S, axis=-1, keepdims=True)
            tick("max")
            if shift:
                np.subtract(S, top, out=S)
            tick("subtract")
            np.exp(S, out=S)
            tick("exp")
            total = np.sum(S, axis=-1, keepdims=True)
            tick("sum")
            np.multiply(S, 1 / total, out=S)
            tick("multiply")
            np.matmul(S, x.V[heads], out=output[rows])
            tick("P V")

    runs = []
    for i in range(warmup + repeat):
        times = dict.fromkeys(steps, 0.0)
        start = time.perf_counter()
        run(times)
        times["total"] = time.perf_counter() - start
        if i >= warmup:
            runs.append(times)
    median = {step: 1e3 * statistics.median(r[step] for r in runs) for step in [*steps, "total"]}
    print(f"\nwhere paperlens.attention's time goes, {Q.shape}, median ms of {repeat} runs:")
    for step in steps:
        print(f"  {step:<22} {median[step]:>8.2f}  {median[step] / median['total']:>5.0%}")
    products = median["Q K^T"] + median["P V"]
    passes = sum(median[step] for step in ("max", "subtract", "exp", "sum", "multiply"))
    print(f"  {'total':<22} {median['total']:>8.2f}")
    print(f"  the two products {products:.2f} ms; the softmax's passes {passes:.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
