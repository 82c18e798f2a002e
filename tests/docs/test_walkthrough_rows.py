"""The Walkthrough figures draw rows of scores through a shortcut (`_rows.random_rows`): given
the query, each score is N(0, ‖q‖²). It must give the rows the pages draw from q and K."""

import sys

import numpy as np

import paperlens as pl
from sitekit.paths import ROOT

sys.path.insert(0, str(ROOT / "figures" / "walkthrough"))
import _rows  # noqa: E402


def direct_rows(d_k, n_k, n, rng):
    q = rng.standard_normal((n, 1, d_k))
    K = rng.standard_normal((n, n_k, d_k))
    return np.sum(q * K, axis=-1)


def test_the_shortcut_draws_the_same_rows_as_q_and_k():
    """The share of saturated rows and the rows' spread agree within 4 standard errors."""
    rng = np.random.default_rng(2024)
    n = 4000
    for d_k, n_k in ((16, 4), (64, 16)):
        fast, slow = _rows.random_rows(d_k, n_k, n, rng), direct_rows(d_k, n_k, n, rng)
        assert fast.shape == slow.shape == (n, n_k)
        p, q = _rows.saturated_share(fast), _rows.saturated_share(slow)
        se = np.sqrt(p * (1 - p) / n + q * (1 - q) / n)
        assert abs(p - q) < 4 * se
        assert p > 0.05  # a share that can differ
        spread_fast, spread_slow = fast.std(axis=1), slow.std(axis=1)  # (n,) per row
        se = np.hypot(spread_fast.std(), spread_slow.std()) / np.sqrt(n)
        assert abs(spread_fast.mean() - spread_slow.mean()) < 4 * se


def test_the_typical_query_is_the_median():
    q, K = _rows.typical_query(64, 16, np.random.default_rng(3), draws=11)
    assert q.shape == (64,) and K.shape == (16, 64)
    again = np.random.default_rng(3)  # the same 11 draws, the same arithmetic
    all_q, all_K = again.standard_normal((11, 1, 64)), again.standard_normal((11, 16, 64))
    tops = pl.softmax(np.sum(all_q * all_K, axis=-1)).max(axis=-1)  # (11,)
    assert pl.softmax(np.sum(q * K, axis=-1)).max() == np.median(tops)
