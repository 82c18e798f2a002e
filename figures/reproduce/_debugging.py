"""The runs of "Debug before you reproduce", for its figures: the page's code, once.

The page writes this code out for the reader; `tests/docs/test_debugging.py` checks that the
page's functions and these give the same numbers, bit for bit.
"""

import functools

import numpy as np

import paperlens as pl
from paperlens.experiments.residual_depth import regression_task

X, y = regression_task(10, 8, rng=np.random.default_rng(0))  # (10, 8) and (10, 1)
NET = pl.init_mlp(8, 32, 1, 2, rng=np.random.default_rng(1), residual=False)
NARROW = pl.init_mlp(8, 2, 1, 2, rng=np.random.default_rng(1), residual=False)
THRESHOLD = 1e-6  # the overfitting check passes below this share of the starting loss


def library_backward(net, cache, grad):
    return pl.mlp_backward(net, cache, grad, residual=False)


def fit(net, backward, *, lr=0.1, steps=1000, y=y):
    """Gradient descent on the ten samples: the loss before each step and after the last."""
    losses = []
    for _ in range(steps):
        y_hat, cache = pl.mlp(net, X, residual=False)  # (10, 1)
        losses.append(pl.mse_loss(y_hat, y))
        grads = backward(net, cache, pl.mse_loss_backward(y_hat, y))
        net = pl.MLPParams(*(w - lr * g for w, g in zip(net, grads, strict=True)))
    losses.append(pl.mse_loss(pl.mlp(net, X, residual=False)[0], y))
    return np.array(losses)


def loss_at(net):
    return pl.mse_loss(pl.mlp(net, X, residual=False)[0], y)


def gradient_check(net, backward):
    """Each parameter's relative difference from finite differences, one per hidden layer."""
    y_hat, cache = pl.mlp(net, X, residual=False)
    grads = backward(net, cache, pl.mse_loss_backward(y_hat, y))
    errors = {}
    for name, hand in zip(net._fields, grads, strict=True):
        nudged = lambda w, name=name: loss_at(net._replace(**{name: w}))  # noqa: E731
        numeric = pl.numerical_gradient(nudged, getattr(net, name))
        for i in range(len(hand)) if name in ("W", "b") else [None]:  # W, b: one per layer
            key, g, n = (name, hand, numeric)
            if i is not None:
                key, g, n = f"{name}[{i}]", hand[i], numeric[i]
            errors[key] = np.linalg.norm(g - n) / (np.linalg.norm(g) + np.linalg.norm(n))
    return errors


def relu(z):
    return np.maximum(z, 0)


def backward(net, cache, grad, *, bug=False):
    """pl.mlp_backward for a plain network, written out; grad is dL/dy_hat, shape (n, 1)."""
    h, g = cache.h, grad  # h: the inputs h_0 ... h_L of the ReLUs, each (n, width)
    dW_out, db_out = relu(h[-1]).T @ g, g.sum(axis=0, keepdims=True)
    g = (g @ net.W_out.T) * (h[-1] > 0)  # dL/dh_L, (n, width)
    dW, db = np.empty_like(net.W), np.empty_like(net.b)
    for l in reversed(range(len(net.W))):  # noqa: E741  h_{l+1} = relu(h_l) W_l + b_l
        dW[l], db[l] = relu(h[l]).T @ g, g.sum(axis=0, keepdims=True)
        back = net.W[l] if bug else net.W[l].T  # the planted bug: W_l where W_l^T belongs
        g = (g @ back) * (h[l] > 0)  # dL/dh_l, (n, width)
    dW_in, db_in = cache.x.T @ g, g.sum(axis=0, keepdims=True)
    return pl.MLPParams(dW_in, db_in, dW, db, dW_out, db_out)


def with_bug(net, cache, grad):
    return backward(net, cache, grad, bug=True)


def output_layer_only(net, cache, grad):
    g = library_backward(net, cache, grad)
    return g._replace(W_in=0 * g.W_in, b_in=0 * g.b_in, W=0 * g.W, b=0 * g.b)


def with_decay(net, cache, grad, decay=0.01):
    grads = library_backward(net, cache, grad)
    return pl.MLPParams(*(g + decay * w for g, w in zip(grads, net, strict=True)))


@functools.cache
def runs():
    """Every training run of the page, by the name the page gives its result."""
    with np.errstate(over="ignore", invalid="ignore"):  # the large rate overflows
        too_large = fit(NET, library_backward, lr=0.3)
    return {
        "loss": fit(NET, library_backward),
        "loss_bug": fit(NET, with_bug),
        "frozen": fit(NET, output_layer_only),
        "too_large": too_large,
        "too_small": fit(NET, library_backward, lr=0.001),
        "narrow": fit(NARROW, library_backward),
        "decayed": fit(NET, with_decay),
    }


@functools.cache
def checks():
    """The gradient check of the library's backward pass and of the copy with the bug."""
    return {
        "errors": gradient_check(NET, library_backward),
        "errors_bug": gradient_check(NET, with_bug),
    }
