"""chunked_attention: the output of attention, block by block, in linear memory."""

import numpy as np
import pytest

import paperlens as pl
from paperlens.chunked_attention import chunked_attention


def rand(rng, shape, dtype=np.float64):
    return rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize(
    ("q_shape", "k_shape", "d_v", "block"),
    [
        ((7, 4), (9, 4), 3, 2),  # blocks that do not divide n
        ((2, 3, 33, 8), (3, 17, 8), 5, 8),  # batch dims that broadcast
        ((1, 64, 16), (64, 16), 16, 64),  # one block exactly
        ((5, 8), (40, 8), 2, 1000),  # block larger than n
    ],
)
def test_matches_attention(q_shape, k_shape, d_v, block):
    rng = np.random.default_rng(0)
    Q, K, V = rand(rng, q_shape), rand(rng, k_shape), rand(rng, (*k_shape[:-1], d_v))
    expected = pl.attention(Q, K, V).output
    got = chunked_attention(Q, K, V, block_size=block)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kind", ["bool", "additive", "additive -1e9"])
def test_masks_and_fully_masked_rows_match_attention(kind):
    rng = np.random.default_rng(1)
    Q, K, V = rand(rng, (2, 11, 6)), rand(rng, (2, 13, 6)), rand(rng, (2, 13, 4))
    allowed = rng.random((2, 11, 13)) > 0.4
    allowed[0, 3] = False  # a query that may attend to nothing
    if kind == "bool":
        mask = allowed
    else:
        mask = np.where(allowed, 0.0, -np.inf if kind == "additive" else -1e9)
    expected = pl.attention(Q, K, V, mask=mask).output
    got = chunked_attention(Q, K, V, mask=mask, block_size=4)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    if kind != "additive -1e9":
        assert (got[0, 3] == 0).all()


def test_causal_mask_and_custom_scale():
    rng = np.random.default_rng(2)
    Q, K, V = rand(rng, (20, 8)), rand(rng, (20, 8)), rand(rng, (20, 8))
    mask = pl.causal_mask(20)
    expected = pl.attention(Q, K, V, mask=mask, scale=1.0).output
    got = chunked_attention(Q, K, V, mask=mask, scale=1.0, block_size=6)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_float32_stays_float32_and_large_scores_do_not_overflow():
    rng = np.random.default_rng(3)
    Q, K, V = (rand(rng, (50, 16), np.float32) * 30 for _ in range(3))
    got = chunked_attention(Q, K, V, scale=1.0, block_size=16)
    assert got.dtype == np.float32
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, pl.attention(Q, K, V, scale=1.0).output, rtol=1e-4, atol=1e-4)


def test_bad_input_gets_the_same_clear_errors_as_attention():
    Q, K, V = np.ones((3, 4)), np.ones((5, 2)), np.ones((5, 2))
    with pytest.raises(ValueError, match="K has d_k=2 but Q has d_k=4"):
        chunked_attention(Q, K, V)
    with pytest.raises(ValueError, match="block_size"):
        chunked_attention(np.ones((3, 2)), K, V, block_size=0)


def test_peak_memory_grows_linearly_not_quadratically():
    """Four times the sequence: chunked peak memory about 4x, the plain weights 16x."""
    rng = np.random.default_rng(4)
    peaks = {}
    for n in (512, 2048):
        Q, K, V = (rand(rng, (n, 32), np.float32) for _ in range(3))
        peaks[n] = (
            pl.peak_memory(lambda: chunked_attention(Q, K, V, block_size=128)),  # noqa: B023
            pl.peak_memory(lambda: pl.attention(Q, K, V)),  # noqa: B023
        )
    chunked_growth = peaks[2048][0] / peaks[512][0]
    plain_growth = peaks[2048][1] / peaks[512][1]
    assert chunked_growth < 6, chunked_growth  # linear: 4x, plus fixed-size blocks
    assert plain_growth > 12, plain_growth  # quadratic: 16x
    assert peaks[2048][0] * 8 < peaks[2048][1]


@pytest.mark.parametrize(
    ("n_q", "n_k", "block"),
    [(20, 20, 6), (7, 19, 4), (19, 7, 4), (33, 33, 8), (1, 9, 2), (9, 1, 2)],
)
def test_causal_true_is_the_causal_mask_without_an_array(n_q, n_k, block):
    rng = np.random.default_rng(5)
    Q, K, V = rand(rng, (2, n_q, 4)), rand(rng, (n_k, 4)), rand(rng, (2, n_k, 3))
    allowed = rng.random((n_q, n_k)) > 0.3
    for extra in (None, allowed):  # with a mask too, both apply
        mask = pl.causal_mask(n_q, n_k) if extra is None else pl.causal_mask(n_q, n_k) & extra
        expected = pl.attention(Q, K, V, mask=mask).output
        got = chunked_attention(Q, K, V, causal=True, mask=extra, block_size=block)
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


def test_causal_must_be_a_bool():
    with pytest.raises(TypeError, match="causal must be True or False, got 'yes'"):
        chunked_attention(np.ones((3, 2)), np.ones((3, 2)), np.ones((3, 2)), causal="yes")


def test_a_mask_does_not_make_either_version_bigger():
    """n = 2048, float32: a causal mask is applied block by block, never expanded to the table."""
    rng = np.random.default_rng(6)
    n = 2048
    Q, K, V = (rand(rng, (n, 64), np.float32) for _ in range(3))
    mask = pl.causal_mask(n)  # made before measuring: its 4 MiB are the caller's
    chunked = pl.peak_memory(lambda: chunked_attention(Q, K, V))
    chunked_masked = pl.peak_memory(lambda: chunked_attention(Q, K, V, mask=mask))
    chunked_causal = pl.peak_memory(lambda: chunked_attention(Q, K, V, causal=True))
    plain = pl.peak_memory(lambda: pl.attention(Q, K, V))
    plain_masked = pl.peak_memory(lambda: pl.attention(Q, K, V, mask=mask))
    # Masking costs one block of bools (1 MiB at the default 1024 x 1024), not a table.
    assert chunked_masked < 1.25 * chunked, (chunked_masked, chunked)
    assert chunked_causal < 1.25 * chunked, (chunked_causal, chunked)
    assert plain_masked < 1.1 * plain, (plain_masked, plain)
    assert chunked_masked * 2 < plain  # still well under the table of weights


def test_a_broadcast_mask_is_not_expanded_over_the_heads():
    rng = np.random.default_rng(7)
    Q, K, V = (rand(rng, (8, 256, 32), np.float32) for _ in range(3))
    padding = rng.random((1, 256)) > 0.2  # one row of keys for every head and query
    plain = pl.peak_memory(lambda: pl.attention(Q, K, V))
    masked = pl.peak_memory(lambda: pl.attention(Q, K, V, mask=padding))
    assert masked < 1.1 * plain, (masked, plain)
    chunked = pl.peak_memory(lambda: chunked_attention(Q, K, V, block_size=64))
    chunked_masked = pl.peak_memory(lambda: chunked_attention(Q, K, V, mask=padding, block_size=64))
    assert chunked_masked < 1.25 * chunked, (chunked_masked, chunked)
