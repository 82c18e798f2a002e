r"""One attention layer, trained on a matching task, many runs at once.

The layer of the page "Attention's 1/√d_k" (:mod:`paperlens.experiments.attention_scaling`):
stored keys $X_k$ (``(n_k, d_model)``), queries $X_q$ (``(n, d_model)``) that are noisy copies
of them, and learned projections $W_q, W_k$ (``(d_model, d_k)``):

$$S = c\, X_q W_q (X_k W_k)^\top, \qquad P = \mathrm{softmax}(S), \qquad
c = 1/\sqrt{d_k} \text{ (scaled) or } 1 \text{ (unscaled)}.$$

Two outputs, two losses:

- **weights**: the output is $P$ itself ($V = I$), and the loss is the mean squared error
  between $P$ and the one-hot index of each query's key (``loss="mse"``), or the
  cross-entropy $-\log P_{i, t_i}$ (``loss="ce"``).
- **values** (``values=True``): the output is $P\, X_k W_v W_o$, and the loss is the mean
  squared error between it and the clean key $x_{t_i}$: the layer must find the key and copy
  it out, so $W_v$ and $W_o$ are learned too (they share an optimiser with $W_q, W_k$).

`train` runs many (settings, seed) pairs at once, stacked along a leading axis of runs, by
full-batch gradient descent or Adam; its gradients are the library's hand-derived ones
(:mod:`paperlens._kernels`, the kernels behind `paperlens.attention_backward` and
`paperlens.softmax_backward`). Seed s draws its task and then its starting weights from
``np.random.default_rng(s)``, so every setting starts from the same draw for a given seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal, NamedTuple

import numpy as np

from paperlens._checks import FloatArray, require_real_scalar, require_size
from paperlens._kernels import softmax_backward
from paperlens.experiments.claims import Perturbation, perturb


class MatchingTask(NamedTuple):
    """Find the stored key a noisy query was copied from (`matching_task`)."""

    X_k: FloatArray
    """The stored keys, shape ``(..., n_k, d_model)``."""
    X_q: FloatArray
    """The queries, shape ``(..., n, d_model)``."""
    target: FloatArray
    """One-hot index of each query's key, shape ``(..., n, n_k)``."""


def matching_task(
    n_k: int, n: int, d_model: int, *, noise: float, rng: np.random.Generator
) -> MatchingTask:
    r"""$n_k$ random keys $x_j \sim N(0, I)$; each query is $x_t + \sigma \varepsilon$, t random.

    Args:
        n_k: the number of stored keys.
        n: the number of queries.
        d_model: the size of keys and queries before projection.
        noise: $\sigma$, the standard deviation of the noise added to the copied key.
        rng: the random generator.

    Returns:
        ``MatchingTask`` without batch dims.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.attention_training import matching_task
        >>> task = matching_task(8, 64, 16, noise=0.5, rng=np.random.default_rng(0))
        >>> task.X_k.shape, task.X_q.shape, task.target.shape
        ((8, 16), (64, 16), (64, 8))
    """
    n_k, n, d_model = (
        require_size(v, s) for v, s in [(n_k, "n_k"), (n, "n"), (d_model, "d_model")]
    )
    noise = require_real_scalar(noise, "noise")
    X_k = rng.standard_normal((n_k, d_model))  # (n_k, d_model)
    t = rng.integers(n_k, size=n)  # (n,)
    X_q = X_k[t] + noise * rng.standard_normal((n, d_model))  # (n, d_model)
    return MatchingTask(X_k, X_q, np.eye(n_k)[t])  # target (n, n_k)


class Hyper(NamedTuple):
    """The numeric settings of one run; `train` takes a list of them and runs them at once.

    "qk" settings apply to $W_q, W_k$; "vo" ones to $W_v, W_o$ (``values=True`` only).
    """

    scale: float
    """$c$, which multiplies the scores: $1/\\sqrt{d_k}$ (scaled) or 1 (unscaled)."""
    init: float = 1.0
    """Multiplies $W_q, W_k$'s starting draw $N(0, 1/d_\\mathrm{model})$; at 1 the projected
    k have unit-variance components, as in the paper's footnote 4, and the projected q have
    variance $1 + \\sigma^2$ (1.25 at the default noise 0.5), each query being a key plus noise."""
    lr: float = 1.0
    """The learning rate of $W_q, W_k$."""
    lr_vo: float = 1.0
    """The learning rate of $W_v, W_o$."""
    eps: float = 1e-8
    """Adam's $\\epsilon$ for $W_q, W_k$."""
    eps_vo: float = 1e-8
    """Adam's $\\epsilon$ for $W_v, W_o$."""
    decay: float = 0.0
    """Decoupled weight decay (AdamW) of $W_q, W_k$: each step also subtracts lr · decay · W."""
    decay_vo: float = 0.0
    """Decoupled weight decay of $W_v, W_o$."""


