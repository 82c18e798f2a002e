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
Only one block of scores exists at a time: one buffer, allocated once per call and reused for
every block, as are the running sums and the queries, scaled once. A mask is applied block by
block, through one block of bools also made once, so it is never expanded to the table, and
``causal=True`` needs no mask array at all. Within the loop only vectors of one number per
query row, or per key of a block, are made.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from paperlens._checks import FloatArray, check_attention_inputs, require_size
from paperlens._kernels import attention_scores, mask_scores, may_overflow, score_bound
from paperlens.attention import attention, causal_mask  # noqa: F401 (doctest)


def chunked_attention(
    Q: ArrayLike,
    K: ArrayLike,
    V: ArrayLike,
    *,
    mask: ArrayLike | None = None,
    causal: bool = False,
    scale: float | None = None,
    block_size: int = 1024,
) -> FloatArray:
    r"""Scaled dot-product attention computed block by block; the output of `attention`.

    Args:
        Q: queries, shape ``(..., n_q, d_k)``.
        K: keys, shape ``(..., n_k, d_k)``.
        V: values, shape ``(..., n_k, d_v)``.
        mask: as for `attention`: bool (True = may attend) or floating (added to the
            scores), broadcastable to ``(..., n_q, n_k)``. It is read a block at a time and
            never expanded, but a mask given at full size costs $n_q n_k$ memory itself (a
            quarter of float32 scores for a bool mask); one that broadcasts (say a
            ``(1, n_k)`` padding mask) does not.
        causal: mask the future as ``mask=causal_mask(n_q, n_k)`` would, without a mask
            array; the blocks wholly in the future are skipped. With ``mask`` too, both apply.
        scale: multiplies the scores; default $1/\sqrt{d_k}$.
        block_size: queries and keys per block; the scores of one block take
            ``block_size**2`` numbers.

    Returns:
        The output $\mathrm{softmax}(Q K^\top \cdot \mathrm{scale} + M) V$, shape
        ``(..., n_q, d_v)``, equal to ``attention(Q, K, V, mask=mask, scale=scale).output``
        within rounding. The weights are never formed, so none are returned. A query that may
        attend to no key gets a zero output row, as in `attention`.

    Raises:
        ValueError, TypeError: as `attention`, for a ``block_size`` below 1, and for a
            ``causal`` that is not a bool.

    Examples:
        >>> import numpy as np
        >>> from paperlens import attention, causal_mask, chunked_attention
        >>> rng = np.random.default_rng(0)
        >>> Q, K, V = (rng.standard_normal((1000, 16)) for _ in range(3))
        >>> out = chunked_attention(Q, K, V, block_size=128)
        >>> out.shape
        (1000, 16)
        >>> bool(np.allclose(out, attention(Q, K, V).output))
        True
        >>> causal = chunked_attention(Q, K, V, causal=True, block_size=128)
        >>> bool(np.allclose(causal, attention(Q, K, V, mask=causal_mask(1000)).output))
        True
    """
    block = require_size(block_size, "block_size")
    if not isinstance(causal, bool | np.bool_):
        raise TypeError(f"causal must be True or False, got {causal!r}")
    x = check_attention_inputs(Q, K, V, mask, scale)
    n_q, n_k, d_v = x.Q.shape[-2], x.K.shape[-2], x.V.shape[-1]
    dtype = x.Q.dtype
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow shows in the scores
        Q_scaled = x.Q * dtype.type(x.scale)  # n_q·d_k products, once, rather than n_q·n_k
    Qs, K_T, Vs = (
        np.broadcast_to(a, (*x.batch, *a.shape[-2:])) for a in (Q_scaled, x.K.swapaxes(-1, -2), x.V)
    )  # (..., n_q, d_k), (..., d_k, n_k), (..., n_k, d_v): views
    M = None if x.mask is None else np.broadcast_to(x.mask, (*x.batch, n_q, n_k))  # a view
    output = np.empty((*x.batch, n_q, d_v), dtype)  # (..., n_q, d_v)
    fold = _Fold(min(block, n_q), min(block, n_k), d_v, dtype, masked=causal or M is not None)
    look = may_overflow(score_bound(Q_scaled, x.K), dtype)  # whether the scores need a look
    for b in np.ndindex(*x.batch):  # one head at a time
        for q0 in range(0, n_q, block):
            rows = slice(q0, min(q0 + block, n_q))
            fold.start(rows.stop - q0)
            for k0 in range(0, n_k, block):
                keys = slice(k0, min(k0 + block, n_k))
                # causal: query i, at position i + n_k - n_q, sees the keys j up to there, so
                # key c of this block is in the future of its row a when c - a > diagonal.
                diagonal = q0 + n_k - n_q - k0
                if causal and diagonal <= -fold.rows:  # every key of the block, for every row
                    continue
                S = attention_scores(Qs[b][rows], K_T[b][:, keys], fold.scores(keys), look)
                if M is not None:
                    mask_scores(S, M[b][rows, keys], fold.flags(keys))
                if causal and diagonal < keys.stop - k0 - 1:  # the block meets the diagonal
                    _mask_future(S, diagonal, fold.flags(keys))
                fold.add(S, Vs[b][keys])
            fold.result(out=output[b][rows])
    return output.astype(x.dtype, copy=False)


