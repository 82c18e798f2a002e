"""A design of the ResNet experiment found after the fact, evaluated and recorded in its log.

Commit 720581c ("residual_depth (work in progress)") fixed a draft design whose claims 2 and 4
were non-inferiority claims: with shortcuts and 1/√L branches, the training loss "does not rise
by more than a factor 2 from 4 to 48 layers" (a margin on each seed's slope of log-loss against
log-depth), at the build's rate and budget (claim 2), and with each net's best of the draft's
five rates at every budget (claim 4). Commit 9651e56 replaced them half an hour later with
comparisons against the plain nets. The log recorded no run of the draft, and whether it was
run on data before it was replaced is not known; a review (r20r-13) found it. This study
evaluates the draft's two claims on the exploration sweep (log entry 9's losses, seeds 0-11),
the draft's own test (`does_not_rise` at 720581c: the Hodges–Lehmann interval's upper end at
coverage 1 - 2 alpha below the margin), and with ``--record`` appends the result to
``src/paperlens/experiments/log/residual_depth.jsonl`` as an abandoned exploration.

Usage: ``python tools/explore/residual_depth.py [--record]``.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

import numpy as np

from paperlens.experiments import log
from paperlens.experiments import residual_depth as exp
from paperlens.experiments.claims import hodges_lehmann

DRAFT = "720581c"
DRAFT_LRS = (0.0005, 0.001, 0.002, 0.004, 0.008)  # the draft's grid (its LRS)
MARGIN = math.log10(2) / (math.log2(48) - math.log2(4))  # a factor 2 over 4 to 48 layers


def evaluate() -> tuple[dict[str, Any], dict[str, Any]]:
    """The draft's claims 2 and 4 on the exploration sweep: (config, outcome)."""
    ex = exp.exploration()  # (arm, rate, depth, seed, budget)
    s, alpha = ex.setup, exp.DESIGN.alpha
    residual = s.arms.index(exp.RESIDUAL)
    rates = [s.lrs.index(r) for r in DRAFT_LRS]

    def claim(loss: np.ndarray) -> dict[str, Any]:  # (depth, seed)
        hl = hodges_lehmann(exp.slopes(loss.T, s.depths), confidence=1 - 2 * alpha)
        return {"slope": hl.estimate, "upper end": hl.high, "holds": bool(hl.high < MARGIN)}

    outcome = {
        "claim 2 (rate 0.002, 200 steps)": claim(
            ex.final_loss[residual, s.lrs.index(0.002), :, :, 0]
        ),
        **{
            f"claim 4 ({b} steps, best of the draft's rates)": claim(
                ex.final_loss[residual, rates, :, :, i].min(axis=0)
            )
            for i, b in enumerate(s.budgets)
        },
    }
    config = {
        "draft commit": DRAFT,
        "margin (decades of loss per doubling of depth)": MARGIN,
        "alpha": alpha,
        "rates": list(DRAFT_LRS),
        "depths": list(s.depths),
        "budgets": list(s.budgets),
        "claims": [
            "2: with shortcuts and 1/√L branches, the loss after 200 steps at rate 0.002 does "
            "not rise by more than a factor 2 from 4 to 48 layers (non-inferiority)",
            "4: claim 2 with each net's best of the five rates, at every budget",
        ],
    }
    return config, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--record", action="store_true", help="append the result to the log")
    args = parser.parse_args()
    config, outcome = evaluate()
    for name, result in outcome.items():
        print(f"{name}: {result}")
    if args.record:
        failed = [name for name, r in outcome.items() if not r["holds"]]
        log.record(
            "residual_depth",
            design="v2-draft-non-inferiority",
            purpose="exploration",
            status="abandoned",
            config=config,
            seeds=exp.exploration().setup.seeds,
            command="python tools/explore/residual_depth.py --record",
            outcome=outcome,
            note=(
                f"A draft design, committed in {DRAFT} and replaced 30 minutes later by the "
                "comparisons with plain nets of 9651e56, before any entry of the log; recorded "
                "after the fact (found by review r20r-13), as it was never logged. Whether it "
                "was run on data before it was replaced is not known. Evaluated now on the "
                "exploration sweep (entry 9's losses): "
                + (f"it fails {', '.join(failed)}" if failed else "it holds")
                + ". The design that replaced it does not use a margin."
            ),
        )


if __name__ == "__main__":
    main()
