"""The statistics behind the Reproduce pages' claims, against known cases and scipy.stats."""

import itertools

import numpy as np
import pytest
from scipy import stats

from paperlens.experiments import claims as cl


@pytest.mark.parametrize("n", [1, 2, 5, 10])
def test_signed_rank_null_matches_enumerating_every_sign_pattern(n):
    counts = np.zeros(n * (n + 1) // 2 + 1)
    for signs in itertools.product([0, 1], repeat=n):
        counts[sum(r for r, s in zip(range(1, n + 1), signs, strict=True) if s)] += 1
    np.testing.assert_allclose(cl.signed_rank_null(n), counts / 2**n, rtol=0, atol=1e-15)


def test_hodges_lehmann_uses_the_published_critical_value():
    # Tables of the signed-rank test: n = 12, two-sided 0.05, reject when T <= 13. So the 95%
    # interval cuts 13 Walsh averages from each end: [W_(14), W_(65)] of M = 78.
    d = np.random.default_rng(3).normal(size=12)
    i, j = np.triu_indices(12)
    walsh = np.sort((d[i] + d[j]) / 2)
    hl = cl.hodges_lehmann(d, confidence=0.95)
    assert (hl.low, hl.high) == (walsh[13], walsh[64])
    assert hl.estimate == np.median(walsh)
    assert cl.signed_rank_null(12)[:14].sum() <= 0.025 < cl.signed_rank_null(12)[:15].sum()


def test_too_few_pairs_give_an_unbounded_interval():
    # With 5 pairs the most extreme outcome has probability 2^-5 = 0.031 > 0.01.
    hl = cl.hodges_lehmann(np.arange(1.0, 6.0))
    assert (hl.low, hl.high) == (-np.inf, np.inf)
    assert not cl.paired_equivalent(np.ones(5), np.ones(5) + 1e-9, 10.0, "equal").holds


@pytest.mark.parametrize("seed", range(40))
def test_the_interval_inverts_scipys_exact_one_sided_test(seed):
    # The lower end of the 1 - 2 alpha interval is above 0 exactly when the exact one-sided
    # test of "centre > 0" rejects at alpha; likewise for the upper end below 0.
    rng = np.random.default_rng(seed)
    n = int(rng.integers(7, 25))
    d = rng.standard_t(3, size=n) + rng.uniform(-1.5, 1.5)
    hl = cl.hodges_lehmann(d)
    greater = stats.wilcoxon(d, alternative="greater", method="exact").pvalue
    less = stats.wilcoxon(d, alternative="less", method="exact").pvalue
    assert (hl.low > 0) == (greater <= cl.ALPHA)
    assert (hl.high < 0) == (less <= cl.ALPHA)


def test_the_interval_covers_the_centre_as_often_as_it_says():
    # Symmetric, heavy-tailed differences centred on 0.7; 98% intervals, 4000 samples of 12.
    rng = np.random.default_rng(0)
    d = 0.7 + rng.standard_t(2, size=(4000, 12))
    covered = [(h.low < 0.7 < h.high) for h in map(cl.hodges_lehmann, d)]
    # The exact interval's coverage is 1 - 2 P(T+ <= k), at least 0.98, with k the largest
    # cut allowed; a miss by 4 binomial standard errors (about 0.009 here) is a real error.
    cdf = np.cumsum(cl.signed_rank_null(12))
    nominal = 1 - 2 * cdf[cdf <= 0.01].max()
    assert 0.98 <= nominal < 0.99
    assert abs(np.mean(covered) - nominal) < 4 * np.sqrt(nominal * (1 - nominal) / 4000)


@pytest.mark.parametrize("seed", range(20))
def test_equivalence_is_two_one_sided_signed_rank_tests(seed):
    rng = np.random.default_rng(100 + seed)
    b = rng.normal(size=20)
    a = b + rng.normal(0.05, 0.1, size=20)
    margin = 0.12
    claim = cl.paired_equivalent(a, b, margin, "a and b agree")
    d = a - b
    above = stats.wilcoxon(d + margin, alternative="greater", method="exact").pvalue
    below = stats.wilcoxon(d - margin, alternative="less", method="exact").pvalue
    assert claim.holds == (above <= cl.ALPHA and below <= cl.ALPHA)


def test_equivalence_fails_when_the_margin_is_too_tight():
    rng = np.random.default_rng(1)
    b = rng.normal(size=24)
    a = b + rng.normal(0.0, 0.05, size=24)
    assert cl.paired_equivalent(a, b, 0.1, "within 0.1").holds
    assert not cl.paired_equivalent(a, b, 0.005, "within 0.005").holds
    # A real shift of 0.3 is not "equivalent within 0.1", however many seeds.
    assert not cl.paired_equivalent(a + 0.3, b, 0.1, "within 0.1").holds


def test_paired_greater_reports_the_shift_with_its_interval():
    b = np.random.default_rng(2).normal(size=12)
    claim = cl.paired_greater(b + 1.0, b, "one more")
    assert claim.holds
    assert claim.effect.startswith("Hodges–Lehmann shift 1, 98% interval [1, 1]")
    assert claim.effect in str(claim)


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="margin must be positive"):
        cl.paired_equivalent(np.ones(8), np.ones(8), 0.0, "x")
    with pytest.raises(ValueError, match="confidence"):
        cl.hodges_lehmann(np.ones(8), confidence=1.5)
    with pytest.raises(ValueError, match="finite"):
        cl.hodges_lehmann(np.array([1.0, np.nan]))


