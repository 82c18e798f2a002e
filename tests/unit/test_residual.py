"""Tests for paperlens.residual: H(x) = F(x) + x."""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from paperlens import numerical_gradient, residual


def test_adds_the_input_back():
    x = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(residual(np.sin, x), np.sin(x) + x)


def test_accepts_lists_and_keeps_float32():
    assert residual(lambda x: 2 * x, [1, 2]).tolist() == [3.0, 6.0]
    x = np.ones(3, np.float32)
    assert residual(lambda v: v * np.float32(2), x).dtype == np.float32


def test_gradient_of_the_shortcut_is_identity_plus_df():
    # dH/dx = dF/dx + 1: the shortcut passes the gradient through unchanged
    x = np.random.default_rng(0).normal(size=4)
    grad = numerical_gradient(lambda z: residual(np.tanh, z).sum(), x)
    np.testing.assert_allclose(grad, 1 - np.tanh(x) ** 2 + 1, rtol=1e-8)


@settings(max_examples=50, deadline=None)
@given(
    hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=0, max_dims=3),
        elements=st.floats(-1e9, 1e9, allow_nan=False),
    )
)
def test_property_zero_branch_is_identity(x):
    np.testing.assert_array_equal(residual(np.zeros_like, x), x)


@pytest.mark.parametrize(
    ("f", "message"),
    [
        (lambda x: x[:, :2], "F(x) has shape (3, 2) but x has shape (3, 4)"),
        (lambda x: x.sum(axis=0, keepdims=True), "F(x) has shape (1, 4) but x has shape (3, 4)"),
        (lambda x: x.ravel(), "F(x) has shape (12,) but x has shape (3, 4)"),
    ],
)
def test_wrong_shape_raises_even_if_it_would_broadcast(f, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        residual(f, np.ones((3, 4)))


def test_not_callable_raises():
    with pytest.raises(TypeError, match="f must be a callable F\\(x\\), got ndarray"):
        residual(np.ones(3), np.ones(3))


@pytest.mark.parametrize(
    ("f", "x", "message"),
    [
        (lambda x: x, ["a"], "x must hold real numbers"),
        (lambda x: x, [1j], r"x is complex"),
        (lambda x: np.array(["a", "b"]), [1.0, 2.0], r"F\(x\) must hold real numbers"),
        (lambda x: x * 1j, [1.0, 2.0], r"F\(x\) is complex"),
    ],
)
def test_non_numeric_raises(f, x, message):
    with pytest.raises(TypeError, match=message):
        residual(f, x)