Optimiser = Literal["gd", "adam"]
Loss = Literal["mse", "ce"]
BETA1, BETA2 = 0.9, 0.999
"""Adam's decay rates, as in `paperlens.adam_step` and the Adam paper."""


def _per_run(values: Sequence[float], seeds: int) -> FloatArray:
    """One number per run, settings-major, shaped to broadcast over a weight: ``(R, 1, 1)``."""
    return np.repeat(np.asarray(values, dtype=float), seeds)[:, None, None]


def train(
    hypers: Sequence[Hyper],
    seeds: Sequence[int],
    *,
    d_k: int,
    steps: int,
    optimiser: Optimiser = "gd",
    loss: Loss = "mse",
    values: bool = False,
    n_k: int = 8,
    n: int = 32,
    d_model: int = 16,
    d_v: int = 16,
    noise: float = 0.5,
    perturbation: Perturbation | None = None,
) -> FloatArray:
    r"""Train the layer once per (settings, seed) pair, all pairs at once; return the losses.

    Args:
        hypers: the settings to run, each on every seed.
        seeds: seed s draws the task, then $W_q, W_k$ (then $W_v, W_o$) from
            ``np.random.default_rng(s)``.
        d_k: the projected size of queries and keys.
        steps: full-batch optimiser steps.
        optimiser: ``"gd"`` (plain gradient descent) or ``"adam"`` (Adam, with decoupled weight
            decay where a `Hyper` asks for it; the same update as `paperlens.adam_step`).
        loss: ``"mse"`` or ``"ce"`` (cross-entropy; weights output only).
        values: learn $W_v$ ``(d_model, d_v)`` and $W_o$ ``(d_v, d_model)`` and output the
            retrieved key (see the module docstring).
        n_k: stored keys per task.
        n: queries per task.
        d_model: the size of keys and queries before projection.
        d_v: the size of the values, with ``values=True``.
        noise: the noise on the queries.
        perturbation: change the starting weights' last bits (`claims.perturb`), the same
            change for every setting of a seed.

    Returns:
        The loss before each step and after the last, shape ``(len(hypers), len(seeds),
        steps + 1)``; a run whose loss overflows reads NaN from there on.

    Examples:
        >>> import math
        >>> from paperlens.experiments.attention_training import Hyper, train
        >>> scaled = Hyper(scale=1 / math.sqrt(64), lr=10.0)
        >>> loss = train([scaled], seeds=[0, 1], d_k=64, steps=20)
        >>> loss.shape, bool((loss[..., -1] < loss[..., 0]).all())
        ((1, 2, 21), True)
    """
    d_k = require_size(d_k, "d_k")
    steps = require_size(steps, "steps", minimum=0)
    if not hypers or not seeds:
        raise ValueError(f"need at least one setting and one seed, got {hypers} and {seeds}")
    if optimiser not in ("gd", "adam"):
        raise ValueError(f"optimiser must be 'gd' or 'adam', got {optimiser!r}")
    if loss not in ("mse", "ce") or (values and loss != "mse"):
        raise ValueError(f"loss must be 'mse', or 'ce' without values, got {loss!r}")
    S = len(seeds)
    task, weights = start_task(seeds, n_k, n, d_model, d_k, d_v, noise, values, perturbation)
    h = {f: _per_run([getattr(x, f) for x in hypers], S) for f in Hyper._fields}  # each (R, 1, 1)
    tile = len(hypers)
    X_k, X_q, Y = (np.tile(a, (tile, 1, 1)) for a in task)  # (R, n_k | n, ...)
    params = [np.tile(w, (tile, 1, 1)) for w in weights]  # W_q, W_k (, W_v, W_o): (R, ., .)
    params[0] = params[0] * h["init"]  # (R, d_model, d_k)
    params[1] = params[1] * h["init"]
    groups = ["qk", "qk", "vo", "vo"][: len(params)]
    lr = [h["lr"] if g == "qk" else h["lr_vo"] for g in groups]
    eps = [h["eps"] if g == "qk" else h["eps_vo"] for g in groups]
    decay = [h["decay"] if g == "qk" else h["decay_vo"] for g in groups]
    target = (Y @ X_k) if values else Y  # (R, n, d_model): the clean key, or (R, n, n_k)
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    losses = np.empty((steps + 1, len(hypers) * S))  # (steps + 1, R)
    with np.errstate(over="ignore", invalid="ignore"):  # a diverging run turns NaN, not an error
        for step in range(steps + 1):
            value, grads = loss_and_grads(params, X_q, X_k, target, h["scale"], loss)
            losses[step] = value
            if step == steps:
                break
            if optimiser == "gd":
                params = [p - a * g for p, a, g in zip(params, lr, grads, strict=True)]
                continue
            t = step + 1
            for i, g in enumerate(grads):  # Adam, as paperlens.adam_step, one rate per run
                m[i] = BETA1 * m[i] + (1 - BETA1) * g
                v[i] = BETA2 * v[i] + (1 - BETA2) * g * g
                update = (m[i] / (1 - BETA1**t)) / (np.sqrt(v[i] / (1 - BETA2**t)) + eps[i])
                if np.any(decay[i]):  # decoupled decay first, as PyTorch's AdamW
                    params[i] = params[i] * (1 - lr[i] * decay[i])
                params[i] = params[i] - lr[i] * update
    return losses.T.reshape(len(hypers), S, steps + 1)


