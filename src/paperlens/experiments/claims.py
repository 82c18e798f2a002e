r"""Claims across seeds: a statement, the test that decides it, and the evidence it printed.

One training run proves little: its result depends on the seed, and for a chaotic run even on
the last bits of its arithmetic, which differ between CPUs. So every experimental claim on the
site is a statistical statement over many seeds, decided by a test from `scipy.stats` at a
level stated in advance, and it holds or fails as a whole; no single seed decides it.

- `paired_greater`: "a is larger than b" for paired samples (one pair per seed), by a
  one-sided Wilcoxon signed-rank test, with the Hodges–Lehmann estimate of the shift.
- `paired_equivalent`: "a and b are equivalent within a margin", by two one-sided signed-rank
  tests (TOST): the Hodges–Lehmann interval must lie inside the margin.
- `hodges_lehmann`: the effect size behind both, with its exact confidence interval.
- `mean_above`, `mean_below`: "the mean of x is above (below) a bound", by a bootstrap
  confidence interval.
- `band_power`: how often a "within k standard errors" check catches an error of a given
  size.
- `perturb`: multiply starting values by $1 + \varepsilon z$, $z \sim N(0, 1)$, with
  $\varepsilon = 10^{-12}$: a change in the last bits, as another CPU's rounding makes one.

Examples:
    >>> import numpy as np
    >>> from paperlens.experiments.claims import paired_greater
    >>> rng = np.random.default_rng(0)
    >>> before = rng.normal(size=12)
    >>> claim = paired_greater(before + 1.0, before, "adding 1 makes it larger")
    >>> claim.holds, claim.n
    (True, 12)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from paperlens._checks import FloatArray, as_real_array

ALPHA = 0.01
"""The level every claim is tested at, one-sided: p < 0.01, or the matching end of a 98%
two-sided confidence interval."""
JITTER = 1e-12
"""The relative size of `perturb`'s change: about 4 500 times float64's last bit (2.2e-16).

That is deliberately larger than what another CPU's rounding does to one matrix product (a few
parts in 10^16), and it is applied once, to the starting values, where another CPU's rounding
differs at every step. For a chaotic run it makes no difference how small the first change is:
either way the runs part company."""


class Claim(NamedTuple):
    """One claim and its evidence."""

    statement: str
    """What is claimed, in words."""
    test: str
    """The test or interval that decides it, and its sample size."""
    n: int
    """Independent samples (seeds or trials) behind it."""
    evidence: str
    """The p-value or interval, as printed."""
    holds: bool
    """Whether the evidence supports the statement at level `ALPHA`."""
    effect: str = ""
    """The size of the effect, with its interval, as printed (empty if the test gives none)."""

    def __str__(self) -> str:
        verdict = "holds" if self.holds else "FAILS"
        effect = f"; {self.effect}" if self.effect else ""
        return f"{verdict}: {self.statement} ({self.test}, n = {self.n}: {self.evidence}{effect})"


def _pairs(a: FloatArray, b: FloatArray) -> tuple[FloatArray, FloatArray]:
    a, b = as_real_array(a, "a").ravel(), as_real_array(b, "b").ravel()
    if a.shape != b.shape:
        raise ValueError(f"a and b must pair up, got {a.size} and {b.size} values")
    return a, b


class Interval(NamedTuple):
    """An estimate with the ends of its confidence interval."""

    estimate: float
    low: float
    high: float
    confidence: float
    """The interval's two-sided coverage, e.g. 0.98."""

    def __str__(self) -> str:
        return (
            f"{self.estimate:.3g}, {100 * self.confidence:g}% interval "
            f"[{self.low:.3g}, {self.high:.3g}]"
        )


