r"""The degradation problem. *Deep Residual Learning* (He et al., 2015), §1.

"With the network depth increasing, accuracy gets saturated (which might be unsurprising) and
then degrades rapidly. Unexpectedly, such degradation is not caused by overfitting, and adding
more layers to a suitably deep model leads to higher training error."

Two experiments on :mod:`paperlens.mlp` networks, plain and with identity shortcuts:

- `gradient_norms_at_init`: the gradient reaching each layer's weights, at initialisation.
- `train_depths`: final training loss against depth, on a small regression task.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from paperlens._checks import FloatArray, require_real_scalar, require_size
from paperlens.adam import adam_init, adam_step
from paperlens.losses import mse_loss, mse_loss_backward
from paperlens.mlp import MLPParams, init_mlp, mlp, mlp_backward, stack_params


def regression_task(
    n: int, d_in: int, *, rng: np.random.Generator, n_waves: int = 16, frequency: float = 2.0
) -> tuple[FloatArray, FloatArray]:
    r"""Inputs $x \sim N(0, I)$ and a wiggly target $y = \sum_{m} \sin(x \cdot w_m) / \sqrt{M/2}$.

    The M directions $w_m \sim N(0, \mathrm{frequency}^2 I)$ are random; dividing by
    $\sqrt{M/2}$ gives y a variance near 1, so a loss of 1 means "learned nothing".

    Args:
        n: examples.
        d_in: input size.
        rng: the random generator.
        n_waves: M.
        frequency: the standard deviation of the directions' entries.

    Returns:
        ``(X, y)`` of shapes ``(n, d_in)`` and ``(n, 1)``.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.residual_depth import regression_task
        >>> X, y = regression_task(1000, 8, rng=np.random.default_rng(0))
        >>> X.shape, y.shape, bool(0.8 < y.var() < 1.2)
        ((1000, 8), (1000, 1), True)
    """
    n, d_in, n_waves = (
        require_size(v, s) for v, s in [(n, "n"), (d_in, "d_in"), (n_waves, "n_waves")]
    )
    frequency = require_real_scalar(frequency, "frequency")
    X = rng.standard_normal((n, d_in))  # (n, d_in)
    w = rng.standard_normal((d_in, n_waves)) * frequency  # (d_in, M)
    y = np.sin(X @ w).sum(axis=-1, keepdims=True) / np.sqrt(n_waves / 2)  # (n, M) -> (n, 1)
    return X, y


def _nets(
    seeds: Sequence[int], d_in: int, width: int, depth: int, *, residual: bool, gain: float
) -> MLPParams:
    """One network per seed, stacked: seed s draws from ``np.random.default_rng(s)``."""
    return stack_params(
        [
            init_mlp(
                d_in, width, 1, depth, rng=np.random.default_rng(s), residual=residual, gain=gain
            )
            for s in seeds
        ]
    )


def gradient_norms_at_init(
    X: FloatArray,
    y: FloatArray,
    *,
    depth: int,
    width: int,
    residual: bool,
    seeds: Sequence[int],
    gain: float = 2.0,
) -> FloatArray:
    r"""$\lVert \partial L/\partial W_l \rVert_F$ for each hidden layer l, at initialisation.

    Args:
        X: inputs, shape ``(n, d_in)``.
        y: targets, shape ``(n, 1)``.
        depth: hidden layers L.
        width: hidden size.
        residual: with identity shortcuts.
        seeds: one network per seed.
        gain: the initialisation's variance gain (2 = He, 1 = the older $1/n_\mathrm{in}$).

    Returns:
        The norms, shape ``(len(seeds), depth)``; column 0 is the layer nearest the input.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.residual_depth import gradient_norms_at_init, regression_task
        >>> X, y = regression_task(64, 4, rng=np.random.default_rng(0))
        >>> gradient_norms_at_init(X, y, depth=6, width=8, residual=True, seeds=[0, 1]).shape
        (2, 6)
    """
    params = _nets(seeds, X.shape[-1], width, depth, residual=residual, gain=gain)
    y_hat, cache = mlp(params, X, residual=residual)  # (S, n, 1)
    grads = mlp_backward(params, cache, mse_loss_backward(y_hat, y), residual=residual)
    norms: FloatArray = np.linalg.norm(grads.W, axis=(-2, -1)).T  # (L, S) -> (S, L)
    return norms


def train_depths(
    X: FloatArray,
    y: FloatArray,
    *,
    depths: Sequence[int],
    width: int,
    residual: bool,
    seeds: Sequence[int],
    steps: int,
    lr: float,
) -> FloatArray:
    """Train one network per (depth, seed) by full-batch Adam; return the loss curves.

    Args:
        X: inputs, shape ``(n, d_in)``.
        y: targets, shape ``(n, 1)``.
        depths: hidden-layer counts L to train.
        width: hidden size.
        residual: with identity shortcuts.
        seeds: networks per depth (seed s initialises from ``np.random.default_rng(s)``).
        steps: Adam steps.
        lr: Adam's learning rate, the same for every depth.

    Returns:
        Training loss before each step and after the last, shape
        ``(len(depths), len(seeds), steps + 1)``.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.residual_depth import regression_task, train_depths
        >>> X, y = regression_task(64, 4, rng=np.random.default_rng(0))
        >>> kw = dict(depths=[2], width=8, seeds=[0], steps=50, lr=0.01)
        >>> loss = train_depths(X, y, residual=False, **kw)
        >>> loss.shape, bool(loss[0, 0, -1] < loss[0, 0, 0])
        ((1, 1, 51), True)
    """
    steps = require_size(steps, "steps", minimum=0)
    lr = require_real_scalar(lr, "lr")
    curves = np.empty((len(depths), len(seeds), steps + 1))
    for i, depth in enumerate(depths):
        params = _nets(seeds, X.shape[-1], width, depth, residual=residual, gain=2.0)
        state = adam_init(params)
        for step in range(steps + 1):
            y_hat, cache = mlp(params, X, residual=residual)  # (S, n, 1)
            curves[i, :, step] = mse_loss(y_hat, y)  # (S,)
            if step == steps:
                break
            grads = mlp_backward(params, cache, mse_loss_backward(y_hat, y), residual=residual)
            new, state = adam_step(params, grads, state, lr=lr)
            params = MLPParams(*new)
    return curves
