"""Tests for paperlens.variance: sampled attention scores and the variance's standard error."""

import numpy as np
import pytest

from paperlens import sample_scores, sample_variance_stderr, score_fourth_moment, score_variance

N = 40_000


@pytest.mark.parametrize(("d_k", "scale"), [(1, 1.0), (16, 1.0), (64, 1 / 8), (32, 3.0)])
def test_variance_is_scale_squared_times_dk(d_k, scale):
    scores = sample_scores(d_k, N, rng=np.random.default_rng(d_k), scale=scale)
    assert scores.shape == (N,)
    assert scores.dtype == np.float64
    sigma2 = scale**2 * d_k
    se = np.sqrt((score_fourth_moment(d_k, scale=scale) - sigma2**2) / N)
    assert abs(np.var(scores, ddof=1) - sigma2) < 4 * se
    assert abs(scores.mean()) < 4 * np.sqrt(sigma2 / N)


@pytest.mark.parametrize(("d_k", "scale"), [(1, 1.0), (8, 1.0), (64, 1 / 8), (5, 2.0)])
def test_fourth_moment_formula_against_sampling(d_k, scale):
    scores = sample_scores(d_k, 200_000, rng=np.random.default_rng(1000 + d_k), scale=scale)
    m4 = np.mean(scores**4)
    # the standard error of a sample mean of s^4, from the samples themselves
    se = np.std(scores**4) / np.sqrt(scores.size)
    assert abs(m4 - score_fourth_moment(d_k, scale=scale)) < 5 * se


def test_fourth_moment_values():
    assert score_fourth_moment(1) == 9.0  # E[q^4] E[k^4]
    assert score_fourth_moment(2) == 24.0  # 3 * 4 + 6 * 2
    assert score_fourth_moment(4, scale=0.5) == pytest.approx((3 * 16 + 24) / 16)


def test_score_variance_is_the_sample_variance():
    rng_a, rng_b = np.random.default_rng(7), np.random.default_rng(7)
    expected = np.var(sample_scores(8, 500, rng=rng_a, scale=0.5), ddof=1)
    assert score_variance(8, 500, rng=rng_b, scale=0.5) == pytest.approx(expected, rel=1e-15)


def test_same_seed_same_scores():
    a = sample_scores(4, 10, rng=np.random.default_rng(3))
    b = sample_scores(4, 10, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(a, b)


def test_stderr_matches_theory_for_scores():
    d_k = 64
    scores = sample_scores(d_k, N, rng=np.random.default_rng(11))
    theory = np.sqrt((2 * d_k**2 + 6 * d_k) / N)
    assert sample_variance_stderr(scores) == pytest.approx(theory, rel=0.1)


def test_stderr_predicts_the_spread_of_sample_variances():
    rng = np.random.default_rng(12)
    samples = rng.standard_normal((2000, 100))  # normal: Var(s^2) ~ 2 sigma^4 / n
    spread = np.std(np.var(samples, axis=1, ddof=1))
    estimates = [sample_variance_stderr(row) for row in samples[:200]]
    assert np.mean(estimates) == pytest.approx(np.sqrt(2 / 100), rel=0.1)
    assert spread == pytest.approx(np.sqrt(2 / 100), rel=0.1)


def test_stderr_of_constant_samples_is_zero():
    assert sample_variance_stderr([3.0, 3.0, 3.0]) == 0.0


@pytest.mark.parametrize(
    ("samples", "error", "message"),
    [
        ([1.0], ValueError, r"samples must be 1-D with at least 2 entries, got shape \(1,\)"),
        (np.ones((2, 2)), ValueError, r"samples must be 1-D .* got shape \(2, 2\)"),
        ([1.0, np.inf], ValueError, "samples must be finite but has 0 NaN and 1 infinite"),
        (["a", "b"], TypeError, "samples must hold real numbers"),
    ],
)
def test_stderr_bad_samples(samples, error, message):
    with pytest.raises(error, match=message):
        sample_variance_stderr(samples)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"d_k": 0, "n": 5}, ValueError, "d_k must be at least 1, got 0"),
        ({"d_k": 2.0, "n": 5}, TypeError, "d_k must be an integer, got 2.0"),
        ({"d_k": 2, "n": -1}, ValueError, "n must be at least 1, got -1"),
        ({"d_k": 2, "n": 5, "scale": np.inf}, ValueError, "scale must be finite"),
        ({"d_k": 2, "n": 5, "rng": 0}, TypeError, "rng must be a numpy.random.Generator"),
        ({"d_k": 2, "n": 5, "rng": None}, TypeError, "got NoneType"),
    ],
)
def test_sample_scores_bad_arguments(kwargs, error, message):
    kwargs = {"rng": np.random.default_rng(0), **kwargs}
    with pytest.raises(error, match=message):
        sample_scores(**kwargs)


def test_score_variance_needs_two_samples():
    with pytest.raises(ValueError, match="n must be at least 2, got 1"):
        score_variance(4, 1, rng=np.random.default_rng(0))
