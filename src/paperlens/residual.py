r"""The residual connection of ResNet.

*Deep Residual Learning for Image Recognition* (He et al., 2015, https://arxiv.org/abs/1512.03385):
instead of asking a block of layers to fit a mapping $H(x)$ directly, let it fit the residual
$F(x) = H(x) - x$ and add the input back through a shortcut,

$$H(x) = F(x) + x.$$

If the identity is (nearly) optimal, the block only has to push F towards zero, and the shortcut
passes the gradient back unchanged: $\partial H/\partial x = \partial F/\partial x + I$.
"""

from __future__ import annotations

from collections.abc import Callable

from numpy.typing import ArrayLike

from paperlens._checks import FloatArray, as_real_array


def residual(f: Callable[[FloatArray], ArrayLike], x: ArrayLike) -> FloatArray:
    r"""The residual block $H(x) = F(x) + x$.

    Args:
        f: the residual branch F, any callable from an array to an array of the same shape.
        x: the input, any shape ``(...)``.

    Returns:
        $F(x) + x$, shape of x.

    Raises:
        TypeError: ``f`` is not callable, or x or F(x) is not a real numeric array.
        ValueError: F(x) does not have x's shape (broadcasting is refused on purpose: it would
            silently change the shape of H).

    Examples:
        >>> import numpy as np
        >>> from paperlens import residual
        >>> residual(lambda x: 0.5 * x, [1.0, 2.0])
        array([1.5, 3. ])
        >>> residual(np.zeros_like, [1.0, 2.0])  # F = 0: the block is the identity
        array([1., 2.])
    """
    if not callable(f):
        raise TypeError(f"f must be a callable F(x), got {type(f).__name__}")
    x = as_real_array(x, "x")
    fx = as_real_array(f(x), "F(x)")
    if fx.shape != x.shape:
        raise ValueError(
            f"F(x) has shape {fx.shape} but x has shape {x.shape}: H(x) = F(x) + x needs "
            f"F to keep the shape"
        )
    return fx + x  # (...) + (...) -> (...)
