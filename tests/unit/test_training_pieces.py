"""Tests for the training pieces: linear, relu, mse_loss, mlp, adam, show.

Every hand-derived backward is checked against paperlens.numerical_gradient on seeded random
shapes.
"""

import inspect

import numpy as np
import pytest
from matplotlib.figure import Figure

from paperlens import (
    adam_init,
    adam_step,
    init_mlp,
    linear,
    linear_backward,
    mlp,
    mlp_backward,
    mse_loss,
    mse_loss_backward,
    numerical_gradient,
    relu,
    relu_backward,
    show,
    stack_params,
)

CLOSE = dict(rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize(
    ("x_shape", "W_shape", "b_shape"),
    [((5, 3), (3, 4), (4,)), ((2, 5, 3), (3, 4), (1, 4)), ((5, 3), (2, 3, 4), (2, 1, 4))],
)
def test_linear_backward_matches_finite_differences(x_shape, W_shape, b_shape):
    rng = np.random.default_rng(0)
    x, W, b = rng.normal(size=x_shape), rng.normal(size=W_shape), rng.normal(size=b_shape)
    G = rng.normal(size=linear(x, W, b).shape)
    dx, dW, db = linear_backward(x, W, G, b)
    np.testing.assert_allclose(
        dx, numerical_gradient(lambda x: np.sum(linear(x, W, b) * G), x), **CLOSE
    )
    np.testing.assert_allclose(
        dW, numerical_gradient(lambda W: np.sum(linear(x, W, b) * G), W), **CLOSE
    )
    np.testing.assert_allclose(
        db, numerical_gradient(lambda b: np.sum(linear(x, W, b) * G), b), **CLOSE
    )


def test_linear_rejects_mismatched_d_in():
    with pytest.raises(ValueError, match="x has d_in=3 but W has d_in=2"):
        linear(np.ones((4, 3)), np.ones((2, 5)))
    with pytest.raises(ValueError, match="grad_output must have the output's shape"):
        linear_backward(np.ones((4, 3)), np.ones((3, 5)), np.ones((4, 4)))


@pytest.mark.parametrize(
    ("x_shape", "W_shape", "b_shape"),
    [
        ((1, 2), (2, 2), (5, 2)),
        ((3, 2), (2, 2), (4, 1, 2)),
        ((1, 2), (2, 1), (2, 1)),
        ((3, 2), (2, 1), ()),
    ],
)
def test_linear_refuses_a_bias_that_would_change_the_output_shape(x_shape, W_shape, b_shape):
    """A bias that stretches n or adds batch dims would make linear_backward's gradients the
    wrong shape (review 2026-12-06-foundations, F3); a scalar bias is refused for any d_out."""
    x, W, b = np.ones(x_shape), np.ones(W_shape), np.zeros(b_shape)
    with pytest.raises(ValueError, match=r"b (of shape|must end)"):
        linear(x, W, b)
    with pytest.raises(ValueError, match=r"b (of shape|must end)"):
        linear_backward(x, W, np.ones(x_shape[:-1] + W_shape[-1:]), b)


def test_relu_backward_matches_finite_differences():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(4, 6))
    x[np.abs(x) < 1e-3] = 0.5  # keep away from the kink, where finite differences straddle it
    G = rng.normal(size=x.shape)
    np.testing.assert_allclose(
        relu_backward(x, G), numerical_gradient(lambda x: np.sum(relu(x) * G), x), **CLOSE
    )


def test_relu_backward_passes_nothing_back_through_an_off_unit_and_wants_a_finite_grad():
    np.testing.assert_array_equal(relu_backward([-1.0, 0.0, 2.0], [3.0, 3.0, 3.0]), [0, 0, 3])
    with pytest.raises(ValueError, match="grad_output must be finite"):
        relu_backward([-1.0, 2.0], [np.inf, 1.0])


def test_mse_loss_backward_is_the_gradient_of_the_summed_losses():
    rng = np.random.default_rng(2)
    y_hat, y = rng.normal(size=(3, 5, 2)), rng.normal(size=(3, 5, 2))
    assert mse_loss(y_hat, y).shape == (3,)
    np.testing.assert_allclose(
        mse_loss_backward(y_hat, y),
        numerical_gradient(lambda a: mse_loss(a, y).sum(), y_hat),
        **CLOSE,
    )
    with pytest.raises(ValueError, match="does not broadcast"):
        mse_loss(np.ones((3, 2)), np.ones((4, 2)))


@pytest.mark.parametrize("residual", [False, True])
@pytest.mark.parametrize("stacked", [False, True])
def test_mlp_backward_matches_finite_differences(residual, stacked):
    rng = np.random.default_rng(3)
    nets = [init_mlp(3, 5, 2, 4, rng=rng, residual=residual) for _ in range(2 if stacked else 1)]
    params = stack_params(nets) if stacked else nets[0]
    params = params._replace(b=rng.normal(size=params.b.shape) * 0.1)  # non-zero biases too
    x = rng.normal(size=(6, 3))
    G = rng.normal(size=mlp(params, x, residual=residual)[0].shape)
    y_hat, cache = mlp(params, x, residual=residual)
    grads = mlp_backward(params, cache, G, residual=residual)
    for name in params._fields:

        def loss(value, name=name):
            return np.sum(mlp(params._replace(**{name: value}), x, residual=residual)[0] * G)

        expected = numerical_gradient(loss, getattr(params, name))
        np.testing.assert_allclose(getattr(grads, name), expected, **CLOSE, err_msg=name)


