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

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

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


def softmax_(
    scores: FloatArray, *, axis: int = -1, name: str = "x", shift: bool = True
) -> FloatArray:
    """Softmax along ``axis`` computed in place: ``scores`` is overwritten and returned.

    With the shift by each slice's maximum (the default), raises ValueError, naming the scores
    ``name``, for a slice whose maximum is NaN or +inf. ``shift=False`` skips the shift (two
    passes over the scores) and that check, for a caller that knows every score is -inf or
    finite and below `exp_safe` of its dtype in size.
    """
    if shift:
        # softmax(x) = softmax(x - c) for any c. With c = max(x) every exponent is <= 0, so exp
        # cannot overflow (exp(1e4) is inf in float32, and inf / inf is NaN). initial=-inf
        # handles n = 0.
        top = np.max(scores, axis=axis, keepdims=True, initial=-np.inf)  # (..., 1, ...)
        if not np.isfinite(top).all():  # rare, so the common case costs one test
            bad = np.isnan(top) | np.isposinf(top)
            if bad.any():
                raise ValueError(
                    f"{name} must not hold NaN or +inf, but {int(bad.sum())} slices do"
                )
            # A slice that is all -inf has max -inf, and -inf - (-inf) is NaN: shift it by 0.
            top[np.isneginf(top)] = 0
        with np.errstate(over="ignore"):  # x - max overflows only to -inf, whose exp is 0
            np.subtract(scores, top, out=scores)
    np.exp(scores, out=scores)
    # (..., 1, ...): 0 for a slice all -inf; else >= 1 with the shift, and > 0 without it for
    # scores bounded as the caller promises
    total = np.sum(scores, axis=axis, keepdims=True)
    if not total.all():  # an all -inf slice: 0 / 1 gives zero weights rather than 0 / 0 = NaN
        total[total == 0] = 1
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


_OVERFLOWS: dict[str, Callable[[FloatArray], NDArray[np.bool_]]] = {
    "+inf": np.isposinf,
    "-inf": np.isneginf,
    "NaN": np.isnan,
}


def score_bound(Q: FloatArray, K: FloatArray) -> float:
    """A bound on the size of every score q · k of the (scaled) queries Q and the keys K.

    By Cauchy-Schwarz, every product and partial sum of q · k is at most |q| |k| in size, so
    the largest |q| times the largest |k| bounds them all, to rounding, which the callers'
    margins cover many times over. inf if a |q|^2 or |k|^2 overflows (NaN if the other is 0):
    the callers test ``not bound < limit``, which then takes their safe path. A |q|^2 in or
    below the subnormal range (in float32, |q| below 1.1e-19) can make the bound too small, even
    0; the scores are then below 3, since |k| < 1.9e19 unless |k|^2 overflows, far below what
    the callers test.
    """
    with np.errstate(over="ignore", invalid="ignore"):  # |q|^2 past the largest float: inf
        q2 = float(np.max(np.vecdot(Q, Q), initial=0))  # the largest |q|^2
        k2 = float(np.max(np.vecdot(K, K), initial=0))  # the largest |k|^2
    return math.sqrt(q2) * math.sqrt(k2)


def may_overflow(bound: float, dtype: np.dtype[Any]) -> bool:
    """Whether a score of size up to ``bound`` (`score_bound`) could overflow ``dtype``: if
    the bound is below half the largest float, no score can, and none needs a look."""
    return not bound < float(np.finfo(dtype).max) / 2


def exp_safe(dtype: np.dtype[Any]) -> float:
    """A size of scores below which softmax needs no shift by the maximum: ln(largest float) / 4,
    22.2 in float32 and 177 in float64 (computed in the dtype: 2839 in x86's long double). Every
    exp(s) with |s| below it is a normal float, at most the largest float to the power 1/4, so
    no exp overflows or loses precision to underflow, and in float32 and wider types sums of up
    to 2^40 of them stay finite (not in float16, which attention computes in float32)."""
    return float(np.log(np.finfo(dtype).max)) / 4


def attention_scores(
    Q: FloatArray, K_T: FloatArray, out: FloatArray | None = None, look: bool = True
) -> FloatArray:
    """Q K^T, into ``out`` if given, for finite Q and K^T; ValueError if a score overflows.

    Q is the scaled queries ``(..., n_q, d_k)`` and K_T the keys transposed ``(..., d_k, n_k)``.
    ``look=False`` skips looking for an overflow where `may_overflow` has ruled one out.
    """
    # An overflow is found in the scores themselves, not from NumPy's floating-point flags: the
    # flags belong to a thread, and OpenBLAS computes a large product on several. Finite inputs
    # give a score of ±inf or NaN only by overflowing; a mask's -inf is added after this check.
    with np.errstate(over="ignore", invalid="ignore"):
        # (..., n_q, d_k) x (..., d_k, n_k) -> (..., n_q, n_k)
        S: FloatArray = np.matmul(Q, K_T, out=out)
        # One pass, no array of flags: the sum is finite if every score is (a non-finite sum
        # may also be large finite scores summing past the largest float: then look closer).
        total = np.sum(S) if look else 0
    if not np.isfinite(total):
        found = [name for name, test in _OVERFLOWS.items() if test(S).any()]
        if found:
            raise ValueError(
                f"the scores Q K^T · scale overflow {S.dtype} (to {' and '.join(found)}): "
                "scale the inputs down or use float64"
            )
    return S


