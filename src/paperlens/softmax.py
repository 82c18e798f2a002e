r"""Softmax, its Jacobian and its backward pass.

The attention weights of *Attention Is All You Need* (Vaswani et al., 2017,
https://arxiv.org/abs/1706.03762) are a softmax over the keys:

$$\mathrm{softmax}(x)_i = \frac{e^{x_i}}{\sum_j e^{x_j}}, \qquad
\frac{\partial\, \mathrm{softmax}(x)_i}{\partial x_j} = s_i(\delta_{ij} - s_j).$$

When one score dominates, ``s`` is nearly one-hot and that Jacobian is nearly zero: the softmax
*saturates* and passes back almost no gradient. `softmax_gradient_norm` measures it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from paperlens import _kernels
from paperlens._checks import FloatArray, as_real_array, require_finite


def softmax(x: ArrayLike, *, axis: int = -1) -> FloatArray:
    r"""Softmax along one axis, $\mathrm{softmax}(x)_i = e^{x_i} / \sum_j e^{x_j}$.

    Numerically stable: no overflow for scores of 1e4 in float32 or 1e300 in float64.

    Args:
        x: scores, any shape ``(..., n, ...)``; ``-inf`` is allowed and gets weight 0.
        axis: the axis of length ``n`` to normalise over.

    Returns:
        Weights of x's shape, ≥ 0 and summing to 1 along ``axis``. Floating inputs keep their
        dtype (float16 is computed in float32 and rounded back); integers and bools give float64.
        A slice whose entries are all ``-inf`` has no weight to share: it gives zeros, not NaN.

    Raises:
        TypeError: non-numeric or complex ``x``.
        ValueError: ``x`` holds NaN or ``+inf``.

    Examples:
        >>> import numpy as np
        >>> from paperlens import softmax
        >>> softmax([1.0, 2.0, 3.0])
        array([0.09003057, 0.24472847, 0.66524096])
        >>> softmax(np.array([1e4, 0.0], dtype=np.float32))  # exp(1e4) alone would overflow
        array([1., 0.], dtype=float32)
        >>> softmax([[0.0, -np.inf], [-np.inf, -np.inf]])  # an all -inf row gives zeros
        array([[1., 0.],
               [0., 0.]])
    """
    x = as_real_array(x, "x")
    # A fresh buffer to work in; float16 is summed in float32.
    work = x.astype(np.promote_types(x.dtype, np.float32))
    return _kernels.softmax_(work, axis=axis, name="x").astype(x.dtype, copy=False)


def softmax_jacobian(s: ArrayLike) -> FloatArray:
    r"""Jacobian of the softmax at its output ``s``: $J = \mathrm{diag}(s) - s s^\top$.

    $J_{ij} = \partial s_i / \partial x_j = s_i(\delta_{ij} - s_j)$; it is symmetric.

    Args:
        s: one softmax output, shape ``(n,)``.

    Returns:
        J, shape ``(n, n)``.

    Raises:
        ValueError: ``s`` is not 1-D (use `softmax_backward` for batches).

    Examples:
        >>> from paperlens import softmax_jacobian
        >>> softmax_jacobian([0.5, 0.5])
        array([[ 0.25, -0.25],
               [-0.25,  0.25]])
    """
    s = as_real_array(s, "s")
    if s.ndim != 1:
        raise ValueError(
            f"s must be 1-D, shape (n,), got shape {s.shape}; use softmax_backward for batches"
        )
    return np.diag(s) - np.outer(s, s)  # (n, n) - (n, 1) x (1, n) -> (n, n)


def softmax_backward(s: ArrayLike, grad: ArrayLike, *, axis: int = -1) -> FloatArray:
    r"""Backward pass of the softmax: $\partial L/\partial x = s \odot (g - \langle g, s\rangle)$.

    The vector-Jacobian product $J^\top g$ with $J = \mathrm{diag}(s) - s s^\top$, computed
    slice by slice without forming J.

    Args:
        s: the softmax output ``softmax(x, axis=axis)``, shape ``(..., n, ...)``.
        grad: $g = \partial L/\partial s$, same shape as ``s``.
        axis: the axis the softmax normalised over.

    Returns:
        $\partial L/\partial x$, same shape as ``s``.

    Raises:
        ValueError: ``grad`` and ``s`` have different shapes, or hold NaN or ±inf.

    Examples:
        >>> import numpy as np
        >>> from paperlens import softmax_backward
        >>> softmax_backward([0.5, 0.5], [1.0, 0.0])
        array([ 0.25, -0.25])
        >>> softmax_backward([0.5, 0.5], [1.0, 1.0])  # adding c to every x changes nothing
        array([0., 0.])
    """
    s = as_real_array(s, "s")
    grad = as_real_array(grad, "grad")
    if grad.shape != s.shape:
        raise ValueError(
            f"grad = dL/ds must have the shape of s: grad has shape {grad.shape} "
            f"but s has shape {s.shape}"
        )
    require_finite(s, "s")
    require_finite(grad, "grad")
    return _kernels.softmax_backward(s, grad, axis=axis)


def softmax_gradient_norm(scores: ArrayLike, *, axis: int = -1) -> np.float64 | NDArray[np.float64]:
    r"""Frobenius norm $\lVert J \rVert_F$ of the softmax Jacobian at $s = \mathrm{softmax}(x)$.

    Shows saturation: multiply the scores up and $s$ tends to one-hot, so
    $J = \mathrm{diag}(s) - s s^\top \to 0$ and almost no gradient flows back. This is why
    attention divides its scores by $\sqrt{d_k}$. Computed in float64.

    Args:
        scores: x, shape ``(n,)``, or ``(..., n, ...)`` for one norm per slice along ``axis``.
        axis: the softmax axis.

    Returns:
        The norm: a scalar for 1-D scores, else shape ``scores.shape`` without ``axis``.

    Examples:
        >>> import numpy as np
        >>> from paperlens import softmax_gradient_norm
        >>> for c in (1, 10, 100):
        ...     print(c, f"{softmax_gradient_norm(np.array([1.0, 2.0, 3.0]) * c):.2e}")
        1 3.89e-01
        10 9.08e-05
        100 7.44e-44
    """
    x = as_real_array(scores, "scores").astype(np.float64)
    s = np.moveaxis(softmax(x, axis=axis), axis, -1)  # (..., n)
    n = s.shape[-1]
    on_diagonal = np.eye(n, dtype=bool)  # (n, n)
    # 1 - s_i, summed from the other entries: 1 - s_i itself rounds to 0 once s_i is within 1e-16
    # of 1, which is exactly the saturated regime this measures.
    rest = np.where(on_diagonal, 0.0, s[..., None, :]).sum(axis=-1)  # (..., n, n) -> (..., n)
    J = -s[..., :, None] * s[..., None, :]  # (..., n, 1) x (..., 1, n) -> (..., n, n)
    J[..., on_diagonal] = s * rest  # diagonal s_i (1 - s_i)
    norm: np.float64 | NDArray[np.float64] = np.sqrt(np.sum(J * J, axis=(-2, -1)))  # (...)
    return norm
