"""The ResNet experiment: its arms, its tests and claims, its log and its design.

The page's claims under last-bit perturbations are checked with the other experiments' in
``test_experiments.py``; these are the pieces, on setups small enough to run in seconds.
"""

import math

import numpy as np
import pytest
from scipy import stats

from paperlens.experiments import claims as cl
from paperlens.experiments import log as xlog
from paperlens.experiments import residual_depth as res

SMALL = res.Setup(
    seeds=tuple(range(6)), n=32, depths=(2, 4, 6), budgets=(20,), tail=5, grad_depth=4,
    grad_width=8,
)  # fmt: skip
"""Two arms, one rate, one budget: the build's code paths in a second."""
SMALL_FULL = SMALL._replace(
    arms=(res.PLAIN, res.RESIDUAL, res.SHORTCUT_ONLY, res.SCALE_ONLY),
    lrs=(0.001, 0.002, 0.004), budgets=(20, 40), rerun=True,
)  # fmt: skip
"""Every arm, several rates and budgets, and the rerun."""


@pytest.fixture(scope="module")
def small_full():
    return res.run(SMALL_FULL)


def test_the_controls_start_from_the_main_arms_weights():
    nets = {
        arm.name: res.init_nets([3, 4], 8, 16, 6, scaled=arm.scaled)
        for arm in (res.PLAIN, res.RESIDUAL, res.SHORTCUT_ONLY, res.SCALE_ONLY)
    }
    for a, b in [("plain", "shortcuts, no 1/√L"), ("residual", "1/√L, no shortcuts")]:
        assert all(np.array_equal(x, y) for x, y in zip(nets[a], nets[b], strict=True))
    # The residual nets' hidden weights are the plain nets' times 1/sqrt(L); nothing else differs.
    plain, residual = nets["plain"], nets["residual"]
    np.testing.assert_allclose(residual.W, plain.W / math.sqrt(6), rtol=1e-15)
    assert np.array_equal(residual.W_in, plain.W_in) and np.array_equal(residual.W_out, plain.W_out)


def test_a_shorter_budget_is_the_beginning_of_a_longer_run():
    X, y = res.regression_task(32, 8, rng=np.random.default_rng(0))
    kw = dict(depth=3, arm=res.RESIDUAL, width=8, seeds=[0, 1], lr=0.01)
    np.testing.assert_array_equal(
        res.train(X, y, steps=40, **kw), res.train(X, y, steps=80, **kw)[:, :41]
    )


def test_run_reads_every_budget_from_one_run_and_keeps_the_base_rate_s_curves(small_full):
    s = small_full.setup
    assert small_full.final_loss.shape == (4, 3, 3, 6, 2)
    assert small_full.curves.shape == (4, 3, 6, 41)
    base = s.lrs.index(s.lr)
    np.testing.assert_array_equal(
        small_full.final_loss[:, base, :, :, 1], res.final_loss(small_full.curves, 40, s.tail)
    )
    np.testing.assert_array_equal(
        small_full.half_loss[:, base, :, :, 0], res.final_loss(small_full.curves, 10, s.tail)
    )
    assert small_full.rerun_loss.shape == (2, 6)
    assert not np.array_equal(small_full.rerun_loss[0], small_full.final_loss[0, base, -1, :, 0])


def test_final_loss_is_the_geometric_mean_of_the_last_steps():
    curve = np.array([[9.0, 1.0, 4.0, 16.0]])
    assert res.final_loss(curve, 3, 2)[0] == pytest.approx(8.0)  # sqrt(4 * 16)
    assert res.final_loss(curve, 2, 2)[0] == pytest.approx(2.0)  # sqrt(1 * 4)


def test_a_perturbation_reaches_the_training_and_moves_it_only_slightly():
    plain = res.run(SMALL)
    moved = res.run(SMALL, perturbation=cl.Perturbation(1))
    assert not np.array_equal(plain.final_loss, moved.final_loss)
    np.testing.assert_allclose(plain.final_loss, moved.final_loss, rtol=1e-6)


