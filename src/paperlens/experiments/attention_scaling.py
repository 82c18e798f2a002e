r"""Does $1/\sqrt{d_k}$ matter? *Attention Is All You Need* (Vaswani et al., 2017), §3.2.1.

"We suspect that for large values of $d_k$, the dot products grow large in magnitude, pushing
the softmax function into regions where it has extremely small gradients. To counteract this
effect, we scale the dot products by $1/\sqrt{d_k}$."

Two experiments:

- `scaling_at_init`: for random q and K with unit-variance components (footnote 4), how
  peaked are the weights (their maximum) and how much gradient the softmax passes back (the
  Frobenius norm of its Jacobian), with and without the scale, as $d_k$ grows.
- `train_matching`: a single attention layer with learned projections $W_q, W_k$ learns
  to find, among $n_k$ stored keys, the one a noisy query was copied from; trained by full-batch
  gradient descent with `paperlens.attention_backward`, with and without the scale.

`run` does both at the page's setup (`PAGE`), and `claims` turns the result into the page's
claims, each a statistical statement (:mod:`paperlens.experiments.claims`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from paperlens import _kernels
from paperlens._cache import cached
from paperlens._checks import FloatArray, require_real_scalar, require_size
from paperlens.attention import attention
from paperlens.experiments.claims import (
    Claim,
    Perturbation,
    mean_above,
    mean_below,
    paired_greater,
    perturb,
)
from paperlens.losses import mse_loss, mse_loss_backward
from paperlens.softmax import softmax_gradient_norm


class InitStats(NamedTuple):
    """What `scaling_at_init` returns: per-trial numbers, shape ``(len(d_ks), trials)``."""

    d_k: FloatArray
    """The dimensions tried, shape ``(m,)``."""
    max_weight_unscaled: FloatArray
    """Largest attention weight of softmax(q K^T), shape ``(m, trials)``."""
    max_weight_scaled: FloatArray
    """Largest attention weight of softmax(q K^T / sqrt(d_k)), shape ``(m, trials)``."""
    grad_norm_unscaled: FloatArray
    """Frobenius norm of the softmax Jacobian at q K^T, shape ``(m, trials)``."""
    grad_norm_scaled: FloatArray
    """Frobenius norm of the softmax Jacobian at q K^T / sqrt(d_k), shape ``(m, trials)``."""


def scaling_at_init(
    d_ks: Sequence[int],
    *,
    n_k: int,
    trials: int,
    rng: np.random.Generator,
    perturbation: Perturbation | None = None,
) -> InitStats:
    r"""Peakedness and gradient of the attention softmax at random q, K, for each $d_k$.

    For each $d_k$ and trial, one query $q \sim N(0, I_{d_k})$ and $n_k$ keys $k_j \sim N(0,
    I_{d_k})$; the scores are $q \cdot k_j$ (unscaled) or $q \cdot k_j / \sqrt{d_k}$ (scaled).

    Args:
        d_ks: the dimensions $d_k$ to try, each ≥ 1.
        n_k: the number of keys.
        trials: independent draws per $d_k$.
        rng: the random generator.
        perturbation: change the last bits of every drawn q and K (`claims.perturb`).

    Returns:
        ``InitStats`` with one number per ($d_k$, trial).

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.attention_scaling import scaling_at_init
        >>> stats = scaling_at_init([1, 256], n_k=16, trials=200, rng=np.random.default_rng(0))
        >>> stats.max_weight_unscaled.shape
        (2, 200)
        >>> float(stats.max_weight_unscaled[1].mean()) > float(stats.max_weight_scaled[1].mean())
        True
    """
    n_k = require_size(n_k, "n_k")
    trials = require_size(trials, "trials")
    d = np.array([require_size(d_k, "d_k") for d_k in d_ks], dtype=float)  # (m,)
    out = np.empty((4, len(d), trials))  # (statistic, m, trials)
    V = np.eye(n_k)  # (n_k, n_k): the output is the weights themselves
    for i, d_k in enumerate(d_ks):
        q: FloatArray = rng.standard_normal((trials, 1, d_k))  # (trials, n_q=1, d_k)
        K: FloatArray = rng.standard_normal((trials, n_k, d_k))  # (trials, n_k, d_k)
        if perturbation is not None:  # a fresh perturbation for each d_k
            q, K = perturb([q, K], perturbation._replace(seed=perturbation.seed + i))
        for j, scale in enumerate((1.0, 1 / math.sqrt(d_k))):
            weights = attention(q, K, V, scale=scale).weights[:, 0]  # (trials, n_k)
            scores = scale * (q @ K.swapaxes(-1, -2))[:, 0]  # (trials, 1, n_k) -> (trials, n_k)
            out[j, i] = weights.max(axis=-1)  # (trials,)
            out[2 + j, i] = softmax_gradient_norm(scores)  # (trials,)
    return InitStats(d, *out)


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
        >>> from paperlens.experiments.attention_scaling import matching_task
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


class MatchingRun(NamedTuple):
    """What `train_matching` returns."""

    loss: FloatArray
    """Loss before each step and after the last, shape ``(len(lrs), len(seeds), steps + 1)``."""
    lrs: FloatArray
    """The learning rates, shape ``(len(lrs),)``."""


def train_matching(
    *,
    d_k: int,
    scaled: bool,
    lrs: Sequence[float],
    seeds: Sequence[int],
    steps: int,
    n_k: int = 8,
    n: int = 64,
    d_model: int = 16,
    noise: float = 0.5,
    init_scale: float = 1.0,
    perturbation: Perturbation | None = None,
) -> MatchingRun:
    r"""Train $W_q, W_k$ of one attention layer on `matching_task`, by gradient descent.

    The layer is $O = \mathrm{softmax}(X_q W_q (X_k W_k)^\top \cdot c)\, V$ with $V = I_{n_k}$,
    so O holds the attention weights themselves; the loss is the mean squared error between O
    and the one-hot target. $c = 1/\sqrt{d_k}$ if ``scaled`` else 1. The weights start as
    $N(0, \mathrm{init\_scale}^2 / d_\mathrm{model})$, so at ``init_scale=1`` the projected q
    and k have unit-variance components, as in the paper's footnote 4.

    Every (learning rate, seed) pair is an independent run; seed s draws its task and then its
    weights from ``np.random.default_rng(s)``, so the same seed gives the same task and starting
    weights in every arm. All runs are computed at once along a batch dim.

    Args:
        d_k: the projected size of queries and keys.
        scaled: divide the scores by $\sqrt{d_k}$.
        lrs: learning rates to run.
        seeds: seeds to run at each learning rate.
        steps: full-batch gradient steps.
        n_k: stored keys per task.
        n: queries per task.
        d_model: size of the unprojected keys and queries.
        noise: noise on the queries.
        init_scale: multiplies the initial weights.
        perturbation: change the starting weights' last bits (`claims.perturb`).

    Returns:
        ``MatchingRun`` with the loss curves.

    Examples:
        >>> from paperlens.experiments.attention_scaling import train_matching
        >>> run = train_matching(d_k=64, scaled=True, lrs=[10.0], seeds=[0, 1], steps=20)
        >>> run.loss.shape
        (1, 2, 21)
        >>> bool((run.loss[..., -1] < run.loss[..., 0]).all())
        True
    """
    d_k = require_size(d_k, "d_k")
    steps = require_size(steps, "steps", minimum=0)
    init_scale = require_real_scalar(init_scale, "init_scale")
    if not lrs or not seeds:
        raise ValueError(f"need at least one learning rate and one seed, got {lrs} and {seeds}")
    for lr_ in lrs:
        require_real_scalar(lr_, "lr")
    tasks, W_q, W_k = [], [], []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        tasks.append(matching_task(n_k, n, d_model, noise=noise, rng=rng))
        std = init_scale / math.sqrt(d_model)
        W_q.append(rng.standard_normal((d_model, d_k)) * std)
        W_k.append(rng.standard_normal((d_model, d_k)) * std)
    R = len(lrs) * len(seeds)  # runs, learning-rate major

    def per_run(arrays: Sequence[FloatArray]) -> FloatArray:
        return np.tile(np.stack(arrays), (len(lrs),) + (1,) * arrays[0].ndim)  # (R, ...)

    X_k, X_q, Y = (per_run([getattr(t, f) for t in tasks]) for f in MatchingTask._fields)
    Wq, Wk = perturb([per_run(W_q), per_run(W_k)], perturbation)  # (R, d_model, d_k)
    lr = np.repeat(np.asarray(lrs, dtype=float), len(seeds))[:, None, None]  # (R, 1, 1)
    V = np.eye(n_k)  # (n_k, n_k)
    scale = 1 / math.sqrt(d_k) if scaled else 1.0
    losses = np.empty((steps + 1, R))
    # Checked once, here: every array below is drawn from checked sizes, so the loop runs the
    # kernels of linear and attention without their checks, as `mlp` does, and the backward
    # reuses the forward's weights P. An overflow or NaN born in training still raises.
    for step in range(steps + 1):
        Q = _kernels.linear(X_q, Wq, None)  # (R, n, d_model) x (R, d_model, d_k) -> (R, n, d_k)
        K = _kernels.linear(X_k, Wk, None)  # (R, n_k, d_model) x (R, d_model, d_k) -> (R, n_k, d_k)
        out, P = _kernels.attention(Q, K, V, scale, None)  # (R, n, n_k): O = P V = P
        losses[step] = mse_loss(out, Y)  # (R,)
        if step == steps:
            break
        dQ, dK, _ = _kernels.attention_backward(Q, K, V, P, mse_loss_backward(out, Y), scale)
        Wq = Wq - lr * _kernels.linear_backward(X_q, Wq, dQ, (d_k,))[1]  # (R, d_model, d_k)
        Wk = Wk - lr * _kernels.linear_backward(X_k, Wk, dK, (d_k,))[1]
    loss = losses.T.reshape(len(lrs), len(seeds), steps + 1)  # (lrs, seeds, steps + 1)
    return MatchingRun(loss, np.asarray(lrs, dtype=float))


def best_lr_index(loss: FloatArray) -> int:
    """The learning rate whose median final loss over seeds is lowest.

    Args:
        loss: curves, shape ``(len(lrs), len(seeds), steps + 1)``.

    Returns:
        The index into ``lrs``.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.attention_scaling import best_lr_index
        >>> best_lr_index(np.array([[[1.0, 0.5]], [[1.0, 0.2]], [[1.0, 0.9]]]))
        1
    """
    final = np.nan_to_num(loss[..., -1], nan=np.inf)  # (lrs, seeds): a diverged run counts as worst
    return int(np.argmin(np.median(final, axis=1)))


class Arm(NamedTuple):
    """One version of the layer, trained at each rate of its own grid."""

    name: str
    scaled: bool
    lrs: tuple[float, ...]
    """Learning rates a factor √10 apart; the best by median over the tuning seeds is kept."""
    init_scale: float = 1.0


class Setup(NamedTuple):
    """Everything the page's experiment depends on; `PAGE` is the one the page runs."""

    d_ks: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
    """The dimensions tried at initialisation, 1 to 1024."""
    n_k: int = 16
    """Keys per query at initialisation."""
    trials: int = 500
    """Random (q, K) draws per d_k."""
    init_seed: int = 0
    """Seeds the draws."""
    d_k: int = 256
    """The trained layer's projected size."""
    n: int = 32
    """Queries per task."""
    steps: int = 150
    """Full-batch gradient steps."""
    tune_seeds: tuple[int, ...] = tuple(range(100, 105))
    """Seeds that choose each arm's learning rate (and are not used again)."""
    seeds: tuple[int, ...] = tuple(range(12))
    """Seeds the claims are tested on, at the chosen rates."""
    arms: tuple[Arm, ...] = (
        Arm("scaled", True, (10.0, 30.0, 100.0, 300.0)),
        Arm("unscaled", False, (0.1, 0.3, 1.0, 3.0, 10.0)),
        Arm("unscaled, small init", False, (0.3, 1.0, 3.0, 10.0, 30.0), init_scale=256**-0.25),
    )
    """The scaled layer, the unscaled one, and the unscaled one started with q and k as small
    as the scaled one's: ``init_scale`` $= d_k^{-1/4}$."""


