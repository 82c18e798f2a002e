"""Tests for paperlens.attention: attention, attention_backward and causal_mask."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from paperlens import (
    AttentionGradients,
    AttentionResult,
    attention,
    attention_backward,
    causal_mask,
    numerical_gradient,
)

FAST = settings(max_examples=40, deadline=None)


def naive_attention(Q, K, V, mask=None, scale=None):
    """The textbook formula, written independently (NaN for fully masked rows)."""
    scale = 1 / np.sqrt(Q.shape[-1]) if scale is None else scale
    S = Q @ np.swapaxes(K, -1, -2) * scale
    if mask is not None:
        mask = np.asarray(mask)
        S = np.where(mask, S, -np.inf) if mask.dtype == bool else S + mask
    P = np.exp(S - S.max(axis=-1, keepdims=True))
    P = P / P.sum(axis=-1, keepdims=True)
    return P @ V, P


def random_qkv(rng, batch=(), n_q=3, n_k=4, d_k=5, d_v=2, batches=None):
    bq, bk, bv = batches if batches is not None else (batch, batch, batch)
    return (
        rng.normal(size=(*bq, n_q, d_k)),
        rng.normal(size=(*bk, n_k, d_k)),
        rng.normal(size=(*bv, n_k, d_v)),
    )


# -- forward --------------------------------------------------------------------------------------


def test_returns_named_tuple_with_shapes():
    Q, K, V = random_qkv(np.random.default_rng(0), batch=(2, 3))
    result = attention(Q, K, V)
    assert isinstance(result, AttentionResult)
    output, weights = result
    assert output is result.output and weights is result.weights
    assert output.shape == (2, 3, 3, 2)
    assert weights.shape == (2, 3, 3, 4)


def test_matches_textbook_formula():
    Q, K, V = random_qkv(np.random.default_rng(1), batch=(2,))
    output, weights = attention(Q, K, V)
    expected_output, expected_weights = naive_attention(Q, K, V)
    np.testing.assert_allclose(output, expected_output, rtol=1e-12)
    np.testing.assert_allclose(weights, expected_weights, rtol=1e-12)


def test_default_scale_is_one_over_sqrt_dk_and_scale_one_is_unscaled():
    Q, K, V = random_qkv(np.random.default_rng(2), d_k=16)
    np.testing.assert_allclose(attention(Q, K, V).output, attention(Q, K, V, scale=0.25).output)
    np.testing.assert_allclose(
        attention(Q, K, V, scale=1.0).output, naive_attention(Q, K, V, scale=1.0)[0], rtol=1e-12
    )
    uniform = attention(Q, K, V, scale=0.0).weights
    np.testing.assert_allclose(uniform, 0.25)


def test_inputs_may_be_lists_and_are_not_modified():
    Q, K, V = random_qkv(np.random.default_rng(3))
    copies = [Q.copy(), K.copy(), V.copy()]
    from_lists = attention(Q.tolist(), K.tolist(), V.tolist())
    np.testing.assert_array_equal(from_lists.output, attention(Q, K, V).output)
    for x, original in zip([Q, K, V], copies, strict=True):
        np.testing.assert_array_equal(x, original)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_floating_dtype_preserved(dtype):
    Q, K, V = (x.astype(dtype) for x in random_qkv(np.random.default_rng(4)))
    output, weights = attention(Q, K, V)
    assert output.dtype == weights.dtype == dtype
    expected = naive_attention(*(x.astype(np.float64) for x in (Q, K, V)))[0]
    np.testing.assert_allclose(output, expected, atol=2e-3 if dtype == np.float16 else 1e-6)


def test_mixed_and_integer_dtypes():
    Q, K, V = random_qkv(np.random.default_rng(5))
    assert attention(Q.astype(np.float32), K, V).output.dtype == np.float64
    ints = attention(np.ones((2, 3), int), np.ones((4, 3), int), np.arange(8).reshape(4, 2))
    assert ints.output.dtype == np.float64
    np.testing.assert_allclose(ints.output, [[3.0, 4.0], [3.0, 4.0]])


def test_float32_stays_accurate_for_large_scores():
    rng = np.random.default_rng(6)
    Q, K, V = (x.astype(np.float32) * 30 for x in random_qkv(rng, d_k=64))
    output = attention(Q, K, V).output
    np.testing.assert_allclose(
        output, naive_attention(*(x.astype(float) for x in (Q, K, V)))[0], atol=1e-3
    )


# -- masks ----------------------------------------------------------------------------------------


def test_bool_mask_and_minus_inf_mask_agree_with_the_formula():
    rng = np.random.default_rng(7)
    Q, K, V = random_qkv(rng, batch=(2,))
    mask = rng.random((2, 3, 4)) < 0.6
    mask[..., 0] = True  # every query keeps a key
    additive = np.where(mask, 0.0, -np.inf)
    expected = naive_attention(Q, K, V, mask=mask)
    for m in (mask, additive, np.where(mask, 0.0, -1e9)):
        output, weights = attention(Q, K, V, mask=m)
        np.testing.assert_allclose(output, expected[0], rtol=1e-12)
        np.testing.assert_allclose(weights, expected[1], rtol=1e-12, atol=1e-300)
        assert (weights[~mask] == 0).all()


def test_additive_float_mask_is_added_to_the_scores():
    rng = np.random.default_rng(8)
    Q, K, V = random_qkv(rng)
    bias = rng.normal(size=(3, 4))
    np.testing.assert_allclose(
        attention(Q, K, V, mask=bias).weights, naive_attention(Q, K, V, mask=bias)[1], rtol=1e-12
    )


def test_mask_broadcasts_over_batch_and_rows():
    rng = np.random.default_rng(9)
    Q, K, V = random_qkv(rng, batch=(2, 3))
    key_mask = np.array([True, True, False, True])  # (n_k,)
    full = np.broadcast_to(key_mask, (2, 3, 3, 4))
    np.testing.assert_allclose(
        attention(Q, K, V, mask=key_mask).output, attention(Q, K, V, mask=full).output
    )


def test_float64_additive_mask_with_float32_inputs():
    Q, K, V = (x.astype(np.float32) for x in random_qkv(np.random.default_rng(10)))
    mask = np.zeros((3, 4))
    mask[:, 1] = -1e300  # becomes -inf in float32: still "never attend"
    output, weights = attention(Q, K, V, mask=mask)
    assert output.dtype == np.float32
    assert (weights[:, 1] == 0).all()


@pytest.mark.parametrize("kind", ["bool", "-inf"])
def test_fully_masked_row_gives_zero_weights_and_output(kind):
    Q, K, V = random_qkv(np.random.default_rng(11))
    allowed = np.ones((3, 4), dtype=bool)
    allowed[1] = False
    mask = allowed if kind == "bool" else np.where(allowed, 0.0, -np.inf)
    output, weights = attention(Q, K, V, mask=mask)
    assert np.isfinite(output).all()
    np.testing.assert_array_equal(weights[1], 0.0)
    np.testing.assert_array_equal(output[1], 0.0)
    np.testing.assert_allclose(weights[[0, 2]].sum(axis=-1), 1.0)


def test_finite_large_negative_mask_on_a_whole_row_only_shifts_it():
    # -1e9 on every key of a row shifts all its scores alike, and softmax ignores shifts: the
    # row keeps its unmasked weights (float64), unlike -inf, which gives zeros. Documented.
    Q, K, V = random_qkv(np.random.default_rng(12))
    mask = np.zeros((3, 4))
    mask[1] = -1e9
    np.testing.assert_allclose(
        attention(Q, K, V, mask=mask).weights[1], attention(Q, K, V).weights[1], rtol=1e-6
    )


def test_causal_mask_values():
    np.testing.assert_array_equal(causal_mask(3), np.tril(np.ones((3, 3), dtype=bool)))
    assert causal_mask(3).dtype == bool
    np.testing.assert_array_equal(
        causal_mask(2, 4), [[True, True, True, False], [True, True, True, True]]
    )
    np.testing.assert_array_equal(causal_mask(3, 2), [[False, False], [True, False], [True, True]])
    np.testing.assert_array_equal(causal_mask(1, 5), np.ones((1, 5), dtype=bool))


def test_causal_attention_ignores_the_future():
    rng = np.random.default_rng(13)
    Q, K, V = random_qkv(rng, n_q=5, n_k=5)
    output = attention(Q, K, V, mask=causal_mask(5)).output
    V_changed = V.copy()
    V_changed[3:] += 100.0  # the future of queries 0..2
    output_changed = attention(Q, K, V_changed, mask=causal_mask(5)).output
    np.testing.assert_array_equal(output[:3], output_changed[:3])
    np.testing.assert_array_equal(output[0], V[0])  # the first query sees only the first key


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((0,), ValueError, "n_q must be at least 1, got 0"),
        ((2, 0), ValueError, "n_k must be at least 1, got 0"),
        ((2.5,), TypeError, "n_q must be an integer, got 2.5"),
        ((True,), TypeError, "n_q must be an integer, got True"),
    ],
)
def test_causal_mask_bad_sizes(args, error, message):
    with pytest.raises(error, match=re.escape(message)):
        causal_mask(*args)


# -- errors ---------------------------------------------------------------------------------------


def test_dk_mismatch_message():
    Q, K, V = np.zeros((2, 7, 64)), np.zeros((2, 5, 32)), np.zeros((2, 5, 8))
    message = "K has d_k=32 but Q has d_k=64: shapes (2, 5, 32) and (2, 7, 64)"
    with pytest.raises(ValueError, match=re.escape(message)):
        attention(Q, K, V)


def test_nk_mismatch_message():
    Q, K, V = np.zeros((7, 4)), np.zeros((5, 4)), np.zeros((6, 8))
    message = "V has n_k=6 but K has n_k=5: shapes (6, 8) and (5, 4)"
    with pytest.raises(ValueError, match=re.escape(message)):
        attention(Q, K, V)


def test_batch_dims_that_do_not_broadcast():
    Q, K, V = np.zeros((2, 3, 4)), np.zeros((3, 5, 4)), np.zeros((1, 5, 2))
    message = "the batch dims of Q, K and V do not broadcast: shapes (2, 3, 4), (3, 5, 4) and"
    with pytest.raises(ValueError, match=re.escape(message)):
        attention(Q, K, V)


@pytest.mark.parametrize(
    ("shapes", "message"),
    [
        (((4,), (5, 4), (5, 2)), "Q must have at least 2 dims (..., n_q, d_k), got shape (4,)"),
        (((3, 4), (), (5, 2)), "K must have at least 2 dims (..., n_k, d_k), got shape ()"),
        (((3, 4), (5, 4), (5,)), "V must have at least 2 dims (..., n_k, d_v), got shape (5,)"),
    ],
)
def test_fewer_than_two_dims(shapes, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        attention(*(np.zeros(s) for s in shapes))


@pytest.mark.parametrize("mask_shape", [(3, 5), (2, 3, 4, 4), (3, 1, 1)])
def test_mask_that_does_not_broadcast(mask_shape):
    Q, K, V = random_qkv(np.random.default_rng(14), batch=(2,))  # scores (2, 3, 4)
    message = f"mask of shape {mask_shape} does not broadcast to the scores' shape "
    message += "(..., n_q, n_k) = (2, 3, 4)"
    with pytest.raises(ValueError, match=re.escape(message)):
        attention(Q, K, V, mask=np.ones(mask_shape, dtype=bool))


@pytest.mark.parametrize("name", ["Q", "K", "V"])
@pytest.mark.parametrize("value", [np.nan, np.inf, -np.inf])
def test_non_finite_inputs_raise(name, value):
    qkv = dict(zip("QKV", random_qkv(np.random.default_rng(15)), strict=True))
    qkv[name][0, 1] = value
    with pytest.raises(ValueError, match=f"{name} must be finite but has"):
        attention(qkv["Q"], qkv["K"], qkv["V"])


@pytest.mark.parametrize(
    ("mask", "error", "message"),
    [
        (np.full((3, 4), np.nan), ValueError, "mask must not hold NaN, but 12 entries are"),
        (np.full((3, 4), np.inf), ValueError, r"mask must not hold \+inf"),
        (np.ones((3, 4), dtype=int), TypeError, "mask must be bool .* got int64; for 0/1 flags"),
        (np.full((3, 4), "yes"), TypeError, "mask must be a bool or floating array"),
        (np.zeros((3, 4), complex), TypeError, "mask must be a bool or floating array"),
    ],
)
def test_bad_masks(mask, error, message):
    with pytest.raises(error, match=message):
        attention(*random_qkv(np.random.default_rng(16)), mask=mask)


@pytest.mark.parametrize(
    ("name", "bad", "error", "message"),
    [
        ("Q", [["a", "b"]], TypeError, "Q must hold real numbers, got an array of dtype <U1"),
        ("K", np.zeros((4, 5), complex), TypeError, r"K is complex \(complex128\)"),
        ("V", np.full((4, 2), None), TypeError, "V must hold real numbers, got an array of dtype"),
    ],
)
def test_non_numeric_inputs(name, bad, error, message):
    qkv = dict(
        zip("QKV", random_qkv(np.random.default_rng(17), d_k=2 if name == "Q" else 5), strict=True)
    )
    qkv[name] = bad
    if name == "Q":
        qkv["K"] = np.zeros((4, 2))
    with pytest.raises(error, match=message):
        attention(qkv["Q"], qkv["K"], qkv["V"])


@pytest.mark.parametrize(
    ("scale", "error", "message"),
    [
        (np.inf, ValueError, "scale must be finite, got inf"),
        (np.nan, ValueError, "scale must be finite, got nan"),
        ("0.5", TypeError, "scale must be a real number, got '0.5'"),
        (1j, TypeError, "scale must be a real number, got 1j"),
        (np.ones(2), TypeError, "scale must be a real number"),
    ],
)
def test_bad_scale(scale, error, message):
    with pytest.raises(error, match=re.escape(message)):
        attention(*random_qkv(np.random.default_rng(18)), scale=scale)


def test_empty_keys_or_dk_raise():
    with pytest.raises(ValueError, match="attention needs d_k >= 1 and n_k >= 1"):
        attention(np.zeros((3, 4)), np.zeros((0, 4)), np.zeros((0, 2)))
    with pytest.raises(ValueError, match="attention needs d_k >= 1 and n_k >= 1"):
        attention(np.zeros((3, 0)), np.zeros((2, 0)), np.zeros((2, 2)))


def test_float32_overflow_in_scores_raises():
    Q = np.full((1, 4), 1e20, dtype=np.float32)
    with pytest.raises(ValueError, match=r"the scores Q K\^T · scale overflow float32"):
        attention(Q, Q, np.ones((1, 2), np.float32), scale=1.0)
    with pytest.raises(ValueError, match=r"the scores Q K\^T · scale overflow float32"):
        attention(Q / 1e20, Q / 1e20, np.ones((1, 2), np.float32), scale=1e39)


# -- properties -----------------------------------------------------------------------------------

sizes = st.integers(1, 4)


@FAST
@given(
    hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=2, max_side=3),
    sizes,
    sizes,
    sizes,
    sizes,
    st.integers(0, 2**32 - 1),
)
def test_property_broadcast_batch_equals_loop(batch_shapes, n_q, n_k, d_k, d_v, seed):
    rng = np.random.default_rng(seed)
    Q, K, V = random_qkv(rng, n_q=n_q, n_k=n_k, d_k=d_k, d_v=d_v, batches=batch_shapes.input_shapes)
    batch = batch_shapes.result_shape
    output, weights = attention(Q, K, V)
    assert output.shape == (*batch, n_q, d_v)
    Qb, Kb, Vb = (np.broadcast_to(x, (*batch, *x.shape[-2:])) for x in (Q, K, V))
    for index in np.ndindex(*batch):
        one = attention(Qb[index], Kb[index], Vb[index])
        np.testing.assert_allclose(output[index], one.output, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(weights[index], one.weights, rtol=1e-12, atol=1e-14)


@FAST
@given(sizes, sizes, sizes, st.floats(0.0, 10.0), st.booleans(), st.integers(0, 2**32 - 1))
def test_property_output_in_convex_hull_of_values(n_q, n_k, d_v, spread, masked, seed):
    rng = np.random.default_rng(seed)
    Q, K, V = random_qkv(rng, batch=(2,), n_q=n_q, n_k=n_k, d_k=3, d_v=d_v)
    mask = None
    if masked:
        mask = rng.random((2, n_q, n_k)) < 0.5
        mask[..., rng.integers(n_k)] = True
    output, weights = attention(Q * spread, K * spread, V, mask=mask)
    assert (weights >= 0).all()
    np.testing.assert_allclose(weights.sum(axis=-1), 1.0, rtol=1e-12)
    low = V.min(axis=-2, keepdims=True)  # (2, 1, d_v)
    high = V.max(axis=-2, keepdims=True)
    assert (output >= low - 1e-12).all()
    assert (output <= high + 1e-12).all()


# -- backward -------------------------------------------------------------------------------------


def check_backward(Q, K, V, mask=None, scale=None, seed=0):
    """Compare attention_backward with finite differences of L = sum(W * output)."""
    output = attention(Q, K, V, mask=mask, scale=scale).output
    W = np.random.default_rng(seed).normal(size=output.shape)  # dL/d(output)
    grads = attention_backward(Q, K, V, W, mask=mask, scale=scale)
    assert isinstance(grads, AttentionGradients)
    inputs = {"Q": Q, "K": K, "V": V}
    for name, analytic in zip("QKV", grads, strict=True):
        assert analytic.shape == inputs[name].shape, name

        def loss(x, name=name):
            args = {**inputs, name: x}
            return np.sum(W * attention(**args, mask=mask, scale=scale).output)

        numeric = numerical_gradient(loss, inputs[name])
        np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8, err_msg=f"d{name}")
    return grads


@pytest.mark.parametrize("seed", range(4))
def test_backward_random_shapes_with_batch_dims(seed):
    rng = np.random.default_rng(100 + seed)
    batch = tuple(rng.integers(1, 4, size=rng.integers(0, 3)))
    n_q, n_k, d_k, d_v = rng.integers(1, 6, size=4)
    check_backward(*random_qkv(rng, batch, n_q, n_k, d_k, d_v), seed=seed)


@pytest.mark.parametrize(
    "batches",
    [((2, 1), (1, 3), (3,)), ((), (2,), ()), ((4,), (), (1,)), ((2, 3), (2, 3), ())],
)
def test_backward_broadcast_batch_dims(batches):
    rng = np.random.default_rng(len(batches[0]) * 10 + len(batches[1]))
    check_backward(*random_qkv(rng, n_q=3, n_k=4, d_k=3, d_v=2, batches=batches))


def test_backward_bool_mask_with_fully_masked_row():
    rng = np.random.default_rng(200)
    Q, K, V = random_qkv(rng, batch=(2,), n_q=4, n_k=5)
    mask = rng.random((2, 4, 5)) < 0.5
    mask[:, :, 0] = True
    mask[1, 2] = False  # query 2 of batch 1 sees nothing
    grads = check_backward(Q, K, V, mask=mask)
    np.testing.assert_array_equal(grads.dQ[1, 2], 0.0)


def test_backward_additive_mask_and_custom_scale():
    rng = np.random.default_rng(201)
    Q, K, V = random_qkv(rng, batch=(3,), n_q=3, n_k=4)
    mask = rng.normal(size=(3, 4))  # additive bias, broadcast over the batch
    mask[0, 1] = -np.inf
    mask[2] = -np.inf  # query 2 sees nothing, in every batch
    grads = check_backward(Q, K, V, mask=mask, scale=0.7)
    np.testing.assert_array_equal(grads.dQ[:, 2], 0.0)


def test_backward_causal_mask_unscaled():
    rng = np.random.default_rng(202)
    check_backward(*random_qkv(rng, batch=(2,), n_q=3, n_k=5), mask=causal_mask(3, 5), scale=1.0)


def test_backward_float32():
    rng = np.random.default_rng(203)
    Q, K, V = random_qkv(rng, batch=(2,))
    G = rng.normal(size=(2, 3, 2))
    grads32 = attention_backward(*(x.astype(np.float32) for x in (Q, K, V)), G)
    grads64 = attention_backward(Q, K, V, G)
    for g32, g64 in zip(grads32, grads64, strict=True):
        assert g32.dtype == np.float32
        np.testing.assert_allclose(g32, g64, rtol=1e-4, atol=1e-5)


def test_backward_grad_output_shape_and_finiteness():
    Q, K, V = random_qkv(np.random.default_rng(204), batch=(2,))
    message = "grad_output must have the output's shape (..., n_q, d_v) = (2, 3, 2), got (3, 2)"
    with pytest.raises(ValueError, match=re.escape(message)):
        attention_backward(Q, K, V, np.ones((3, 2)))
    G = np.zeros((2, 3, 2))
    G[0, 1, 1] = np.nan
    with pytest.raises(ValueError, match="grad_output must be finite but has 1 NaN"):
        attention_backward(Q, K, V, G)


@pytest.mark.parametrize(
    "batches", [((2,), (2,), (2,)), ((), (2,), ()), ((4,), (), (3, 1))], ids=["same", "K", "V"]
)
def test_backward_with_the_forwards_weights_gives_the_same_bits(batches):
    rng = np.random.default_rng(206)
    Q, K, V = random_qkv(rng, n_q=3, n_k=4, batches=batches)
    mask = rng.random((3, 4)) < 0.7
    mask[1] = False  # a fully masked query
    G = rng.normal(size=attention(Q, K, V).output.shape)
    P = attention(Q, K, V, mask=mask, scale=0.6).weights
    again = attention_backward(Q, K, V, G, mask=mask, scale=0.6)
    reused = attention_backward(Q, K, V, G, mask=mask, scale=0.6, weights=P)
    for got, want in zip(reused, again, strict=True):
        np.testing.assert_array_equal(got, want)


def test_backward_weights_shape_and_finiteness():
    Q, K, V = random_qkv(np.random.default_rng(207), batch=(2,))
    G = np.ones((2, 3, 2))
    message = "weights must have the weights' shape (..., n_q, n_k) = (2, 3, 4), got (3, 4)"
    with pytest.raises(ValueError, match=re.escape(message)):
        attention_backward(Q, K, V, G, weights=np.ones((3, 4)) / 4)
    P = attention(Q, K, V).weights
    P[1, 0, 2] = np.inf
    with pytest.raises(ValueError, match="weights must be finite but has 0 NaN and 1 infinite"):
        attention_backward(Q, K, V, G, weights=P)


def test_backward_checks_inputs_like_forward():
    with pytest.raises(ValueError, match="K has d_k=2 but Q has d_k=3"):
        attention_backward(np.zeros((1, 3)), np.zeros((2, 2)), np.zeros((2, 1)), np.zeros((1, 1)))


def test_batch_dims_only_on_v_give_weights_those_dims_too():
    rng = np.random.default_rng(205)
    Q, K, V = random_qkv(rng, batches=((), (), (2,)))
    mask = rng.random((2, 3, 4)) < 0.7
    mask[..., 0] = True
    output, weights = attention(Q, K, V, mask=mask)
    assert weights.shape == (2, 3, 4)
    for b in range(2):
        np.testing.assert_allclose(output[b], attention(Q, K, V[b], mask=mask[b]).output)
    check_backward(Q, K, V, mask=mask)


# -- long sequences -----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_long_sequences_agree_with_the_formula(dtype):
    rng = np.random.default_rng(301)
    Q, K, V = (x.astype(dtype) for x in random_qkv(rng, batch=(2,), n_q=512, n_k=600, d_k=8))
    mask = causal_mask(512, 600)
    output, weights = attention(Q, K, V, mask=mask)
    assert output.dtype == weights.dtype == dtype
    expected = naive_attention(*(x.astype(np.float64) for x in (Q, K, V)), mask=mask)
    rtol = 1e-4 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(output, expected[0], rtol=rtol, atol=rtol / 100)
    np.testing.assert_allclose(weights, expected[1], rtol=rtol, atol=rtol / 1000)


def test_long_sequences_report_float32_overflow():
    Q = np.full((600, 4), 1e20, dtype=np.float32)
    with pytest.raises(ValueError, match=r"the scores Q K\^T · scale overflow float32"):
        attention(Q, Q, np.ones((600, 2), np.float32), scale=1.0)