# --- The p-value and the interval: one computation -------------------------------------------


def test_a_claim_cannot_contradict_its_own_interval_the_two_cases_a_reviewer_found():
    # Four zero differences among twelve. Dropping the zeros (SciPy's default) gives eight of
    # eight positive, p = 1/256, while the interval keeps them and starts at 0. Here both count
    # a zero against the claim: T+ = 78 - 10 Walsh averages above 0, p = P(T+ <= 10).
    d = np.array([0.0] * 4 + [1.0, 2, 3, 4, 5, 6, 7, 8])
    claim, hl = cl.paired_greater(d, np.zeros(12), "up"), cl.hodges_lehmann(d)
    assert stats.wilcoxon(d, alternative="greater").pvalue == 1 / 256
    assert hl.low == 0 and not claim.holds
    assert claim.evidence == "p = 0.0105" == f"p = {cl.signed_rank_null(12)[:11].sum():.3g}"
    # Sixty pairs. SciPy's default switches to the normal approximation above 50 pairs and
    # gives p = 0.0100022, printed "0.01" beside a FAILS; the exact p-value is 0.0097, and the
    # interval's lower end is above 0.
    d = np.random.default_rng(663).normal(0.3, 1.0, size=60)
    assert stats.wilcoxon(d, alternative="greater").pvalue > cl.ALPHA
    exact = stats.wilcoxon(d, alternative="greater", method="exact").pvalue
    claim, hl = cl.paired_greater(d, np.zeros(60), "up"), cl.hodges_lehmann(d)
    assert claim.holds and hl.low > 0 and claim.evidence == f"p = {exact:.2g}" == "p = 0.0097"


@pytest.mark.parametrize("seed", range(60))
def test_paired_greater_holds_exactly_when_its_interval_clears_0(seed):
    # Any n, with ties and zeros (values rounded to a coarse grid) or without.
    rng = np.random.default_rng(300 + seed)
    n = int(rng.integers(3, 70))
    d = rng.normal(rng.uniform(-0.2, 0.8), 1.0, size=n)
    if seed % 2:
        d = np.round(d * 2) / 2  # ties and zeros
    claim = cl.paired_greater(d, np.zeros(n), "up")
    p = float(claim.evidence.removeprefix("p = "))
    assert claim.holds == (cl.hodges_lehmann(d).low > 0) == (p <= cl.ALPHA)
    if not seed % 2:  # distinct non-zero differences: SciPy's exact test (p printed to 2 digits)
        exact = stats.wilcoxon(d, alternative="greater", method="exact").pvalue
        assert np.isclose(p, exact, rtol=0.05, atol=0)