def test_train_depths_is_train_at_each_depth():
    X, y = res.regression_task(32, 4, rng=np.random.default_rng(0))
    kw = dict(width=8, seeds=[0, 1], steps=10, lr=0.01)
    curves = res.train_depths(X, y, depths=[2, 3], residual=True, **kw)
    np.testing.assert_array_equal(curves[1], res.train(X, y, depth=3, arm=res.RESIDUAL, **kw))


def test_page_s_trend_test_follows_the_ranks():
    rng = np.random.default_rng(0)
    depths = (4, 8, 16, 32)
    rising = 10.0 ** (np.log2(depths) + 0.3 * rng.standard_normal((12, 4)))  # (seeds, depths)
    assert res.rises_with_depth(rising, depths, "rises", alpha=0.01).holds
    assert not res.rises_with_depth(rising[:, ::-1], depths, "falls", alpha=0.01).holds
    flat = 10.0 ** rng.standard_normal((12, 4))
    claim = res.rises_with_depth(flat, depths, "flat", alpha=0.01)
    assert not claim.holds
    p = stats.page_trend_test(np.log10(flat), method="exact").pvalue
    assert claim.evidence == f"p = {p:.2g}"


def test_steeper_pairs_the_slopes_by_seed():
    rng = np.random.default_rng(1)
    shared = rng.normal(0, 3, 12)  # what a seed's two nets share, much larger than the effect
    a, b = shared + 0.5 + 0.2 * rng.standard_normal(12), shared + 0.2 * rng.standard_normal(12)
    claim = res.steeper(a, b, "a > b", alpha=0.01)
    p = stats.wilcoxon(a, b, alternative="greater", method="exact").pvalue
    assert claim.holds and claim.n == 12 and claim.evidence == f"p = {p:.2g}"
    # Unpaired, the shared part would swamp the shift: a two-sample test sees no difference.
    assert stats.mannwhitneyu(a, b, alternative="greater").pvalue > 0.1
    # Its effect is the pseudo-median of the paired differences, with the interval's verdict.
    hl = cl.hodges_lehmann(a - b, confidence=0.98)
    assert claim.effect.startswith(f"slope steeper by {hl.estimate:.2f} (98.00% interval")
    assert not res.steeper(b, a, "b > a", alpha=0.01).holds
    with pytest.raises(ValueError, match="pair up"):
        res.steeper(a, b[:11], "unpaired", alpha=0.01)


def test_every_holds_only_if_each_part_does():
    yes = cl.Claim("a", "t", 5, "p = 0.001", True)
    no = cl.Claim("b", "t", 5, "p = 0.5", False)
    assert res.every([yes, yes], ["x", "y"], "both").holds
    assert not res.every([yes, no], ["x", "y"], "both").holds
    assert res.every([yes, no], ["x", "y"], "both").evidence == "x: p = 0.001; y: p = 0.5"
    # Every part's test is shown, not only the first's (the review found "18 of 18" for all).
    other = yes._replace(test="u")
    assert res.every([yes, other], ["x", "y"], "both").test.endswith("x: t; y: u")


def test_the_build_decides_claims_1_and_2_and_the_full_sweep_3_to_6(small_full):
    page = res.claims(res.run(SMALL))
    full = res.claims(small_full)
    assert [c.statement.split(":")[0] for c in page] == ["degradation", "shortcuts shrink it"]
    assert len(full) == 4 and full[0].statement.startswith("degradation survives tuning")
    # The build's part of a full sweep (base rate, first budget) decides claims 1 and 2 there.
    again = res.claims(res.as_page(small_full))
    assert [c.statement for c in again] == [c.statement for c in page]


def test_the_claims_fail_when_the_arms_or_the_depths_are_swapped(small_full):
    # Whatever a small run shows, swapping plain and residual, or reversing the depths, cannot
    # keep a one-sided claim.
    page = res.as_page(small_full)
    swapped = page._replace(final_loss=page.final_loss[::-1])
    reversed_depths = page._replace(final_loss=page.final_loss[:, :, ::-1])
    held = [c.holds for c in res.claims(page)]
    assert not (held[1] and res.claims(swapped)[1].holds)
    assert not (held[0] and res.claims(reversed_depths)[0].holds)
    tuned = [c.holds for c in res.claims(small_full)]
    tuned_swapped = [
        c.holds
        for c in res.claims(small_full._replace(final_loss=small_full.final_loss[[1, 0, 2, 3]]))
    ]
    assert not (tuned[1] and tuned_swapped[1])  # claim 4: plain steeper than residual


