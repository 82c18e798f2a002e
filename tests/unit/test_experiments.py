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
import re
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import paperlens as pl
from paperlens.experiments import attention_scaling as att
from paperlens.experiments import claims as cl
from paperlens.experiments import log as xlog
from paperlens.experiments import residual_depth as res
from paperlens.experiments.attention_training import Hyper, loss_and_grads, train

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
    cross_d_ks=(5, 6, 7, 8, 16, 20, 24), cross_trials=2000, wide_d_ks=(1, 64), wide_trials=50,
    init_seed=11, trainings=(("mse", 4), ("mse", 64), ("ce", 64)), steps=5,
    exponents=((-30.0, 0.0, 30.0), (-30.0, 0.0, 30.0)), tune_seeds=(100, 101),
    seeds=tuple(range(8)), exact_seeds=2,
)  # fmt: skip
"""The page's code paths in a second: few draws, five steps, a grid whose middle always wins."""


def test_attention_claims_are_computed_from_the_run_they_describe():
    result = att.run(SMALL_ATT)
    claims = att.claims(result)
    assert [c.n for c in claims] == [2000, 2000, 8, 8, 8, 2, 2]
    assert set(result.trained) == {"mse d_k=4", "mse d_k=64", "ce d_k=64"}
    t = result.trained["mse d_k=64"]
    assert t.chosen == (1, 1) and t.curves.shape == (2, 8, 6)
    np.testing.assert_allclose(t.rates[1], t.rates[0] / 8)  # the unscaled grid over sqrt(d_k)
    # The crossings' evidence is the data's: swap the arms and claim 1 no longer holds.
    swapped = result._replace(
        cross=result.cross._replace(max_weight_unscaled=result.cross.max_weight_scaled)
    )
    assert not att.claims(swapped)[0].holds


def test_a_crossing_claim_fails_where_the_prediction_is_wrong():
    d = np.array([1.0, 2.0, 4.0, 8.0])
    mean, se = np.array([0.2, 0.4, 0.6, 0.8]), np.full(4, 0.01)
    right = att._crossing_claim(d, mean, se, 0.5, (2, 4), "between 2 and 4", 100, "mean")
    wrong = att._crossing_claim(d, mean, se, 0.5, (4, 8), "between 4 and 8", 100, "mean")
    noisy = att._crossing_claim(d, mean, np.full(4, 0.1), 0.5, (2, 4), "noisy", 100, "mean")
    assert right.holds and not wrong.holds and not noisy.holds
    assert "crossing at d_k = 3" in right.effect  # halfway from 0.4 to 0.6, between 2 and 4
    interval = att.crossing_interval(d, mean, se, 0.5)
    assert interval.low < 3 < interval.high < 3.5
    never = att.crossing(d, mean * 0.1, 0.5)
    assert np.isnan(never)


def test_the_reparametrisation_is_exact_when_d_k_to_the_quarter_is_a_power_of_two():
    exact = att.exact_reparametrisation(16, [0, 1], steps=20)
    for scaled, unscaled in exact.values():
        np.testing.assert_array_equal(scaled, unscaled)
    # At d_k = 64, a = 64^(-1/4) is not a power of two: the runs agree to rounding only.
    near = att.exact_reparametrisation(64, [0, 1], steps=20)
    for scaled, unscaled in near.values():
        assert not np.array_equal(scaled, unscaled)
        np.testing.assert_allclose(scaled, unscaled, rtol=1e-9)


def test_a_shared_learning_rate_breaks_the_reparametrisation_under_adam():
    a = 16**-0.25
    exact = Hyper(scale=1.0, init=a, lr=0.01 * a, lr_vo=0.01, eps=1e-8 / a)
    scaled = Hyper(scale=a * a, lr=0.01, lr_vo=0.01)
    runs = train(
        [scaled, exact, exact._replace(lr=0.01)], [0], d_k=16, steps=10, optimiser="adam",
        values=True,
    )  # fmt: skip
    np.testing.assert_array_equal(runs[0], runs[1])
    assert not np.allclose(runs[0], runs[2], rtol=1e-3)