@pytest.mark.parametrize("seed", range(30))
def test_unpaired_greater_holds_exactly_when_its_interval_clears_0(seed):
    rng = np.random.default_rng(400 + seed)
    m, n = (int(v) for v in rng.integers(3, 16, size=2))
    a, b = rng.normal(rng.uniform(-0.5, 2.0), 1.0, size=m), rng.normal(size=n)
    if seed % 2:
        a, b = np.round(a), np.round(b)  # ties
    claim = cl.unpaired_greater(a, b, "up")
    p = float(claim.evidence.removeprefix("p = "))
    assert claim.holds == (cl.hodges_lehmann_shift(a, b).low > 0) == (p <= cl.ALPHA)
    if not seed % 2:
        exact = stats.mannwhitneyu(a, b, alternative="greater", method="exact").pvalue
        assert np.isclose(p, exact, rtol=0.05, atol=0)


def test_a_p_value_is_printed_on_its_side_of_the_level():
    assert cl._p_text(0.0100022, 0.01, False) == "p = 0.010002"
    assert cl._p_text(0.0097163, 0.01, True) == "p = 0.0097"
    assert cl._p_text(0.0099999, 0.01, True) == "p = 0.0099999"
    assert cl._p_text(0.25, 0.01, False) == "p = 0.25"


# --- What the docstrings say about the assumptions --------------------------------------------


def _pseudo_median():
    """The pseudo-median of D = exp(1.5 Z) - 1: where P((D1 + D2) / 2 <= w) = 1/2."""
    from scipy import integrate, optimize

    def below(w):  # integrate over Z1 the chance that exp(1.5 Z2) <= 2 w + 2 - exp(1.5 Z1)
        s = 2 * w + 2

        def inner(z1):
            return stats.norm.pdf(z1) * stats.norm.cdf(np.log(s - np.exp(1.5 * z1)) / 1.5)

        return integrate.quad(inner, -np.inf, np.log(s) / 1.5)[0]

    return optimize.brentq(lambda w: below(w) - 0.5, 0, 2)


def test_without_symmetry_the_interval_misses_the_pseudo_median_about_twice_too_often():
    # hodges_lehmann: twelve differences exp(1.5 Z) - 1; the 98% interval lies wholly below
    # their pseudo-median "about twice as often as the 0.8% it allows on that side". 100 000
    # samples: the rate's standard error is about 0.0004, so 1.5 and 3 times 0.8% are more than
    # ten standard errors from the true rate (about 0.0185).
    runs = 100_000
    d = np.expm1(1.5 * np.random.default_rng(11).standard_normal((runs, 12)))
    i, j = np.triu_indices(12)
    walsh = np.sort((d[:, i] + d[:, j]) / 2, axis=-1)  # (runs, 78)
    _, k = cl._cut(cl.signed_rank_null(12), cl.ALPHA)
    assert [(h.low, h.high) for h in map(cl.hodges_lehmann, d[:3])] == [
        (w[k], w[-k - 1]) for w in walsh[:3]
    ]  # the vectorised interval is the function's
    allowed = cl.signed_rank_null(12)[: k + 1].sum()  # 0.0081
    rate = np.mean(walsh[:, -k - 1] < _pseudo_median())
    assert 1.5 * allowed < rate < 3 * allowed


def _rank_sum_rejects(a, b):
    """Whether unpaired_greater would hold, for each row of a (runs, m) and b (runs, n)."""
    _, k = cl._cut(cl.rank_sum_null(a.shape[-1], b.shape[-1]), cl.ALPHA)
    wins = np.sum(a[:, :, None] > b[:, None, :], axis=(1, 2))  # (runs,)
    for row in range(3):  # the same decision as the function's
        assert cl.unpaired_greater(a[row], b[row], "").holds == (
            a.shape[1] * b.shape[1] - wins[row] <= k
        )
    return a.shape[1] * b.shape[1] - wins <= k, cl.rank_sum_null(a.shape[-1], b.shape[-1])[
        : k + 1
    ].sum()


