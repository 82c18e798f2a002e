r"""Numerical gradients by central finite differences, to check every hand-derived backward.

$$\frac{\partial f}{\partial x_i} \approx \frac{f(x + \varepsilon e_i) - f(x - \varepsilon e_i)}
{2\varepsilon}.$$

The truncation error is about $\varepsilon^2 \lvert f''' \rvert / 6$ and the rounding error about
$\mathrm{eps}_{64} \lvert f \rvert / \varepsilon$; with float64 and $\varepsilon = 10^{-6}$ they
are about $10^{-13}$ and $2 \cdot 10^{-10}$ times the size of f and its derivatives, for
well-scaled f, so compare with ``rtol`` and ``atol`` around ``1e-6``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from paperlens._checks import as_real_array, require_finite, require_real_scalar


def numerical_gradient(
    f: Callable[[NDArray[np.float64]], ArrayLike], x: ArrayLike, *, eps: float = 1e-6
) -> NDArray[np.float64]:
    r"""Gradient of a scalar function by central differences, computed in float64.

    Calls f twice per entry of x, each time on a fresh copy of x, so f may modify its argument.

    Args:
        f: scalar function of an array of x's shape.
        x: the point, any shape ``(...)``.
        eps: the step $\varepsilon$. At the default 1e-6 rounding error dominates in float64;
            their sum is smallest near $(3\,\mathrm{eps}_{64})^{1/3} \approx 9 \cdot 10^{-6}$,
            but both stay far below the ``rtol`` of about 1e-6 that comparisons use.

    Returns:
        $\partial f/\partial x$, float64, shape of x.

    Raises:
        ValueError: f returns more than one number, x is not finite, or eps is not positive.

    Examples:
        >>> import numpy as np
        >>> from paperlens import numerical_gradient
        >>> g = numerical_gradient(lambda x: np.sum(x**2), [1.0, -2.0])  # exact: 2x
        >>> np.round(g, 6)
        array([ 2., -4.])
        >>> err = numerical_gradient(lambda x: np.sum(np.sin(x)), [0.5])[0] - np.cos(0.5)
        >>> bool(abs(err) < 1e-9)  # rounding and truncation together, for a well-scaled f
        True
        >>> def median_error(eps):  # d/dx sin at 101 points from -3 to 3
        ...     xs = np.linspace(-3.0, 3.0, 101)
        ...     f = lambda x: np.sum(np.sin(x))
        ...     errors = [numerical_gradient(f, [x], eps=eps)[0] - np.cos(x) for x in xs]
        ...     return np.median(np.abs(errors))
        ...
        >>> bool(median_error(1e-5) < median_error(1e-6) / 2)  # the default: rounding dominates
        True
    """
    x = as_real_array(x, "x").astype(np.float64)
    require_finite(x, "x")
    eps = require_real_scalar(eps, "eps")
    if eps <= 0:
        raise ValueError(f"eps must be positive, got {eps}")

    def f_at(i: int, step: float) -> float:
        moved = x.copy()
        moved.flat[i] += step
        value = np.asarray(f(moved))
        if value.size != 1:
            raise ValueError(f"f must return a scalar, got an array of shape {value.shape}")
        return float(value.reshape(()))

    grad = np.empty_like(x)
    for i in range(x.size):
        grad.flat[i] = (f_at(i, eps) - f_at(i, -eps)) / (2 * eps)
    return grad