def test_claims_become_a_list_and_designs_a_table():
    claim = cl.Claim("a | b", "t", 5, "p = 0.001", True, "shift 1")
    text = res.claims_markdown([claim, claim._replace(holds=False)._asdict()], numbers=(3, 4))
    lines = text.splitlines()
    assert lines[0] == "- **Claim 3** holds: a | b." and lines[4].startswith(
        "- **Claim 4** **FAILS**"
    )
    assert lines[1:4] == [
        "    - Test: t; n = 5.",
        "    - Evidence: p = 0.001.",
        "    - Effect size: shift 1.",
    ]
    entries = xlog.entries("residual_depth")
    table = res.designs_markdown(entries)
    assert len(table.splitlines()) == len(entries) + 2
    # A claim that failed during exploration shows in the table, with its evidence.
    failed = [c for e in entries for c in e["outcome"].get("claims", []) if not c["holds"]]
    assert failed and all(f"FAILS: {c['statement']} ({c['evidence']})" in table for c in failed)


def test_the_controls_claims_are_described_outside_the_family_at_the_level_fixed_before():
    d = res.DESIGN
    assert d.described == (5, 6) and d.tested == (1, 2, 3, 4)
    assert d.alpha == cl.ALPHA / len(d.claims)  # the level fixed for six is not loosened
    assert d.family_level == pytest.approx(4 * cl.ALPHA / 6) and d.family_level < cl.ALPHA
    claim = cl.Claim("s", "t", 5, "p = 0.001", True, "")
    text = res.claims_markdown([claim, claim], numbers=(4, 5))
    assert "**Claim 4** holds" in text and "**Claim 5** (described, not tested" in text


def test_the_plateau_criterion_is_a_factor_two_over_the_second_half(small_full):
    half = small_full.half_loss.copy()
    half[..., 0] = 3 * small_full.final_loss[..., 0]  # fell by a factor 3: not plateaued
    half[..., 1] = 1.5 * small_full.final_loss[..., 1]  # by 1.5: plateaued
    shares = res.plateaued(small_full._replace(half_loss=half))  # (arms, depths, budgets)
    assert np.all(shares[..., 0] == 0) and np.all(shares[..., 1] == 1)


def test_power_is_one_for_an_effect_far_beyond_the_level(small_full):
    x = np.log2(np.array(SMALL_FULL.depths, dtype=float))  # (depths,)
    loss = small_full.final_loss.copy()
    loss[0] = 10.0 ** (
        5 * x[None, :, None, None] + 0.01 * np.random.default_rng(3).standard_normal(loss[0].shape)
    )
    table = res.power(small_full._replace(final_loss=loss), [12], draws=20)
    assert table.shape == (1, 6)
    assert table[0, 0] == 1.0  # the plain trend, even halved, holds in every resample


def test_the_log_keeps_its_rule_and_records_every_design():
    entries = xlog.entries("residual_depth")
    assert xlog.audit(entries, confirmations=len({c.design for c in res.CONFIRMATIONS})) == []
    designs = [e["design"] for e in entries]
    assert designs[:2] == ["v0-five-seeds", "v1-48-vs-8"]  # the designs before issue 20
    assert all(e["status"] == "abandoned" for e in entries[:2])
    # Each entry's command reproduces it: this experiment's module, or `make claims`, which
    # reruns the full sweeps and records the rerun under its own command.
    assert all(
        "residual" in e["command"] or e["command"].startswith("python tools/claims.py")
        for e in entries
    )
    assert all(e["experiment"] == "residual_depth" for e in entries)