def test_the_rank_sum_test_needs_independent_samples_and_a_shift_model():
    # unpaired_greater: twelve pairs of normal values correlated -0.5 within each pair, the
    # same marginals, are rejected "more than twice as often as its level"; equal medians
    # with one spread five times the other "about twice". 40 000 runs each: the rates (about
    # 0.024 and 0.017) lie more than six standard errors inside the bounds checked.
    rng, runs = np.random.default_rng(12), 40_000
    z = rng.standard_normal((2, runs, 12))
    paired = -0.5 * z[0] + np.sqrt(1 - 0.5**2) * z[1]  # correlated -0.5 with z[0]
    rejected, level = _rank_sum_rejects(paired, z[0])
    assert np.mean(rejected) > 2 * level
    a, b = rng.standard_normal((runs, 12)), 5 * rng.standard_normal((runs, 12))
    rejected, level = _rank_sum_rejects(a, b)
    assert 1.5 * level < np.mean(rejected) < 2.5 * level
    # hodges_lehmann_shift: each end of the 98% interval excludes the medians' difference, 0,
    # more often than the 1% it allows (about 1.7% each; the standard error is 0.0007).
    diffs = np.sort((a[:, :, None] - b[:, None, :]).reshape(runs, -1), axis=-1)  # (runs, 144)
    _, k = cl._cut(cl.rank_sum_null(12, 12), cl.ALPHA)
    assert (cl.hodges_lehmann_shift(a[0], b[0]).low, cl.hodges_lehmann_shift(a[0], b[0]).high) == (
        diffs[0, k],
        diffs[0, -k - 1],
    )
    assert np.mean(diffs[:, k] > 0) > 0.01 and np.mean(diffs[:, -k - 1] < 0) > 0.01


# --- A mean over many draws: the bootstrap --------------------------------------------------


def _misses(draw, mean, n, runs, seed):
    """How often the 98% BCa interval of n draws lies wholly above, and wholly below, the mean."""
    rng = np.random.default_rng(seed)
    above = below = 0
    for start in range(0, runs, 500):
        x = draw(rng, (min(500, runs - start), n))  # (rows, n)
        _, low, high = cl._bca_mean(x, confidence=1 - 2 * cl.ALPHA, rng=rng)
        above, below = above + np.sum(low > mean), below + np.sum(high < mean)
    return above / runs, below / runs


def test_the_bootstrap_keeps_its_level_only_with_many_draws():
    # What mean_above's docstring says, with the bound at the true mean. Each check's bound
    # comes from its number of runs. Over 30 fresh seeds the rates were about 0.010 and 0.011
    # per side for Beta at 100 draws (2 000 runs), 0.126 for the lognormal's mean_below (300
    # runs) and 0.052 for both sides at 12 normal draws, varying from seed to seed as binomial
    # rates do. Each lies at least 3.8 of its binomial standard errors (at 5 000 runs for the
    # last) from the bound checked, so a fresh seed fails this about once in 4 000.
    alpha = cl.ALPHA
    skewed = _misses(lambda r, s: r.beta(0.5, 3, s), 0.5 / 3.5, 100, 2000, 0)
    assert max(skewed) < 2 * alpha
    _, heavy = _misses(lambda r, s: r.lognormal(0, 2, s), np.exp(2), 100, 300, 1)
    assert heavy > 5 * alpha
    few = _misses(lambda r, s: r.standard_normal(s), 0.0, 12, 5000, 2)
    assert sum(few) > 2 * (2 * alpha)
    with pytest.raises(ValueError, match="at least MIN_DRAWS = 100"):
        cl.mean_above(np.ones(99), 0.5, "too few")


