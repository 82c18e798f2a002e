r"""Attention for long sequences: the same output, in memory that grows linearly in n.

`paperlens.attention` builds the whole $(n_q, n_k)$ table of weights: at
$n = 16\,384$ that is $2^{28}$ numbers, a gigabyte in float32. The output needs none of it
at once. Going through the keys a block at a time and keeping, for each query, a running
maximum $m$, a running sum of exponentials $\ell$ and a running weighted sum of values
$\mathbf{a}$ ("online softmax", Milakov & Gimelshein 2018; the idea behind memory-efficient
and flash attention, Rabe & Staats 2021, Dao et al. 2022), each new block of scores $S$ is
folded in with

$$m' = \max(m, \max_j S_j), \quad
\ell' = e^{m - m'} \ell + \sum_j e^{S_j - m'}, \quad
\mathbf{a}' = e^{m - m'} \mathbf{a} + \sum_j e^{S_j - m'} \mathbf{v}_j,$$

and the output row is $\mathbf{a} / \ell$ once every block is in. The factor $e^{m - m'}$
rescales what was summed under the old maximum to the new one, so no exponent ever exceeds 0.
Only one block of scores exists at a time, and it is reused across blocks.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from paperlens._checks import FloatArray, check_attention_inputs, require_size
from paperlens._kernels import attention_scores
from paperlens.attention import attention  # noqa: F401 (doctest)


def chunked_attention(
    Q: ArrayLike,
    K: ArrayLike,
    V: ArrayLike,
    *,
    mask: ArrayLike | None = None,
    scale: float | None = None,
    block_size: int = 1024,
) -> FloatArray:
    r"""Scaled dot-product attention computed block by block; the output of `attention`.

    Args:
        Q: queries, shape ``(..., n_q, d_k)``.
        K: keys, shape ``(..., n_k, d_k)``.
        V: values, shape ``(..., n_k, d_v)``.
        mask: as for `attention`: bool (True = may attend) or floating (added to the
            scores), broadcastable to ``(..., n_q, n_k)``. A mask given at full size costs
            $n_q n_k$ memory itself; one that broadcasts (say a ``(1, n_k)`` padding mask)
            does not.
        scale: multiplies the scores; default $1/\sqrt{d_k}$.
        block_size: queries and keys per block; the scores of one block take
            ``block_size**2`` numbers.

    Returns:
        The output $\mathrm{softmax}(Q K^\top \cdot \mathrm{scale} + M) V$, shape
        ``(..., n_q, d_v)``, equal to ``attention(Q, K, V, mask=mask, scale=scale).output``
        within rounding. The weights are never formed, so none are returned. A query that may
        attend to no key gets a zero output row, as in `attention`.

    Raises:
        ValueError, TypeError: as `attention`, and for a ``block_size`` below 1.

    Example:
        >>> import numpy as np
        >>> rng = np.random.default_rng(0)
        >>> Q, K, V = (rng.standard_normal((1000, 16)) for _ in range(3))
        >>> out = chunked_attention(Q, K, V, block_size=128)
        >>> out.shape
        (1000, 16)
        >>> bool(np.allclose(out, attention(Q, K, V).output))
        True
    """
    block = require_size(block_size, "block_size")
    x = check_attention_inputs(Q, K, V, mask, scale)
    n_q, n_k, d_v = x.Q.shape[-2], x.K.shape[-2], x.V.shape[-1]
    output = np.empty((*x.batch, n_q, d_v), x.Q.dtype)  # (..., n_q, d_v)
    Qb, Kb, Vb = (np.broadcast_to(a, (*x.batch, *a.shape[-2:])) for a in (x.Q, x.K, x.V))
    M = None if x.additive is None else np.broadcast_to(x.additive, (*x.batch, n_q, n_k))
    for b in np.ndindex(*x.batch):  # one head at a time
        for q0 in range(0, n_q, block):
            rows = slice(q0, min(q0 + block, n_q))
            mask_rows = None if M is None else M[b][rows]  # (bq, n_k), a view
            output[b][rows] = _fold_keys(Qb[b][rows], Kb[b], Vb[b], mask_rows, x.scale, block)
    return output.astype(x.dtype, copy=False)


def _fold_keys(
    q: FloatArray, K: FloatArray, V: FloatArray, mask: FloatArray | None, scale: float, block: int
) -> FloatArray:
    """The attention output of the queries ``q`` (bq, d_k), one block of keys at a time."""
    n_k = K.shape[0]
    q = q * q.dtype.type(scale)  # (bq, d_k): scaled once, not once per block of keys
    m = np.full((q.shape[0], 1), -np.inf, q.dtype)  # (bq, 1): the running maximum score
    ell = np.zeros((q.shape[0], 1), q.dtype)  # (bq, 1): the running sum of e^(s - m)
    acc = np.zeros((q.shape[0], V.shape[1]), q.dtype)  # (bq, d_v): running sum of e^(s - m) v
    for k0 in range(0, n_k, block):
        keys = slice(k0, min(k0 + block, n_k))
        S = attention_scores(q, K[keys], 1.0)  # (bq, d_k) x (d_k, bk) -> (bq, bk)
        if mask is not None:
            S += mask[:, keys]  # -inf where a key is masked
        m_new = np.maximum(m, S.max(axis=1, keepdims=True))  # (bq, 1)
        # A row with no allowed key so far keeps m = -inf; shifting it by 0 instead keeps
        # exp(-inf - (-inf)) = NaN away: its exponentials are all exp(-inf) = 0.
        shift = np.where(np.isneginf(m_new), 0, m_new)  # (bq, 1)
        S -= shift
        np.exp(S, out=S)  # (bq, bk), every entry in [0, 1]
        rescale = np.exp(m - shift)  # (bq, 1): from the old maximum to the new one
        ell = ell * rescale + S.sum(axis=1, keepdims=True)  # (bq, 1)
        acc = acc * rescale + S @ V[keys]  # (bq, bk) x (bk, d_v) -> (bq, d_v)
        m = m_new
    # A fully masked row has ell = 0 and acc = 0: its output is 0, as in attention().
    return np.divide(acc, ell, out=np.zeros_like(acc), where=ell > 0)  # (bq, d_v)
