r"""The degradation problem. *Deep Residual Learning* (He et al., 2015), §1.

"With the network depth increasing, accuracy gets saturated (which might be unsurprising) and
then degrades rapidly. Unexpectedly, such degradation is not caused by overfitting, and adding
more layers to a suitably deep model leads to higher training error."

Two experiments on :mod:`paperlens.mlp` networks, plain and with identity shortcuts:

- `gradient_norms_at_init`: the gradient reaching each layer's weights, at initialisation.
- `train_depths`: final training loss against depth, on a small regression task.

`run` does both at the page's setup (`PAGE`), and `claims` turns the result into the page's
claims, each a test across seeds (:mod:`paperlens.experiments.claims`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from paperlens._cache import cached
from paperlens._checks import FloatArray, require_real_scalar, require_size
from paperlens.adam import adam_init, adam_step
from paperlens.experiments.claims import JITTER, Claim, Perturbation, paired_greater, perturb
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
    seeds: Sequence[int],
    d_in: int,
    width: int,
    depth: int,
    *,
    residual: bool,
    gain: float,
    perturbation: Perturbation | None,
) -> MLPParams:
    """One network per seed, stacked: seed s draws from ``np.random.default_rng(s)``."""
    nets = stack_params(
        [
            init_mlp(
                d_in, width, 1, depth, rng=np.random.default_rng(s), residual=residual, gain=gain
            )
            for s in seeds
        ]
    )
    return MLPParams(*perturb(nets, perturbation))


def gradient_norms_at_init(
    X: FloatArray,
    y: FloatArray,
    *,
    depth: int,
    width: int,
    residual: bool,
    seeds: Sequence[int],
    gain: float = 2.0,
    perturbation: Perturbation | None = None,
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
        perturbation: change the starting weights' last bits (`claims.perturb`).

    Returns:
        The norms, shape ``(len(seeds), depth)``; column 0 is the layer nearest the input.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.residual_depth import gradient_norms_at_init, regression_task
        >>> X, y = regression_task(64, 4, rng=np.random.default_rng(0))
        >>> gradient_norms_at_init(X, y, depth=6, width=8, residual=True, seeds=[0, 1]).shape
        (2, 6)
    """
    params = _nets(
        seeds, X.shape[-1], width, depth, residual=residual, gain=gain, perturbation=perturbation
    )
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
    perturbation: Perturbation | None = None,
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
        perturbation: change the starting weights' last bits (`claims.perturb`).

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
        params = _nets(
            seeds, X.shape[-1], width, depth, residual=residual, gain=2.0, perturbation=perturbation
        )
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


class Setup(NamedTuple):
    """Everything the page's experiment depends on; `PAGE` is the one the page runs."""

    n: int = 128
    """Training examples of `regression_task`."""
    d_in: int = 8
    """Input size."""
    task_seed: int = 1234
    """Seeds the task (the same data for every net)."""
    seeds: tuple[int, ...] = tuple(range(12))
    """One net per seed in every arm; seed s starts every arm's net from the same draw."""
    grad_depth: int = 32
    """Depth of the nets whose gradients are measured at initialisation."""
    grad_width: int = 32
    """Their width."""
    depths: tuple[int, ...] = (2, 4, 8, 16, 32, 48)
    """The depths trained."""
    width: int = 16
    """The trained nets' width."""
    steps: int = 300
    """Full-batch Adam steps."""
    lr: float = 0.002
    """Adam's learning rate, one for every net."""
    tail: int = 30
    """The end of training is measured over the last `tail` steps (see `Result.final_loss`)."""
    shallow: int = 8
    """The depth the degradation claim compares against."""
    deep: int = 48
    """The deepest net, compared with `shallow` and with its residual twin."""


PAGE = Setup()
"""The setup of the page "ResNet's degradation problem"."""