PAGE = Setup()
"""The setup of the page "Attention's 1/√d_k"."""


class Result(NamedTuple):
    """What `run` returns."""

    setup: Setup
    init: InitStats
    """The statistics at initialisation."""
    tuning: dict[str, FloatArray]
    """Per arm, the tuning runs' final losses, shape ``(lrs, tune_seeds)``."""
    lr: dict[str, float]
    """Per arm, the chosen learning rate."""
    curves: dict[str, FloatArray]
    """Per arm, the loss curves at the chosen rate, shape ``(seeds, steps + 1)``."""


@cached  # computed once for the build, the tests and a reader's notebook (paperlens._cache)
def run(setup: Setup = PAGE, *, perturbation: Perturbation | None = None) -> Result:
    """Run the page's experiment: the statistics at initialisation, then each arm's training.

    Each arm's rate is chosen on `Setup.tune_seeds`, and its claims are tested on the other
    seeds, `Setup.seeds`: choosing and testing on the same seeds would favour the arm that
    happened to get lucky draws.

    Args:
        setup: the configuration.
        perturbation: change every starting value's last bits, as another CPU's rounding would
            (the tests run the page's claims this way).

    Returns:
        The `Result`.
    """
    init = scaling_at_init(
        setup.d_ks,
        n_k=setup.n_k,
        trials=setup.trials,
        rng=np.random.default_rng(setup.init_seed),
        perturbation=perturbation,
    )
    tuning, lr, curves = {}, {}, {}
    for arm in setup.arms:
        common = dict(
            d_k=setup.d_k,
            scaled=arm.scaled,
            steps=setup.steps,
            n=setup.n,
            init_scale=arm.init_scale,
            perturbation=perturbation,
        )
        tune = train_matching(lrs=arm.lrs, seeds=setup.tune_seeds, **common)  # type: ignore[arg-type]
        best = best_lr_index(tune.loss)
        if not 0 < best < len(arm.lrs) - 1:
            raise RuntimeError(f"{arm.name}: the best rate {arm.lrs[best]} is at its grid's edge")
        tuning[arm.name], lr[arm.name] = tune.loss[..., -1], arm.lrs[best]
        test = train_matching(lrs=[lr[arm.name]], seeds=setup.seeds, **common)  # type: ignore[arg-type]
        curves[arm.name] = test.loss[0]
    return Result(setup, init, tuning, lr, curves)


