"""A score that overflows is found in the scores, on every thread, in both signs.

NumPy's floating-point flags belong to the thread that raised them, and OpenBLAS computes a
product this large (1024 x 64 by 64 x 1024, float32) on several threads, so a flag raised on a
worker thread never reached the caller. And a -inf score looks like a masked key. These tests
put one overflowing score first, in the middle and last, so that some land on a worker thread
(before the fix, the middle and last ones passed silently or with another message), each
with either sign.
"""

import numpy as np
import pytest
from threadpoolctl import threadpool_info

import paperlens as pl

N, D_K = 1024, 64
OVERFLOW = r"the scores Q K\^T · scale overflow float32 \(to {}\)"


def inputs_with_one_overflowing_score(row, sign):
    """Q K^T / 8 in float32, finite but for score (row, row): 64 products of ±1e40 each."""
    rng = np.random.default_rng(row)
    Q, K, V = (rng.standard_normal((N, D_K), dtype=np.float32) for _ in range(3))
    Q[row] = sign * 1e20
    K[row] = 1e20  # its other scores, about 1e20, stay finite
    return Q, K, V


def openblas_threads():
    return max(
        (lib["num_threads"] for lib in threadpool_info() if lib["internal_api"] == "openblas"),
        default=1,
    )


@pytest.mark.skipif(openblas_threads() < 2, reason="OpenBLAS runs on one thread here: no worker")
def test_these_sizes_put_some_overflows_on_a_worker_thread():
    # What makes the tests below worth running: at this size NumPy's flags miss an overflow
    # that OpenBLAS computes on a worker thread, so only a look at the scores finds it.
    seen = []
    for row in (0, N // 2 + 3, N - 1):
        Q, K, _ = inputs_with_one_overflowing_score(row, 1)
        with np.errstate(over="raise", invalid="raise"):
            try:
                Q @ K.T  # (N, d_k) x (d_k, N) -> (N, N), one score of +inf at (row, row)
                seen.append(False)
            except FloatingPointError:
                seen.append(True)
    assert not all(seen), "every overflow raised the caller's flag: these sizes test nothing"


FUNCTIONS = {
    "attention": lambda Q, K, V: pl.attention(Q, K, V),
    "chunked_attention": lambda Q, K, V: pl.chunked_attention(Q, K, V, block_size=512),
    "attention_backward": lambda Q, K, V: pl.attention_backward(Q, K, V, np.ones_like(V)),
}


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize("row", [0, N // 2 + 3, N - 1], ids=["first", "middle", "last"])
@pytest.mark.parametrize("sign", [1, -1], ids=["+inf", "-inf"])
def test_an_overflowing_score_raises_wherever_it_is(function, row, sign):
    Q, K, V = inputs_with_one_overflowing_score(row, sign)
    with pytest.raises(ValueError, match=OVERFLOW.format(r"\+inf" if sign > 0 else "-inf")):
        FUNCTIONS[function](Q, K, V)


@pytest.mark.parametrize("function", FUNCTIONS)
def test_products_overflowing_both_ways_raise(function):
    Q, K, V = inputs_with_one_overflowing_score(N - 1, 1)
    Q[N - 1, ::2] = -1e20  # products of +1e40 and -1e40
    # inf - inf is NaN, but a fused multiply-add keeps the first product's sign (it adds the
    # exact next product to inf), so which one comes out depends on the CPU's kernel.
    with pytest.raises(ValueError, match=OVERFLOW.format(r"(?:\+inf|-inf|NaN)")):
        FUNCTIONS[function](Q, K, V)


@pytest.mark.parametrize("function", ["attention", "chunked_attention"])
def test_the_masks_minus_inf_is_not_an_overflow(function):
    Q, K, V = inputs_with_one_overflowing_score(0, 1)
    Q[0], K[0] = 1.0, 1.0  # all finite again
    mask = np.zeros((N, N), np.float32)
    mask[N - 1] = -np.inf  # the last query may attend to nothing: a zero output row
    mask[:, 0] = -np.inf
    if function == "attention":
        output = pl.attention(Q, K, V, mask=mask).output
    else:
        output = pl.chunked_attention(Q, K, V, mask=mask, block_size=512)
    np.testing.assert_array_equal(output[N - 1], 0.0)
    assert np.isfinite(output).all()


@pytest.mark.parametrize("function", FUNCTIONS)
def test_large_finite_scores_whose_sum_overflows_are_fine(function):
    # The check sums the scores first; a sum past float32's largest number is not an overflow
    # of any score, and must not be reported as one.
    Q = np.full((N, D_K), 3e18, np.float32)  # scores 64 * 9e36 / 8 = 7.2e37 < 3.4e38
    V = np.ones((N, D_K), np.float32)
    result = FUNCTIONS[function](Q, Q, V)
    assert all(np.isfinite(r).all() for r in (result if isinstance(result, tuple) else [result]))
