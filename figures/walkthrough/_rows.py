"""Random queries and keys as footnote 4 draws them (every entry N(0, 1)), for the Walkthrough's
figures: many rows of scores, and the typical query of a few hundred."""

import numpy as np

import paperlens as pl


def random_rows(d_k, n_k, n, rng):
    """n rows of unscaled scores q · k_j, each a fresh query against its own n_k fresh keys:
    shape (n, n_k).

    Drawn without the d_k-long vectors, so the cost does not grow with d_k: given q, each score
    q · k_j = Σ_i q_i k_ji is a sum of independent normals N(0, q_i²), so it is N(0, ‖q‖²),
    independently for each key; and ‖q‖² is a chi-square with d_k degrees of freedom. The
    rows have exactly the distribution of rows drawn from q and K.
    """
    norm_q = np.sqrt(rng.chisquare(d_k, size=(n, 1)))  # (n, 1): ‖q‖ of each row's query
    return norm_q * rng.standard_normal((n, n_k))  # (n, n_k)


def saturated_share(rows, c=1.0):
    """The share of rows whose largest softmax weight, after dividing by c, is above 0.99."""
    return float(np.mean(pl.softmax(rows / c).max(axis=-1) > 0.99))


def typical_query(d_k, n_k, rng, *, draws=201, scale=1.0):
    """The typical of ``draws`` random queries, each with its own n_k keys: the one whose
    largest weight, with the scores multiplied by ``scale``, is the median. Returns (q, K),
    shapes (d_k,) and (n_k, d_k)."""
    q = rng.standard_normal((draws, 1, d_k))  # (draws, 1, d_k)
    K = rng.standard_normal((draws, n_k, d_k))  # (draws, n_k, d_k)
    top = pl.softmax(scale * np.sum(q * K, axis=-1)).max(axis=-1)  # (draws,)
    median = np.argsort(top)[draws // 2]
    return q[median, 0], K[median]