def claims(result: Result) -> list[Claim]:
    """The page's claims: three at initialisation (at the largest d_k), two from training.

    "Nearly one-hot" is decided against the midpoint between uniform weights, whose largest is
    $1/n_k$, and one-hot weights, whose largest is 1: a mean largest weight above
    $(1 + 1/n_k)/2$ is nearer one-hot than uniform. Training losses are compared as logarithms,
    paired by seed.

    Args:
        result: what `run` returned.

    Returns:
        The claims, in the page's order.
    """
    s, init = result.setup, result.init
    d_k = s.d_ks[-1]
    middle = (1 + 1 / s.n_k) / 2
    final = {name: np.log10(c[:, -1]) for name, c in result.curves.items()}  # each (seeds,)
    scaled, unscaled, small = (arm.name for arm in s.arms)
    return [
        mean_above(
            init.max_weight_unscaled[-1],
            middle,
            f"unscaled, at d_k = {d_k} the weights over {s.n_k} keys are nearer one-hot than "
            "uniform (mean largest weight above the midpoint)",
        ),
        mean_below(
            init.max_weight_scaled[-1],
            middle,
            f"scaled, at d_k = {d_k} they stay nearer uniform than one-hot (mean largest weight "
            "below the midpoint)",
        ),
        paired_greater(
            init.grad_norm_scaled[-1],
            init.grad_norm_unscaled[-1],
            f"unscaled, at d_k = {d_k} the softmax passes back less gradient (a smaller "
            "Jacobian norm, paired by draw)",
        ),
        paired_greater(
            final[unscaled],
            final[scaled],
            f"trained at d_k = {s.d_k}, the scaled layer ends with a lower loss than the "
            "unscaled one, each at its own best rate",
        ),
        paired_greater(
            final[unscaled],
            final[small],
            "so does the unscaled layer started with weights d_k^(1/4) times smaller",
        ),
    ]
