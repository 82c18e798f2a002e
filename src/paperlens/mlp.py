r"""A deep ReLU network, plain or with identity shortcuts, and its hand-derived backward pass.

*Deep Residual Learning for Image Recognition* (He et al., 2016, https://arxiv.org/abs/1512.03385)
compares "plain" stacks of layers with the same stacks plus identity shortcuts. Here each of the
``depth`` blocks is one ReLU and one square linear map, the pre-activation order of He et al.'s
follow-up paper (*Identity Mappings in Deep Residual Networks*, 2016,
https://arxiv.org/abs/1603.05027), so that a shortcut adds the branch to an un-rectified signal:

$$\text{plain: } h_{l+1} = F_l(h_l), \qquad \text{residual: } h_{l+1} = h_l + F_l(h_l),
\qquad F_l(h) = \mathrm{relu}(h)\, W_l + b_l.$$

An input layer $h_0 = x W_\mathrm{in} + b_\mathrm{in}$ and an output layer
$\hat y = \mathrm{relu}(h_L) W_\mathrm{out} + b_\mathrm{out}$ surround them, so a net of
depth $L$ has $L + 1$ hidden layers of ``width`` units, $h_0 \dots h_L$. The shortcut makes
$\partial h_{l+1}/\partial h_l = I + \partial F_l/\partial h_l$: the gradient has a path that
no weight can shrink.

Several independent networks (one per seed) run at once when every parameter carries the same
leading batch dims ``...``: the blocks' weights are stacked as ``W`` of shape
``(depth, ..., width, width)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from paperlens._checks import (
    FloatArray,
    as_real_array,
    require_finite,
    require_real_scalar,
    require_size,
)
from paperlens._kernels import linear, linear_backward, relu, relu_backward


class MLPParams(NamedTuple):
    """The parameters of `mlp`; ``...`` are optional batch dims (one net per index)."""

    W_in: FloatArray
    """Input weights, shape ``(..., d_in, width)``."""
    b_in: FloatArray
    """Input bias, shape ``(..., 1, width)``."""
    W: FloatArray
    """The blocks' weights $W_0 \\dots W_{L-1}$, shape ``(depth, ..., width, width)``."""
    b: FloatArray
    """The blocks' biases $b_0 \\dots b_{L-1}$, shape ``(depth, ..., 1, width)``."""
    W_out: FloatArray
    """Output weights, shape ``(..., width, d_out)``."""
    b_out: FloatArray
    """Output bias, shape ``(..., 1, d_out)``."""


def init_mlp(
    d_in: int,
    width: int,
    d_out: int,
    depth: int,
    *,
    rng: np.random.Generator,
    residual: bool,
    gain: float = 2.0,
) -> MLPParams:
    r"""Random weights $N(0, \mathrm{gain}/n_\mathrm{in})$, zero biases.

    ``gain=2`` is the rule of He et al., *Delving Deep into Rectifiers* (2015,
    https://arxiv.org/abs/1502.01852), not the ResNet paper of the same authors: with
    it a ReLU layer keeps the mean square of its signal from layer to layer;
    ``gain=1`` is the older $1/n_\mathrm{in}$ rule, under which a plain ReLU stack halves it at
    every layer. ``W_in`` (fed by x, not by a ReLU) uses $1/d_\mathrm{in}$.

    A residual stack adds each branch to its input, so with the same weights the signal's mean
    square would *double* at every block ($2^{32}$ after 32). Without batch normalisation (which
    ResNet uses) the usual remedy is to shrink the branch weights (GPT-2 by $1/\sqrt{N}$ for $N$
    residual layers, Fixup by a power of the depth of its own): for ``residual=True`` the
    blocks' weights are multiplied by $1/\sqrt{\mathrm{depth}}$, so the
    mean square grows by about $(1 + 1/L)^L$, under $e$, in a wide net (a narrow net's growth
    differs from it, either way, and is not bounded by $e$).

    Args:
        d_in: input size.
        width: hidden size.
        d_out: output size.
        depth: L, the number of blocks (square ``width`` x ``width`` layers) between the
            input and output layers; the net has L + 1 hidden layers of ``width`` units
            (0 is allowed: one hidden layer, no blocks).
        rng: the random generator.
        residual: whether the net will be run with shortcuts (sets the branch scale).
        gain: the variance gain of the layers fed by a ReLU.

    Returns:
        ``MLPParams`` with W of shape ``(depth, width, width)`` and no batch dims.

    Examples:
        >>> import numpy as np
        >>> from paperlens import init_mlp
        >>> p = init_mlp(3, 8, 1, 4, rng=np.random.default_rng(0), residual=False)
        >>> p.W_in.shape, p.W.shape, p.b.shape, p.W_out.shape
        ((3, 8), (4, 8, 8), (4, 1, 8), (8, 1))
    """
    d_in, width, d_out = (
        require_size(n, name) for n, name in [(d_in, "d_in"), (width, "width"), (d_out, "d_out")]
    )
    depth = require_size(depth, "depth", minimum=0)
    gain = require_real_scalar(gain, "gain")
    branch = 1 / math.sqrt(depth) if residual and depth > 0 else 1.0
    std = math.sqrt(gain / width)
    return MLPParams(
        W_in=rng.standard_normal((d_in, width)) / math.sqrt(d_in),  # (d_in, width)
        b_in=np.zeros((1, width)),
        W=rng.standard_normal((depth, width, width)) * (std * branch),  # (L, width, width)
        b=np.zeros((depth, 1, width)),
        W_out=rng.standard_normal((width, d_out)) * std,  # (width, d_out)
        b_out=np.zeros((1, d_out)),
    )