def test_residual_mlp_with_zero_branches_is_input_then_output_layer():
    rng = np.random.default_rng(4)
    params = init_mlp(3, 5, 2, 6, rng=rng, residual=True)
    params = params._replace(W=np.zeros_like(params.W))
    x = rng.normal(size=(4, 3))
    h0 = x @ params.W_in + params.b_in
    np.testing.assert_allclose(mlp(params, x, residual=True)[0], relu(h0) @ params.W_out)


def _mlp_written_out(p, x, G, residual):
    """mlp and mlp_backward with every layer written inline, as mlp.py had them before."""
    hs = [x @ p.W_in + p.b_in]
    for W_l, b_l in zip(p.W, p.b, strict=True):
        F = np.maximum(hs[-1], 0) @ W_l + b_l
        hs.append(hs[-1] + F if residual else F)
    y_hat = np.maximum(hs[-1], 0) @ p.W_out + p.b_out
    dW_out = np.maximum(hs[-1], 0).swapaxes(-1, -2) @ G
    db_out = G.sum(axis=-2, keepdims=True)
    g = (G @ p.W_out.swapaxes(-1, -2)) * (hs[-1] > 0)
    dW, db = np.empty_like(p.W), np.empty_like(p.b)
    for i in reversed(range(len(p.W))):
        dW[i] = np.maximum(hs[i], 0).swapaxes(-1, -2) @ g
        db[i] = g.sum(axis=-2, keepdims=True)
        through_F = (g @ p.W[i].swapaxes(-1, -2)) * (hs[i] > 0)
        g = g + through_F if residual else through_F
    dW_in = x.swapaxes(-1, -2) @ g
    db_in = g.sum(axis=-2, keepdims=True)
    return y_hat, (dW_in, db_in, dW, db, dW_out, db_out)


@pytest.mark.parametrize("residual", [False, True])
def test_mlp_gives_bit_for_bit_the_numbers_of_its_layers_written_out(residual):
    # mlp composes the kernels of linear and relu; that must not move a single bit.
    nets = [init_mlp(3, 5, 2, 6, rng=np.random.default_rng(s), residual=residual) for s in range(4)]
    params = stack_params(nets)
    rng = np.random.default_rng(6)
    x, G = rng.normal(size=(7, 3)), rng.normal(size=(4, 7, 2))
    y_hat, cache = mlp(params, x, residual=residual)
    grads = mlp_backward(params, cache, G, residual=residual)
    expected_y_hat, expected_grads = _mlp_written_out(params, x, G, residual)
    np.testing.assert_array_equal(y_hat, expected_y_hat)
    for name, got, want in zip(params._fields, grads, expected_grads, strict=True):
        assert got.shape == want.shape, name
        np.testing.assert_array_equal(got, want, err_msg=name)


def test_mlp_checks_its_inputs_at_its_boundary():
    params = init_mlp(3, 5, 2, 2, rng=np.random.default_rng(7), residual=False)
    with pytest.raises(ValueError, match="x must be finite but has 1 NaN"):
        mlp(params, np.array([[0.0, np.nan, 1.0]]), residual=False)
    y_hat, cache = mlp(params, np.ones((4, 3)), residual=False)
    with pytest.raises(ValueError, match=r"grad_output must have y_hat's shape \(4, 2\)"):
        mlp_backward(params, cache, np.ones((4, 1)), residual=False)


def test_he_init_keeps_the_plain_signal_size_and_residual_growth_is_bounded():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(2000, 64))
    for residual, lo, hi in [(False, 0.5, 2.0), (True, 1.0, np.e * 1.2)]:
        p = init_mlp(64, 256, 1, 16, rng=rng, residual=residual)
        h = mlp(p, x, residual=residual)[1].h
        ratio = np.mean(h[-1] ** 2) / np.mean(h[0] ** 2)
        assert lo < ratio < hi, (residual, ratio)


def test_adam_minimises_a_quadratic_and_leaves_inputs_alone():
    theta = [np.array([3.0, -2.0])]
    state = adam_init(theta)
    original = theta[0].copy()
    params = theta
    for _ in range(500):
        params, state = adam_step(params, [2 * params[0]], state, lr=0.05)
    np.testing.assert_array_equal(theta[0], original)
    assert np.abs(params[0]).max() < 0.05
    assert state.t == 500
    with pytest.raises(ValueError, match="gradient 0 has shape"):
        adam_step(theta, [np.ones(3)], adam_init(theta), lr=0.1)


def test_show_gives_png_with_alt_and_refuses_vague_alt():
    fig = Figure(figsize=(2, 1))
    fig.subplots().plot([0, 1])
    html = show(fig, 'A line with "quotes" & more words.')._repr_html_()
    assert html.startswith('<img src="data:image/svg+xml;base64,')
    assert 'alt="A line with &quot;quotes&quot; &amp; more words."' in html
    with pytest.raises(ValueError, match="alt must say"):
        show(fig, "plot")


def test_adam_s_worst_step_is_about_three_times_the_rate_as_its_docstring_says():
    """A gradient quiet for long, then a jump: the step nears eta (1 - b1) / sqrt(1 - b2)."""
    b1, b2 = (inspect.signature(adam_step).parameters[k].default for k in ("beta1", "beta2"))
    bound = (1 - b1) / np.sqrt(1 - b2)
    assert round(bound, 1) == 3.2  # "about 3.2 eta at the default betas"
    theta = [np.zeros(1)]
    state = adam_init(theta)
    for _ in range(5000):  # a tiny gradient for a long time, so v stays tiny
        theta, state = adam_step(theta, [np.array([1e-6])], state, lr=1.0)
    before = theta[0].copy()
    theta, state = adam_step(theta, [np.array([1.0])], state, lr=1.0)  # then a jump
    step = float(abs(theta[0] - before)[0])
    assert 0.9 * bound < step < 1.001 * bound  # far above "about eta", at the worst case