class Result(NamedTuple):
    """What `run` returns; arm 0 is plain, arm 1 residual."""

    setup: Setup
    grad_norms: FloatArray
    """$\\lVert \\partial L/\\partial W_l \\rVert_F$ at init, shape ``(2, seeds, grad_depth)``."""
    final_loss: FloatArray
    """Training loss at the end, shape ``(2, depths, seeds)``: the geometric mean over the last
    `Setup.tail` steps, so that Adam's step-to-step jitter at small losses does not decide it."""
    rerun_loss: FloatArray
    """The deep nets' final loss again, with starting weights changed in their last bits
    (`claims.perturb`), shape ``(2, seeds)``."""


@cached  # computed once for the build, the tests and a reader's notebook (paperlens._cache)
def run(setup: Setup = PAGE, *, perturbation: Perturbation | None = None) -> Result:
    """Run the page's experiment: gradients at init, training at every depth, a rerun.

    Args:
        setup: the configuration.
        perturbation: change every starting weight's last bits, as another CPU's rounding
            would (the tests run the page's claims this way).

    Returns:
        The `Result`.
    """
    X, y = regression_task(setup.n, setup.d_in, rng=np.random.default_rng(setup.task_seed))
    grads = [
        gradient_norms_at_init(
            X,
            y,
            depth=setup.grad_depth,
            width=setup.grad_width,
            residual=residual,
            seeds=setup.seeds,
            perturbation=perturbation,
        )
        for residual in (False, True)
    ]

    def train(depths: Sequence[int], residual: bool, change: Perturbation | None) -> FloatArray:
        curves = train_depths(
            X,
            y,
            depths=depths,
            width=setup.width,
            residual=residual,
            seeds=setup.seeds,
            steps=setup.steps,
            lr=setup.lr,
            perturbation=change,
        )  # (depths, seeds, steps + 1)
        return np.asarray(10 ** np.log10(curves[..., -setup.tail :]).mean(axis=-1))

    final = [train(setup.depths, r, perturbation) for r in (False, True)]  # each (depths, seeds)
    # The rerun starts from the unperturbed weights changed by another perturbation, the same
    # for both arms, so run and rerun differ in the last bits of every starting weight.
    again = Perturbation(seed=1000 + (perturbation.seed if perturbation else 0))
    rerun = [train([setup.deep], r, again)[0] for r in (False, True)]  # each (seeds,)
    return Result(setup, np.stack(grads), np.stack(final), np.stack(rerun))


def claims(result: Result) -> list[Claim]:
    """The page's claims, each a one-sided Wilcoxon test paired by seed on log-scale numbers.

    Losses span orders of magnitude from seed to seed, so they are compared as logarithms: a
    difference of log losses is the log of their ratio.

    Args:
        result: what `run` returned.

    Returns:
        The five claims of the page, in its order.
    """
    s = result.setup
    g = np.log10(result.grad_norms.max(axis=-1) / result.grad_norms.min(axis=-1))  # (2, seeds)
    loss = np.log10(result.final_loss)  # (2, depths, seeds)
    shallow, deep = s.depths.index(s.shallow), s.depths.index(s.deep)
    plain, res = loss[0], loss[1]  # (depths, seeds)
    moved = np.abs(np.log10(result.rerun_loss) - loss[:, deep])  # (2, seeds)
    return [
        paired_greater(
            g[0],
            g[1],
            f"at initialisation the {s.grad_depth}-layer plain net's layer gradients spread "
            "wider (largest over smallest) than the residual net's",
        ),
        paired_greater(
            plain[deep],
            plain[shallow],
            f"degradation: without shortcuts, {s.deep} layers end with a higher training loss "
            f"than {s.shallow}",
        ),
        paired_greater(
            plain[deep],
            res[deep],
            f"at {s.deep} layers, the net with shortcuts ends with a lower training loss",
        ),
        paired_greater(
            plain[deep] - plain[shallow],
            res[deep] - res[shallow],
            f"shortcuts shrink the cost of depth: going from {s.shallow} to {s.deep} layers "
            "raises the loss by a larger factor without them",
        ),
        paired_greater(
            moved[0],
            moved[1],
            f"changing the starting weights by a relative {JITTER:g} moves the {s.deep}-layer "
            "plain net's final loss further than the residual net's",
        ),
    ]