def signed_rank_null(n: int) -> FloatArray:
    r"""The exact null distribution of Wilcoxon's signed-rank statistic $T^+$ for n pairs.

    Under the null hypothesis (differences continuous and symmetric about 0) each rank
    $1, \dots, n$ joins $T^+$ with probability 1/2, independently.

    Args:
        n: the number of non-zero differences, ≥ 1.

    Returns:
        $P(T^+ = t)$ for $t = 0, \dots, n(n+1)/2$, shape ``(n(n+1)/2 + 1,)``.

    Examples:
        >>> from paperlens.experiments.claims import signed_rank_null
        >>> p = signed_rank_null(3)  # T+ is 0, 1, 2, 3 (twice: {3} and {1, 2}), 4, 5, 6
        >>> (p * 8).astype(int).tolist()
        [1, 1, 1, 2, 1, 1, 1]
    """
    if n < 1:
        raise ValueError(f"need at least one difference, got n = {n}")
    p = np.zeros(n * (n + 1) // 2 + 1)
    p[0] = 1.0
    for rank in range(1, n + 1):  # add rank r with probability 1/2
        p[rank:] = 0.5 * p[rank:] + 0.5 * p[:-rank].copy()
        p[:rank] *= 0.5
    return p


def hodges_lehmann(d: FloatArray, *, confidence: float = 1 - 2 * ALPHA) -> Interval:
    r"""The Hodges–Lehmann estimate of the centre of ``d``, with its exact interval.

    The estimate is the median of the $n(n+1)/2$ Walsh averages $(d_i + d_j)/2$, $i \le j$:
    the shift that the signed-rank test finds most central. The interval inverts that test:
    it is $[W_{(k+1)}, W_{(M-k)}]$ of the sorted Walsh averages, $M = n(n+1)/2$, with $k$ the
    largest count for which $P(T^+ \le k) \le (1 - \text{confidence})/2$ under the exact null
    (`signed_rank_null`). It assumes what the signed-rank test assumes: independent
    differences, continuous and **symmetric about their centre** $\theta$ (then $\theta$ is
    also their median; without symmetry the estimate is the pseudo-median, not the median).
    Coverage is exact for continuous data and approximate with ties.

    For paired runs pass ``d = a - b``; for ratios, ``d = log(a) - log(b)``.

    Args:
        d: the differences, shape ``(n,)``.
        confidence: the interval's two-sided coverage. The default, ``1 - 2 * ALPHA``, matches
            a one-sided test at the site's level: its lower end is above 0 exactly when the
            one-sided exact signed-rank test of "θ > 0" has p ≤ ALPHA.

    Returns:
        The `Interval`. Its ends are infinite when n is too small for the confidence asked.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.claims import hodges_lehmann
        >>> hl = hodges_lehmann(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]))
        >>> hl.estimate, hl.low, hl.high
        (4.5, 1.5, 7.5)
    """
    d = as_real_array(d, "d").ravel()
    if d.size < 1 or not np.isfinite(d).all():
        raise ValueError(f"d must hold at least one value, all finite, got {d}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    i, j = np.triu_indices(d.size)  # every pair i <= j
    walsh = np.sort((d[i] + d[j]) / 2)  # (M,)
    cdf = np.cumsum(signed_rank_null(d.size))  # P(T+ <= t)
    # k = the largest t with P(T+ <= t) <= (1 - confidence) / 2 (the tolerance absorbs the
    # DP's rounding); the interval cuts k Walsh averages from each end. None such: unbounded.
    k = int(np.searchsorted(cdf, (1 - confidence) / 2 * (1 + 1e-9), side="right")) - 1
    low, high = (float(walsh[k]), float(walsh[-k - 1])) if k >= 0 else (-np.inf, np.inf)
    return Interval(float(np.median(walsh)), low, high, confidence)


def paired_greater(a: FloatArray, b: FloatArray, statement: str, *, alpha: float = ALPHA) -> Claim:
    r"""Claim that ``a`` is larger than ``b``, pair by pair, by a one-sided Wilcoxon test.

    The test ranks the differences $a_i - b_i$ by their absolute size and asks whether the
    positive ones carry more of the rank than chance would give them, if the differences were
    symmetric about 0. With n pairs the smallest possible p-value is $2^{-n}$ (every difference
    positive), so p < 0.01 needs n ≥ 7. At n = 12 a contrary pair is tolerated only if its
    difference is small: one contrary pair among the largest differences fails the claim.

    Args:
        a: one value per seed, shape ``(n,)``.
        b: the paired values, shape ``(n,)``.
        statement: what "a > b" means, in words.
        alpha: the test's level.

    Returns:
        The `Claim`, with the p-value as its evidence.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.claims import paired_greater
        >>> claim = paired_greater(np.arange(8.0) + 0.5, np.arange(8.0), "a beats b")
        >>> claim.evidence, claim.holds
        ('p = 0.0039', True)
    """
    a, b = _pairs(a, b)
    p = float(stats.wilcoxon(a, b, alternative="greater").pvalue)
    test = f"one-sided Wilcoxon signed-rank test, {int(np.sum(a > b))} of {a.size} pairs agree"
    effect = f"Hodges–Lehmann shift {hodges_lehmann(a - b, confidence=1 - 2 * alpha)}"
    return Claim(statement, test, a.size, f"p = {p:.2g}", p < alpha, effect)


def paired_equivalent(
    a: FloatArray, b: FloatArray, margin: float, statement: str, *, alpha: float = ALPHA
) -> Claim:
    r"""Claim that ``a`` and ``b`` are equivalent: their shift lies within ``±margin``.

    Two one-sided tests (TOST) at level ``alpha``, each a signed-rank test: "the shift is
    above −margin" and "the shift is below +margin". Both reject exactly when the
    Hodges–Lehmann interval of $a_i - b_i$ at coverage $1 - 2lpha$ lies strictly inside
    $(-	ext{margin}, 	ext{margin})$, which is how it is computed here. The margin must be
    fixed before the data are seen; failing to show a difference is not evidence of
    equivalence, and this claim fails when the data are too few or too noisy to pin the shift
    inside the margin.

    Args:
        a: one value per seed, shape ``(n,)``.
        b: the paired values, shape ``(n,)``.
        margin: the largest shift that still counts as "the same", > 0, in the units of a - b.
        statement: what "a ≈ b" means, in words.
        alpha: the level of each one-sided test.

    Returns:
        The `Claim`, with the interval as its evidence.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.claims import paired_equivalent
        >>> rng = np.random.default_rng(0)
        >>> b = rng.normal(size=30)
        >>> a = b + rng.normal(scale=0.01, size=30)  # a tiny difference, noisy
        >>> paired_equivalent(a, b, 0.05, "a and b agree within 0.05").holds
        True
        >>> paired_equivalent(a, b, 0.001, "a and b agree within 0.001").holds
        False
    """
    a, b = _pairs(a, b)
    if not margin > 0:
        raise ValueError(f"margin must be positive, got {margin}")
    hl = hodges_lehmann(a - b, confidence=1 - 2 * alpha)
    test = f"two one-sided signed-rank tests (TOST) at {alpha:g}, margin ±{margin:.3g}"
    holds = -margin < hl.low and hl.high < margin
    return Claim(statement, test, a.size, f"Hodges–Lehmann shift {hl}", holds)


def _mean_vs(
    x: FloatArray, bound: float, statement: str, *, above: bool, alpha: float, seed: int
) -> Claim:
    x = as_real_array(x, "x").ravel()
    # The claim is one-sided at level alpha: one end of a two-sided 1 - 2 alpha interval.
    interval = stats.bootstrap(
        (x,),
        np.mean,
        confidence_level=1 - 2 * alpha,
        n_resamples=9999,
        method="percentile",
        rng=np.random.default_rng(seed),
    ).confidence_interval
    low, high = float(interval.low), float(interval.high)
    side = "above" if above else "below"
    level = f"{100 * (1 - 2 * alpha):g}%"
    ci = f"{level} interval of the mean [{low:.3g}, {high:.3g}], {side} {bound:.3g}"
    holds = low > bound if above else high < bound
    return Claim(statement, "percentile bootstrap", x.size, ci, holds)


def mean_above(
    x: FloatArray, bound: float, statement: str, *, alpha: float = ALPHA, seed: int = 0
) -> Claim:
    """Claim that the mean of ``x`` is above ``bound``, one-sided at ``alpha``.

    It holds if the lower end of the two-sided ``1 - 2 alpha`` percentile bootstrap interval
    (98% for the site's level 0.01) lies above ``bound``.

    Args:
        x: independent samples, shape ``(n,)``.
        bound: the value the mean must exceed.
        statement: the claim in words.
        alpha: the claim's level.
        seed: seeds the bootstrap's resampling.

    Returns:
        The `Claim`, with the percentile bootstrap interval of the mean as its evidence.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.claims import mean_above
        >>> x = np.random.default_rng(0).normal(1.0, 0.1, size=200)
        >>> mean_above(x, 0.9, "the mean is above 0.9").holds
        True
    """
    return _mean_vs(x, bound, statement, above=True, alpha=alpha, seed=seed)


def mean_below(
    x: FloatArray, bound: float, statement: str, *, alpha: float = ALPHA, seed: int = 0
) -> Claim:
    """Claim that the mean of ``x`` is below ``bound``, one-sided at ``alpha`` (see `mean_above`).

    Args:
        x: independent samples, shape ``(n,)``.
        bound: the value the mean must stay under.
        statement: the claim in words.
        alpha: the claim's level.
        seed: seeds the bootstrap's resampling.

    Returns:
        The `Claim`, with the percentile bootstrap interval of the mean as its evidence.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.claims import mean_below
        >>> x = np.random.default_rng(0).normal(1.0, 0.1, size=200)
        >>> mean_below(x, 0.9, "the mean is below 0.9").holds
        False
    """
    return _mean_vs(x, bound, statement, above=False, alpha=alpha, seed=seed)


def band_power(error: ArrayLike, *, k: float = 4.0) -> FloatArray:
    r"""How often a check "within k standard errors" catches an error of a given size.

    A page checks a sampled estimate $\hat\theta$ of an expected value $\theta$ by
    $|\hat\theta - \theta| < k \cdot \mathrm{SE}$. If the code is wrong by $\delta$ standard
    errors, $\hat\theta$ is near-normal around $\theta + \delta\,\mathrm{SE}$, and the check
    fails (catches the error) with probability

    $$P(|Z + \delta| > k) = \Phi(\delta - k) + \Phi(-\delta - k), \qquad Z \sim N(0, 1).$$

    At $\delta = 0$ that is the false-alarm rate; at $\delta = k$ it is one half.

    Args:
        error: the error δ in standard errors, any shape.
        k: the band's half-width in standard errors.

    Returns:
        The probability of catching it, the shape of ``error``.

    Examples:
        >>> from paperlens.experiments.claims import band_power
        >>> print(f"{float(band_power(4.0)):.3f}")
        0.500
    """
    delta = as_real_array(error, "error")
    return np.asarray(stats.norm.cdf(delta - k) + stats.norm.cdf(-delta - k))


class Perturbation(NamedTuple):
    """A change in the last bits of an experiment's starting values (see `perturb`)."""

    seed: int
    """Seeds the random factors."""
    size: float = JITTER
    """The relative change ε."""


def perturb(arrays: Sequence[FloatArray], perturbation: Perturbation | None) -> list[FloatArray]:
    r"""Multiply each array by $1 + \varepsilon z$ with $z \sim N(0, 1)$ drawn per entry.

    With ε = 1e-12 each starting value moves by a few thousand times float64's last bit (see
    `JITTER`). A chaotic run amplifies any such change, as it amplifies another CPU's rounding,
    so a claim that survives several of them does not hang on the machine that ran it.

    Args:
        arrays: the starting values (weights, or random inputs), any shapes.
        perturbation: the seed and size, or None to return the arrays unchanged.

    Returns:
        The perturbed arrays, in order.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.claims import Perturbation, perturb
        >>> (w,) = perturb([np.ones(3)], Perturbation(seed=0))
        >>> bool(np.all(w != 1.0)), bool(np.allclose(w, 1.0, rtol=1e-11, atol=0))
        (True, True)
    """
    if perturbation is None:
        return list(arrays)
    rng = np.random.default_rng(perturbation.seed)
    return [a * (1 + perturbation.size * rng.standard_normal(np.shape(a))) for a in arrays]


def table(claims: Sequence[Claim]) -> str:
    """The claims one per line, each with its verdict and evidence, for a notebook to print."""
    return "\n".join(str(c) for c in claims)