def test_the_bca_interval_is_scipys():
    # SciPy's BCa interval of the same draws, from 100 000 resamples each: the two differ by
    # resampling alone. An end (a 1% quantile of B resampled means, nearly normal with sd se)
    # varies by about sqrt(0.01 * 0.99 / B) / phi(2.33) = 0.012 se from B = 100 000 resamples,
    # so two of them must agree to 4 * sqrt(2) * 0.012 < 0.07 se. The percentile interval's
    # upper end differs by 0.3 se here: a check this tight tells the two methods apart.
    x = np.random.default_rng(4).lognormal(0.0, 1.0, size=150)
    ours = cl._bca_mean(x, confidence=0.98, rng=np.random.default_rng(5), resamples=100_000)
    theirs = stats.bootstrap(
        (x,), np.mean, confidence_level=0.98, n_resamples=100_000, method="BCa",
        rng=np.random.default_rng(6),
    ).confidence_interval  # fmt: skip
    percentile = stats.bootstrap(
        (x,), np.mean, confidence_level=0.98, n_resamples=100_000, method="percentile",
        rng=np.random.default_rng(6),
    ).confidence_interval  # fmt: skip
    se = x.std(ddof=1) / np.sqrt(x.size)
    assert abs(ours[1] - theirs.low) < 0.07 * se and abs(ours[2] - theirs.high) < 0.07 * se
    assert abs(percentile.high - theirs.high) > 0.2 * se
    claim = cl.mean_above(x, 1.0, "above 1", seed=5)
    assert claim.evidence.startswith(f"mean {x.mean():.3g}, 98% interval")


# --- The experiment log ------------------------------------------------------------------------

from paperlens.experiments import log as xlog  # noqa: E402


def _entry(folder, design, purpose, status, seeds):
    return xlog.record(
        "demo", design=design, purpose=purpose, status=status, config={"lr": np.float64(0.5)},
        seeds=seeds, command="pytest", outcome={"median": np.float64(1.25)}, folder=folder,
    )  # fmt: skip


def test_the_log_round_trips_with_its_provenance(tmp_path):
    first = _entry(tmp_path, "v1", "exploration", "abandoned", range(5))
    assert xlog.entries("demo", folder=tmp_path) == [first]
    assert first["config"] == {"lr": 0.5} and first["seeds"] == [0, 1, 2, 3, 4]
    assert first["provenance"]["library_sha256"] == xlog.source_hash()
    assert first["provenance"]["numpy"] == np.__version__
    assert "0–4 (5)" in xlog.markdown([first])


def test_a_reconstructed_entry_says_what_computed_it_apart_from_what_recorded_it(tmp_path):
    by = {"commit": "0" * 40, "library_sha256": "1" * 64, "how": "a scratch script"}
    entry = xlog.record(
        "demo", design="v0", purpose="exploration", status="abandoned", config={}, seeds=[1],
        command="pytest", outcome={}, computed_by=by, folder=tmp_path,
    )  # fmt: skip
    assert entry["computed_by"] == by
    assert entry["provenance"]["library_sha256"] == xlog.source_hash()  # the recorder's
    assert "computed_by" not in _entry(tmp_path, "v1", "exploration", "explored", [2])
    # The ResNet log's reconstructed entries say so (review 2026-12-06-reproduce, G1).
    shipped = xlog.entries("residual_depth")
    assert [i for i, e in enumerate(shipped, 1) if "computed_by" in e] == [
        1,
        2,
        3,
        4,
        5,
        6,
        8,
        13,
        15,
        25,  # recorded before the design's commit: their recorder's source matches no commit
        28,
    ]
    assert shipped[0]["computed_by"]["library_sha256"] != shipped[0]["provenance"]["library_sha256"]


def test_the_audit_catches_confirmation_on_seeds_a_design_saw(tmp_path):
    _entry(tmp_path, "v1", "exploration", "abandoned", range(12))
    _entry(tmp_path, "v2", "confirmation", "adopted", range(10, 22))
    problems = xlog.audit(xlog.entries("demo", folder=tmp_path))
    assert len(problems) == 1 and "seeds already used: 10 (entry 1, v1)" in problems[0]