def test_the_page_discloses_every_confirmation_in_the_log():
    entries = xlog.entries("residual_depth")
    # A rerun (`make claims`) folds into the run it repeats: xlog.audit (the test above this
    # one) checks that it repeats its design, seeds, config and verdicts.
    confirmations = list(
        dict.fromkeys(
            (e["design"], tuple(e["seeds"])) for e in entries if e["purpose"] == "confirmation"
        )
    )
    assert confirmations == [(c.design, tuple(c.seeds)) for c in res.CONFIRMATIONS]
    # Only the current designs' may be adopted: the earlier ones were replaced.
    adopted = {e["design"] for e in entries if e["status"] == "adopted"}
    assert adopted <= {
        res.DESIGN.name,
        res.HE_DESIGN.name,
        res.HE_RATES_DESIGN.name,
        res.KEPT_DESIGN.name,
    }


def test_the_he_design_s_seeds_and_tasks_are_fresh_and_its_sample_size_is_the_log_s():
    d, entries = res.HE_DESIGN, xlog.entries("residual_depth")
    assert res.HE.seeds == d.seeds and res.HE.fresh_tasks and res.HE_EXPLORATION.fresh_tasks
    first = next(
        i for i, e in enumerate(entries) if e["purpose"] == "confirmation" and e["design"] == d.name
    )
    before = entries[:first]
    assert not set(d.seeds) & {s for e in before for s in e["seeds"]}
    # No earlier run drew these tasks: none used the tasks' salt.
    assert all(
        e["config"].get("task_seed") != res.HE_TASKS
        for e in before
        if e["design"] != d.name and not e["design"].startswith("v5")
    )
    power = [e for e in before if e["command"].endswith("he-power --record")]
    assert power[-1]["design"] == d.name
    shares = {int(k[4:]): v for k, v in power[-1]["outcome"].items() if k.startswith("n = ")}
    assert dict(d.power) == {n: tuple(shares[n]) for n, _ in d.power}
    n = len(d.seeds)  # the smallest n at which both claims held in at least 80% of resamples
    assert min(shares[n]) >= 0.8 and all(min(v) < 0.8 for m, v in shares.items() if m < n)


def test_the_design_s_seeds_are_fresh_and_its_sample_size_is_the_log_s():
    d = res.DESIGN
    assert res.PAGE.seeds == d.page_seeds and res.FULL.seeds == d.full_seeds
    assert not set(d.page_seeds) & set(d.full_seeds)
    entries = xlog.entries("residual_depth")
    first = [
        i for i, e in enumerate(entries) if e["purpose"] == "confirmation" and e["design"] == d.name
    ]
    before = entries[: first[0] if first else len(entries)]
    used = {s for e in before for s in e["seeds"]}
    assert not (set(d.page_seeds) | set(d.full_seeds)) & used
    power = [e for e in before if e["command"].endswith("power --record")]
    assert power[-1]["design"] == d.name  # the sample size of this design's tests
    shares = {int(k[4:]): v for k, v in power[-1]["outcome"].items() if k.startswith("n = ")}
    assert dict(d.power) == {n: tuple(shares[n]) for n, _ in d.power}
    # The smallest n at which each claim held in at least 80% of the resamples:
    for n, claims in [(len(d.page_seeds), slice(0, 2)), (len(d.full_seeds), slice(2, 6))]:
        assert min(shares[n][claims]) >= 0.8
        assert all(min(v[claims]) < 0.8 for m, v in shares.items() if m < n)


def test_a_recorded_run_is_read_back(monkeypatch, tmp_path, small_full):
    monkeypatch.setattr(xlog, "LOG_DIR", tmp_path)  # a log of its own
    with pytest.raises(LookupError, match="no confirmation run"):
        res.recorded(SMALL_FULL)
    entry = res.record(small_full, command="test")
    found, back = res.recorded(SMALL_FULL)
    assert found == entry and entry["design"] == res.DESIGN.name
    assert back.setup == SMALL_FULL and back.final_loss.shape == small_full.final_loss.shape
    np.testing.assert_allclose(
        np.log10(back.final_loss), np.log10(small_full.final_loss), rtol=0, atol=5e-5
    )  # the log keeps log10 losses to 4 decimals


