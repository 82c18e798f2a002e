"""Exploration runs of the attention experiment, each recorded in its log.

The design of `paperlens.experiments.attention_scaling` was chosen with these runs, on
exploration seeds only (training seeds 200-399, initialisation draws from seeds 1000-1099); the
confirmation seeds in its ``DESIGN`` appear in none of them. Each study prints what it found and,
with ``--record``, appends it to ``src/paperlens/experiments/log/attention_scaling.jsonl`` with
this command and the commit it ran at.

Usage: ``python tools/explore/attention_scaling.py STUDY [--record]``; ``--help`` lists them.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from paperlens.experiments import log
from paperlens.experiments.attention_training import Hyper, train

STUDIES: dict[str, Callable[[], tuple[dict[str, Any], dict[str, Any], list[int], str]]] = {}
"""Each study returns (config, outcome, seeds, note)."""


def study(f: Callable[[], tuple[dict[str, Any], dict[str, Any], list[int], str]]) -> Any:
    STUDIES[f.__name__.replace("_", "-")] = f
    return f


def _medians(loss: np.ndarray) -> list[float]:
    final = np.nan_to_num(loss[..., -1], nan=np.inf)  # (rates, seeds)
    return [float(x) for x in np.median(final, axis=1)]


@study
def lr_curves() -> tuple[dict[str, Any], dict[str, Any], list[int], str]:
    """Final loss against the learning rate, GD, both losses, d_k 4 to 256, both arms."""
    seeds = list(range(200, 208))
    steps = 150
    exps = list(range(-4, 13))  # scaled rates 2^k; unscaled rates 2^k / sqrt(d_k)
    outcome: dict[str, Any] = {}
    for loss in ("mse", "ce"):
        for d_k in (4, 16, 64, 256):
            r = math.sqrt(d_k)
            hypers = [Hyper(scale=1 / r, lr=2.0**k) for k in exps]
            hypers += [Hyper(scale=1.0, lr=2.0**k / r) for k in exps]
            out = train(hypers, seeds, d_k=d_k, steps=steps, loss=loss).reshape(2, len(exps), len(seeds), -1)
            for arm, curve in zip(("scaled", "unscaled"), out, strict=True):
                med = _medians(curve)
                best = int(np.argmin(med))
                outcome[f"{loss} d_k={d_k} {arm}"] = (
                    f"best 2^{exps[best]}{'' if arm == 'scaled' else '/sqrt(d_k)'}: {med[best]:.3g}; "
                    + " ".join(f"{m:.2g}" for m in med)
                )
                print(f"{loss} d_k={d_k:4d} {arm:9s} best k={exps[best]:3d} {med[best]:.3g} |", " ".join(f"{m:.1e}" for m in med))
            # paired log10 difference at each arm's best rate (chosen on these same seeds)
            fs = [np.log10(out[i, int(np.argmin(_medians(out[i]))), :, -1]) for i in (0, 1)]
            print(f"   unscaled - scaled log10 final at best rates: median {np.median(fs[1] - fs[0]):+.3f}, per seed",
                  np.round(fs[1] - fs[0], 2))
    config = dict(steps=steps, optimiser="gd", scaled_rates="2^k, k=-4..12", unscaled_rates="2^k/sqrt(d_k)",
                  d_ks=[4, 16, 64, 256], losses=["mse", "ce"], n_k=8, n=32, d_model=16, noise=0.5)
    return config, outcome, seeds, "How each arm's final loss depends on the rate, to choose grids, d_k and the loss."


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("study", choices=sorted(STUDIES))
    parser.add_argument("--record", action="store_true", help="append the result to the log")
    args = parser.parse_args()
    config, outcome, seeds, note = STUDIES[args.study]()
    if args.record:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "src"], capture_output=True, text=True).stdout.strip()
        log.record(
            "attention_scaling", design=f"explore-{args.study}", purpose="exploration", status="explored",
            config=config, seeds=seeds, command=f"python tools/explore/attention_scaling.py {args.study} --record",
            outcome=outcome, note=f"{note} (commit {commit}{', uncommitted changes' if dirty else ''})",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
