"""The Reproduce pages' experiments: their claims, and that the claims survive rounding.

Floating-point results differ between CPUs (each BLAS kernel rounds matrix products its own
way), and a chaotic training run turns that into different per-seed numbers. A claim is only a
claim about the paper if it holds whatever the last bits are. Tests must not switch the BLAS
kernel (``OPENBLAS_CORETYPE``: some machines preset it), so they simulate another CPU the way
``make claims`` cross-checks it: each page's experiment is re-run with every starting value
multiplied by ``1 + 1e-12 z``, and every claim must hold in every run.
"""

import importlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from paperlens.experiments import attention_scaling as att
from paperlens.experiments import claims as cl

EXPERIMENTS = ["attention_scaling", "residual_depth"]
PERTURBATIONS = [1, 2]  # seeds of cl.Perturbation; the page itself runs unperturbed


def _page_claims(name: str, seed: int) -> list[cl.Claim]:
    module = importlib.import_module(f"paperlens.experiments.{name}")
    return module.claims(module.run(module.PAGE, perturbation=cl.Perturbation(seed)))


@pytest.fixture(scope="module")
def perturbed_claims():
    """Every page's claims under every perturbation, two runs at a time (the machine's cores)."""
    jobs = [(name, seed) for name in EXPERIMENTS for seed in PERTURBATIONS]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(min(2, os.cpu_count() or 1), mp_context=context) as pool:
        futures = {job: pool.submit(_page_claims, *job) for job in jobs}
        return {job: future.result() for job, future in futures.items()}


@pytest.mark.parametrize("seed", PERTURBATIONS)
@pytest.mark.parametrize("name", EXPERIMENTS)
def test_every_claim_holds_with_the_starting_values_changed_in_the_last_bits(
    perturbed_claims, name, seed
):
    claims = perturbed_claims[name, seed]
    assert claims
    failed = [str(c) for c in claims if not c.holds]
    assert not failed, "\n".join(failed)


# Small setups: the same code paths in a fraction of a second.
SMALL_ATT = att.Setup(
    d_ks=(1, 64), trials=100, d_k=16, steps=5, tune_seeds=(100, 101), seeds=tuple(range(8)),
    arms=(
        att.Arm("scaled", True, (1e-3, 1.0, 1e5)),
        att.Arm("unscaled", False, (1e-3, 1.0, 1e5)),
        att.Arm("unscaled, small init", False, (1e-3, 1.0, 1e5), init_scale=0.5),
    ),
)  # fmt: skip


def test_attention_claims_are_computed_from_the_run_they_describe():
    result = att.run(SMALL_ATT)
    claims = att.claims(result)
    assert [c.n for c in claims] == [100, 100, 100, 8, 8]  # mean_above needs 100 draws
    # At d_k = 1 the scale is 1: both arms see the same scores.
    np.testing.assert_array_equal(
        result.init.max_weight_unscaled[0], result.init.max_weight_scaled[0]
    )
    assert set(result.lr) == {"scaled", "unscaled", "unscaled, small init"}


def test_a_rate_at_the_edge_of_its_grid_stops_the_run():
    edge = SMALL_ATT._replace(arms=(att.Arm("scaled", True, (1e-6, 1e-5)),) * 3)
    with pytest.raises(RuntimeError, match="edge"):
        att.run(edge)


def test_same_seed_same_task_and_start_in_every_arm():
    a = att.train_matching(d_k=16, scaled=True, lrs=[1.0], seeds=[7], steps=0).loss
    b = att.train_matching(d_k=16, scaled=True, lrs=[1.0, 2.0], seeds=[7], steps=0).loss
    np.testing.assert_array_equal(a[0], b[1])


def test_best_lr_treats_diverged_runs_as_worst():
    loss = np.array([[[1.0, np.nan]], [[1.0, 0.5]]])
    assert att.best_lr_index(loss) == 1


def test_paired_greater_decides_by_the_pairs():
    rng = np.random.default_rng(0)
    b = rng.normal(size=12)
    assert cl.paired_greater(b + 0.5, b, "shifted up").holds
    assert not cl.paired_greater(b - 0.5, b, "shifted down").holds
    assert not cl.paired_greater(b + 0.5 * rng.choice([-1, 1], 12), b, "coin flips").holds
    # 5 pairs can never reach p < 0.01: the smallest p-value is 1/32.
    five = cl.paired_greater(np.arange(5.0) + 1, np.arange(5.0), "five wins")
    assert five.evidence == "p = 0.031" and not five.holds


def test_mean_above_and_below_use_the_whole_interval():
    x = np.random.default_rng(1).normal(0.5, 0.1, size=400)
    assert cl.mean_above(x, 0.45, "above").holds and not cl.mean_above(x, 0.5, "above").holds
    assert cl.mean_below(x, 0.55, "below").holds and not cl.mean_below(x, 0.5, "below").holds


def test_perturb_changes_the_last_bits_only():
    w = np.random.default_rng(2).normal(size=(3, 4))
    (p,) = cl.perturb([w], cl.Perturbation(5))
    assert np.all(p != w)
    assert np.max(np.abs(p / w - 1)) < 10 * cl.JITTER
    assert cl.perturb([w], None)[0] is w
    np.testing.assert_array_equal(cl.perturb([w], cl.Perturbation(5))[0], p)  # repeatable