def stack_params(nets: Sequence[MLPParams]) -> MLPParams:
    """Stack networks of the same shape into one with a batch dim: net i is index i.

    Args:
        nets: S parameter sets without batch dims.

    Returns:
        ``MLPParams`` whose arrays have a batch dim of size S (after the depth dim for W, b).

    Examples:
        >>> import numpy as np
        >>> from paperlens import init_mlp, stack_params
        >>> rngs = [np.random.default_rng(seed) for seed in range(5)]
        >>> nets = [init_mlp(3, 8, 1, 4, rng=rng, residual=True) for rng in rngs]
        >>> stack_params(nets).W.shape  # (depth, S, width, width)
        (4, 5, 8, 8)
    """
    if not nets:
        raise ValueError("nets must hold at least one MLPParams")
    return MLPParams(
        *(
            np.stack(arrays, axis=1 if name in ("W", "b") else 0)
            for name, arrays in zip(MLPParams._fields, zip(*nets, strict=True), strict=True)
        )
    )


class MLPCache(NamedTuple):
    """What the forward pass keeps for the backward pass."""

    x: FloatArray
    """The input, shape ``(..., n, d_in)``."""
    h: list[FloatArray]
    """$h_0, \\dots, h_L$, each of shape ``(..., n, width)``."""


def mlp(params: MLPParams, x: FloatArray, *, residual: bool) -> tuple[FloatArray, MLPCache]:
    r"""The forward pass: $\hat y$ of the plain or residual network.

    Args:
        params: the weights (see `MLPParams`).
        x: inputs, shape ``(..., n, d_in)`` (or ``(n, d_in)``, shared by every net).
        residual: add the identity shortcut $h_{l+1} = h_l + F_l(h_l)$.

    Returns:
        ``(y_hat, cache)``: y_hat of shape ``(..., n, d_out)``, and the cache for
        `mlp_backward`.

    Raises:
        TypeError: non-numeric x.
        ValueError: x is not ``(..., n, d_in)`` with the d_in of ``W_in``, or is not finite.

    Examples:
        >>> import numpy as np
        >>> from paperlens import init_mlp, mlp
        >>> p = init_mlp(3, 8, 2, 4, rng=np.random.default_rng(0), residual=True)
        >>> y_hat, cache = mlp(p, np.ones((5, 3)), residual=True)
        >>> y_hat.shape, len(cache.h)
        ((5, 2), 5)
    """
    x = as_real_array(x, "x")
    if x.ndim < 2 or x.shape[-1] != params.W_in.shape[-2]:
        raise ValueError(
            f"x must have shape (..., n, d_in) with d_in={params.W_in.shape[-2]}, got {x.shape}"
        )
    require_finite(x, "x")
    # Checked once, here: the layers are the kernels of `linear` and `relu`, without their checks.
    h = linear(x, params.W_in, params.b_in)  # (..., n, d_in) -> (..., n, width)
    hs: list[FloatArray] = [h]
    for W_l, b_l in zip(params.W, params.b, strict=True):
        F = linear(relu(h), W_l, b_l)  # (..., n, width) x (..., width, width) -> (..., n, width)
        h = h + F if residual else F
        hs.append(h)
    y_hat = linear(relu(h), params.W_out, params.b_out)  # -> (..., n, d_out)
    return y_hat, MLPCache(x, hs)