def test_the_full_sweep_s_confirmation_is_read_back_as_recorded():
    try:
        entry, full = res.recorded(res.FULL)
    except LookupError:
        pytest.skip("the full sweep's confirmation is not in the log yet (`... full --record`)")
    assert entry["purpose"] == "confirmation" and entry["design"] == res.DESIGN.name
    assert full.setup == res.FULL
    assert full.final_loss.shape == (4, len(res.LRS), len(res.DEPTHS), len(res.FULL.seeds), 3)
    assert [c["holds"] for c in entry["outcome"]["claims"]] == [c.holds for c in res.claims(full)]


def test_a_stopped_run_resumes_from_its_store(tmp_path):
    first = res.run(SMALL, store=tmp_path)
    kept = sorted(tmp_path.glob("*.npy"))
    assert len(kept) == len(SMALL.arms) * len(SMALL.depths)
    kept[0].unlink()  # as if the run had stopped before its first training
    again = res.run(SMALL, store=tmp_path)
    np.testing.assert_array_equal(first.final_loss, again.final_loss)
    moved = res.run(SMALL, store=tmp_path, perturbation=cl.Perturbation(1))  # not the same runs
    assert not np.array_equal(first.final_loss, moved.final_loss)


def test_the_store_is_keyed_to_the_code_and_the_blas_kernel(tmp_path, monkeypatch):
    """A resumed run never reads a training made by other code or another BLAS kernel (review
    2026-12-06-reproduce, G3)."""
    X, y = res.regression_task(SMALL.n, SMALL.d_in, rng=np.random.default_rng(SMALL.task_seed))
    task = (X, y, SMALL.depths[0], res.PLAIN, SMALL, SMALL.lr, None, tmp_path)
    res._train_task(task)
    res._train_task(task)
    assert len(list(tmp_path.glob("*.npy"))) == 1  # the same code: read back
    monkeypatch.setattr(res, "environment_key", lambda: "another library or BLAS kernel")
    res._train_task(task)
    assert len(list(tmp_path.glob("*.npy"))) == 2  # other code: trained again, kept apart


def test_the_log_s_name_does_not_depend_on_how_the_module_is_run():
    # `python -m` runs the module as `__main__` (a worker process as `__mp_main__`): an entry
    # named after `__name__` went to `__main__.jsonl` once. The name is fixed.
    from pathlib import Path

    source = Path(res.__file__).read_text(encoding="utf-8")
    run: dict[str, object] = {"__name__": "__mp_main__"}
    exec(compile(source, res.__file__, "exec"), run)  # the module as a worker process runs it
    assert run["NAME"] == "residual_depth"
    assert not (xlog.LOG_DIR / "__main__.jsonl").exists()


def test_the_rate_grid_holds_the_median_nets_best_rates_on_the_exploration_seeds():
    """`LRS`'s docstring: the median plain and residual net's best rate is inside the grid, not
    at an edge, at every depth and budget of the exploration sweep; single nets' are not."""
    ex = res.exploration()  # (arm, rate, depth, seed, budget), rebuilt from the log
    assert ex.setup.lrs == res.LRS
    main = np.log10(ex.final_loss[:2])  # plain and residual
    best_of_median = np.median(main, axis=3).argmin(axis=1)  # (arm, depth, budget)
    assert np.all((best_of_median > 0) & (best_of_median < len(res.LRS) - 1))
    best_of_each = main.argmin(axis=1)  # (arm, depth, seed, budget)
    assert np.any((best_of_each == 0) | (best_of_each == len(res.LRS) - 1))  # "now and then"


def test_he_claims_are_tested_in_sequence_and_the_margin_decides_the_first():
    """Claim 8 counts only if claim 7 holds; a rise above the margin fails claim 7."""
    s = res.HE._replace(seeds=tuple(range(12)), arms=(res.RESIDUAL,))
    rng = np.random.default_rng(0)
    depths = np.log2(np.asarray(s.depths, dtype=float))  # (depths,)

    def result(rise: float) -> res.Result:  # each seed's log10 loss rises by `rise` over the range
        slope = rise / (depths[-1] - depths[0])
        logs = (
            -2
            + slope * (depths - depths[0])[:, None, None]
            + 0.01 * rng.standard_normal((len(s.depths), len(s.seeds), len(s.budgets)))
        )  # (depths, seeds, budgets)
        final = 10 ** logs[None, None]  # (arms, lrs, depths, seeds, budgets)
        return res.Result(s, final, final, np.empty(0), np.empty(0), None)

    falls, flat, rises = (res.he_claims(result(r)) for r in (-0.5, 0.05, 0.3))
    assert [c.holds for c in falls] == [True, True]
    assert [c.holds for c in flat] == [True, False]  # within the margin, but not below 0
    assert [c.holds for c in rises] == [False, False]
    assert rises[1].evidence == "not tested: the first claim fails"


