r"""The mean squared error loss and its gradient.

$$L = \frac{1}{n\, d} \sum_{i=1}^{n} \sum_{j=1}^{d} (\hat y_{ij} - y_{ij})^2,
\qquad \frac{\partial L}{\partial \hat y} = \frac{2}{n\, d} (\hat y - y).$$

Leading batch dims hold independent runs (e.g. one per seed): each gets its own loss, and the
gradient is that of their sum, so each run's parameters get exactly their own gradient.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from paperlens._checks import FloatArray, as_real_array, require_matrix


def mse_loss(y_hat: ArrayLike, y: ArrayLike) -> FloatArray:
    r"""Mean squared error over the last two dims, $\mathrm{mean}_{i,j} (\hat y_{ij} - y_{ij})^2$.

    Args:
        y_hat: predictions, shape ``(..., n, d)``.
        y: targets, broadcastable to y_hat's shape.

    Returns:
        The loss, shape ``(...)``: one number per run.

    Raises:
        ValueError: y_hat is not at least 2-D or y does not broadcast to it.

    Examples:
        >>> from paperlens import mse_loss
        >>> mse_loss([[1.0], [3.0]], [[0.0], [1.0]])  # (1 + 4) / 2, a NumPy scalar
        np.float64(2.5)
        >>> mse_loss([[[1.0]], [[3.0]]], [[0.0]])  # two runs: one loss each
        array([1., 9.])
    """
    diff = _diff(y_hat, y)  # (..., n, d)
    loss: FloatArray = np.mean(diff**2, axis=(-2, -1))  # (..., n, d) -> (...)
    return loss


def mse_loss_backward(y_hat: ArrayLike, y: ArrayLike) -> FloatArray:
    r"""$\partial (\sum \text{losses}) / \partial \hat y = 2 (\hat y - y) / (n d)$.

    Args:
        y_hat: predictions, shape ``(..., n, d)``.
        y: targets, broadcastable to y_hat's shape.

    Returns:
        The gradient, shape of y_hat.

    Examples:
        >>> from paperlens import mse_loss_backward
        >>> mse_loss_backward([[1.0], [3.0]], [[0.0], [1.0]])
        array([[1.],
               [2.]])
    """
    diff = _diff(y_hat, y)  # (..., n, d)
    grad: FloatArray = diff * (2 / (diff.shape[-2] * diff.shape[-1]))
    return grad


def _diff(y_hat: ArrayLike, y: ArrayLike) -> FloatArray:
    y_hat, y = as_real_array(y_hat, "y_hat"), as_real_array(y, "y")
    require_matrix(y_hat, "y_hat", "n, d")
    try:
        shape = np.broadcast_shapes(y_hat.shape, y.shape)
    except ValueError:
        shape = None
    if shape != y_hat.shape:
        raise ValueError(f"y of shape {y.shape} does not broadcast to y_hat's shape {y_hat.shape}")
    return y_hat - y
