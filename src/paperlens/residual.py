r"""The residual connection of ResNet.

*Deep Residual Learning for Image Recognition* (He et al., 2016, https://arxiv.org/abs/1512.03385):
instead of asking a block of layers to fit a mapping $H(x)$ directly, let it fit the residual
$F(x) = H(x) - x$ and add the input back through a shortcut,

$$H(x) = F(x) + x.$$

He et al. argue that if the identity is (nearly) optimal, pushing F towards zero is easier than
fitting the identity with a stack of nonlinear layers. The shortcut's share of the gradient
passes back unchanged: $\partial H/\partial x = \partial F/\partial x + I$ (for the sum; the
ReLU the paper applies after it, below, gates this path, which He et al.'s later
pre-activation design removes). In the paper's
two-layer example $F(x) = W_2\,\sigma(W_1 x)$, ending in a weight layer. Its Eq. 1 is the sum
alone, $y = F(x, \{W_i\}) + x$; later in the same paragraph it applies a ReLU to the sum,
$\sigma(y)$ (and Fig. 2 draws it), and where F changes the shape the shortcut carries a
projection $W_s x$ instead (Eq. 2). The paper's layers are convolutions, each followed by
batch normalisation, and x a feature map; it writes them as fully-connected for simplicity,
as this module does. `residual` is the sum alone, with the identity shortcut, and
``relu(residual(F, x))`` is the paper's block.
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
        >>> from paperlens import relu
        >>> relu(residual(lambda x: -2 * x, [1.0, -1.0]))  # the paper's block: sigma(F(x) + x)
        array([0., 1.])
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
