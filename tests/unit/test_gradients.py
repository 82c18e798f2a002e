"""Tests for paperlens.gradients: central finite differences."""

import numpy as np
import pytest

from paperlens import numerical_gradient


def test_quadratic_any_shape():
    x = np.random.default_rng(0).normal(size=(2, 3, 4))
    grad = numerical_gradient(lambda z: np.sum(z**2), x)
    assert grad.shape == x.shape
    assert grad.dtype == np.float64
    np.testing.assert_allclose(grad, 2 * x, rtol=1e-8, atol=1e-9)


def test_scalar_input():
    assert numerical_gradient(lambda z: z**3, 2.0) == pytest.approx(12.0, rel=1e-8)


def test_computes_in_float64_for_float32_and_int_input():
    x32 = np.array([1.0, 2.0], dtype=np.float32)
    grad = numerical_gradient(lambda z: np.sum(np.sin(z)), x32)
    assert grad.dtype == np.float64
    np.testing.assert_allclose(grad, np.cos([1.0, 2.0]), rtol=1e-8)
    np.testing.assert_allclose(numerical_gradient(lambda z: z @ z, [1, 2]), [2.0, 4.0])


def test_f_may_modify_its_argument_and_x_is_untouched():
    x = np.array([1.0, 2.0])

    def f(z):
        z *= 2  # modifies the copy it was given
        return z.sum()

    np.testing.assert_allclose(numerical_gradient(f, x), [2.0, 2.0])
    np.testing.assert_array_equal(x, [1.0, 2.0])


def test_custom_eps_and_size_one_results():
    grad = numerical_gradient(lambda z: np.exp(z).reshape(1, 1), [0.0], eps=1e-4)
    np.testing.assert_allclose(grad, [1.0], rtol=1e-8)


def test_non_scalar_f_raises():
    with pytest.raises(ValueError, match=r"f must return a scalar, got an array of shape \(2,\)"):
        numerical_gradient(lambda z: z, [1.0, 2.0])


@pytest.mark.parametrize(
    ("eps", "error", "message"),
    [
        (0.0, ValueError, "eps must be positive, got 0.0"),
        (-1e-6, ValueError, "eps must be positive"),
        (np.nan, ValueError, "eps must be finite"),
        ("1e-6", TypeError, "eps must be a real number"),
    ],
)
def test_bad_eps(eps, error, message):
    with pytest.raises(error, match=message):
        numerical_gradient(np.sum, [1.0], eps=eps)


def test_non_finite_or_non_numeric_x():
    with pytest.raises(ValueError, match="x must be finite but has 1 NaN"):
        numerical_gradient(np.sum, [1.0, np.nan])
    with pytest.raises(TypeError, match="x must hold real numbers"):
        numerical_gradient(np.sum, ["a"])
    with pytest.raises(TypeError, match="x is complex"):
        numerical_gradient(np.sum, [1j])