def test_the_audit_counts_every_confirmation_whatever_its_status(tmp_path):
    # Five designs confirmed on fresh seeds, the best kept and four relabelled "abandoned": the
    # design was chosen on confirmation seeds, and the audit says so unless all are disclosed.
    for k in range(5):
        status = "adopted" if k == 2 else "abandoned"
        _entry(tmp_path, f"v{k}", "confirmation", status, range(100 * k, 100 * k + 12))
    log = xlog.entries("demo", folder=tmp_path)
    (problem,) = xlog.audit(log)
    assert problem.startswith("5 designs confirmed where the page discloses 1: v0 (abandoned)")
    assert xlog.audit(log, confirmations=5) == []
    assert xlog.audit([]) == ["0 designs confirmed where the page discloses 1: none"]


def test_a_rerun_of_a_confirmation_is_not_a_reuse_of_its_seeds(tmp_path):
    _entry(tmp_path, "v1", "exploration", "abandoned", range(12))
    _entry(tmp_path, "v2", "confirmation", "adopted", range(100, 112))
    _entry(tmp_path, "v2", "confirmation", "adopted", range(100, 112))  # make claims, again
    _entry(tmp_path, "v2", "confirmation", "adopted", range(200, 232))  # its full sweeps
    assert xlog.audit(xlog.entries("demo", folder=tmp_path)) == []
    changed = xlog.record(
        "demo", design="v2", purpose="confirmation", status="adopted", config={"lr": 0.25},
        seeds=range(100, 112), command="pytest", outcome={}, folder=tmp_path,
    )  # fmt: skip
    assert changed["config"] != {"lr": 0.5}
    problems = xlog.audit(xlog.entries("demo", folder=tmp_path))
    assert len(problems) == 1 and "entry 5 (v2) confirms on seeds already used: 100" in problems[0]


def test_a_confirmation_that_failed_then_passed_on_its_seeds_is_no_rerun(tmp_path):
    # Same design name, seeds and config: only the claim's margin was edited after it failed.
    def confirm(margin, holds):
        claim = {"statement": f"equivalent within ±{margin}", "holds": holds}
        return dict(design="v1", purpose="confirmation", status="adopted", seeds=range(12),
                    config={"lr": 0.5}, outcome={"claims": [claim]})  # fmt: skip

    assert xlog.audit([confirm(0.5, False), confirm(0.5, False)]) == []  # a rerun
    (problem,) = xlog.audit([confirm(0.5, False), confirm(0.8, True)])
    assert "entry 2 (v1) confirms on seeds already used: 0 (entry 1, v1)" in problem


def test_a_damaged_log_is_reported_by_line(tmp_path):
    _entry(tmp_path, "v1", "exploration", "explored", range(3))
    with (tmp_path / "demo.jsonl").open("a") as f:
        f.write('{"experiment": "demo"}\n')
    with pytest.raises(ValueError, match="line 2: the entry lacks date"):
        xlog.entries("demo", folder=tmp_path)
    with pytest.raises(ValueError, match="purpose must be one of"):
        _entry(tmp_path, "v1", "confirmatory", "adopted", range(3))


# --- Two independent samples: the rank-sum test and its shift -----------------------------------


@pytest.mark.parametrize(("m", "n"), [(1, 1), (2, 3), (4, 4), (5, 3), (3, 6)])
def test_rank_sum_null_matches_enumerating_every_ordering(m, n):
    # Which m of the m + n ranked positions hold a's values: each choice equally likely.
    counts = np.zeros(m * n + 1)
    for where in itertools.combinations(range(m + n), m):
        # a's value at position p beats the b values below it: p minus the a values below it.
        counts[sum(p - i for i, p in enumerate(where))] += 1
    np.testing.assert_allclose(cl.rank_sum_null(m, n), counts / counts.sum(), rtol=0, atol=1e-15)