def mask_scores(
    S: FloatArray, mask: NDArray[Any] | None, flags: NDArray[np.bool_] | None = None
) -> None:
    """Apply a checked mask to a block of scores S in place: -inf where a bool mask is False, or
    add a floating one. ``mask`` broadcasts to S; ``flags``, bools of S's shape, if given, is
    used for the bool mask's negation instead of allocating an array for it."""
    if mask is None:
        return
    if mask.dtype == bool:
        np.copyto(S, -np.inf, where=np.logical_not(mask, out=flags))  # exp(-inf) = 0: no weight
    else:
        # A large negative float64 (e.g. -1e300) becomes -inf in float32: still "never attend".
        with np.errstate(over="ignore"):
            S += mask


_SCORES = "the scores Q K^T · scale + mask"
BLOCK = 2**18
"""Scores per block of `attention` (1 MiB in float32), if a head's rows allow: small enough
for the softmax's passes over a block to run in the CPU's cache, not through main memory."""
MIN_ROWS = 512
"""Query rows per block at the least: fewer make the matrix products slower, and each product
is one more call that OpenBLAS shares out among its threads."""


def score_blocks(batch: tuple[int, ...], n_q: int, n_k: int) -> Iterator[tuple[int | slice, ...]]:
    """Indices into ``(*batch, n_q)`` that cover it in blocks of about `BLOCK` scores each.

    Several whole heads at a time (along the last batch dim) where one head's table is small,
    else one head at a time, `MIN_ROWS` or more of its query rows at a time.
    """
    per_head = n_q * n_k
    if batch and per_head < BLOCK:
        heads = BLOCK // max(per_head, 1)
        for outer in np.ndindex(*batch[:-1]):
            for h in range(0, batch[-1], heads):
                yield (*outer, slice(h, h + heads), slice(None))
    else:
        rows = max(MIN_ROWS, BLOCK // n_k)
        for head in np.ndindex(*batch):
            for r in range(0, n_q, rows):
                yield (*head, slice(r, r + rows))


def attention(
    Q: FloatArray, K: FloatArray, V: FloatArray, scale: float, mask: NDArray[Any] | None = None
) -> tuple[FloatArray, FloatArray]:
    r"""$O = \mathrm{softmax}(Q K^\top \cdot \mathrm{scale} + M)\, V$ and the weights P.

    Q, K, V are checked, in one floating dtype; ``mask`` is checked (`_checks.check_mask`) or
    None. The scores are computed a block of query rows at a time (`score_blocks`), each
    normalised in its place in P while it is in the cache.
    """
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    n_q, n_k, d_v = Q.shape[-2], K.shape[-2], V.shape[-1]
    # The scale goes into Q (n_q·d_k products) rather than the scores (n_q·n_k products). If
    # it overflows, the scores show it: attention_scores finds it there.
    with np.errstate(over="ignore", invalid="ignore"):
        Q = Q * Q.dtype.type(scale)  # (..., n_q, d_k)
    bound = score_bound(Q, K)  # no score is larger in size
    look = may_overflow(bound, Q.dtype)  # whether the scores need a look for an overflow
    # softmax(s) = exp(s) / sum(exp(s)). Its usual shift by each row's maximum keeps exp from
    # overflowing, and a row of very negative scores from underflowing to all zeros; scores
    # bounded by exp_safe in size, with no mask or a bool one (a float mask may add anything),
    # need neither. (A row with one key then gets exp(s) / exp(s): 1 to within a rounding.)
    shift = not (bound < exp_safe(Q.dtype) and (mask is None or mask.dtype == bool))
    Q = np.broadcast_to(Q, (*batch, *Q.shape[-2:]))  # (..., n_q, d_k), a view
    K_T = np.broadcast_to(K, (*batch, *K.shape[-2:])).swapaxes(-1, -2)  # (..., d_k, n_k)
    V = np.broadcast_to(V, (*batch, *V.shape[-2:]))  # (..., n_k, d_v)
    M = None if mask is None else np.broadcast_to(mask, (*batch, n_q, n_k))  # a view
    P = np.empty((*batch, n_q, n_k), Q.dtype)  # (..., n_q, n_k): the weights
    output = np.empty((*batch, n_q, d_v), Q.dtype)  # (..., n_q, d_v)
    for rows in score_blocks(batch, n_q, n_k):  # rows of one or more heads: (..., bq)
        heads = rows[:-1]
        S = attention_scores(Q[rows], K_T[heads], P[rows], look)  # S = Q K^T · scale, in P
        mask_scores(S, None if M is None else M[rows])  # S + M: -inf where a key is masked
        weights = softmax_(S, name=_SCORES, shift=shift)  # softmax(S + M), in place
        np.matmul(weights, V[heads], out=output[rows])  # O = P V: (..., bq, n_k) x (..., n_k, d_v)
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
