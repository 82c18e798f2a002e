"""Tests for paperlens.softmax: softmax, its Jacobian, backward and gradient norm."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from paperlens import (
    numerical_gradient,
    softmax,
    softmax_backward,
    softmax_gradient_norm,
    softmax_jacobian,
)

FAST = settings(max_examples=60, deadline=None)

finite_rows = hnp.arrays(
    np.float64,
    hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=6),
    elements=st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False),
)


def test_known_values():
    s = softmax([1.0, 2.0, 3.0])
    e = np.exp([1.0, 2.0, 3.0])
    np.testing.assert_allclose(s, e / e.sum(), rtol=1e-15)


def test_axis():
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(softmax(x, axis=0).sum(axis=0), 1.0)
    np.testing.assert_allclose(softmax(x, axis=0), softmax(x.T).T)


@pytest.mark.parametrize(
    ("dtype", "big"), [(np.float32, 1e4), (np.float64, 1e300), (np.float16, 6e4)]
)
def test_no_overflow_for_huge_scores(dtype, big):
    x = np.array([big, 0.0, -big], dtype=dtype)
    s = softmax(x)
    assert s.dtype == dtype
    np.testing.assert_array_equal(s, np.array([1.0, 0.0, 0.0], dtype=dtype))


def test_difference_overflowing_to_minus_inf_is_fine():
    s = softmax([1.7e308, -1.7e308])  # -1.7e308 - 1.7e308 overflows to -inf, exp gives 0
    np.testing.assert_array_equal(s, [1.0, 0.0])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.longdouble])
def test_floating_dtype_preserved(dtype):
    assert softmax(np.array([1.0, 2.0], dtype=dtype)).dtype == dtype


@pytest.mark.parametrize("x", [[1, 2, 3], np.array([True, False]), np.array([1, 2], np.int8)])
def test_integers_and_bools_give_float64(x):
    s = softmax(x)
    assert s.dtype == np.float64
    np.testing.assert_allclose(s, softmax(np.asarray(x, dtype=np.float64)))


def test_float16_matches_float64_to_float16_precision():
    x = np.linspace(-3, 3, 50)
    np.testing.assert_allclose(softmax(x.astype(np.float16)), softmax(x), atol=1e-3)


def test_minus_inf_gets_zero_weight():
    np.testing.assert_allclose(softmax([0.0, -np.inf, 0.0]), [0.5, 0.0, 0.5])


def test_all_minus_inf_slice_gives_zeros_not_nan():
    x = np.array([[-np.inf, -np.inf, -np.inf], [1.0, 1.0, -np.inf]])
    np.testing.assert_array_equal(softmax(x), [[0.0, 0.0, 0.0], [0.5, 0.5, 0.0]])
    np.testing.assert_array_equal(softmax(x, axis=0)[:, 2], [0.0, 0.0])


def test_empty():
    assert softmax(np.zeros((2, 0))).shape == (2, 0)
    assert softmax(np.zeros((0, 3))).shape == (0, 3)


def test_input_is_not_modified():
    x = np.array([1.0, 2.0, 3.0])
    softmax(x)
    np.testing.assert_array_equal(x, [1.0, 2.0, 3.0])


@pytest.mark.parametrize("bad", [[1.0, np.nan], [1.0, np.inf], [[0.0, 1.0], [np.nan, np.nan]]])
def test_nan_and_plus_inf_raise(bad):
    with pytest.raises(ValueError, match=r"x must not hold NaN or \+inf, but 1 slices do"):
        softmax(bad)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (["a", "b"], "x must hold real numbers, got an array of dtype <U1"),
        (
            np.array([1, None], dtype=object),
            "x must hold real numbers, got an array of dtype object",
        ),
        ([1 + 2j], r"x is complex \(complex128\)"),
    ],
)
def test_non_numeric_and_complex_raise_type_error(bad, message):
    with pytest.raises(TypeError, match=message):
        softmax(bad)


def test_ragged_list_raises_value_error():
    with pytest.raises(ValueError, match="x is not a rectangular array"):
        softmax([[1.0, 2.0], [3.0]])


def test_bad_axis_raises():
    with pytest.raises(np.exceptions.AxisError):
        softmax([1.0, 2.0], axis=1)


@FAST
@given(finite_rows)
def test_property_slices_sum_to_one_without_nan(x):
    s = softmax(x)
    assert np.isfinite(s).all()
    assert (s >= 0).all()
    np.testing.assert_allclose(s.sum(axis=-1), 1.0, rtol=1e-12)


@FAST
@given(finite_rows, st.floats(-1e6, 1e6))
def test_property_adding_a_constant_changes_nothing(x, c):
    np.testing.assert_allclose(softmax(x + c), softmax(x), atol=1e-9)


# -- Jacobian -------------------------------------------------------------------------------------


def test_jacobian_matches_finite_differences():
    x = np.random.default_rng(0).normal(size=5)
    J = softmax_jacobian(softmax(x))
    for i in range(5):
        np.testing.assert_allclose(
            J[i], numerical_gradient(lambda z, i=i: softmax(z)[i], x), atol=1e-9
        )
    np.testing.assert_allclose(J, J.T)
    np.testing.assert_allclose(J.sum(axis=1), 0.0, atol=1e-15)


@pytest.mark.parametrize("shape", [(), (2, 3)])
def test_jacobian_needs_1d(shape):
    message = re.escape(f"w must be 1-D, shape (n,), got shape {shape}")
    with pytest.raises(ValueError, match=message):
        softmax_jacobian(np.full(shape, 0.5))


# -- backward -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("shape", "axis"), [((7,), -1), ((3, 4), -1), ((3, 4), 0), ((2, 3, 5), 1)])
def test_backward_matches_numerical_gradient(shape, axis):
    rng = np.random.default_rng(sum(shape) + axis)
    x = rng.normal(size=shape) * 2
    w = rng.normal(size=shape)  # L = sum(w * softmax(x))
    analytic = softmax_backward(softmax(x, axis=axis), w, axis=axis)
    numeric = numerical_gradient(lambda z: np.sum(w * softmax(z, axis=axis)), x)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-9)


def test_backward_equals_jacobian_product():
    rng = np.random.default_rng(1)
    s, g = softmax(rng.normal(size=6)), rng.normal(size=6)
    np.testing.assert_allclose(softmax_backward(s, g), softmax_jacobian(s).T @ g, atol=1e-15)


def test_backward_shape_mismatch_raises():
    with pytest.raises(ValueError, match=r"grad has shape \(2, 4\) but w has shape \(2, 3\)"):
        softmax_backward(np.full((2, 3), 1 / 3), np.ones((2, 4)))


@pytest.mark.parametrize("name", ["w", "grad"])
def test_backward_nan_raises(name):
    args = {"w": np.array([0.5, 0.5]), "grad": np.array([1.0, 0.0])}
    args[name][0] = np.nan
    with pytest.raises(ValueError, match=f"{name} must be finite but has 1 NaN"):
        softmax_backward(args["w"], args["grad"])


# -- gradient norm --------------------------------------------------------------------------------


def test_gradient_norm_is_jacobian_frobenius_norm():
    x = np.array([1.0, 2.0, 3.0])
    expected = np.linalg.norm(softmax_jacobian(softmax(x)))
    assert softmax_gradient_norm(x) == pytest.approx(expected, rel=1e-12)


def test_gradient_norm_shrinks_with_saturation():
    norms = [softmax_gradient_norm(np.array([1.0, 2.0, 3.0]) * c) for c in (1, 10, 100)]
    assert norms[0] > norms[1] > norms[2] > 0
    # saturated: s ~ (e^-200, e^-100, 1), J ~ e^-100 in four entries, so ||J|| ~ 2 e^-100
    assert norms[2] == pytest.approx(2 * np.exp(-100), rel=1e-6)
    assert softmax_gradient_norm([0.0, 1e4]) == 0.0


def test_gradient_norm_per_slice():
    x = np.random.default_rng(2).normal(size=(3, 4))
    norms = softmax_gradient_norm(x, axis=0)
    assert norms.shape == (4,)
    for j in range(4):
        assert norms[j] == pytest.approx(softmax_gradient_norm(x[:, j]), rel=1e-12)