def test_the_rates_design_s_rates_seeds_and_size_are_the_log_s():
    """Each depth's rate is the tuning run's; the seeds are fresh; n is the smallest in the grid
    at which claim 9 held in at least 80% of the resamples recorded before the run."""
    d, entries = res.HE_RATES_DESIGN, xlog.entries("residual_depth")
    tuning = res.recorded(res.HE_TUNED, purpose="exploration")[1]
    assert tuning.setup.seeds == d.tuning_seeds
    assert res.tuned_rates(tuning) == res.HE_RATES == res.HE_RATES_RUN.rates
    assert res.HE_RATES_RUN.seeds == d.seeds and res.HE_RATES_RUN.fresh_tasks
    confirmed = [
        i for i, e in enumerate(entries) if e["design"] == d.name and e["purpose"] == "confirmation"
    ]
    before = entries[: confirmed[0] if confirmed else len(entries)]
    assert not set(d.seeds) & {s for e in before for s in e["seeds"]}
    power = [e for e in before if e["command"].endswith("he-rates-power --record")]
    assert power[-1]["design"] == d.name and power[-1]["config"]["rates"] == list(res.HE_RATES)
    shares = {int(k[4:]): v for k, v in power[-1]["outcome"].items() if k.startswith("n = ")}
    assert dict(d.power) == {n: tuple(shares[n]) for n, _ in d.power}
    n = len(d.seeds)
    assert shares[n][0] >= 0.8 and all(v[0] < 0.8 for m, v in shares.items() if m < n)


def test_a_run_at_one_rate_per_depth_trains_each_depth_at_its_own_rate():
    s = SMALL._replace(arms=(res.RESIDUAL,), rates=(0.001, 0.002, 0.004))
    found = res.run(s)
    assert found.final_loss.shape == (1, 1, 3, 6, 1)
    for j, (depth, lr) in enumerate(zip(s.depths, s.rates, strict=True)):
        alone = res.run(SMALL._replace(arms=(res.RESIDUAL,), depths=(depth,), lrs=(lr,), lr=lr))
        np.testing.assert_array_equal(found.final_loss[:, :, j], alone.final_loss[:, :, 0])
    with pytest.raises(ValueError, match="one rate per depth"):
        res.run(s._replace(rates=(0.001,)))


def test_the_rates_claims_say_worse_not_worse_or_better_as_the_interval_lies():
    """Claims 9 to 11: worse above the margin, not worse below it, better below 0; 11 only
    after 10."""
    s = res.HE_RATES_RUN._replace(seeds=tuple(range(16)))
    rng = np.random.default_rng(0)
    depths = np.log2(np.asarray(s.depths, dtype=float))  # (depths,)

    def verdicts(rise: float) -> list[bool | str]:
        slope = rise / (depths[-1] - depths[0])
        logs = (
            -2
            + slope * (depths - depths[0])[:, None]
            + 0.01 * rng.standard_normal((len(s.depths), len(s.seeds)))
        )  # (depths, seeds)
        final = 10 ** logs[None, None, :, :, None]  # (arms, rates, depths, seeds, budgets)
        found = res.he_rates_claims(res.Result(s, final, final, np.empty(0), np.empty(0), None))
        return [c.holds for c in found] + [found[2].evidence.startswith("not tested")]

    assert verdicts(0.5) == [True, False, False, True]
    assert verdicts(0.05) == [False, True, False, False]
    assert verdicts(-0.5) == [False, True, True, False]
    assert verdicts(res.HE_MARGIN) == [False, False, False, True]  # at the margin: undecided


