r"""Claims across seeds: a statement, the test that decides it, and the evidence it printed.

One training run proves little: its result depends on the seed, and for a chaotic run even on
the last bits of its arithmetic, which differ between CPUs. So every experimental claim on the
site is a statistical statement over many seeds (or many random draws), decided at a level
stated in advance, and it holds or fails as a whole; no single seed decides it. The rank tests
and their intervals are computed here, exactly, from the null distributions of the rank
statistics (`signed_rank_null`, `rank_sum_null`; the tests check them against `scipy.stats`),
so that a claim's p-value and its interval are one computation and cannot disagree.

- `paired_greater`: "a is larger than b" for paired samples (one pair per seed), by a
  one-sided exact Wilcoxon signed-rank test, with the Hodges–Lehmann estimate of the shift.
- `unpaired_greater`: the same claim for two samples drawn independently by design (each arm
  from its own seeds), by a one-sided exact Mann–Whitney (rank-sum) test, with the
  two-sample Hodges–Lehmann shift.
- `paired_equivalent`: "a and b are equivalent within a margin", by two one-sided signed-rank
  tests (TOST): the Hodges–Lehmann interval must lie inside the margin.
- `hodges_lehmann`, `hodges_lehmann_shift`: the effect sizes behind them, each with its
  exact confidence interval (the rank test inverted).
- `mean_above`, `mean_below`: "the mean of x is above (below) a bound", by a bootstrap
  confidence interval (BCa), for many random draws: at least `MIN_DRAWS`.
- `band_power`: how often a "within k standard errors" check catches an error of a given
  size.
- `perturb`: multiply starting values by $1 + \varepsilon z$, $z \sim N(0, 1)$, with
  $\varepsilon = 10^{-12}$ (`JITTER`): a change in the last dozen or so bits, larger than the
  difference another CPU's rounding makes to one product, which a chaotic run amplifies as it
  amplifies that rounding.

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
from functools import cache
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from paperlens._checks import FloatArray, as_real_array

ALPHA = 0.01
"""The site's level, one-sided: p ≤ 0.01, or the matching end of a 98% two-sided confidence
interval. A page that corrects for its number of claims tests each at a fraction of it (the
ResNet page's main design: ``ALPHA / 6``, Bonferroni) and passes that as ``alpha``."""
MIN_DRAWS = 100
"""The fewest values `mean_above` and `mean_below` accept: with fewer, a bootstrap interval
of the mean can miss far more often than it says (for 12 normal values, more than twice as
often; see `mean_above`)."""
RESAMPLES = 9999
"""How many times `mean_above` and `mean_below` resample the draws."""
JITTER = 1e-12
"""The relative size of `perturb`'s change: about 4 500 times float64's machine epsilon
(2^-52 ≈ 2.2e-16, the relative size of its last bit).

That is deliberately larger than the difference another CPU's rounding makes to one matrix
product (summing a dot product in another order typically changes it by a few parts in
10^16), and it is applied once, to the starting values, where another CPU's rounding differs
at every step. So it is a stress test for a claim, not a model of another CPU: a chaotic run
amplifies either change, a smaller one usually less far (Checking a claim honestly measures
both), and `make claims` reruns the claims under the real kernels."""


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
    """Whether the evidence supports the statement at the test's level (``alpha``, by default
    `ALPHA`); for an identity, checked bit for bit, whether it holds exactly."""
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
        n: the number of differences, ≥ 1.

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
    return _signed_rank_null(n).copy()


@cache
def _signed_rank_null(n: int) -> FloatArray:
    p = np.zeros(n * (n + 1) // 2 + 1)
    p[0] = 1.0
    for rank in range(1, n + 1):  # add rank r with probability 1/2
        p[rank:] = 0.5 * p[rank:] + 0.5 * p[:-rank].copy()
        p[:rank] *= 0.5
    return p


def _cut(null: FloatArray, tail: float) -> tuple[FloatArray, int]:
    """A rank statistic's null CDF, and the largest count k with P(T <= k) <= tail (-1: none).

    The statistic's null is symmetric, so P(T >= M - k) = P(T <= k) too. The tolerance absorbs
    the rounding of the recursions that built ``null``, so a tail that equals one of its
    probabilities exactly (a power of 1/2, say) counts as reached.
    """
    cdf = np.cumsum(null)  # P(T <= t)
    return cdf, int(np.searchsorted(cdf, tail * (1 + 1e-9), side="right")) - 1


def _p_text(p: float, alpha: float, holds: bool) -> str:
    """The p-value with enough digits to show on which side of alpha it lies."""
    for digits in range(2, 7):
        text = f"{p:.{digits}g}"
        if float(text) != alpha and (float(text) <= alpha) == holds:
            return f"p = {text}"
    return f"p = {p:.6g}"


def _walsh(d: FloatArray) -> FloatArray:
    """The n(n+1)/2 Walsh averages (d_i + d_j)/2, i <= j, sorted."""
    i, j = np.triu_indices(d.size)  # every pair i <= j
    return np.sort((d[i] + d[j]) / 2)  # (n(n+1)/2,)


def hodges_lehmann(d: FloatArray, *, confidence: float = 1 - 2 * ALPHA) -> Interval:
    r"""The Hodges–Lehmann estimate of the centre of ``d``, with its exact interval.

    The estimate is the median of the $M = n(n+1)/2$ Walsh averages $(d_i + d_j)/2$,
    $i \le j$: the shift that the signed-rank test finds most central. The interval inverts
    that test: it is $[W_{(k+1)}, W_{(M-k)}]$ of the sorted Walsh averages, with $k$ the
    largest count for which $P(T^+ \le k) \le (1 - \text{confidence})/2$ under the exact null
    (`signed_rank_null`).

    It assumes what the signed-rank test assumes: independent differences, continuous and
    **symmetric about their centre** $\theta$, which is then both their median and their
    pseudo-median (the median of $(d_i + d_j)/2$ over independent pairs). Then its coverage is
    exactly $1 - 2P(T^+ \le k)$, at least ``confidence``. Without symmetry the estimate still
    estimates the pseudo-median, but the interval is not exact for it: for twelve differences
    $e^{1.5 Z} - 1$, $Z \sim N(0, 1)$, the 98% interval lies wholly below their pseudo-median
    about twice as often as the 0.8% it allows on that side. With ties its coverage is
    approximate.

    For paired runs pass ``d = a - b``; for ratios, ``d = log(a) - log(b)``.

    Args:
        d: the differences, shape ``(n,)``.
        confidence: the interval's two-sided coverage. The default, ``1 - 2 * ALPHA``, matches
            a one-sided test at the site's level: its lower end is above 0 exactly when
            `paired_greater`'s exact signed-rank test of "θ > 0" has p ≤ ALPHA (the same
            computation, with zeros and ties counted the same way).

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
    walsh = _walsh(d)  # (M,)
    # Cut k Walsh averages from each end; if no k is small enough, the interval is unbounded.
    _, k = _cut(signed_rank_null(d.size), (1 - confidence) / 2)
    low, high = (float(walsh[k]), float(walsh[-k - 1])) if k >= 0 else (-np.inf, np.inf)
    return Interval(float(np.median(walsh)), low, high, confidence)


def paired_greater(a: FloatArray, b: FloatArray, statement: str, *, alpha: float = ALPHA) -> Claim:
    r"""Claim that ``a`` is larger than ``b``, pair by pair, by a one-sided Wilcoxon test.

    The test ranks the differences $d_i = a_i - b_i$ by their absolute size and asks whether
    the positive ones carry more of the rank than chance would give them. Its null hypothesis
    is that the $d_i$ are independent, continuous and **symmetric about 0** (as when the two
    arms could swap places within each pair), and it is exact only for that null. If the
    differences are symmetric about some centre, a rejection is evidence that the centre
    (their median, and their pseudo-median) is above 0. Without symmetry it is an exact test
    of neither: twelve skewed differences with median 0 are rejected more than three times as
    often as the level, and ones skewed the other way with pseudo-median 0 about twice as often
    (Checking a claim honestly simulates both). With n pairs the smallest possible p-value is
    $2^{-n}$ (every difference positive), so p < 0.01 needs n ≥ 7. At n = 12 and level 0.01,
    one contrary pair is tolerated unless its difference is among the three largest in size.

    The p-value is exact, read off `signed_rank_null`. The statistic $T^+$ is counted as the
    number of Walsh averages $(d_i + d_j)/2$, $i \le j$, above 0, which for distinct non-zero
    differences is the positive ones' rank sum. A zero difference, or a Walsh average of
    exactly 0, counts against the claim, so with zeros and ties the p-value is conservative.
    That is also how the Hodges–Lehmann interval at coverage $1 - 2\alpha$ is computed: the
    claim holds (p ≤ alpha) exactly when that interval's lower end is above 0.

    Args:
        a: one value per seed, shape ``(n,)``.
        b: the paired values, shape ``(n,)``.
        statement: what "a > b" means, in words.
        alpha: the test's level.

    Returns:
        The `Claim`, with the p-value as its evidence (with as many digits as it takes to show
        on which side of alpha it lies) and the Hodges–Lehmann shift as its effect.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.claims import paired_greater
        >>> claim = paired_greater(np.arange(8.0) + 0.5, np.arange(8.0), "a beats b")
        >>> claim.evidence, claim.holds
        ('p = 0.0039', True)
    """
    a, b = _pairs(a, b)
    d = a - b  # (n,)
    hl = hodges_lehmann(d, confidence=1 - 2 * alpha)
    cdf, k = _cut(signed_rank_null(d.size), alpha)
    above = int(np.sum(_walsh(d) > 0))  # T+, zeros and ties counted against the claim
    contrary = cdf.size - 1 - above  # M - T+: P(T+ >= T+ seen) = P(T+ <= M - T+ seen)
    p, holds = float(cdf[contrary]), contrary <= k  # holds exactly when hl.low > 0
    test = (
        f"one-sided exact Wilcoxon signed-rank test, {int(np.sum(a > b))} of {a.size} pairs agree"
    )
    effect = f"Hodges–Lehmann shift {hl}"
    return Claim(statement, test, a.size, _p_text(p, alpha, holds), holds, effect)


def paired_equivalent(
    a: FloatArray, b: FloatArray, margin: float, statement: str, *, alpha: float = ALPHA
) -> Claim:
    r"""Claim that ``a`` and ``b`` are equivalent: their shift lies within ``±margin``.

    Two one-sided tests (TOST) at level ``alpha``, each a signed-rank test: "the shift is
    above −margin" and "the shift is below +margin". Both reject exactly when the
    Hodges–Lehmann interval of $a_i - b_i$ at coverage $1 - 2\alpha$ lies strictly inside
    $(-\text{margin}, \text{margin})$, which is how it is computed here. The margin must be
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


def rank_sum_null(m: int, n: int) -> FloatArray:
    r"""The exact null distribution of the Mann–Whitney statistic $U$ for samples of m and n.

    $U$ counts the pairs $(i, j)$ with $a_i > b_j$. Under the null hypothesis (all $m + n$
    values independent draws from one continuous distribution) every ordering of them is
    equally likely. The largest value belongs to ``a`` with probability $m/(m+n)$, and then it
    beats all n values of ``b``; that recursion gives the distribution.

    Args:
        m: the size of ``a``, ≥ 1.
        n: the size of ``b``, ≥ 1.

    Returns:
        $P(U = u)$ for $u = 0, \dots, mn$, shape ``(m n + 1,)``.

    Examples:
        >>> from paperlens.experiments.claims import rank_sum_null
        >>> p = rank_sum_null(2, 2)  # 6 orderings of a, a, b, b; U = 2 for abba and baab
        >>> (p * 6).round().astype(int).tolist()
        [1, 1, 2, 1, 1]
    """
    if m < 1 or n < 1:
        raise ValueError(f"need at least one value in each sample, got m = {m}, n = {n}")
    return _rank_sum_null(m, n).copy()


@cache
def _rank_sum_null(m: int, n: int) -> FloatArray:
    previous = [np.ones(1) for _ in range(m + 1)]  # P(U) for (i, j - 1), i = 0..m
    for j in range(1, n + 1):
        current = [np.ones(1)]  # no values of a: U = 0
        for i in range(1, m + 1):
            p = np.zeros(i * j + 1)
            p[j:] += i / (i + j) * current[i - 1]  # the largest is a's: it beats all j of b
            p[: i * (j - 1) + 1] += j / (i + j) * previous[i]  # the largest is b's
            current.append(p)
        previous = current
    return previous[m]


def hodges_lehmann_shift(
    a: FloatArray, b: FloatArray, *, confidence: float = 1 - 2 * ALPHA
) -> Interval:
    r"""The two-sample Hodges–Lehmann shift of ``a`` over ``b``, with its exact interval.

    The estimate is the median of the $mn$ differences $a_i - b_j$. The interval inverts the
    Mann–Whitney test: it is $[D_{(k+1)}, D_{(mn-k)}]$ of the sorted differences, with $k$
    the largest count for which $P(U \le k) \le (1 - \text{confidence})/2$ (`rank_sum_null`).
    It assumes a shift model: independent samples whose distributions differ only by a shift
    $\Delta$ (then the estimate is of $\Delta$). For continuous data the coverage is then
    exactly $1 - 2P(U \le k)$, at least ``confidence``; with ties it is approximate. If the
    distributions differ in spread as well, the interval is not exact for anything: with
    equal medians and one spread five times the other, each end of a 98% interval excludes 0
    more often than the 1% it allows.

    Args:
        a: one sample, shape ``(m,)``.
        b: the other, drawn independently of it, shape ``(n,)``.
        confidence: the interval's two-sided coverage; the default matches a one-sided test
            at `ALPHA`: its lower end is above 0 exactly when `unpaired_greater` holds.

    Returns:
        The `Interval`. Its ends are infinite when the samples are too small for the
        confidence asked.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.claims import hodges_lehmann_shift
        >>> hl = hodges_lehmann_shift(np.arange(8.0) + 10, np.arange(8.0))
        >>> hl.estimate, hl.low, hl.high
        (10.0, 6.0, 14.0)
    """
    a, b = as_real_array(a, "a").ravel(), as_real_array(b, "b").ravel()
    if a.size < 1 or b.size < 1 or not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError(f"a and b must each hold a value, all finite, got {a} and {b}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    diffs = np.sort((a[:, None] - b[None, :]).ravel())  # (m, 1) - (1, n) -> (m n,)
    _, k = _cut(rank_sum_null(a.size, b.size), (1 - confidence) / 2)
    low, high = (float(diffs[k]), float(diffs[-k - 1])) if k >= 0 else (-np.inf, np.inf)
    return Interval(float(np.median(diffs)), low, high, confidence)


def unpaired_greater(
    a: FloatArray, b: FloatArray, statement: str, *, alpha: float = ALPHA
) -> Claim:
    r"""Claim that ``a`` is larger than ``b``, from samples drawn independently, by Mann–Whitney.

    The one-sided Mann–Whitney (Wilcoxon rank-sum) test counts the pairs $(i, j)$ with
    $a_i > b_j$ among all $mn$ and asks whether there are more than chance gives. Its null
    hypothesis is that all $m + n$ values are independent draws from one continuous
    distribution, so it needs samples drawn independently **by design**, each arm from its
    own seeds. Runs paired by seed are not: a correlation within the pairs, which a dozen
    seeds cannot rule out, changes how often it rejects a true null (for twelve pairs of
    normal values correlated −0.5, more than twice as often as its level). Such runs take
    `paired_greater`, whatever their correlation turns out to be.

    A rejection says that the two distributions differ, with ``a`` tending higher. To read it
    as $P(a > b) > 1/2$, or size it by the Hodges–Lehmann shift, needs a shift model (the
    two differ only by a shift): with equal medians but one spread five times the other,
    $P(a > b) = 1/2$, yet the test rejects about twice as often as its level. With m = n its
    smallest p-value is $1/\binom{2n}{n}$, far below the paired test's $2^{-n}$.

    The p-value is exact, read off `rank_sum_null`, with ties counted against the claim (a
    tie $a_i = b_j$ does not count as $a_i > b_j$), which is how `hodges_lehmann_shift`
    counts them too: the claim holds exactly when that interval's lower end is above 0.

    Args:
        a: one value per run of one arm, shape ``(m,)``.
        b: one value per run of the other, drawn independently, shape ``(n,)``.
        statement: what "a > b" means, in words.
        alpha: the test's level.

    Returns:
        The `Claim`, with the p-value as its evidence.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.claims import unpaired_greater
        >>> claim = unpaired_greater(np.arange(5.0) + 10, np.arange(5.0), "a beats b")
        >>> claim.evidence, claim.holds  # 1 / 252: the best of b below the worst of a
        ('p = 0.004', True)
    """
    a, b = as_real_array(a, "a").ravel(), as_real_array(b, "b").ravel()
    hl = hodges_lehmann_shift(a, b, confidence=1 - 2 * alpha)
    cdf, k = _cut(rank_sum_null(a.size, b.size), alpha)
    wins = int(np.sum(a[:, None] > b[None, :]))  # (m, 1) vs (1, n) -> U, the count of a_i > b_j
    contrary = cdf.size - 1 - wins  # mn - U: P(U >= U seen) = P(U <= mn - U seen)
    p, holds = float(cdf[contrary]), contrary <= k  # holds exactly when hl.low > 0
    test = f"one-sided exact Mann–Whitney test, {wins} of {a.size * b.size} cross pairs agree"
    effect = f"Hodges–Lehmann shift {hl}"
    return Claim(statement, test, a.size + b.size, _p_text(p, alpha, holds), holds, effect)


def _bca_mean(
    x: FloatArray, *, confidence: float, rng: np.random.Generator, resamples: int = RESAMPLES
) -> tuple[FloatArray, FloatArray, FloatArray]:
    r"""The mean of x along its last axis, with the ends of its BCa bootstrap interval.

    Each resample draws n of the values with replacement; its mean is the values weighted by
    how often each was drawn, so one product resamples every row of x at once. The
    bias-corrected and accelerated (BCa) interval reads the resampled means at levels
    $\Phi(z_0 + (z_0 + z_q) / (1 - a (z_0 + z_q)))$ instead of $q$: $z_0$ corrects for the
    share of resampled means below the mean, the acceleration $a$ (from the jackknife, for a
    mean $\sum (x_i - \bar x)^3 / (6 (\sum (x_i - \bar x)^2)^{3/2})$) for skew.

    Args:
        x: the draws, shape ``(..., n)``.
        confidence: the interval's two-sided coverage.
        rng: draws the resamples, shared by every row.
        resamples: how many.

    Returns:
        The means and the interval's low and high ends, each of shape ``x.shape[:-1]``.
    """
    n = x.shape[-1]
    mean = x.mean(axis=-1)  # (...,)
    means = np.empty((*x.shape[:-1], resamples))  # (..., resamples)
    for start in range(0, resamples, 1000):  # 1000 resamples at a time: counts stay small
        size = min(1000, resamples - start)
        drawn = rng.integers(0, n, size=(size, n)) + n * np.arange(size)[:, None]  # (size, n)
        counts = np.bincount(drawn.ravel(), minlength=size * n).reshape(size, n)
        # (..., n) with (size, n) -> (..., size); einsum's own loop, not BLAS: no threads, and
        # the same sums on every CPU
        means[..., start : start + size] = np.einsum("...i,ri->...r", x, counts / n)
    centred = x - mean[..., None]  # (..., n)
    spread = np.sum(centred**2, axis=-1)  # (...,)
    with np.errstate(divide="ignore", invalid="ignore"):  # all values equal: no spread
        accel = np.where(spread > 0, np.sum(centred**3, axis=-1) / (6 * spread**1.5), 0.0)
        z0 = stats.norm.ppf(np.mean(means < mean[..., None], axis=-1))  # (...,)
        z = z0 + stats.norm.ppf((1 - confidence) / 2)  # (...,)
        low = _quantile_rows(means, stats.norm.cdf(z0 + z / (1 - accel * z)))
        z = z0 + stats.norm.ppf((1 + confidence) / 2)
        high = -_quantile_rows(-means, 1 - stats.norm.cdf(z0 + z / (1 - accel * z)))
    return mean, np.where(spread > 0, low, mean), np.where(spread > 0, high, mean)


def _quantile_rows(rows: FloatArray, q: FloatArray) -> FloatArray:
    """Each row's quantile at its own level, as ``np.quantile`` (linear) finds it, for small q.

    Only the smallest values up to the highest rank any row needs are sorted, which for a low
    quantile of thousands of resamples is a small share of them.

    Args:
        rows: shape ``(..., B)``.
        q: one level per row, shape ``rows.shape[:-1]``; NaN gives NaN.

    Returns:
        The quantiles, shape ``rows.shape[:-1]``.
    """
    size = rows.shape[-1]
    ok = np.isfinite(q)
    h = np.where(ok, q, 0.0)[..., None] * (size - 1)  # (..., 1): the rank, interpolated
    below = np.floor(h).astype(int)  # (..., 1)
    above = np.minimum(below + 1, size - 1)
    needed = int(above.max(initial=0))
    smallest = np.sort(np.partition(rows, needed, axis=-1)[..., : needed + 1], axis=-1)
    a = np.take_along_axis(smallest, below, axis=-1)
    b = np.take_along_axis(smallest, above, axis=-1)
    return np.where(ok, (a + (h - below) * (b - a))[..., 0], np.nan)


def _mean_vs(
    x: FloatArray, bound: float, statement: str, *, above: bool, alpha: float, seed: int
) -> Claim:
    x = as_real_array(x, "x").ravel()
    if x.size < MIN_DRAWS or not np.isfinite(x).all():
        raise ValueError(
            f"x must hold at least MIN_DRAWS = {MIN_DRAWS} values, all finite, got {x.size}: "
            "with fewer, a bootstrap interval of the mean errs far more often than its level "
            "(for a few seeds, use a rank test such as paired_greater)"
        )
    # The claim is one-sided at level alpha: one end of a two-sided 1 - 2 alpha interval.
    mean, low, high = (
        float(v) for v in _bca_mean(x, confidence=1 - 2 * alpha, rng=np.random.default_rng(seed))
    )
    side = "above" if above else "below"
    level = f"{100 * (1 - 2 * alpha):g}%"
    ci = f"mean {mean:.3g}, {level} interval [{low:.3g}, {high:.3g}], {side} {bound:.3g}"
    holds = low > bound if above else high < bound
    return Claim(statement, "BCa bootstrap", x.size, ci, holds)


def mean_above(
    x: FloatArray, bound: float, statement: str, *, alpha: float = ALPHA, seed: int = 0
) -> Claim:
    """Claim that the mean of ``x`` is above ``bound``, one-sided at about ``alpha``.

    It holds if the lower end of the two-sided ``1 - 2 alpha`` BCa bootstrap interval of the
    mean (98% for the site's level 0.01, from `RESAMPLES` resamples) lies above ``bound``.

    Its level is approximate. A bootstrap interval is right only as the number of draws grows,
    and more slowly for skewed or heavy-tailed values, so the claim needs many independent
    draws: at least `MIN_DRAWS`. With the bound at the true mean, as the unit tests measure:
    for 100 draws of a skewed value between 0 and 1 (Beta(0.5, 3)), `mean_above` and
    `mean_below` each hold by luck less than twice as often as ``alpha``; for 100 heavy-tailed
    draws (lognormal, σ = 2), `mean_below` holds more than five times as often; and for
    12 normal draws, which it refuses, the 98% interval would miss the true mean more than
    twice as often as the 2% it allows. It is for hundreds or thousands of draws, such as a
    largest softmax weight, which lies between 0 and 1 (the attention page's crossing claims
    use normal intervals on such means instead).

    Args:
        x: independent draws, shape ``(n,)``, n ≥ `MIN_DRAWS`.
        bound: the value the mean must exceed, fixed before the draws are seen.
        statement: the claim in words.
        alpha: the claim's level.
        seed: seeds the bootstrap's resampling.

    Returns:
        The `Claim`, with the mean and its BCa bootstrap interval as its evidence.

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
    """Claim that the mean of ``x`` is below ``bound``, one-sided at about ``alpha``.

    The mirror image of `mean_above`, with the same approximate level and the same minimum
    of `MIN_DRAWS` draws.

    Args:
        x: independent draws, shape ``(n,)``, n ≥ `MIN_DRAWS`.
        bound: the value the mean must stay under, fixed before the draws are seen.
        statement: the claim in words.
        alpha: the claim's level.
        seed: seeds the bootstrap's resampling.

    Returns:
        The `Claim`, with the mean and its BCa bootstrap interval as its evidence.

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

    At $\delta = 0$ that is the false-alarm rate; at $\delta = k$ it is
    $\tfrac12 + \Phi(-2k)$, about one half.

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

    With ε = 1e-12 each starting value typically moves by a few thousand of its last bits (see
    `JITTER`). A chaotic run amplifies such a change, as it amplifies another CPU's rounding,
    so a claim that survives several of them does not hang on one run's last bits.

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
