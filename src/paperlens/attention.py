r"""Scaled dot-product attention, its hand-derived backward pass, and the causal mask.

*Attention Is All You Need* (Vaswani et al., 2017, https://arxiv.org/abs/1706.03762), eq. (1):

$$\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\!\left(\frac{Q K^\top}{\sqrt{d_k}}\right) V.$$

Each query (a row of Q) is compared with every key (a row of K); the softmax turns the scores
into weights over the keys, and the output row is that weighted average of the rows of V. The
paper divides by $\sqrt{d_k}$, and gives its reason as a suspicion ("We suspect ..."): large
scores push the softmax "into regions where it has extremely small gradients". Its footnote 4
shows why the scores are large: for q and k with independent components of mean 0 and
variance 1, the score $q \cdot k$ has variance $d_k$.

Shapes: Q ``(..., n_q, d_k)``, K ``(..., n_k, d_k)``, V ``(..., n_k, d_v)``; the leading batch
dims ``...`` broadcast as in NumPy.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from paperlens import _kernels
from paperlens._checks import (
    FloatArray,
    as_real_array,
    check_attention_inputs,
    require_finite,
    require_size,
)


class AttentionResult(NamedTuple):
    """What `attention` returns; unpacks as ``output, weights``."""

    output: FloatArray
    """softmax(Q K^T · scale + mask) V, shape ``(..., n_q, d_v)``."""
    weights: FloatArray
    """The attention weights softmax(Q K^T · scale + mask), shape ``(..., n_q, n_k)``."""


class AttentionGradients(NamedTuple):
    """What `attention_backward` returns; unpacks as ``dQ, dK, dV``."""

    dQ: FloatArray
    """dL/dQ, shape of Q."""
    dK: FloatArray
    """dL/dK, shape of K."""
    dV: FloatArray
    """dL/dV, shape of V."""


def attention(
    Q: ArrayLike,
    K: ArrayLike,
    V: ArrayLike,
    *,
    mask: ArrayLike | None = None,
    scale: float | None = None,
) -> AttentionResult:
    r"""Scaled dot-product attention, $\mathrm{softmax}(Q K^\top \cdot \mathrm{scale} + M)\, V$.

    Args:
        Q: queries, shape ``(..., n_q, d_k)``.
        K: keys, shape ``(..., n_k, d_k)``.
        V: values, shape ``(..., n_k, d_v)``.
        mask: optional, broadcastable to ``(..., n_q, n_k)``. Either bool, True where a query
            may attend to a key, or floating, added to the scores (so -1e9 and -inf both mask).
        scale: multiplies the scores; default $1/\sqrt{d_k}$, and ``scale=1.0`` gives the
            unscaled dot product.

    Returns:
        ``AttentionResult(output, weights)``: output shape ``(..., n_q, d_v)``, weights shape
        ``(..., n_q, n_k)`` with rows summing to 1. A query that may attend to no key (its
        mask row all False, or all -inf after adding) gets zero weights, and a zero output
        row as ``torch.nn.functional.scaled_dot_product_attention`` does
        (``torch.nn.MultiheadAttention`` gives NaN there when it returns its weights, and in
        some settings of its fast inference path, ``eval()`` mode without gradients, when it
        does not). A
        finite mask such as -1e9 is added, and on a whole row it masks nothing, with a result
        that depends on the dtype. In float64, where numbers near 1e9 are $2^{-23}$ apart, the
        row keeps its unmasked weights to about 1e-7 relative. In float32 they are 64 apart:
        each score becomes -1e9 plus a multiple of 64, every score under 32 in size becomes
        exactly -1e9, and a row of such scores gets uniform weights.
        The dtype is the common floating dtype of Q, K and V (float32 stays float32; float16
        is computed in float32; integers give float64).

    Raises:
        TypeError: non-numeric or complex inputs, or an integer mask (bool or float, please).
        ValueError: shapes that do not fit together, NaN or ±inf in Q, K or V, NaN or +inf in
            the mask.

    Examples:
        >>> import numpy as np
        >>> from paperlens import attention
        >>> Q = np.array([[1.0, 0.0]])  # n_q = 1, d_k = 2
        >>> K = np.array([[1.0, 0.0], [0.0, 1.0]])  # n_k = 2
        >>> V = np.array([[10.0], [20.0]])  # d_v = 1
        >>> out, weights = attention(Q, K, V, scale=np.log(3))  # scores log 3 and 0
        >>> weights
        array([[0.75, 0.25]])
        >>> out
        array([[12.5]])
        >>> attention(Q, K, V, mask=[[False, True]]).output  # only the second key
        array([[20.]])

        A finite mask of -1e9 on a whole row, in float64 and in float32:

        >>> K3, V3 = np.array([[0.3], [-1.2], [2.1]]), np.eye(3)  # scores 0.3, -1.2, 2.1
        >>> q, row = np.ones((1, 1)), np.full((1, 3), -1e9)
        >>> w = attention(q, K3, V3, scale=1.0).weights
        >>> w_64 = attention(q, K3, V3, scale=1.0, mask=row).weights
        >>> bool(np.all(np.abs(w_64 / w - 1) < 1.2e-7))  # float64: the unmasked weights, nearly
        True
        >>> attention(*(a.astype(np.float32) for a in (q, K3, V3)), scale=1.0, mask=row).weights
        array([[0.33333334, 0.33333334, 0.33333334]], dtype=float32)
    """
    x = check_attention_inputs(Q, K, V, mask, scale)
    # softmax(Q K^T · scale + M) V, a block of query rows at a time: `_kernels.attention`
    output, weights = _kernels.attention(x.Q, x.K, x.V, x.scale, x.mask)
    return AttentionResult(output.astype(x.dtype, copy=False), weights.astype(x.dtype, copy=False))


def attention_backward(
    Q: ArrayLike,
    K: ArrayLike,
    V: ArrayLike,
    grad_output: ArrayLike,
    *,
    mask: ArrayLike | None = None,
    scale: float | None = None,
    weights: ArrayLike | None = None,
) -> AttentionGradients:
    r"""Gradients of a scalar loss L through `attention`, derived by hand.

    With $S = Q K^\top \cdot \mathrm{scale} + M$, $P = \mathrm{softmax}(S)$, $O = P V$ and
    $G = \partial L / \partial O$:

    $$dV = P^\top G,\quad dP = G V^\top,\quad dS = P \odot (dP - \mathrm{rowsum}(dP \odot P)),
    \quad dQ = \mathrm{scale}\cdot dS\, K,\quad dK = \mathrm{scale}\cdot dS^\top Q.$$

    Args:
        Q: queries, shape ``(..., n_q, d_k)``.
        K: keys, shape ``(..., n_k, d_k)``.
        V: values, shape ``(..., n_k, d_v)``.
        grad_output: $G = \partial L/\partial O$, the output's shape ``(..., n_q, d_v)``.
        mask: as in `attention`.
        scale: as in `attention`.
        weights: optional, the weights P that `attention` returned for these Q, K, V, mask and
            scale, shape ``(..., n_q, n_k)``. Given, the softmax is not computed again (as
            `mlp_backward` reuses its forward pass's cache). They are trusted: weights of other
            inputs give wrong gradients.

    Returns:
        ``AttentionGradients(dQ, dK, dV)``, each of its input's own shape: where an input was
        broadcast over batch dims, its gradient is summed over them. Fully masked query rows
        pass back zero gradient.

    Raises:
        TypeError, ValueError: as `attention`, and if ``grad_output`` or ``weights`` does not
            have its shape or is not finite.

    Examples:
        >>> import numpy as np
        >>> from paperlens import attention, attention_backward
        >>> Q = np.array([[1.0, 0.0]])
        >>> K = np.array([[1.0, 0.0], [0.0, 1.0]])
        >>> V = np.array([[10.0], [20.0]])
        >>> dQ, dK, dV = attention_backward(Q, K, V, np.ones((1, 1)), scale=np.log(3))
        >>> dV  # dL/dV = P^T G: each value row counts with its weight
        array([[0.75],
               [0.25]])
        >>> out, P = attention(Q, K, V, scale=np.log(3))  # in training, reuse the forward's P
        >>> attention_backward(Q, K, V, np.ones((1, 1)), scale=np.log(3), weights=P).dV
        array([[0.75],
               [0.25]])
    """
    x = check_attention_inputs(Q, K, V, mask, scale)
    output_shape = (*x.batch, x.Q.shape[-2], x.V.shape[-1])
    G = _check_like(grad_output, "grad_output", output_shape, "the output's shape (..., n_q, d_v)")
    if weights is None:
        P = _kernels.attention(x.Q, x.K, x.V, x.scale, x.mask)[1]  # (..., n_q, n_k)
    else:
        weights_shape = (*x.batch, x.Q.shape[-2], x.K.shape[-2])
        P = _check_like(weights, "weights", weights_shape, "the weights' shape (..., n_q, n_k)")
    grads = _kernels.attention_backward(
        x.Q, x.K, x.V, P.astype(x.Q.dtype, copy=False), G.astype(x.Q.dtype, copy=False), x.scale
    )
    return AttentionGradients(*(g.astype(x.dtype, copy=False) for g in grads))


def _check_like(a: ArrayLike, name: str, shape: tuple[int, ...], what: str) -> FloatArray:
    """``a`` as a finite floating array of exactly ``shape``, or a ValueError naming ``what``."""
    a = as_real_array(a, name)
    if a.shape != shape:
        raise ValueError(f"{name} must have {what} = {shape}, got {a.shape}")
    require_finite(a, name)
    return a


def causal_mask(n_q: int, n_k: int | None = None) -> NDArray[np.bool_]:
    """Causal mask: query i may attend to key j only if j is not in its future.

    With ``n_q == n_k`` this is the lower triangle, True on and below the diagonal, as PyTorch's
    ``is_causal=True``. With ``n_k > n_q`` (decoding with a cache of earlier keys) the queries
    are the *last* n_q positions, so the triangle is aligned to the bottom-right: query i sits at
    position ``i + n_k - n_q``. PyTorch's ``is_causal`` aligns to the top-left instead; the two
    agree only for square masks (``torch.nn.attention.bias.causal_lower_right`` aligns as this
    function does). With ``n_k < n_q`` the first ``n_q - n_k`` rows are all False,
    and `attention` gives those queries zero output.

    Args:
        n_q: number of queries.
        n_k: number of keys; defaults to ``n_q``.

    Returns:
        Boolean mask, shape ``(n_q, n_k)``: True where the query may attend.

    Examples:
        >>> from paperlens import causal_mask
        >>> causal_mask(3).astype(int)
        array([[1, 0, 0],
               [1, 1, 0],
               [1, 1, 1]])
        >>> causal_mask(2, 4).astype(int)  # two new queries after two cached keys
        array([[1, 1, 1, 0],
               [1, 1, 1, 1]])
    """
    n_q = require_size(n_q, "n_q")
    n_k = n_q if n_k is None else require_size(n_k, "n_k")
    return np.tri(n_q, n_k, k=n_k - n_q, dtype=bool)  # (n_q, n_k): j <= i + n_k - n_q
