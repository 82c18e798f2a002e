r"""Softmax, its Jacobian and its backward pass.

The attention weights of *Attention Is All You Need* (Vaswani et al., 2017,
https://arxiv.org/abs/1706.03762) are a softmax over the keys:

$$w_i = \mathrm{softmax}(s)_i = \frac{e^{s_i}}{\sum_l e^{s_l}}, \qquad
\frac{\partial w_i}{\partial s_j} = w_i(\delta_{ij} - w_j),$$

with $s$ the scores and $w$ the weights, as on the site's pages (its notation page lists both).
When one score leads all the others by a wide margin, ``w`` is nearly one-hot and that
Jacobian is nearly zero: the softmax *saturates*. It then passes back almost nothing of a
gradient of moderate size at the weights, as attention's is (the values times the gradient at
the output); not of one that grows as a weight shrinks: with the cross-entropy $-\log w_y$ the
gradient reaching the scores is $w - y$, full-size when the spike is on a wrong class.
`softmax_gradient_norm` measures the Jacobian's size.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from paperlens import _kernels
from paperlens._checks import FloatArray, as_real_array, require_finite


def softmax(x: ArrayLike, *, axis: int = -1) -> FloatArray:
    r"""Softmax along one axis: the weights $w_i = e^{s_i} / \sum_l e^{s_l}$ of the scores s.

    Numerically stable: no overflow for scores of 1e4 in float32 or 1e300 in float64.

    Args:
        x: the scores s, any shape ``(..., n, ...)``; ``-inf`` is allowed and gets weight 0.
        axis: the axis of length ``n`` to normalise over.

    Returns:
        The weights w, of x's shape, ≥ 0 and summing to 1 along ``axis``. Floating inputs keep their
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


def softmax_jacobian(w: ArrayLike) -> FloatArray:
    r"""Jacobian of the softmax at its output, the weights $w = \mathrm{softmax}(s)$:
    $J = \mathrm{diag}(w) - w w^\top$.

    $J_{ij} = \partial w_i / \partial s_j = w_i(\delta_{ij} - w_j)$, where $s$ are the scores;
    it is symmetric. It is written in the weights, not the scores: pass ``softmax(s)``.

    Args:
        w: one softmax output (the weights), shape ``(n,)``.

    Returns:
        J, shape ``(n, n)``.

    Raises:
        ValueError: ``w`` is not 1-D (use `softmax_backward` for batches).

    Examples:
        >>> from paperlens import softmax_jacobian
        >>> softmax_jacobian([0.5, 0.5])
        array([[ 0.25, -0.25],
               [-0.25,  0.25]])
    """
    w = as_real_array(w, "w")
    if w.ndim != 1:
        raise ValueError(
            f"w must be 1-D, shape (n,), got shape {w.shape}; use softmax_backward for batches"
        )
    return np.diag(w) - np.outer(w, w)  # (n, n) - (n, 1) x (1, n) -> (n, n)


def softmax_backward(w: ArrayLike, grad: ArrayLike, *, axis: int = -1) -> FloatArray:
    r"""Backward pass of the softmax: $\partial L/\partial s = w \odot (g - \langle g, w\rangle)$.

    The vector-Jacobian product $J^\top g$ with $J = \mathrm{diag}(w) - w w^\top$, computed
    slice by slice without forming J; $s$ are the scores and $w = \mathrm{softmax}(s)$ the
    weights.

    Args:
        w: the softmax output ``softmax(s, axis=axis)``, shape ``(..., n, ...)``.
        grad: $g = \partial L/\partial w$, same shape as ``w``.
        axis: the axis the softmax normalised over.

    Returns:
        $\partial L/\partial s$, same shape as ``w``.

    Raises:
        ValueError: ``grad`` and ``w`` have different shapes, or hold NaN or ±inf.

    Examples:
        >>> import numpy as np
        >>> from paperlens import softmax_backward
        >>> softmax_backward([0.5, 0.5], [1.0, 0.0])
        array([ 0.25, -0.25])
        >>> softmax_backward([0.5, 0.5], [1.0, 1.0])  # equal at every weight: nothing passes back
        array([0., 0.])
    """
    w = as_real_array(w, "w")
    grad = as_real_array(grad, "grad")
    if grad.shape != w.shape:
        raise ValueError(
            f"grad = dL/dw must have the shape of w: grad has shape {grad.shape} "
            f"but w has shape {w.shape}"
        )
    require_finite(w, "w")
    require_finite(grad, "grad")
    return _kernels.softmax_backward(w, grad, axis=axis)


def softmax_gradient_norm(scores: ArrayLike, *, axis: int = -1) -> np.float64 | NDArray[np.float64]:
    r"""Frobenius norm $\lVert J \rVert_F$ of the softmax Jacobian at the scores $s$.

    $J = \mathrm{diag}(w) - w w^\top$ with the weights $w = \mathrm{softmax}(s)$. A gradient
    $g$ at the weights reaches the scores as $J^\top g$, of size at most
    $\lVert J \rVert_F \lVert g \rVert$. Multiply scores with a single largest entry by a
    growing factor and $w$ tends to one-hot, so $J \to 0$: saturation (at most $2\varepsilon$
    when the largest weight is $1 - \varepsilon$). With two scores tied for the largest, $J$
    does not vanish. Nor is a small norm always saturation: the uniform weights of $n$ equal
    scores give $\sqrt{n - 1}/n$, small when n is large. Computed in float64.

    Args:
        scores: s, shape ``(n,)``, or ``(..., n, ...)`` for one norm per slice along ``axis``.
        axis: the softmax axis.

    Returns:
        The norm: a scalar for 1-D scores, else shape ``scores.shape`` without ``axis``.

    Examples:
        >>> import numpy as np
        >>> from paperlens import softmax_gradient_norm
        >>> for c in (1, 10, 100):
        ...     print(c, f"{softmax_gradient_norm(np.array([1.0, 2.0, 3.0]) * c):.2e}")
        ...
        1 3.89e-01
        10 9.08e-05
        100 7.44e-44
        >>> round(float(softmax_gradient_norm(1000 * np.array([1.0, 1.0, 0.0]))), 6)  # a tie
        0.5
        >>> round(float(softmax_gradient_norm(np.zeros(128))), 4)  # uniform: sqrt(127) / 128
        0.088
    """
    s = as_real_array(scores, "scores").astype(np.float64)
    w = np.moveaxis(softmax(s, axis=axis), axis, -1)  # (..., n) the weights
    n = w.shape[-1]
    on_diagonal = np.eye(n, dtype=bool)  # (n, n)
    # 1 - w_i, summed from the other entries: 1 - w_i itself rounds to 0 once w_i is within 1e-16
    # of 1, which is exactly the saturated regime this measures.
    rest = np.where(on_diagonal, 0.0, w[..., None, :]).sum(axis=-1)  # (..., n, n) -> (..., n)
    J = -w[..., :, None] * w[..., None, :]  # (..., n, 1) x (..., 1, n) -> (..., n, n)
    J[..., on_diagonal] = w * rest  # diagonal w_i (1 - w_i)
    norm: np.float64 | NDArray[np.float64] = np.sqrt(np.sum(J * J, axis=(-2, -1)))  # (...)
    return norm
