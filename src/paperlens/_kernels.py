r"""Shared kernels: the computation of the public functions, without their input checks.

What belongs here: arithmetic used by more than one module (a public function and another
module that composes it, such as `linear` inside `mlp`), on arrays its caller has already
checked with `paperlens._checks`: floating dtypes, shapes that fit, and finite values wherever
the public function demands them. A kernel converts, validates and names nothing; it may raise
only for a problem the computation itself creates (an overflow, a NaN born inside), in words the
caller chooses. Each public function is its checks followed by its kernel, so a composite such
as `mlp` checks once, at its own boundary, and then calls the kernels layer after layer.

What does not belong here: input checks (`paperlens._checks`), and helpers used by one module
only (they stay private to it).
"""

from __future__ import annotations

import numpy as np

from paperlens._checks import FloatArray


def linear(x: FloatArray, W: FloatArray, b: FloatArray | None) -> FloatArray:
    """$y = x W + b$: x ``(..., n, d_in)``, W ``(..., d_in, d_out)`` -> ``(..., n, d_out)``."""
    y: FloatArray = x @ W  # (..., n, d_in) x (..., d_in, d_out) -> (..., n, d_out)
    if b is None:
        return y
    if np.result_type(y, b) == y.dtype and np.broadcast_shapes(y.shape, b.shape) == y.shape:
        y += b  # in place, the same sums: no second (..., n, d_out) buffer to allocate
        return y
    return y + b  # b has more batch dims than x W, or a wider dtype


def linear_backward(
    x: FloatArray, W: FloatArray, G: FloatArray, b_shape: tuple[int, ...]
) -> tuple[FloatArray, FloatArray, FloatArray]:
    r"""$dx = G W^\top$, $dW = x^\top G$, $db = \sum_n G$, each summed to its input's shape.

    ``G`` is $\partial L/\partial y$, shape ``(..., n, d_out)``; ``b_shape`` is the bias's shape.
    """
    dx = G @ W.swapaxes(-1, -2)  # (..., n, d_out) x (..., d_out, d_in) -> (..., n, d_in)
    dW = x.swapaxes(-1, -2) @ G  # (..., d_in, n) x (..., n, d_out) -> (..., d_in, d_out)
    db = sum_to_shape(G, b_shape)
    if db is G:  # b had the output's own shape: db must not be the caller's G itself
        db = G.copy()
    return sum_to_shape(dx, x.shape), sum_to_shape(dW, W.shape), db


def sum_to_shape(g: FloatArray, shape: tuple[int, ...]) -> FloatArray:
    """Sum ``g`` over the dims that broadcasting added or stretched, giving ``shape``.

    The gradient of a broadcast input is the sum of the gradients of all its copies.

    Args:
        g: a gradient, shape ``(..., *shape)`` up to stretched size-1 dims.
        shape: the shape of the input that was broadcast.

    Returns:
        The summed gradient, shape ``shape``; ``g`` itself, not a copy, if nothing was broadcast.

    Examples:
        >>> import numpy as np
        >>> from paperlens._kernels import sum_to_shape
        >>> sum_to_shape(np.ones((2, 3, 4)), (1, 4))
        array([[6., 6., 6., 6.]])
    """
    # Each sum only where there is something to sum: a sum over no axes is a copy, and the
    # backward passes call this for every parameter, most of which were not broadcast.
    if g.shape == shape:
        return g
    added = tuple(range(g.ndim - len(shape)))
    if added:
        g = g.sum(axis=added)  # drop leading dims broadcasting added
    stretched = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    if stretched:
        g = g.sum(axis=stretched, keepdims=True)  # (*shape)
    return g


def relu(x: FloatArray) -> FloatArray:
    r"""$\max(x, 0)$, elementwise."""
    return np.maximum(x, 0)


def relu_backward(x: FloatArray, grad_output: FloatArray) -> FloatArray:
    r"""$[x > 0] \odot \partial L/\partial\, \mathrm{relu}(x)$; ``grad_output`` has x's shape."""
    # The product as written, not np.where(x > 0, g, 0): it has no branch, and on random signs it
    # is several times faster. An off unit passes back 0 (-0.0 where g < 0; NaN if g were inf,
    # which is why g must be finite).
    grad_x: FloatArray = grad_output * (x > 0)  # (...)
    return grad_x


