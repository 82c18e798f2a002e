"""Shared input checks: one clear message for each mistake a user can make.

Every public function turns its inputs into arrays here first, so that a wrong shape, a string
or a NaN is reported by name (``Q``, ``K``, ``mask``...) instead of surfacing later as a silently
wrong number.
"""

from __future__ import annotations

import math
import numbers
import operator
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.floating[Any]]
"""A floating-point array of any precision."""


def as_real_array(x: ArrayLike, name: str) -> FloatArray:
    """``x`` as a floating array: floats keep their dtype, integers and bools become float64.

    Raises:
        TypeError: complex, string, object or other non-numeric data.
        ValueError: ragged nested lists.
    """
    try:
        a = np.asarray(x)
    except ValueError as error:  # e.g. [[1, 2], [3]]
        raise ValueError(f"{name} is not a rectangular array: {error}") from None
    kind = a.dtype.kind
    if kind == "f":
        return a
    if kind in "biu":
        return a.astype(np.float64)
    if kind == "c":
        raise TypeError(f"{name} is complex ({a.dtype}); paperlens works with real numbers only")
    raise TypeError(f"{name} must hold real numbers, got an array of dtype {a.dtype}")


def require_finite(a: FloatArray, name: str) -> None:
    """Raise ValueError if ``a`` holds NaN or ±inf, saying how many entries are bad."""
    # One pass and no array of flags: a NaN or ±inf entry makes the sum NaN or ±inf, so a
    # finite sum proves every entry finite. (Finite entries can also sum past the largest float;
    # then the entries themselves are looked at.)
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(np.sum(a)) or np.isfinite(a).all():
            return
    n_nan = int(np.isnan(a).sum())
    n_inf = int(np.isinf(a).sum())
    raise ValueError(
        f"{name} must be finite but has {n_nan} NaN and {n_inf} infinite entries "
        f"(of {a.size}); only an additive mask may hold -inf"
    )


def require_matrix(a: FloatArray, name: str, dims: str) -> None:
    """Raise ValueError unless ``a`` has at least 2 dims; ``dims`` names them, e.g. "n_q, d_k"."""
    if a.ndim < 2:
        raise ValueError(
            f"{name} must have at least 2 dims (..., {dims}), got shape {a.shape} "
            f"({a.ndim} dim{'s' if a.ndim != 1 else ''})"
        )


def require_size(value: int, name: str, *, minimum: int = 1) -> int:
    """``value`` as an int, or TypeError / ValueError if it is not an integer ≥ ``minimum``."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r}") from None
    if n < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {n}")
    return n


def require_real_scalar(value: float, name: str) -> float:
    """``value`` as a finite float, or TypeError / ValueError."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    x = float(value)
    if not np.isfinite(x):
        raise ValueError(f"{name} must be finite, got {x}")
    return x


def check_mask(mask: ArrayLike, scores_shape: tuple[int, ...]) -> NDArray[Any]:
    """A boolean or additive mask, checked but neither converted nor expanded.

    The kernels apply it to each block of scores as they go (`_kernels.mask_scores`), so a
    mask costs no memory beyond its own, and a broadcastable one (say ``(n_q, n_k)`` for every
    head) is never expanded to the scores' full shape.

    Args:
        mask: bool (True = may attend) or floating (added to the scores), broadcastable to
            ``scores_shape``.
        scores_shape: the shape of the scores, ``(..., n_q, n_k)``.

    Returns:
        The mask as an array: bool, or floating in its own dtype.

    Raises:
        TypeError: integer (ambiguous: 0/1 flags or additive?), complex or non-numeric masks.
        ValueError: a shape that does not broadcast to the scores, NaN, or +inf.
    """
    m = np.asarray(mask)
    if m.dtype.kind == "f":
        # One reduction and no temporary array of the mask's size: max is NaN if any entry is.
        top = np.max(m, initial=-np.inf)
        if np.isnan(top):
            raise ValueError(f"mask must not hold NaN, but {int(np.isnan(m).sum())} entries are")
        if top == np.inf:
            raise ValueError(
                "mask must not hold +inf: use 0 where a key may be attended and -inf "
                "(or a large negative number such as -1e9) where it may not"
            )
    elif m.dtype.kind in "iu":
        raise TypeError(
            f"mask must be bool (True = may attend) or floating (added to the scores), "
            f"got {m.dtype}; for 0/1 flags pass mask.astype(bool)"
        )
    elif m.dtype.kind != "b":
        raise TypeError(f"mask must be a bool or floating array, got dtype {m.dtype}")
    try:
        broadcast = np.broadcast_shapes(m.shape, scores_shape)
    except ValueError:
        broadcast = None
    if broadcast != scores_shape:
        raise ValueError(
            f"mask of shape {m.shape} does not broadcast to the scores' shape "
            f"(..., n_q, n_k) = {scores_shape}"
        )
    return m


class AttentionInputs(NamedTuple):
    """Inputs of attention after `check_attention_inputs`, as arrays in the working dtype."""

    Q: FloatArray
    K: FloatArray
    V: FloatArray
    mask: NDArray[Any] | None  # bool (True = may attend) or floating (added), not expanded
    scale: float
    dtype: np.dtype[Any]  # of the results
    batch: tuple[int, ...]  # the broadcast batch dims of Q, K and V


def check_attention_inputs(
    Q: ArrayLike, K: ArrayLike, V: ArrayLike, mask: ArrayLike | None, scale: float | None
) -> AttentionInputs:
    """Check the Q, K, V, mask and scale of attention, with a clear message for each mistake."""
    Q, K, V = as_real_array(Q, "Q"), as_real_array(K, "K"), as_real_array(V, "V")
    for x, name, dims in [(Q, "Q", "n_q, d_k"), (K, "K", "n_k, d_k"), (V, "V", "n_k, d_v")]:
        require_matrix(x, name, dims)
    if K.shape[-1] != Q.shape[-1]:
        raise ValueError(
            f"K has d_k={K.shape[-1]} but Q has d_k={Q.shape[-1]}: shapes {K.shape} and {Q.shape}"
        )
    if V.shape[-2] != K.shape[-2]:
        raise ValueError(
            f"V has n_k={V.shape[-2]} but K has n_k={K.shape[-2]}: shapes {V.shape} and {K.shape}"
        )
    try:
        batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    except ValueError:
        raise ValueError(
            f"the batch dims of Q, K and V do not broadcast: shapes {Q.shape}, {K.shape} "
            f"and {V.shape}"
        ) from None
    if Q.shape[-1] == 0 or K.shape[-2] == 0:
        raise ValueError(f"attention needs d_k >= 1 and n_k >= 1: Q {Q.shape}, K {K.shape}")
    for x, name in [(Q, "Q"), (K, "K"), (V, "V")]:
        require_finite(x, name)
    dtype = np.result_type(Q, K, V)
    work = np.promote_types(dtype, np.float32)  # float16 matmuls and sums run in float32
    Q, K, V = (x.astype(work, copy=False) for x in (Q, K, V))
    scores_shape = (*batch, Q.shape[-2], K.shape[-2])
    mask_ = None if mask is None else check_mask(mask, scores_shape)
    scale_ = 1 / math.sqrt(Q.shape[-1]) if scale is None else require_real_scalar(scale, "scale")
    return AttentionInputs(Q, K, V, mask_, scale_, dtype, batch)