def start_task(
    seeds: Sequence[int],
    n_k: int,
    n: int,
    d_model: int,
    d_k: int,
    d_v: int,
    noise: float,
    values: bool,
    perturbation: Perturbation | None,
) -> tuple[MatchingTask, list[FloatArray]]:
    """Each seed's task and starting weights, stacked: ``(S, ...)`` each."""
    tasks, weights = [], []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        tasks.append(matching_task(n_k, n, d_model, noise=noise, rng=rng))
        W = [rng.standard_normal((d_model, d_k)) / math.sqrt(d_model) for _ in "qk"]
        if values:
            W.append(rng.standard_normal((d_model, d_v)) / math.sqrt(d_model))  # W_v
            W.append(rng.standard_normal((d_v, d_model)) / math.sqrt(d_v))  # W_o
        weights.append(W)
    task = MatchingTask(*(np.stack(a) for a in zip(*tasks, strict=True)))
    stacked = [np.stack(w) for w in zip(*weights, strict=True)]  # each (S, ., .)
    return task, perturb(stacked, perturbation)


def loss_and_grads(
    params: list[FloatArray],
    X_q: FloatArray,
    X_k: FloatArray,
    target: FloatArray,
    c: FloatArray,
    loss: Loss,
) -> tuple[FloatArray, list[FloatArray]]:
    """Each run's loss, shape ``(R,)``, and the gradients of their sum, one per parameter."""
    W_q, W_k = params[:2]
    n = X_q.shape[-2]
    Q = X_q @ W_q  # (R, n, d_model) x (R, d_model, d_k) -> (R, n, d_k)
    K = X_k @ W_k  # (R, n_k, d_model) x (R, d_model, d_k) -> (R, n_k, d_k)
    # S = c Q K^T with c in Q, as paperlens.attention computes it; unlike attention, a run that
    # diverges is not an error here: it turns NaN and its loss says so
    S = (Q * c) @ K.swapaxes(-1, -2)  # (R, n, d_k) x (R, d_k, n_k) -> (R, n, n_k)
    S -= S.max(axis=-1, keepdims=True)  # softmax(S) = softmax(S - max): no exp overflows
    grads: list[FloatArray] = []
    if loss == "ce":
        log_P = S - np.log(np.exp(S).sum(axis=-1, keepdims=True))  # (R, n, n_k)
        value = -(target * log_P).sum(axis=(-2, -1)) / n  # (R,)
        dS = (np.exp(log_P) - target) / n  # (R, n, n_k): softmax and cross-entropy together
    else:
        P = np.exp(S)  # (R, n, n_k)
        P /= P.sum(axis=-1, keepdims=True)  # the softmax
        if len(params) == 2:  # the output is P itself
            diff = P - target  # (R, n, n_k)
            dP = diff * (2 / diff[0].size)  # d mean((P - Y)^2) / dP
        else:
            W_v, W_o = params[2:]
            V = X_k @ W_v  # (R, n_k, d_model) x (R, d_model, d_v) -> (R, n_k, d_v)
            H = P @ V  # (R, n, n_k) x (R, n_k, d_v) -> (R, n, d_v)
            diff = H @ W_o - target  # (R, n, d_v) x (R, d_v, d_model) -> (R, n, d_model)
            dO = diff * (2 / diff[0].size)  # (R, n, d_model)
            dH = dO @ W_o.swapaxes(-1, -2)  # (R, n, d_model) x (R, d_model, d_v) -> (R, n, d_v)
            dP = dH @ V.swapaxes(-1, -2)  # (R, n, d_v) x (R, d_v, n_k) -> (R, n, n_k)
            dV = P.swapaxes(-1, -2) @ dH  # (R, n_k, n) x (R, n, d_v) -> (R, n_k, d_v)
            grads_vo = [
                X_k.swapaxes(-1, -2) @ dV,  # (R, d_model, n_k) x (R, n_k, d_v): dW_v
                H.swapaxes(-1, -2) @ dO,  # (R, d_v, n) x (R, n, d_model): dW_o
            ]
        value = np.mean(diff**2, axis=(-2, -1))  # (R,)
        dS = softmax_backward(P, dP)  # (R, n, n_k)
    dQ = c * (dS @ K)  # (R, n, n_k) x (R, n_k, d_k) -> (R, n, d_k)
    dK = c * (dS.swapaxes(-1, -2) @ Q)  # (R, n_k, n) x (R, n, d_k) -> (R, n_k, d_k)
    grads = [X_q.swapaxes(-1, -2) @ dQ, X_k.swapaxes(-1, -2) @ dK]  # (R, d_model, d_k) each
    if len(params) == 4:
        grads += grads_vo
    return value, grads