@pytest.mark.parametrize(
    ("loss", "values"), [("mse", False), ("ce", False), ("mse", True)]
)  # fmt: skip
def test_the_training_gradients_match_finite_differences(loss, values):
    rng = np.random.default_rng(3)
    X_q, X_k = rng.normal(size=(1, 5, 4)), rng.normal(size=(1, 3, 4))
    target = np.eye(3)[rng.integers(3, size=5)][None]  # (1, 5, 3)
    if values:
        target = target @ X_k  # the clean key
    shapes = [(1, 4, 6), (1, 4, 6)] + ([(1, 4, 2), (1, 2, 4)] if values else [])
    params = [rng.normal(size=s) for s in shapes]
    c = np.full((1, 1, 1), 0.7)
    _, grads = loss_and_grads(params, X_q, X_k, target, c, loss)
    for i, p in enumerate(params):

        def f(x, i=i):
            trial = [x if j == i else q for j, q in enumerate(params)]
            return loss_and_grads(trial, X_q, X_k, target, c, loss)[0].sum()

        np.testing.assert_allclose(grads[i], pl.numerical_gradient(f, p), rtol=1e-5, atol=1e-8)


def test_training_by_adam_is_paperlens_adam_step():
    rates = [Hyper(scale=0.25, lr=0.05, lr_vo=0.05)]
    loss = train(rates, [4], d_k=16, steps=3, optimiser="adam", values=True)[0, 0]
    # The same three steps by hand, with the library's optimiser.
    from paperlens.experiments.attention_training import start_task

    task, weights = start_task([4], 8, 32, 16, 16, 16, 0.5, True, None)
    target = task.target @ task.X_k
    state, by_hand = pl.adam_init(weights), []
    for _ in range(4):
        value, grads = loss_and_grads(
            weights, task.X_q, task.X_k, target, np.full((1, 1, 1), 0.25), "mse"
        )
        by_hand.append(float(value[0]))
        weights, state = pl.adam_step(weights, grads, state, lr=0.05)
    np.testing.assert_allclose(loss, by_hand, rtol=1e-12)


def test_a_rate_at_the_edge_of_its_grid_stops_the_run():
    edge = SMALL_ATT._replace(exponents=((-30.0, -29.0), (-30.0, -29.0)))
    with pytest.raises(RuntimeError, match="edge"):
        att.run(edge)


def test_same_seed_same_task_and_start_in_every_setting():
    one = train([Hyper(scale=1.0, lr=1.0)], [7], d_k=16, steps=0)
    two = train([Hyper(scale=1.0, lr=2.0), Hyper(scale=1.0, lr=1.0)], [7], d_k=16, steps=0)
    np.testing.assert_array_equal(one[0], two[1])
    np.testing.assert_array_equal(two[0], two[1])


def test_the_rate_chosen_works_on_every_tuning_seed():
    final = np.array([[0.3, 0.3, 0.3], [0.1, 0.1, 0.2], [0.01, 0.01, np.nan]])
    assert att.choose(final) == 1 and att.choose(final, by="median") == 2
    curves = np.array([[[1.0, np.nan], [1.0, 1e-30], [1.0, 0.0]]])  # diverged, tiny, zero
    t = att.Trained(("a", "b"), np.ones((2, 1)), np.ones((2, 1, 1)), (0, 0), curves)
    assert t.log_final().tolist() == [[att.DIVERGED, -30.0, pytest.approx(-307.65, abs=0.01)]]


def test_the_fast_jacobian_norm_is_the_librarys_even_when_saturated():
    rng = np.random.default_rng(5)
    for spread in (0.1, 3.0, 40.0, 400.0):
        s = rng.normal(size=(50, 16)) * spread
        np.testing.assert_allclose(
            att.jacobian_norm(pl.softmax(s)), pl.softmax_gradient_norm(s), rtol=1e-12
        )


def test_the_claims_list_is_markdown_with_math_and_the_evidence():
    claim = cl.Claim("a | b at d_k = 4", "a test", 3, "p = 0.1", False, "shift 1")
    lines = att.claims_markdown([claim], start=7).splitlines()
    assert lines[0] == "7. **FAILS:** a \\| b at $d_k$ = 4.  "
    assert lines[1] == "   *a test, n = 3: p = 0.1; shift 1.*"


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_the_experiment_log_keeps_its_rule(name):
    entries = xlog.entries(name)
    # the designs each page discloses as confirmed: attention's two (the design and claim 3's
    # redesign, TUNED), ResNet's listed runs' designs
    confirmed = {
        "attention_scaling": 2,
        "residual_depth": len({c.design for c in res.CONFIRMATIONS}),
    }
    assert xlog.audit(entries, confirmations=confirmed[name]) == []