def softmax_(scores: FloatArray, *, axis: int = -1, name: str = "x") -> FloatArray:
    """Softmax along ``axis`` computed in place: ``scores`` is overwritten and returned.

    Raises ValueError, naming the scores ``name``, for a slice whose maximum is NaN or +inf.
    """
    # softmax(x) = softmax(x - c) for any c. With c = max(x) every exponent is <= 0, so exp cannot
    # overflow (exp(1e4) is inf in float32, and inf / inf is NaN). initial=-inf handles n = 0.
    top = np.max(scores, axis=axis, keepdims=True, initial=-np.inf)  # (..., 1, ...)
    bad = np.isnan(top) | np.isposinf(top)
    if bad.any():
        raise ValueError(f"{name} must not hold NaN or +inf, but {int(bad.sum())} slices do")
    # A slice that is all -inf has max -inf, and -inf - (-inf) is NaN: shift it by 0 instead.
    top[np.isneginf(top)] = 0
    with np.errstate(over="ignore"):  # x - max can only overflow to -inf, whose exp is the right 0
        np.subtract(scores, top, out=scores)
    np.exp(scores, out=scores)
    total = np.sum(scores, axis=axis, keepdims=True)  # (..., 1, ...), >= 1 unless all -inf
    total[total == 0] = 1  # an all -inf slice: 0 / 1 gives zero weights rather than 0 / 0 = NaN
    # One division per slice, then multiplications, which are cheaper than divisions.
    np.multiply(scores, 1 / total, out=scores)
    return scores


def softmax_backward(w: FloatArray, grad: FloatArray, *, axis: int = -1) -> FloatArray:
    r"""The softmax's vector-Jacobian product $w \odot (g - \langle g, w\rangle)$ along ``axis``.

    At the weights $w = \mathrm{softmax}(s)$, it turns $g = \partial L/\partial w$ into
    $\partial L/\partial s$.
    """
    inner = np.sum(grad * w, axis=axis, keepdims=True)  # (..., 1, ...)
    grad_s: FloatArray = w * (grad - inner)  # (..., n, ...)
    return grad_s


def attention_scores(
    Q: FloatArray, K: FloatArray, scale: float, out: FloatArray | None = None
) -> FloatArray:
    """Q K^T · scale, into ``out`` if given; ValueError if it overflows Q's dtype."""
    with np.errstate(over="raise", invalid="raise"):
        try:
            # The scale goes into Q (n_q·d_k products) rather than the scores (n_q·n_k products).
            Q = Q * Q.dtype.type(scale)  # (..., n_q, d_k)
            K_T = K.swapaxes(-1, -2)  # (..., d_k, n_k)
            scores: FloatArray = np.matmul(Q, K_T, out=out)  # (..., n_q, n_k)
        except FloatingPointError:
            raise ValueError(
                f"the scores Q K^T · scale overflow {Q.dtype}: scale the inputs down or use float64"
            ) from None
    return scores


_SCORES = "the scores Q K^T · scale + mask"


def attention(
    Q: FloatArray, K: FloatArray, V: FloatArray, scale: float, mask: FloatArray | None
) -> tuple[FloatArray, FloatArray]:
    r"""$O = \mathrm{softmax}(Q K^\top \cdot \mathrm{scale} + M)\, V$ and the weights P.

    Q, K, V in one floating dtype; ``mask`` is additive (`_checks.as_mask`) or None.
    """
    S = attention_scores(Q, K, scale)  # (..., n_q, n_k)
    shape = (*np.broadcast_shapes(S.shape[:-2], V.shape[:-2]), *S.shape[-2:])
    if S.shape != shape:  # V alone had more batch dims: the weights get them too
        S = np.broadcast_to(S, shape).copy()  # (..., n_q, n_k)
    if mask is not None:
        S += mask  # -inf where a key is masked: exp(-inf) = 0 gives it no weight
    P = softmax_(S, name=_SCORES)  # (..., n_q, n_k), normalised in place
    output: FloatArray = P @ V  # (..., n_q, n_k) x (..., n_k, d_v) -> (..., n_q, d_v)
    return output, P


def attention_backward(
    Q: FloatArray, K: FloatArray, V: FloatArray, P: FloatArray, G: FloatArray, scale: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    r"""dQ, dK, dV of `attention`, from its weights P and $G = \partial L/\partial O$.

    Each gradient is summed to its input's shape (an input broadcast over batch dims gets the
    sum of its copies' gradients).
    """
    # O = P V
    dV = P.swapaxes(-1, -2) @ G  # (..., n_k, n_q) x (..., n_q, d_v) -> (..., n_k, d_v)
    dP = G @ V.swapaxes(-1, -2)  # (..., n_q, d_v) x (..., d_v, n_k) -> (..., n_q, n_k)
    # P = softmax(S): a fully masked row has P = 0 there, hence dS = 0
    dS = softmax_backward(P, dP)  # (..., n_q, n_k)
    # S = Q K^T · scale + M
    dQ = scale * (dS @ K)  # (..., n_q, n_k) x (..., n_k, d_k) -> (..., n_q, d_k)
    dK = scale * (dS.swapaxes(-1, -2) @ Q)  # (..., n_k, n_q) x (..., n_q, d_k) -> (..., n_k, d_k)
    return sum_to_shape(dQ, Q.shape), sum_to_shape(dK, K.shape), sum_to_shape(dV, V.shape)