def test_the_rates_design_s_power_follows_its_alternatives():
    rises = np.random.default_rng(1).normal(0.5, 0.1, 20)  # far above the margin, tight
    power = res.he_rates_power(rises, [10, 40], draws=40)
    assert power[1, 0] == 1.0  # halfway to the margin is still far above it
    assert power[1, 1] == power[1, 2] == 1.0  # 0 and -margin, at this spread: always decided
    assert power[0, 0] <= power[1, 0]


def test_the_kept_design_s_rates_seeds_and_size_are_the_log_s():
    d, entries = res.KEPT_DESIGN, xlog.entries("residual_depth")
    tuning = res.recorded(res.KEPT_TUNING, purpose="exploration")[1]
    assert tuning.setup.seeds == d.tuning_seeds
    assert res.tuned_rates(tuning, arm=res.PLAIN_KEPT) == res.KEPT_RATES == res.KEPT_RUN.rates
    assert res.KEPT_RUN.seeds == d.seeds and res.KEPT_RUN.fresh_tasks
    confirmed = [
        i for i, e in enumerate(entries) if e["design"] == d.name and e["purpose"] == "confirmation"
    ]
    before = entries[: confirmed[0] if confirmed else len(entries)]
    assert not set(d.seeds) & {s for e in before for s in e["seeds"]}
    assert not set(d.tuning_seeds) & {s for e in before[:-2] for s in e["seeds"]}  # fresh too
    power = [e for e in before if e["command"].endswith("kept-power --record")]
    assert power[-1]["config"]["rates"] == list(res.KEPT_RATES)
    shares = {int(k[4:]): v for k, v in power[-1]["outcome"].items() if k.startswith("n = ")}
    assert dict(d.power) == {n: shares[n] for n, _ in d.power}
    n = len(d.seeds)
    assert shares[n] >= 0.8 and all(v < 0.8 for m, v in shares.items() if m < n)


def test_kept_nets_start_with_their_signal_s_mean_square_and_train_from_there():
    X, y = res.regression_task(32, 4, rng=np.random.default_rng(0))
    growth = res.signal_growth(X, res.PLAIN_KEPT, depth=24, width=8, seeds=[0, 1, 2])
    np.testing.assert_allclose(growth, 1.0, rtol=1e-12)
    assert np.all(res.signal_growth(X, res.PLAIN, depth=24, width=8, seeds=[0, 1, 2]) != 1.0)
    kw = dict(depth=6, width=8, seeds=[0, 1], steps=0, lr=0.01)
    plain = res.train(X, y, arm=res.PLAIN, **kw)
    kept = res.train(X, y, arm=res.PLAIN_KEPT, **kw)
    assert not np.array_equal(plain, kept)  # the rescaling reaches the training


def test_claim_12_holds_for_a_rise_above_the_margin_only():
    s = res.KEPT_RUN._replace(seeds=tuple(range(12)))
    depths = np.log2(np.asarray(s.depths, dtype=float))
    noise = 0.01 * np.random.default_rng(0).standard_normal((len(s.depths), len(s.seeds)))

    def holds(rise: float) -> bool:
        logs = -2 + rise / (depths[-1] - depths[0]) * (depths - depths[0])[:, None] + noise
        final = 10 ** logs[None, None, :, :, None]
        return res.kept_claims(res.Result(s, final, final, np.empty(0), np.empty(0), None))[0].holds

    assert holds(1.0) and not holds(0.05) and not holds(-1.0)


def test_a_claim_a_fixed_sequence_stopped_before_reads_not_tested():
    logs = np.linspace(-3, -1, 5)[:, None] + np.zeros((5, 12))  # (depths, seeds): a steep rise
    final = 10 ** logs[None, None, :, :, None]  # (arms, rates, depths, seeds, budgets)
    s = res.HE_RATES_RUN._replace(seeds=tuple(range(12)))
    found = res.he_rates_claims(res.Result(s, final, final, np.empty(0), np.empty(0), None))
    text = res.claims_markdown(found, numbers=(9, 10, 11))
    assert "**Claim 9** holds" in text and "**Claim 10** **FAILS**" in text
    assert "**Claim 11** not tested" in text
