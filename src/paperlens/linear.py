r"""The linear (fully connected) layer and its hand-derived backward pass.

$$y = x W + b.$$

Rows of x are examples. The same formula with leading batch dims on W runs several independent
networks at once (one per seed), as NumPy's ``@`` broadcasts; the backward then sums each
gradient back to its parameter's own shape.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from paperlens import _kernels
from paperlens._checks import FloatArray, as_real_array, require_finite, require_matrix
from paperlens._kernels import sum_to_shape as sum_to_shape  # was defined here: keep the name


class LinearGradients(NamedTuple):
    """What `linear_backward` returns; unpacks as ``dx, dW, db``."""

    dx: FloatArray
    """dL/dx, shape of x."""
    dW: FloatArray
    """dL/dW, shape of W."""
    db: FloatArray
    """dL/db, shape of b (``(d_out,)`` when no b was given)."""


def linear(x: ArrayLike, W: ArrayLike, b: ArrayLike | None = None) -> FloatArray:
    r"""The linear layer $y = x W + b$.

    Args:
        x: inputs, shape ``(..., n, d_in)``: n examples of d_in numbers.
        W: weights, shape ``(..., d_in, d_out)``.
        b: optional bias whose last axis is d_out (``(d_out,)``, or e.g. ``(n, d_out)``),
            broadcastable against ``(..., n, d_out)`` without changing that shape. A bias of
            shape ``()`` is refused, and unless d_out is 1 so are ``(1,)`` and ``(n, 1)``,
            though NumPy would broadcast them; so is one that would add dims or stretch n.

    Returns:
        y, shape ``(..., n, d_out)`` (the batch dims of x and W broadcast).

    Raises:
        TypeError: non-numeric inputs.
        ValueError: x or W is not at least 2-D, their d_in differ, their batch dims do not
            broadcast, b does not end in d_out or would change the output's shape, or they
            are not finite.

    Examples:
        >>> import numpy as np
        >>> from paperlens import linear
        >>> linear([[1.0, 2.0]], [[1.0], [1.0]], [0.5])  # 1 + 2 + 0.5
        array([[3.5]])
        >>> linear([[1.0, 2.0]], [[1.0, 0.0], [1.0, 0.0]], [0.5])  # b must end in d_out = 2
        Traceback (most recent call last):
        ...
        ValueError: b must end in d_out=2, got shape (1,)
        >>> linear([[1.0, 2.0]], [[1.0], [1.0]], [[0.5], [0.5]])  # one example, two biases
        Traceback (most recent call last):
        ...
        ValueError: b of shape (2, 1) would make the output (2, 1), not (..., n, d_out) = (1, 1)
    """
    x, W, b_ = _check(x, W, b)
    return _kernels.linear(x, W, b_)  # (..., n, d_in) x (..., d_in, d_out) -> (..., n, d_out)


def linear_backward(
    x: ArrayLike, W: ArrayLike, grad_output: ArrayLike, b: ArrayLike | None = None
) -> LinearGradients:
    r"""Gradients of a scalar loss L through `linear`, derived by hand.

    With $G = \partial L/\partial y$: $\;dx = G W^\top,\; dW = x^\top G,\; db = \sum_n G$.

    Args:
        x: inputs, shape ``(..., n, d_in)``.
        W: weights, shape ``(..., d_in, d_out)``.
        grad_output: $G$, the output's shape ``(..., n, d_out)``.
        b: the bias given to `linear`, if any (only its shape enters the gradients; it is
            checked as `linear` checks it, finite values included).

    Returns:
        ``LinearGradients(dx, dW, db)``, each of its input's own shape: where an input was
        broadcast, its gradient is summed over the broadcast dims.

    Raises:
        ValueError: ``grad_output`` does not have the output's shape, the inputs fail
            `linear`'s checks (shapes, or values that are not finite), or ``grad_output`` is
            not finite.

    Examples:
        >>> import numpy as np
        >>> from paperlens import linear_backward
        >>> dx, dW, db = linear_backward([[1.0, 2.0]], [[1.0], [3.0]], [[1.0]])
        >>> dx, dW.ravel(), db
        (array([[1., 3.]]), array([1., 2.]), array([1.]))
    """
    x, W, b_ = _check(x, W, b)
    G = as_real_array(grad_output, "grad_output")
    out_shape = _out_shape(x, W)
    if G.shape != out_shape:
        raise ValueError(
            f"grad_output must have the output's shape (..., n, d_out) = {out_shape}, got {G.shape}"
        )
    require_finite(G, "grad_output")
    b_shape = (W.shape[-1],) if b_ is None else b_.shape
    return LinearGradients(*_kernels.linear_backward(x, W, G, b_shape))


def _check(
    x: ArrayLike, W: ArrayLike, b: ArrayLike | None
) -> tuple[FloatArray, FloatArray, FloatArray | None]:
    x, W = as_real_array(x, "x"), as_real_array(W, "W")
    require_matrix(x, "x", "n, d_in")
    require_matrix(W, "W", "d_in, d_out")
    if x.shape[-1] != W.shape[-2]:
        raise ValueError(
            f"x has d_in={x.shape[-1]} but W has d_in={W.shape[-2]}: shapes {x.shape} and {W.shape}"
        )
    try:
        np.broadcast_shapes(x.shape[:-2], W.shape[:-2])
    except ValueError:
        raise ValueError(
            f"the batch dims of x and W do not broadcast: shapes {x.shape} and {W.shape}"
        ) from None
    require_finite(x, "x")
    require_finite(W, "W")
    if b is None:
        return x, W, None
    b_ = as_real_array(b, "b")
    if b_.ndim == 0 or b_.shape[-1] != W.shape[-1]:
        raise ValueError(f"b must end in d_out={W.shape[-1]}, got shape {b_.shape}")
    out = _out_shape(x, W)
    try:
        grown = np.broadcast_shapes(out, b_.shape)
    except ValueError:
        grown = None
    if grown != out:  # the gradients are summed back to the output's shape, not b's broadcast
        made = "a shape NumPy cannot broadcast" if grown is None else str(grown)
        raise ValueError(
            f"b of shape {b_.shape} would make the output {made}, not (..., n, d_out) = {out}"
        )
    require_finite(b_, "b")
    return x, W, b_


def _out_shape(x: FloatArray, W: FloatArray) -> tuple[int, ...]:
    """The output's shape ``(..., n, d_out)``: the batch dims of x and W broadcast."""
    return np.broadcast_shapes(x.shape[:-1] + (1,), W.shape[:-2] + (1, W.shape[-1]))
