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


def test_the_audit_catches_confirmation_on_seeds_a_design_saw(tmp_path):
    _entry(tmp_path, "v1", "exploration", "abandoned", range(12))
    _entry(tmp_path, "v2", "confirmation", "adopted", range(10, 22))
    problems = xlog.audit(xlog.entries("demo", folder=tmp_path))
    assert len(problems) == 1 and "seeds already used: 10 (entry 1, v1)" in problems[0]


def test_the_audit_catches_two_confirmed_designs(tmp_path):
    _entry(tmp_path, "v1", "confirmation", "adopted", range(12))
    _entry(tmp_path, "v2", "confirmation", "adopted", range(100, 112))
    assert xlog.audit(xlog.entries("demo", folder=tmp_path)) == [
        "2 designs confirmed and adopted: v1, v2"
    ]


def test_a_damaged_log_is_reported_by_line(tmp_path):
    _entry(tmp_path, "v1", "exploration", "explored", range(3))
    with (tmp_path / "demo.jsonl").open("a") as f:
        f.write('{"experiment": "demo"}\n')
    with pytest.raises(ValueError, match="line 2: the entry lacks date"):
        xlog.entries("demo", folder=tmp_path)
    with pytest.raises(ValueError, match="purpose must be one of"):
        _entry(tmp_path, "v1", "confirmatory", "adopted", range(3))