def mlp_backward(
    params: MLPParams, cache: MLPCache, grad_output: FloatArray, *, residual: bool
) -> MLPParams:
    r"""Gradients of a scalar loss through `mlp`, derived by hand.

    Going down, with $g_l = \partial L/\partial h_l$ and $a_l = \mathrm{relu}(h_l)$:
    $dW_l = a_l^\top g_{l+1}$, $db_l = \sum_n g_{l+1}$ and

    $$g_l = [\text{residual}]\, g_{l+1} + \big(g_{l+1} W_l^\top\big) \odot [h_l > 0].$$

    The first term is the shortcut's: it carries $g_{l+1}$ down unchanged.

    Args:
        params: the weights given to `mlp`.
        cache: the cache `mlp` returned.
        grad_output: $\partial L/\partial \hat y$, shape ``(..., n, d_out)``.
        residual: as given to `mlp`.

    Returns:
        The gradient of each parameter, as ``MLPParams`` of the same shapes.

    Raises:
        TypeError: non-numeric ``grad_output``.
        ValueError: ``grad_output`` does not have y_hat's shape.

    Examples:
        >>> import numpy as np
        >>> from paperlens import init_mlp, mlp, mlp_backward
        >>> p = init_mlp(3, 8, 2, 4, rng=np.random.default_rng(0), residual=False)
        >>> y_hat, cache = mlp(p, np.ones((5, 3)), residual=False)
        >>> grads = mlp_backward(p, cache, np.ones_like(y_hat), residual=False)
        >>> grads.W.shape == p.W.shape
        True
    """
    g = as_real_array(grad_output, "grad_output")
    h_L = cache.h[-1]  # (..., n, width)
    batch = np.broadcast_shapes(h_L.shape[:-2], params.W_out.shape[:-2])
    y_shape = (*batch, h_L.shape[-2], params.W_out.shape[-1])  # y_hat's (..., n, d_out)
    if g.shape != y_shape:
        raise ValueError(f"grad_output must have y_hat's shape {y_shape}, got {g.shape}")
    # y_hat = relu(h_L) W_out + b_out. Each gradient comes back in its parameter's own shape:
    # da (..., n, width), dW_out (..., width, d_out), db_out (..., 1, d_out)
    da, dW_out, db_out = linear_backward(relu(h_L), params.W_out, g, params.b_out.shape)
    g = relu_backward(h_L, da)  # (..., n, width)
    dW = np.empty_like(params.W)
    db = np.empty_like(params.b)
    for i in reversed(range(len(params.W))):  # layer i: h_{i+1} = [h_i +] F_i(h_i)
        h_i = cache.h[i]
        # da (..., n, width), dW_i (..., width, width), db_i (..., 1, width)
        da, dW[i], db[i] = linear_backward(relu(h_i), params.W[i], g, params.b[i].shape)
        through_F = relu_backward(h_i, da)  # (..., n, width)
        g = g + through_F if residual else through_F  # the shortcut passes g on unchanged
    # h_0 = x W_in + b_in: dW_in (..., d_in, width), db_in (..., 1, width); dx is not needed
    _, dW_in, db_in = linear_backward(cache.x, params.W_in, g, params.b_in.shape)
    return MLPParams(dW_in, db_in, dW, db, dW_out, db_out)
