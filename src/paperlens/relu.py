r"""The rectified linear unit, ReLU, and its backward pass.

$$\mathrm{relu}(x) = \max(x, 0), \qquad \frac{d\,\mathrm{relu}}{dx} = [x > 0].$$

ResNet's layers use it between their weight layers (He et al., 2016). Its derivative is 1 where
the unit is on and 0 where it is off; at exactly $x = 0$ we take 0, as PyTorch does.
"""

from __future__ import annotations

from numpy.typing import ArrayLike

from paperlens import _kernels
from paperlens._checks import FloatArray, as_real_array, require_finite


def relu(x: ArrayLike) -> FloatArray:
    r"""$\max(x, 0)$, elementwise.

    Args:
        x: any shape ``(...)``.

    Returns:
        relu(x), shape of x.

    Examples:
        >>> from paperlens import relu
        >>> relu([-1.0, 0.0, 2.0])
        array([0., 0., 2.])
    """
    return _kernels.relu(as_real_array(x, "x"))


def relu_backward(x: ArrayLike, grad_output: ArrayLike) -> FloatArray:
    r"""$\partial L/\partial x = [x > 0] \odot \partial L/\partial\, \mathrm{relu}(x)$.

    Args:
        x: the input given to `relu`, any shape ``(...)``.
        grad_output: $\partial L/\partial\, \mathrm{relu}(x)$, shape of x.

    Returns:
        $\partial L/\partial x$, shape of x.

    Raises:
        ValueError: ``grad_output`` does not have x's shape, or is not finite.

    Examples:
        >>> from paperlens import relu_backward
        >>> relu_backward([-1.0, 2.0], [5.0, 5.0])  # the off unit passes nothing back
        array([0., 5.])
    """
    x = as_real_array(x, "x")
    g = as_real_array(grad_output, "grad_output")
    if g.shape != x.shape:
        raise ValueError(f"grad_output must have x's shape {x.shape}, got {g.shape}")
    require_finite(g, "grad_output")
    return _kernels.relu_backward(x, g)