def _mask_future(S: FloatArray, diagonal: int, flags: NDArray[np.bool_]) -> None:
    """-inf in the block of scores S ``(bq, bk)`` where key c is in row a's future."""
    a = np.arange(S.shape[0])[:, None]  # (bq, 1)
    c = np.arange(S.shape[1])[None, :]  # (1, bk)
    np.copyto(S, -np.inf, where=np.greater(c, a + diagonal, out=flags))  # (bq, bk)


class _Fold:
    """Online softmax over blocks of keys for one block of queries, in buffers made once."""

    def __init__(self, bq: int, bk: int, d_v: int, dtype: np.dtype[Any], *, masked: bool) -> None:
        self._buffer = np.empty(bq * bk, dtype)  # one block of scores, any (rows, keys) shape
        self._flags = np.empty(bq * bk if masked else 0, bool)  # where a block is masked
        self._m = np.empty((bq, 1), dtype)  # the running maximum score
        self._ell = np.empty((bq, 1), dtype)  # the running sum of e^(s - m)
        self._acc = np.empty((bq, d_v), dtype)  # the running sum of e^(s - m) v
        self._pv = np.empty((bq, d_v), dtype)  # one block's sum of e^(s - m) v
        self.rows = bq
        """The number of queries in the current block."""

    def start(self, rows: int) -> None:
        """Start a block of ``rows`` queries: nothing summed yet."""
        self.rows = rows
        self._m[:rows] = -np.inf
        self._ell[:rows] = 0
        self._acc[:rows] = 0

    def scores(self, keys: slice) -> FloatArray:
        """The score buffer as a contiguous ``(rows, bk)`` array, to compute a block into."""
        n = self.rows * (keys.stop - keys.start)
        return self._buffer[:n].reshape(self.rows, -1)

    def flags(self, keys: slice) -> NDArray[np.bool_]:
        """Bools of the score block's shape ``(rows, bk)``, for masking it."""
        n = self.rows * (keys.stop - keys.start)
        return self._flags[:n].reshape(self.rows, -1)

    def add(self, S: FloatArray, V: FloatArray) -> None:
        """Fold in the scores S ``(rows, bk)`` of the keys whose values are V ``(bk, d_v)``."""
        m, ell, acc, pv = (a[: self.rows] for a in (self._m, self._ell, self._acc, self._pv))
        m_new = np.maximum(m, S.max(axis=1, keepdims=True))  # (rows, 1)
        # A row with no allowed key so far keeps m = -inf; shifting it by 0 instead keeps
        # exp(-inf - (-inf)) = NaN away: its exponentials are all exp(-inf) = 0.
        shift = np.where(np.isneginf(m_new), 0, m_new)  # (rows, 1)
        with np.errstate(over="ignore"):  # s - m can only overflow to -inf: the right e^s = 0
            S -= shift
        np.exp(S, out=S)  # (rows, bk), every entry in [0, 1]
        rescale = np.exp(m - shift)  # (rows, 1): from the old maximum to the new one
        ell *= rescale
        ell += S.sum(axis=1, keepdims=True)  # (rows, 1)
        acc *= rescale
        acc += np.matmul(S, V, out=pv)  # (rows, bk) x (bk, d_v) -> (rows, d_v)
        m[...] = m_new

    def result(self, out: FloatArray) -> None:
        """Write a / ell for the block's queries into ``out`` ``(rows, d_v)``; 0 for a row that
        attended to no key."""
        ell, acc = self._ell[: self.rows], self._acc[: self.rows]
        # A fully masked row has ell = 0 and acc = 0: its output is 0, as in attention().
        out[...] = 0
        np.divide(acc, ell, out=out, where=ell > 0)  # (rows, d_v)