def test_the_conventions_that_could_hardly_fail_are_listed_as_descriptions():
    listed = att.conventions_markdown(xlog.entries("attention_scaling")).splitlines()
    for name in att.CONVENTIONS:
        (line,) = [ln for ln in listed if ln.startswith(f"- **{att._math(name)}**")]
        assert ("a description, not a test" in line) == (name in att.DESCRIBED), line


def test_the_logged_tables_read_the_log():
    entries = xlog.entries("attention_scaling")
    listed = att.log_markdown(entries)
    assert all(f"`{e['design']}`" in listed for e in entries)
    assert listed.startswith("- **Entry 1**: `v0-today`: exploration, abandoned,")
    # Each item names its entry's number in the log, whatever reruns were folded into others
    # (a numbered Markdown list would be renumbered from its first item by the renderer).
    named = [int(n) for n in re.findall(r"^- \*\*Entry (\d+)\*\*", listed, re.M)]
    lines = listed.splitlines()
    assert len(named) == len(lines) and named == sorted(named)
    assert all(f"`{entries[n - 1]['design']}`" in ln for n, ln in zip(named, lines, strict=True))
    confirmed = [e for e in entries if e["purpose"] == "confirmation"][-1]
    upto = entries.index(confirmed) + 1
    rerun = att.log_markdown([*entries[:upto], confirmed, confirmed])
    assert rerun.count("\n") == att.log_markdown(entries[:upto]).count("\n")
    key = (confirmed["design"], confirmed["seeds"], confirmed["config"])
    first, *earlier = [  # the entries that ran this confirmation, in the log so far
        n
        for n, e in enumerate(entries[:upto], 1)
        if (e["design"], e["seeds"], e["config"]) == key and e["purpose"] == "confirmation"
    ]
    again = ", ".join(map(str, [*earlier, upto + 1, upto + 2]))
    assert f"- **Entry {first}** (rerun as entries {again}): `{confirmed['design']}`" in rerun
    seeds = att.design_markdown(entries)
    assert "How many seeds" in seeds and "This is a rule, not a power estimate" in seeds
    # exploration after the confirmation is disclosed, and not counted as the exploration before
    assert "reused this page's test seeds for descriptions that decide nothing" in seeds
    assert "to 1002." in seeds


def test_rademacher_components_are_plus_or_minus_one():
    # at d_k = 1 the unscaled scores are q k_j = ±1, so the largest weight takes one of the
    # values e / (m e + (n_k - m) / e), m = 1 .. n_k keys scoring +1 (or 1 / n_k if none does)
    s = att.scaling_at_init([1], n_k=4, trials=500, rng=np.random.default_rng(0),
                            components="rademacher")  # fmt: skip
    m = np.arange(1, 5)
    possible = np.append(np.e / (m * np.e + (4 - m) / np.e), 1 / 4)
    w = s.max_weight_unscaled[0]
    assert np.all(np.min(np.abs(w[:, None] - possible), axis=1) < 1e-12)
    assert np.array_equal(w, s.max_weight_scaled[0])  # 1/sqrt(1) = 1: the same scores
    normal = att.scaling_at_init([1], n_k=4, trials=500, rng=np.random.default_rng(0))
    assert len(np.unique(normal.max_weight_unscaled)) == 500
    with pytest.raises(ValueError, match="components"):
        att.scaling_at_init([1], n_k=4, trials=5, rng=np.random.default_rng(0), components="t")


def test_final_scores_are_the_runs_train_reports():
    hypers = [Hyper(scale=1 / 8, lr=1.0), Hyper(scale=1.0, lr=0.125)]
    losses = train(hypers, [3, 4], d_k=64, steps=20, loss="ce")  # (2, seeds, steps + 1)
    scores, target = att.final_scores(hypers, [3, 4], d_k=64, steps=20, loss="ce")
    assert scores.shape == target.shape == (2, 2, 32, 8)
    np.testing.assert_allclose(att.cross_entropy(scores, target), losses[..., -1], rtol=1e-9)


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
