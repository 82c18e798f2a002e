r"""Why attention divides by $\sqrt{d_k}$: the variance of a dot product grows with $d_k$.

*Attention Is All You Need*, footnote 4: if the components of q and k are independent with mean
0 and variance 1, then $q \cdot k = \sum_{i=1}^{d_k} q_i k_i$ has mean 0 and variance $d_k$.

For the score $s = c\, q \cdot k$ with $q, k \sim N(0, I)$ the terms $Y_i = q_i k_i$ are
independent with $E[Y_i] = 0$, $E[Y_i^2] = E[q_i^2] E[k_i^2] = 1$ and
$E[Y_i^4] = E[q_i^4] E[k_i^4] = 3 \cdot 3 = 9$. In $E[(\sum_i Y_i)^4]$ only the terms whose
indices pair up survive: $d_k$ terms $E[Y_i^4]$ and $3 d_k (d_k - 1)$ terms
$E[Y_i^2] E[Y_j^2]$, so

$$\mathrm{Var}(s) = c^2 d_k, \qquad E[s^4] = c^4 (3 d_k^2 + 6 d_k).$$

The sample variance of n scores then has standard error, to leading order in 1/n,
$\sqrt{(\mu_4 - \sigma^4)/n} = c^2 \sqrt{(2 d_k^2 + 6 d_k)/n}$, which gives honest tolerances:
"the sampled variance is within 4 standard errors of $d_k$".
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from paperlens._checks import as_real_array, require_finite, require_real_scalar, require_size


def sample_scores(
    d_k: int, n: int, *, rng: np.random.Generator, scale: float = 1.0
) -> NDArray[np.float64]:
    r"""n samples of the attention score $s = q \cdot k \cdot \mathrm{scale}$, $q, k \sim N(0, I)$.

    Args:
        d_k: the dimension of q and k.
        n: the number of samples (draws 2·n·d_k normals at once).
        rng: the random generator, e.g. ``np.random.default_rng(0)``.
        scale: multiplies the dot product; $1/\sqrt{d_k}$ brings the variance back to 1.

    Returns:
        The scores, float64, shape ``(n,)``.

    Examples:
        >>> import numpy as np
        >>> from paperlens import sample_scores
        >>> s = sample_scores(64, 20_000, rng=np.random.default_rng(0))
        >>> s.shape
        (20000,)
        >>> se = np.sqrt((2 * 64**2 + 6 * 64) / 20_000)  # sqrt((E[s^4] - d_k^2) / n)
        >>> bool(abs(s.var(ddof=1) - 64) < 4 * se)  # Var(q . k) = d_k
        True
    """
    d_k = require_size(d_k, "d_k")
    n = require_size(n, "n")
    scale = require_real_scalar(scale, "scale")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(
            f"rng must be a numpy.random.Generator such as np.random.default_rng(0), "
            f"got {type(rng).__name__}"
        )
    q = rng.standard_normal((n, d_k))  # (n, d_k)
    k = rng.standard_normal((n, d_k))  # (n, d_k)
    scores: NDArray[np.float64] = scale * np.vecdot(q, k)  # (n, d_k) . (n, d_k) -> (n,)
    return scores


def score_variance(d_k: int, n: int, *, rng: np.random.Generator, scale: float = 1.0) -> float:
    r"""The sample variance (ddof=1) of n scores from `sample_scores`; expect $c^2 d_k$.

    Args:
        d_k: the dimension of q and k.
        n: the number of samples, at least 2.
        rng: the random generator.
        scale: c, multiplies the dot product.

    Returns:
        The sample variance, a float.

    Examples:
        >>> import numpy as np
        >>> from paperlens import score_variance
        >>> v = score_variance(64, 20_000, rng=np.random.default_rng(0), scale=1 / np.sqrt(64))
        >>> round(v, 1)
        1.0
    """
    require_size(n, "n", minimum=2)
    return float(np.var(sample_scores(d_k, n, rng=rng, scale=scale), ddof=1))


def score_fourth_moment(d_k: int, *, scale: float = 1.0) -> float:
    r"""The exact fourth moment $E[s^4] = c^4 (3 d_k^2 + 6 d_k)$ of $s = c\, q \cdot k$.

    Args:
        d_k: the dimension of q and k.
        scale: c.

    Returns:
        $E[s^4]$, a float. With $\sigma^2 = c^2 d_k$, $\sqrt{(E[s^4] - \sigma^4)/n}$ is the
        standard error of a variance estimated from n scores.

    Examples:
        >>> from paperlens import score_fourth_moment
        >>> score_fourth_moment(1)  # E[q^4] E[k^4] = 3 * 3
        9.0
        >>> score_fourth_moment(64, scale=1 / 8)  # 3 + 6 / d_k
        3.09375
    """
    d_k = require_size(d_k, "d_k")
    scale = require_real_scalar(scale, "scale")
    return scale**4 * (3.0 * d_k**2 + 6.0 * d_k)


def sample_variance_stderr(samples: ArrayLike) -> float:
    r"""Standard error of the sample variance, from the samples' own moments.

    $$\mathrm{se} = \sqrt{\frac{m_4 - m_2^2}{n}}, \qquad
    m_r = \frac{1}{n} \sum_i (x_i - \bar x)^r,$$

    the large-n standard deviation of the sample variance. It assumes no normality, only
    independent samples and a finite fourth moment: for a distribution without one (Student's t
    with 3 degrees of freedom) it is not a standard error at all, and a band of a few of them
    misses the true variance far more often than a normal approximation predicts. The scores
    $q \cdot k$ have all their moments, with $E[s^4] = 3 d_k^2 + 6 d_k$ (`score_fourth_moment`):
    tails a little heavier than a normal's (kurtosis $3 + 6/d_k$ against 3), which this estimate
    accounts for and $\sigma^2 \sqrt{2/n}$, the normal's standard error, does not.

    Args:
        samples: x, shape ``(n,)`` with n ≥ 2.

    Returns:
        The standard error, a float.

    Raises:
        ValueError: samples is not 1-D, has fewer than 2 entries, or is not finite.

    Examples:
        >>> import numpy as np
        >>> from paperlens import sample_scores, sample_variance_stderr
        >>> s = sample_scores(64, 20_000, rng=np.random.default_rng(0))
        >>> se = sample_variance_stderr(s)
        >>> exact = np.sqrt((2 * 64**2 + 6 * 64) / 20_000)  # sqrt((E[s^4] - d_k^2) / n)
        >>> print(round(se, 3), round(exact, 3))  # from the samples, and exact
        0.664 0.655

        Without a finite fourth moment the band is wrong. Student's t with 3 degrees of freedom
        has variance 3; 4 standard errors should miss it once in about 16,000 samples:

        >>> t3 = np.random.default_rng(1).standard_t(3, size=(400, 5_000))  # 400 samples
        >>> missed = [abs(np.var(x, ddof=1) - 3) >= 4 * sample_variance_stderr(x) for x in t3]
        >>> print(np.mean(missed))  # the share of the 400 that miss
        0.035
        >>> bool(abs(np.var(s, ddof=1) - 64) < 4 * se)
        True
    """
    x = as_real_array(samples, "samples").astype(np.float64)
    if x.ndim != 1 or x.size < 2:
        raise ValueError(f"samples must be 1-D with at least 2 entries, got shape {x.shape}")
    require_finite(x, "samples")
    deviation = x - x.mean()  # (n,)
    m2 = float(np.mean(deviation**2))
    m4 = float(np.mean(deviation**4))
    return math.sqrt(max(m4 - m2**2, 0.0) / x.size)  # m4 >= m2^2 but for rounding