@pytest.mark.parametrize("seed", range(30))
def test_the_shift_interval_inverts_scipys_exact_rank_sum_test(seed):
    rng = np.random.default_rng(200 + seed)
    m, n = (int(v) for v in rng.integers(5, 16, size=2))
    a = rng.standard_t(3, size=m) + rng.uniform(-1.5, 2.5)
    b = rng.standard_t(3, size=n)
    hl = cl.hodges_lehmann_shift(a, b)
    greater = stats.mannwhitneyu(a, b, alternative="greater", method="exact").pvalue
    less = stats.mannwhitneyu(a, b, alternative="less", method="exact").pvalue
    assert (hl.low > 0) == (greater <= cl.ALPHA)
    assert (hl.high < 0) == (less <= cl.ALPHA)
    assert hl.estimate == np.median(np.subtract.outer(a, b))


def test_the_shift_interval_covers_the_shift_as_often_as_it_says():
    # A shift model with a skewed shape: 3000 pairs of samples of 12 and 10, shifted by 0.4.
    rng = np.random.default_rng(5)
    a = 0.4 + rng.exponential(size=(3000, 12))
    b = rng.exponential(size=(3000, 10))
    covered = [(h.low < 0.4 < h.high) for h in map(cl.hodges_lehmann_shift, a, b)]
    cdf = np.cumsum(cl.rank_sum_null(12, 10))
    nominal = 1 - 2 * cdf[cdf <= 0.01].max()  # the exact coverage, at least 0.98
    assert 0.98 <= nominal < 0.99
    assert abs(np.mean(covered) - nominal) < 4 * np.sqrt(nominal * (1 - nominal) / 3000)


def test_unpaired_greater_reaches_the_floor_of_five_against_five():
    claim = cl.unpaired_greater(np.arange(5.0) + 10, np.arange(5.0), "separated")
    assert claim.holds and claim.evidence == f"p = {1 / 252:.2g}"
    assert "25 of 25 cross pairs agree" in claim.test
    assert claim.effect.startswith("Hodges–Lehmann shift 10, 98% interval [7, 13]")
    # One swap at the boundary: 2 of 252 orderings are this extreme or more, still below 0.01.
    swapped = cl.unpaired_greater(np.array([3.5, 11, 12, 13, 14]), np.arange(5.0), "one swap")
    assert swapped.holds and swapped.evidence == f"p = {2 / 252:.2g}"


def test_unpaired_greater_does_not_hold_for_one_distribution_and_copes_with_ties():
    rng = np.random.default_rng(7)
    same = [cl.unpaired_greater(*rng.normal(size=(2, 12)), "no difference") for _ in range(200)]
    assert sum(c.holds for c in same) <= 10  # about 2 expected at level 0.01
    tied = cl.unpaired_greater(np.array([1.0, 2, 2, 3, 9, 9]), np.array([1.0, 1, 2, 0]), "ties")
    assert np.isfinite(float(tied.evidence.removeprefix("p = ")))


# --- What the docstrings say ----------------------------------------------------------------


@pytest.mark.parametrize("contrary_rank", range(1, 13))
def test_at_twelve_pairs_one_contrary_pair_fails_only_among_the_three_largest(contrary_rank):
    # paired_greater's docstring: at n = 12 and level 0.01, one contrary pair is tolerated
    # unless its difference is among the three largest in size (ranks 10, 11, 12).
    d = np.arange(1.0, 13.0)
    d[contrary_rank - 1] *= -1
    claim = cl.paired_greater(d, np.zeros(12), "up")
    assert claim.holds == (contrary_rank <= 9)


def test_the_module_source_holds_no_control_characters():
    # A backslash escape in a docstring that is not raw (\a in \alpha, \t in \text) becomes a
    # control character that renders as garbage in the API page.
    import inspect
    import re

    source = inspect.getsource(cl)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", source)
