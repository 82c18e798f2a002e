r"""The degradation problem. *Deep Residual Learning for Image Recognition* (He et al., 2016), §1.

"When deeper networks are able to start converging, a *degradation* problem has been exposed:
with the network depth increasing, accuracy gets saturated (which might be unsurprising) and
then degrades rapidly. Unexpectedly, such degradation is *not caused by overfitting*, and adding
more layers to a suitably deep model leads to *higher training error*, as reported in [11, 42]
and thoroughly verified by our experiments." (Emphasis in the original.)

And §4.1, on why: "We conjecture that the deep plain nets may have exponentially low
convergence rates, which impact the reducing of the training error." (Their footnote 3: with
three times the iterations they "still observed the degradation problem".)

The experiment trains :mod:`paperlens.mlp` networks on one small regression task
(`regression_task`) by full-batch Adam, at several depths, in four *arms* (`Arm`): plain,
residual (identity shortcuts, branch weights multiplied by $1/\sqrt{L}$), and the two halves
of that change on their own, shortcuts without the $1/\sqrt{L}$ and the $1/\sqrt{L}$ without
shortcuts. It reads the final training loss at several budgets and learning rates.

- `DESIGN`: the claims, their tests and levels, the exploration and confirmation seeds, and the
  sample-size argument, fixed before the confirmation run.
- `PAGE`: what the page runs while the site is built (two arms, one rate, one budget);
  `FULL`: the full sweep (four arms, eight rates, three budgets and a rerun), run by
  ``python -m paperlens.experiments.residual_depth full`` and recorded in the experiment log
  (:mod:`paperlens.experiments.log`), from which the page shows its numbers.
- `run` trains a `Setup` and `claims` decides every claim its `Result` holds the data for.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from scipy import stats

from paperlens._cache import cached, environment_key
from paperlens._checks import FloatArray, require_real_scalar, require_size
from paperlens.adam import adam_init, adam_step
from paperlens.experiments.claims import (
    ALPHA,
    Claim,
    Perturbation,
    hodges_lehmann,
    paired_greater,
    perturb,
)
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


class Arm(NamedTuple):
    """One kind of network: with or without shortcuts, with or without the $1/\\sqrt{L}$."""

    name: str
    shortcut: bool
    """Run with identity shortcuts, $h_{l+1} = h_l + F_l(h_l)$."""
    scaled: bool
    """Multiply the hidden weights by $1/\\sqrt{L}$ at the start (`paperlens.init_mlp`'s
    ``residual=True``). Seed s draws the same numbers either way: only this factor differs."""
    kept: bool = False
    """Rescale each block's starting weights on the training inputs so that the signal keeps
    its mean square from block to block (`keep_signal`)."""
    centred: bool = False
    """Set each block's starting weights and biases on the training inputs so that every unit
    of its output has mean 0 and variance 1 over the examples (`centre_signal`)."""


PLAIN = Arm("plain", shortcut=False, scaled=False)
RESIDUAL = Arm("residual", shortcut=True, scaled=True)
SHORTCUT_ONLY = Arm("shortcuts, no 1/√L", shortcut=True, scaled=False)
"""The control with the plain nets' starting weights: differs from `PLAIN` in the shortcut only."""
SCALE_ONLY = Arm("1/√L, no shortcuts", shortcut=False, scaled=True)
"""The control with the residual nets' starting weights: differs from `RESIDUAL` in the
shortcut only."""
PLAIN_KEPT = Arm("plain, signal kept", shortcut=False, scaled=False, kept=True)
"""Plain nets whose signal keeps its size at the start: `PLAIN`'s weights, each block's
rescaled on the training inputs (`keep_signal`). Only the size: the examples' representations
point where `PLAIN`'s do (batch normalisation, in He et al.'s plain nets, also centres each
unit, and acts at every step)."""


PLAIN_CENTRED = Arm("plain, centred start", shortcut=False, scaled=False, centred=True)
"""Plain nets whose every unit starts centred and scaled on the training inputs
(`centre_signal`): what batch normalisation does to each unit, done once, at the start."""


def centre_signal(params: MLPParams, X: FloatArray) -> MLPParams:
    r"""Plain nets' starting weights and biases set, block by block, on the inputs ``X``, so
    that every unit of each block's output has mean 0 and variance 1 over the examples: batch
    normalisation's transformation at the start, folded into the weights, with no
    normalisation after it.

    Each block's output $z = \operatorname{relu}(h) W_l$ (its biases start at 0) is replaced
    by $(z - \mu) / \sigma$, unit by unit, with $\mu$ and $\sigma$ its mean and standard
    deviation over ``X``: column j of $W_l$ is divided by $\sigma_j$ and $b_l$ set to
    $-\mu / \sigma$. Unlike `keep_signal`, this changes the function, not only its scale.

    Args:
        params: nets stacked along a seed axis (`init_nets`), run without shortcuts.
        X: inputs, shape ``(n, d_in)``, or one set per net, ``(seeds, n, d_in)``.

    Returns:
        The nets with their blocks' weights and biases set; the other arrays are unchanged.

    Examples:
        >>> import numpy as np
        >>> from paperlens import mlp
        >>> from paperlens.experiments.residual_depth import centre_signal, init_nets
        >>> X = np.random.default_rng(0).standard_normal((64, 4))
        >>> nets = centre_signal(init_nets([0, 1], 4, 8, 12, scaled=False), X)
        >>> h = mlp(nets, X, residual=False)[1].h[-1]  # (seeds, n, width)
        >>> bool(np.allclose(h.mean(axis=-2), 0) and np.allclose(h.std(axis=-2), 1))
        True
    """
    h = X @ params.W_in + params.b_in  # (seeds, n, width)
    W, b = params.W.copy(), params.b.copy()  # (L, seeds, width, width), (L, seeds, 1, width)
    for layer in range(W.shape[0]):
        z = np.maximum(h, 0) @ W[layer]  # (seeds, n, width)
        mu, sigma = z.mean(axis=-2, keepdims=True), z.std(axis=-2, keepdims=True)  # (seeds, 1, w)
        W[layer] /= sigma  # each column j by sigma_j
        b[layer] = -mu / sigma
        h = (z - mu) / sigma
    return params._replace(W=W, b=b)


def keep_signal(params: MLPParams, X: FloatArray) -> MLPParams:
    r"""Plain nets' starting weights rescaled, block by block, on the inputs ``X``, so that
    each block's output has the mean square (over examples and units) of its input: the
    signal $h_L$ starts with the mean square of $h_0$ at any depth, for each net.

    The idea of Mishkin and Matas's layer-sequential unit-variance initialisation (LSUV,
    2016), which rescales each layer on a mini-batch, repeating until its output has unit
    variance, after an orthonormal start. Here the draw is `paperlens.init_mlp`'s, and each
    block's weights are multiplied by one factor, in order from the input, in one pass over
    all of ``X``, to match the (uncentred) mean square. The biases start at 0 and ReLU is
    positively homogeneous, so each factor scales everything after its block: the last
    block's output is the plain net's times one number per net, its direction unchanged.

    Args:
        params: nets stacked along a seed axis (`init_nets`), run without shortcuts.
        X: inputs, shape ``(n, d_in)``, or one set per net, ``(seeds, n, d_in)``.

    Returns:
        The nets with their blocks' weights rescaled; the other arrays are unchanged.

    Examples:
        >>> import numpy as np
        >>> from paperlens import mlp
        >>> from paperlens.experiments.residual_depth import init_nets, keep_signal
        >>> X = np.random.default_rng(0).standard_normal((64, 4))
        >>> nets = keep_signal(init_nets([0, 1], 4, 8, 12, scaled=False), X)
        >>> _, cache = mlp(nets, X, residual=False)
        >>> growth = (cache.h[-1] ** 2).mean(axis=(-2, -1)) / (cache.h[0] ** 2).mean(axis=(-2, -1))
        >>> np.round(growth, 12).tolist()
        [1.0, 1.0]
    """
    h = X @ params.W_in + params.b_in  # (seeds, n, width)
    W = params.W.copy()  # (L, seeds, width, width)
    for layer in range(W.shape[0]):
        out = np.maximum(h, 0) @ W[layer] + params.b[layer]  # (seeds, n, width)
        ratio = np.sqrt((h**2).mean(axis=(-2, -1)) / (out**2).mean(axis=(-2, -1)))  # (seeds,)
        W[layer] *= ratio[:, None, None]
        h = out * ratio[:, None, None]
    return params._replace(W=W)


def init_nets(
    seeds: Sequence[int],
    d_in: int,
    width: int,
    depth: int,
    *,
    scaled: bool,
    perturbation: Perturbation | None = None,
) -> MLPParams:
    """One network per seed, stacked along a leading axis: seed s draws from
    ``np.random.default_rng(s)``, so every arm of one depth starts from the same numbers
    (across depths, the draws after the hidden weights, the output layer's, differ).

    Args:
        seeds: one net per seed.
        d_in: input size.
        width: hidden size.
        depth: L, the number of blocks (`paperlens.init_mlp`'s depth).
        scaled: multiply the hidden weights by $1/\\sqrt{L}$.
        perturbation: change every starting weight's last dozen or so bits (`claims.perturb`).

    Returns:
        ``MLPParams`` with a seed axis: W of shape ``(depth, len(seeds), width, width)``.
    """
    nets = stack_params(
        [
            init_mlp(d_in, width, 1, depth, rng=np.random.default_rng(s), residual=scaled)
            for s in seeds
        ]
    )
    return MLPParams(*perturb(nets, perturbation))


def train(
    X: FloatArray,
    y: FloatArray,
    *,
    depth: int,
    arm: Arm,
    width: int,
    seeds: Sequence[int],
    steps: int,
    lr: float,
    perturbation: Perturbation | None = None,
) -> FloatArray:
    """Train one net per seed, all at once, by full-batch Adam; return the loss curves.

    The seeds' nets are stacked along a leading axis and trained by the same array operations
    (the library broadcasts over leading dims), not one by one in a Python loop.

    Args:
        X: inputs, shape ``(n, d_in)``.
        y: targets, shape ``(n, 1)``.
        depth: L, the number of blocks (`paperlens.init_mlp`'s depth).
        arm: which kind of net (`Arm`).
        width: hidden size.
        seeds: one net per seed.
        steps: Adam steps.
        lr: Adam's learning rate.
        perturbation: change the starting weights' last dozen or so bits (`claims.perturb`).

    Returns:
        The training loss before each step and after the last, shape
        ``(len(seeds), steps + 1)``.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.residual_depth import PLAIN, regression_task, train
        >>> X, y = regression_task(64, 4, rng=np.random.default_rng(0))
        >>> loss = train(X, y, depth=2, arm=PLAIN, width=8, seeds=[0, 1], steps=50, lr=0.01)
        >>> loss.shape, bool(np.all(loss[:, -1] < loss[:, 0]))
        ((2, 51), True)
    """
    steps = require_size(steps, "steps", minimum=0)
    lr = require_real_scalar(lr, "lr")
    params = init_nets(
        seeds, X.shape[-1], width, depth, scaled=arm.scaled, perturbation=perturbation
    )
    if arm.kept:
        params = keep_signal(params, X)
    if arm.centred:
        params = centre_signal(params, X)
    state = adam_init(params)
    curve = np.empty((len(seeds), steps + 1))
    for step in range(steps + 1):
        y_hat, cache = mlp(params, X, residual=arm.shortcut)  # (S, n, 1)
        curve[:, step] = mse_loss(y_hat, y)  # (S,)
        if step == steps:
            break
        grads = mlp_backward(params, cache, mse_loss_backward(y_hat, y), residual=arm.shortcut)
        new, state = adam_step(params, grads, state, lr=lr)
        params = MLPParams(*new)
    return curve


@cached  # computed once for the build, the tests and a reader's notebook (paperlens._cache)
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
    """`train` at several depths, plain (`PLAIN`) or residual (`RESIDUAL`).

    Args:
        X: inputs, shape ``(n, d_in)``.
        y: targets, shape ``(n, 1)``.
        depths: the depths L to train (`paperlens.init_mlp`'s depth).
        width: hidden size.
        residual: the residual arm (shortcuts, branches scaled by $1/\\sqrt{L}$), else plain.
        seeds: networks per depth.
        steps: Adam steps.
        lr: Adam's learning rate, the same for every depth.
        perturbation: change the starting weights' last dozen or so bits (`claims.perturb`).

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
    arm = RESIDUAL if residual else PLAIN
    return np.stack(
        [
            train(
                X, y, depth=d, arm=arm, width=width, seeds=seeds, steps=steps, lr=lr,
                perturbation=perturbation,
            )
            for d in depths
        ]
    )  # fmt: skip


def final_loss(curves: FloatArray, budget: int, tail: int) -> FloatArray:
    """The loss at the end of a budget: the geometric mean of the last ``tail`` losses.

    Adam's steps jitter the loss from step to step once it is small; averaging the logarithms
    of the last few keeps one lucky or unlucky step from deciding a comparison.

    Args:
        curves: losses before each step, shape ``(..., steps + 1)``.
        budget: the step count T at which to read it, ``tail <= T <= steps``.
        tail: how many steps to average, those up to and including T.

    Returns:
        Shape ``(...)``.
    """
    window = np.log10(curves[..., budget - tail + 1 : budget + 1])  # (..., tail)
    out: FloatArray = 10 ** window.mean(axis=-1)
    return out


@cached  # computed once for the build, the tests and a reader's notebook (paperlens._cache)
def signal_growth(
    X: FloatArray, arm: Arm, depth: int, width: int, seeds: Sequence[int]
) -> FloatArray:
    r"""How much a net of ``arm`` grows or shrinks the signal between its input layer and its
    last block at initialisation: the mean square (over examples and units) of $h_L$ over that
    of $h_0$, the input layer's output, one per seed (1 at depth 0).

    Args:
        X: inputs, shape ``(n, d_in)``, or one set per net, ``(seeds, n, d_in)``.
        arm: which nets (`PLAIN`, `RESIDUAL` or a control).
        depth: L, the number of blocks (`paperlens.init_mlp`'s depth).
        width: hidden size.
        seeds: one network per seed (`init_nets`).

    Returns:
        The ratios, shape ``(len(seeds),)``.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.residual_depth import PLAIN, regression_task, signal_growth
        >>> X, _ = regression_task(64, 4, rng=np.random.default_rng(0))
        >>> signal_growth(X, PLAIN, depth=6, width=8, seeds=[0, 1]).shape
        (2,)
    """
    net = init_nets(seeds, X.shape[-1], width, depth, scaled=arm.scaled)
    net = keep_signal(net, X) if arm.kept else net
    net = centre_signal(net, X) if arm.centred else net
    _, cache = mlp(net, X, residual=arm.shortcut)  # cache.h: L + 1 arrays (seed, n, width)
    ratio: FloatArray = np.mean(cache.h[-1] ** 2, axis=(-2, -1)) / np.mean(
        cache.h[0] ** 2, axis=(-2, -1)
    )
    return ratio


def gradient_norms_at_init(
    X: FloatArray,
    y: FloatArray,
    *,
    depth: int,
    width: int,
    residual: bool,
    seeds: Sequence[int],
    perturbation: Perturbation | None = None,
) -> FloatArray:
    r"""$\lVert \partial L/\partial W_l \rVert_F$ for each hidden layer l, at initialisation.

    Args:
        X: inputs, shape ``(n, d_in)``.
        y: targets, shape ``(n, 1)``.
        depth: L, the number of blocks (`paperlens.init_mlp`'s depth).
        width: hidden size.
        residual: the residual arm (`RESIDUAL`), else plain.
        seeds: one network per seed.
        perturbation: change the starting weights' last dozen or so bits (`claims.perturb`).

    Returns:
        The norms, shape ``(len(seeds), depth)``; column 0 is the layer nearest the input.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.residual_depth import gradient_norms_at_init, regression_task
        >>> X, y = regression_task(64, 4, rng=np.random.default_rng(0))
        >>> gradient_norms_at_init(X, y, depth=6, width=8, residual=True, seeds=[0, 1]).shape
        (2, 6)
    """
    params = init_nets(seeds, X.shape[-1], width, depth, scaled=residual, perturbation=perturbation)
    y_hat, cache = mlp(params, X, residual=residual)  # (S, n, 1)
    grads = mlp_backward(params, cache, mse_loss_backward(y_hat, y), residual=residual)
    norms: FloatArray = np.linalg.norm(grads.W, axis=(-2, -1)).T  # (L, S) -> (S, L)
    return norms


# ---------------------------------------------------------------------------------------------
# The design, fixed before the confirmation run

DEPTHS = (4, 8, 16, 32, 48)
"""The depth range of every trend, in order, from 4 layers to the deepest net trained. Four
layers was the plain nets' best depth on the exploration seeds in design v1 (300 steps at the
build's rate, depths 2 to 48); at the build's budget, 200 steps, their best depth on those seeds
is 8, so the range starts below the plain nets' best depth and the plain trend comes from the
deeper nets."""
LR = 0.002
"""The build's learning rate: the rate of the design before issue 20, not tuned for the loss,
but kept after the exploration (log entry 3) had shown both trends at it."""
LRS = (0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064)
"""The learning-rate grid of the full sweep, a factor 2 apart. On the exploration seeds the
median plain and residual net's best rate, at every depth and budget, is inside it, not at an
edge; single nets' best rates are at its edges now and then, there and on the full sweep's
confirmation seeds (the page counts those)."""
BUDGETS = (200, 400, 800)
"""Adam steps at which the loss is read; the build reads the first. Each is twice the one
before: He et al. tried three times the iterations (§4.1, footnote 3)."""


class Design(NamedTuple):
    """The pre-registered design: what is claimed, how each claim is decided, on which seeds."""

    name: str
    """The design's name in the experiment log."""
    claims: tuple[str, ...]
    """Each claim in words, with the test that decides it and the run it is decided on."""
    alpha: float
    """Each claim's level: `claims.ALPHA` divided by the number of claims when the design was
    fixed (Bonferroni), so that the chance that any claim holds by luck, when its null is true,
    is at most `claims.ALPHA`."""
    exploration_seeds: tuple[int, ...]
    """The seeds the designs were explored on. A few of the log's runs used others (a dry run,
    and an earlier design's confirmation seeds); the log lists each run's seeds."""
    page_seeds: tuple[int, ...]
    """The seeds claims 1 and 2 are decided on, by the build's run (`PAGE`): no entry of the
    log before the design was fixed used them."""
    full_seeds: tuple[int, ...]
    """The seeds claims 3 to 6 are decided on, by the full sweep (`FULL`): fresh as well."""
    power: tuple[tuple[int, tuple[float, ...]], ...]
    """The sample-size argument's numbers, from the log: for a number of seeds n, each claim's
    estimated chance of holding if its effect were half the size the exploration seeds showed
    (`power`, 400 resamples). Each run uses the smallest n of `SIZES` at which each of its
    claims has at least 0.8: n = 16 for the build's claims 1 and 2, n = 18 for claims 3 to 6.
    (With n pairs the signed-rank test's smallest p-value is $2^{-n}$, so at the level
    0.01/6 claims 2 and 4 need n ≥ 10 even for the largest effect.)"""
    described: tuple[int, ...] = ()
    """The claims, by number, that could not have failed, and so are described rather than
    tested. They were in the family when the design was fixed; a review after its confirmation
    took them out. The others keep `alpha`, as fixed before the run (not loosened after it), so
    the chance that any of them holds by luck is at most their number times `alpha`
    (`family_level`)."""

    @property
    def tested(self) -> tuple[int, ...]:
        """The numbers of the claims in the tested family: all but `described`."""
        return tuple(i for i in range(1, len(self.claims) + 1) if i not in self.described)

    @property
    def family_level(self) -> float:
        """The bound on the chance that any tested claim holds by luck: Bonferroni over
        `tested`, each at `alpha`."""
        return len(self.tested) * self.alpha


_SPAN = f"over {', '.join(map(str, DEPTHS))} layers"
_TUNED = f"with each net's best of the {len(LRS)} rates {LRS[0]:g} to {LRS[-1]:g}"
_BUDGETS = ", ".join(map(str, BUDGETS))

DESIGN = Design(
    name="v4",
    claims=(
        f"Degradation (build): without shortcuts, the training loss after {BUDGETS[0]} steps "
        f"at rate {LR:g} rises with depth {_SPAN}. Page's L test, exact under within-seed "
        "exchangeability, one-sided.",
        "Shortcuts with 1/√L branches shrink it (build): at the same rate and budget, the loss "
        "rises less steeply "
        "with shortcuts and 1/√L branches: each net's slope of log-loss against log-depth, "
        "plain against residual paired by seed, by a one-sided exact Wilcoxon signed-rank "
        "test.",
        f"Degradation, tuned and longer (log): claim 1 {_TUNED}, at every budget of {_BUDGETS} "
        "steps (an intersection-union test: each budget's test at the claim's level).",
        f"Shortcuts with 1/√L branches shrink it, tuned and longer (log): claim 2 {_TUNED}, at "
        "every budget.",
        "The shortcut alone (log): nets with shortcuts but the plain nets' own starting "
        "weights (no 1/√L), whose signal blows up at initialisation, also end with a loss that "
        f"rises with depth: claim 1's test, {_TUNED}, {BUDGETS[0]} steps.",
        "The 1/√L alone (log): nets without shortcuts but with the residual nets' starting "
        "weights, whose signal dies out at initialisation, also end with a loss that rises "
        f"with depth: claim 1's test, {_TUNED}, {BUDGETS[0]} steps.",
    ),
    alpha=ALPHA / 6,
    exploration_seeds=tuple(range(12)),
    page_seeds=tuple(range(5000, 5016)),
    full_seeds=tuple(range(4000, 4018)),
    power=(
        (16, (0.992, 0.88, 0.828, 0.735, 0.995, 1.0)),
        (18, (1.0, 0.892, 0.915, 0.838, 0.998, 1.0)),
    ),
    described=(5, 6),
)
"""The design of the page "ResNet's degradation problem".

Design v3 was the same but for claims 2 and 4, which it decided by a two-sample (Mann–Whitney)
test, as if the two arms' nets of one seed were independent; they start from the same draw.
v3's build confirmation (seeds 3000 to 3011) had been run when that was corrected, so v4 takes
fresh seeds for claims 1 and 2, and its own sample size: the paired test needs more seeds
than the two-sample one did. The full sweep's seeds stay: a run of v3's full sweep on them had
been started and stopped before it finished, and none of its numbers had been looked at (the
full sweep's confirmation entry, the log's entry 15, says how that store was reused).

Claims 5 and 6, on the control arms, could not have failed: each arm is broken at
initialisation (the page's section 4). After the confirmation a review took them out of the
tested family (`described`), and their words, "the shortcut alone does not stop it" and "the
1/√L alone does not stop it" when the design was fixed, now say what breaks each arm instead;
their tests and the log's records of them are unchanged."""


class Confirmation(NamedTuple):
    """A confirmation run in the experiment log, as the page discloses it."""

    design: str
    """The design it confirmed."""
    claims: str
    """Which of that design's claims it decided."""
    seeds: tuple[int, ...]
    """The seeds it ran on."""
    what: str
    """What came of it, in words."""


CONFIRMATIONS: tuple[Confirmation, ...] = (
    Confirmation(
        "v3", "1 and 2", tuple(range(3000, 3012)),
        "both held (claim 2 by the two-sample test); v3 was then replaced by v4, whose paired "
        "test for claims 2 and 4 was fixed after these seeds had been seen, so v4 decides "
        "claims 1 and 2 on fresh seeds",
    ),
    Confirmation("v4", "1 and 2", DESIGN.page_seeds, "the run this page repeats as it is built"),
    Confirmation("v4", "3 to 6", DESIGN.full_seeds, "the full sweep, whose numbers the page reads"),
)  # fmt: skip
"""Every confirmation run the log holds, oldest first: the page lists them, and `log.audit` is
told their number (running confirmations until one passes would choose the design on the
confirmation seeds)."""


class Setup(NamedTuple):
    """Everything a run depends on. `PAGE` is what the page runs, `FULL` the full sweep."""

    seeds: tuple[int, ...]
    """One net per seed in every arm, rate and depth; seed s draws the same numbers in each."""
    n: int = 128
    """Training examples of `regression_task`."""
    d_in: int = 8
    """Input size."""
    task_seed: int = 1234
    """Seeds the task: every net sees the same data (unless `fresh_tasks`)."""
    width: int = 16
    """The trained nets' width."""
    depths: tuple[int, ...] = DEPTHS
    """The depths trained, in the order of the trend claims."""
    arms: tuple[Arm, ...] = (PLAIN, RESIDUAL)
    """The kinds of net trained (`Arm`)."""
    lr: float = LR
    """The base learning rate: the build's, and the one the chaos rerun uses."""
    lrs: tuple[float, ...] = (LR,)
    """Every learning rate trained; contains `lr`."""
    budgets: tuple[int, ...] = BUDGETS[:1]
    """Steps at which the loss is read; the first is the base budget. The longest is trained,
    and the others are read from the same runs (Adam has no schedule: a shorter run is the
    beginning of a longer one)."""
    tail: int = 20
    """The loss at a budget is the geometric mean of its last `tail` steps (`final_loss`)."""
    rerun: bool = False
    """Train the deepest plain and residual nets again with their starting weights changed in
    the last dozen or so bits (at the base rate and budget), to see how chaotic they are."""
    grad_depth: int = 32
    """Depth of the nets whose gradients are measured at initialisation (a figure, no claim)."""
    grad_width: int = 32
    """Their width."""
    fresh_tasks: bool = False
    """Each seed draws its own task, seed s from ``np.random.default_rng([task_seed, s])``, so
    that the inference is over tasks as well as starting weights, on data no design choice saw
    (`HE_DESIGN`); every arm and depth of one seed still sees that seed's task."""
    rates: tuple[float, ...] | None = None
    """Each depth's own learning rate, in the order of `depths`, in place of the grid `lrs`
    (`HE_RATES`): the run then has one rate per depth, and its rate axis has length 1."""


def task_data(setup: Setup) -> tuple[FloatArray, FloatArray]:
    """The data of a run: one task, shapes ``(n, d_in)`` and ``(n, 1)``, or with `fresh_tasks`
    one per seed, stacked, shapes ``(seeds, n, d_in)`` and ``(seeds, n, 1)`` (the library's
    layers broadcast over the leading axis, as over the seeds' nets).

    Examples:
        >>> from paperlens.experiments.residual_depth import PAGE, task_data
        >>> [a.shape for a in task_data(PAGE._replace(seeds=(1, 2), fresh_tasks=True))]
        [(2, 128, 8), (2, 128, 1)]
    """
    s = setup
    if not s.fresh_tasks:
        return regression_task(s.n, s.d_in, rng=np.random.default_rng(s.task_seed))
    drawn = [
        regression_task(s.n, s.d_in, rng=np.random.default_rng([s.task_seed, seed]))
        for seed in s.seeds
    ]
    return np.stack([X for X, _ in drawn]), np.stack([y for _, y in drawn])


class Result(NamedTuple):
    """What `run` returns. Axes: arm (as in `Setup.arms`), rate, depth, seed, budget."""

    setup: Setup
    final_loss: FloatArray
    """Training loss at each budget, shape ``(arms, lrs, depths, seeds, budgets)``."""
    half_loss: FloatArray
    """Training loss at half of each budget, same shape (for `plateaued`)."""
    curves: FloatArray
    """The loss at every step at the base rate, shape ``(arms, depths, seeds, steps + 1)``."""
    grad_norms: FloatArray
    """$\\lVert \\partial L/\\partial W_l \\rVert_F$ at init, plain and residual, shape
    ``(2, seeds, grad_depth)``."""
    rerun_loss: FloatArray | None
    """The deepest plain and residual nets' loss at the base rate and budget, rerun with their
    starting weights changed in the last dozen or so bits, shape ``(2, seeds)``; None without
    `Setup.rerun`."""


_Task = tuple[FloatArray, FloatArray, int, Arm, Setup, float, "Perturbation | None", "Path | None"]


def _train_task(args: _Task) -> FloatArray:
    """One (arm, rate, depth) of a run, on every seed; kept in ``store`` if one is given, under
    a key that also names the library's source, the versions and the BLAS kernel it ran with
    (`paperlens._cache.environment_key`), so that a resumed run never mixes code versions or
    kernels (where no OpenBLAS shared object with its core-name functions is found in
    ``numpy.libs``, as in macOS and Windows wheels, the key names only the BLAS's name, its
    version and the CPU count, not the kernel). Entry 15 of the log was resumed from an
    earlier store, before the key named these; its ``computed_by`` says from what."""
    X, y, depth, arm, s, lr, perturbation, store = args
    steps = max(s.budgets)
    if store is not None:
        key = json.dumps(
            [s.n, s.d_in, s.task_seed, s.width, depth, arm, lr, steps, s.seeds, perturbation]
            + [environment_key()]
            + (["fresh tasks"] if s.fresh_tasks else [])
        )
        path = store / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.npy"
        if path.exists():
            return np.load(path)  # type: ignore[no-any-return]
    curve = train(
        X, y, depth=depth, arm=arm, width=s.width, seeds=s.seeds, steps=steps, lr=lr,
        perturbation=perturbation,
    )  # fmt: skip
    if store is not None:
        store.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial.npy")
        np.save(partial, curve)
        partial.replace(path)  # whole files only: a killed run leaves no half-written one
    return curve


@cached  # computed once for the build, the tests and a reader's notebook (paperlens._cache)
def run(
    setup: Setup,
    *,
    perturbation: Perturbation | None = None,
    jobs: int = 1,
    store: Path | None = None,
) -> Result:
    """Train every arm, rate and depth of ``setup`` on every seed; measure gradients at init.

    Args:
        setup: the configuration (`PAGE`, `FULL`, or another).
        perturbation: change every starting weight's last dozen or so bits, a stress test of
            what another CPU's rounding does (the tests run the page's claims this way).
        jobs: processes to train in (the trainings are independent).
        store: a folder that keeps each training's loss curves as it finishes, so that a long
            run that is stopped resumes where it was (the full sweep's command uses one).

    Returns:
        The `Result`.
    """
    s = setup
    if s.rates is not None and (len(s.rates) != len(s.depths) or s.rerun):
        raise ValueError(f"rates={s.rates} needs one rate per depth {s.depths}, and no rerun")
    if s.lr not in s.lrs:
        raise ValueError(f"the base rate lr={s.lr} must be one of lrs={s.lrs}")
    if min(s.budgets) < 2 * s.tail:
        raise ValueError(f"every budget must be at least 2 * tail = {2 * s.tail}: {s.budgets}")
    X, y = task_data(s)  # one task, or with fresh_tasks one per seed
    grid = [(arm, lr, d) for arm in s.arms for lr in s.lrs for d in s.depths]
    if s.rates is not None:  # one rate per depth: a rate axis of length 1
        grid = [(arm, lr, d) for arm in s.arms for d, lr in zip(s.depths, s.rates, strict=True)]
    tasks: list[_Task] = [(X, y, d, arm, s, lr, perturbation, store) for arm, lr, d in grid]
    if jobs > 1:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(jobs, mp_context=context) as pool:
            curves = list(pool.map(_train_task, tasks))  # each (seeds, steps + 1)
    else:
        curves = [_train_task(t) for t in tasks]
    rates = 1 if s.rates is not None else len(s.lrs)
    shape = (len(s.arms), rates, len(s.depths), len(s.seeds), max(s.budgets) + 1)
    every_step = np.stack(curves).reshape(shape)  # (arms, lrs, depths, seeds, steps + 1)
    final = np.stack([final_loss(every_step, T, s.tail) for T in s.budgets], axis=-1)
    half = np.stack([final_loss(every_step, T // 2, s.tail) for T in s.budgets], axis=-1)
    grads = np.stack(
        [
            gradient_norms_at_init(
                X, y, depth=s.grad_depth, width=s.grad_width, residual=r, seeds=s.seeds,
                perturbation=perturbation,
            )
            for r in (False, True)
        ]
    )  # fmt: skip
    rerun = None
    if s.rerun:
        # The rerun starts from the unperturbed weights changed by another perturbation, the
        # same for both arms, so run and rerun differ in the last dozen or so bits of every weight.
        again = Perturbation(seed=1000 + (perturbation.seed if perturbation else 0))
        rerun = np.stack(
            [
                final_loss(
                    train(
                        X, y, depth=max(s.depths), arm=arm, width=s.width, seeds=s.seeds,
                        steps=s.budgets[0], lr=s.lr, perturbation=again,
                    ),
                    s.budgets[0],
                    s.tail,
                )
                for arm in (PLAIN, RESIDUAL)
            ]
        )  # fmt: skip
    base = every_step[:, 0 if s.rates else s.lrs.index(s.lr)]  # (arms, depths, seeds, steps + 1)
    return Result(s, final, half, base, grads, rerun)


# ---------------------------------------------------------------------------------------------
# The tests that decide the claims


def slopes(loss: FloatArray, depths: Sequence[int]) -> FloatArray:
    r"""Each seed's least-squares slope of $\log_{10}$ loss against $\log_2$ depth.

    It is the change in decades of loss per doubling of depth: 0.3 means the loss doubles
    each time the depth doubles.

    Args:
        loss: one row per seed, one column per depth, shape ``(..., seeds, depths)``.
        depths: the depths of the columns.

    Returns:
        Shape ``(..., seeds)``.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.residual_depth import slopes
        >>> slopes(np.array([[1.0, 2.0, 4.0]]), [4, 8, 16]).round(4)  # doubles per doubling
        array([0.301])
    """
    x = np.log2(np.asarray(depths, dtype=float))  # (depths,)
    x = x - x.mean()
    out: FloatArray = np.log10(loss) @ x / (x @ x)  # (..., seeds, depths) x (depths,)
    return out


def rises_with_depth(
    loss: FloatArray, depths: Sequence[int], statement: str, *, alpha: float
) -> Claim:
    """Claim that the loss rises with depth, by Page's L test (exact) across seeds.

    Within each seed the depths are ranked by their loss; Page's statistic weights each depth's
    rank sum by its place in the predicted order. Its null hypothesis is that, within every
    seed, the losses at the different depths are exchangeable, so that each order of the
    depths is equally likely; the seeds must be independent of each other, and the p-value is
    exact for that null. Exchangeability is more than "depth does not change the distribution
    of each loss": the losses must also depend on each other alike. Nets of one seed that share
    their first layers (nested depths) need not, and then the level is not guaranteed. A
    rejection says that the ranks lean the predicted way, not that every step rises, nor by how
    much. The effect
    size is the Hodges–Lehmann estimate of the seeds' `slopes` (their pseudo-median) with its
    exact interval, which assumes the slopes symmetric about their centre
    (`claims.hodges_lehmann`). It describes the size of the trend and is not what decides the
    claim: the test and the interval can disagree.

    Args:
        loss: one row per seed, one column per depth in the predicted order, shape
            ``(seeds, depths)``.
        depths: the depths of the columns.
        statement: the claim in words.
        alpha: its level.

    Returns:
        The `Claim`; its test names the mean within-seed Spearman correlation of loss and
        depth, the statistic Page's L is a linear function of.
    """
    logs = np.log10(loss)  # (seeds, depths)
    k = logs.shape[1]
    page = stats.page_trend_test(logs, method="exact")
    ranks = stats.rankdata(logs, axis=1)  # (seeds, depths)
    d = ranks - np.arange(1, k + 1)  # (seeds, depths)
    rho = float(np.mean(1 - 6 * (d**2).sum(axis=1) / (k * (k**2 - 1))))
    hl = hodges_lehmann(slopes(loss, depths), confidence=1 - 2 * alpha)
    test = f"Page's L test, exact, {k} depths; mean within-seed Spearman ρ {rho:.2f}"
    effect = f"slope {_interval(*hl)} decades of loss per doubling of depth"
    holds = bool(page.pvalue <= alpha)
    return Claim(statement, test, logs.shape[0], f"p = {page.pvalue:.2g}", holds, effect)


def steeper(a: FloatArray, b: FloatArray, statement: str, *, alpha: float) -> Claim:
    r"""Claim that the slopes ``a`` are larger than ``b``, seed by seed (a one-sided exact
    Wilcoxon signed-rank test).

    Seed s starts every arm from the same draw, so $a_s$ and $b_s$ are a pair, and the two
    samples are not independent, as a two-sample (Mann–Whitney) test would assume. The
    signed-rank test uses only the differences $d_s = a_s - b_s$, which are independent across
    seeds. Its null hypothesis is that they are **symmetric about 0** (as when the two arms'
    labels could be swapped within every seed, whatever a seed's nets share), and its p-value
    is exact for that null. A rejection says the differences are not symmetric about 0; read as
    "their pseudo-median (the median of $(D + D')/2$ for two independent draws of a
    difference) is above 0" it needs them symmetric about some centre, which nothing here
    guarantees. The effect size is that pseudo-median's Hodges–Lehmann estimate with its
    exact interval at coverage $1 - 2\alpha$ (`claims.hodges_lehmann`); the claim holds exactly
    when the interval's lower end is above 0 (`claims.paired_greater`).

    Args:
        a: one arm's slopes, one per seed, shape ``(n,)``.
        b: the other's, for the same seeds in the same order, shape ``(n,)``.
        statement: the claim in words.
        alpha: its level.

    Returns:
        The `Claim`, with the exact p-value as its evidence.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.residual_depth import steeper
        >>> b = np.linspace(0.0, 1.1, 12)  # the same seeds, each 0.5 steeper in a
        >>> claim = steeper(b + 0.5, b, "a is steeper", alpha=0.01)
        >>> claim.holds, claim.n, claim.evidence
        (True, 12, 'p = 0.00024')
    """
    claim = paired_greater(a, b, statement, alpha=alpha)
    hl = hodges_lehmann(a - b, confidence=1 - 2 * alpha)  # (n,) differences, paired by seed
    effect = f"slope steeper by {_interval(*hl)} decades per doubling (paired by seed)"
    return claim._replace(effect=effect)


def every(parts: Sequence[Claim], labels: Sequence[str], statement: str) -> Claim:
    """Claim that each of several claims holds: an intersection-union test.

    The combined claim holds only if every part does, each at the combined claim's level. It
    needs no correction for the number of parts: if any part's null is true, the combined
    claim holds by luck no more often than that part does.

    Args:
        parts: the claims that must all hold.
        labels: a short name for each part, e.g. ``"200 steps"``.
        statement: the combined claim in words.

    Returns:
        The `Claim`; its test, evidence and effect list each part's.

    Examples:
        >>> from paperlens.experiments.claims import Claim
        >>> from paperlens.experiments.residual_depth import every
        >>> one = Claim("", "test 1", 8, "p = 0.001", True)
        >>> claim = every([one, one._replace(test="test 2")], ["200 steps", "400 steps"], "both")
        >>> claim.holds, claim.test
        (True, 'each of 2 at the same level: 200 steps: test 1; 400 steps: test 2')
    """
    pairs = list(zip(labels, parts, strict=True))
    evidence = "; ".join(f"{label}: {c.evidence}" for label, c in pairs)
    effect = "; ".join(f"{label}: {c.effect}" for label, c in pairs if c.effect)
    test = f"each of {len(parts)} at the same level: " + "; ".join(
        f"{label}: {c.test}" for label, c in pairs
    )
    return Claim(statement, test, parts[0].n, evidence, all(c.holds for c in parts), effect)


def _interval(estimate: float, low: float, high: float, confidence: float) -> str:
    return f"{estimate:.2f} ({100 * confidence:.2f}% interval {low:.2f} to {high:.2f})"


# ---------------------------------------------------------------------------------------------
# The claims


def _arm(setup: Setup, arm: Arm) -> int | None:
    return setup.arms.index(arm) if arm in setup.arms else None


def _decide(result: Result, which: int) -> Claim | None:
    """Claim ``which`` of `DESIGN` (0 to 5), or None if ``result`` is not the run deciding it.

    Claims 1 and 2 (``which`` 0 and 1) are decided by a run at one rate, the build's; claims
    3 to 6 by a run over a grid of rates, the full sweep.
    """
    s, a, loss = result.setup, DESIGN.alpha, result.final_loss
    plain, res = _arm(s, PLAIN), _arm(s, RESIDUAL)
    span = f"from {s.depths[0]} to {s.depths[-1]} layers"
    T = s.budgets[0]
    if len(s.lrs) == 1:  # the build's kind of run: claims 1 and 2
        at = loss[:, 0, :, :, 0]  # (arms, depths, seeds): the one rate, the first budget
        if which == 0 and plain is not None:
            statement = (
                f"degradation: without shortcuts, the training loss after {T} steps at rate "
                f"{s.lr:g} rises with depth {span}"
            )
            return rises_with_depth(at[plain].T, s.depths, statement, alpha=a)
        if which == 1 and plain is not None and res is not None:
            slope = slopes(np.moveaxis(at, 1, -1), s.depths)  # (arms, seeds)
            statement = (
                "shortcuts shrink it: at the same rate and budget, the loss rises less steeply "
                "with depth with shortcuts and 1/√L branches"
            )
            return steeper(slope[plain], slope[res], statement, alpha=a)
        return None
    best = loss.min(axis=1)  # (arms, depths, seeds, budgets): each net's best rate
    slope = slopes(np.moveaxis(best, 1, -1), s.depths)  # (arms, seeds, budgets)
    rates = f"each net's best of {len(s.lrs)} rates"
    budgets = [f"{b} steps" for b in s.budgets]
    if which == 2 and plain is not None:
        parts = [
            rises_with_depth(best[plain, :, :, i].T, s.depths, "", alpha=a)
            for i in range(len(s.budgets))
        ]
        statement = (
            f"degradation survives tuning and longer training: with {rates}, the plain loss "
            f"rises with depth {span} at every budget"
        )
        return every(parts, budgets, statement)
    if which == 3 and plain is not None and res is not None:
        parts = [
            steeper(slope[plain, :, i], slope[res, :, i], "", alpha=a)
            for i in range(len(s.budgets))
        ]
        statement = f"shortcuts shrink it with {rates}, at every budget"
        return every(parts, budgets, statement)
    control = {
        4: (SHORTCUT_ONLY, "the shortcut alone", "shortcuts but the plain nets' weights"),
        5: (SCALE_ONLY, "the 1/√L alone", "the residual nets' weights but no shortcuts"),
    }
    if which in control:
        arm, what, nets = control[which]
        j = _arm(s, arm)
        if j is not None:
            statement = (
                f"{what} does not stop it: with {rates}, nets with {nets} also end after {T} "
                f"steps with a loss that rises with depth {span}"
            )
            return rises_with_depth(best[j, :, :, 0].T, s.depths, statement, alpha=a)
    return None


def as_page(result: Result) -> Result:
    """The part of a full sweep that the build's run repeats: plain and residual nets at the
    base rate and the first budget (to decide claims 1 and 2 on the exploration seeds)."""
    s = result.setup
    arms = [s.arms.index(PLAIN), s.arms.index(RESIDUAL)]
    keep = np.ix_(arms, [s.lrs.index(s.lr)])
    page = s._replace(arms=(PLAIN, RESIDUAL), lrs=(s.lr,), budgets=s.budgets[:1])
    return result._replace(setup=page, final_loss=result.final_loss[keep][..., :1])


def claims(result: Result) -> list[Claim]:
    """Decide every claim of `DESIGN` that ``result`` holds the data for, at `DESIGN.alpha`.

    The build's run (`PAGE`) decides the first two, the full sweep (`FULL`) the other four.
    Losses are compared as logarithms: they spread over orders of magnitude.

    Args:
        result: what `run` returned.

    Returns:
        The claims, in the order of `DESIGN.claims`.
    """
    decided = (_decide(result, i) for i in range(len(DESIGN.claims)))
    return [c for c in decided if c is not None]


PAGE = Setup(seeds=DESIGN.page_seeds)
"""The build's run: plain and residual nets at every depth, one rate, one budget."""
FULL = Setup(
    seeds=DESIGN.full_seeds,
    arms=(PLAIN, RESIDUAL, SHORTCUT_ONLY, SCALE_ONLY),
    lrs=LRS,
    budgets=BUDGETS,
    rerun=True,
)
"""The full sweep, on its own seeds: four arms, eight rates, three budgets and the chaos rerun.
Its base rate and budget are the build's.

Its confirmation (``python -m paperlens.experiments.residual_depth full --record``, about
25 minutes of CPU, some 9 s per training of 18 nets) was started for v3 after b14fbd7, and
for v4 after 1ffd850 and after 877b347 (the same trainings: v4 changed tests, the build's
seeds and the sample-size argument, not the full sweep's trainings), and stopped each time
unfinished, with 83 of its 160 trainings kept in the run's store and nothing computed from them;
a fourth start resumed from that store and finished (its log entry says so)."""


# ---------------------------------------------------------------------------------------------
# He et al.'s own claim for the residual nets, on a fresh task per seed (design v5-he)

HE_MARGIN = math.log10(1.25)
"""The non-inferiority margin: a fitted rise of the training loss by a factor 1.25 from the
shallowest to the deepest net (0.097 decades), fixed before any run of this design."""
HE_BUDGETS = BUDGETS[:2]
"""The budgets `HE_DESIGN` decides at. Design v5-he also read 800 steps; there the nets fit
the data nearly exactly (the ResNet page gives the exploration's median losses), where a
factor of loss says little about fit, and its tests' estimated power stayed far below 0.8 (log
entry 18)."""
HE_TASKS = 20261206
"""Salts the fresh tasks: seed s trains on ``regression_task(rng=default_rng([HE_TASKS, s]))``,
data that no earlier run drew."""


class HeDesign(NamedTuple):
    """The pre-registered design of He et al.'s claim for the residual nets."""

    name: str
    """The design's name in the experiment log."""
    claims: tuple[str, ...]
    """The two claims in words, with the tests that decide them."""
    alpha: float
    """Each claim's level. The claims are tested in a fixed sequence, the second only if the
    first holds, each at `claims.ALPHA`: the chance that any of them holds by luck, when its
    null is true, is then at most `claims.ALPHA`. (They are a family of their own, apart from
    `DESIGN`'s, decided on other seeds and other data.)"""
    margin: float
    """`HE_MARGIN`."""
    margin_reason: str
    """Why the margin is what it is."""
    exploration_seeds: tuple[int, ...]
    """The seeds (and, through them, the tasks) the sample size was chosen on."""
    seeds: tuple[int, ...]
    """The confirmation seeds: fresh seeds, and so fresh tasks."""
    power: tuple[tuple[int, tuple[float, ...]], ...]
    """The sample-size argument's numbers, from the log (`he_power`): for n seeds, each
    claim's estimated chance of holding if its effect were half what the exploration showed."""


HE_DESIGN = HeDesign(
    name="v5b-he",
    claims=(
        "Deeper residual nets are not worse (He et al., §4.1): with shortcuts and 1/√L "
        f"branches, on a fresh task per seed, at rate {LR:g}, the training loss's fitted rise "
        f"from {DEPTHS[0]} to {DEPTHS[-1]} layers stays below a factor {10**HE_MARGIN:.2f}, at "
        "each budget of "
        f"{' and '.join(map(str, HE_BUDGETS))} steps: each seed's rise (its slope of log-loss "
        "against log-depth, times the doublings spanned) against the margin, by a one-sided "
        "exact Wilcoxon signed-rank test at each budget (an intersection-union test).",
        "Deeper residual nets are better (He et al., §4.1), tested only if the first holds: on "
        "the same nets the rise is below 0, the loss falls with depth: the same test with a "
        "margin of 0, at each budget.",
    ),
    alpha=ALPHA,
    margin=HE_MARGIN,
    margin_reason=(
        f"A net {DEPTHS[-1] // DEPTHS[0]} times as deep whose training loss is "
        f"{10**HE_MARGIN - 1:.0%} higher (an RMS error {10 ** (HE_MARGIN / 2) - 1:.0%} higher) "
        "is one we would call no better, but not worse: a judgement of what matters for the "
        "claim, fixed before any run of this design, not from what the design can resolve. "
        "(As fixed, the reason also said such a net is not degraded in the sense He et al. "
        "describe; a review after the confirmation found that comparison did not fit, since "
        "their measure is an error rate, not a mean squared loss, and it was dropped.)"
    ),
    exploration_seeds=tuple(range(6000, 6012)),
    seeds=tuple(range(8000, 8020)),
    power=((18, (0.838, 0.732)), (20, (0.915, 0.855))),
)
"""He et al.'s claim, stated for the residual arm: with identity shortcuts, deeper nets are
not worse, and train to a lower loss (§4.1, Fig. 4: the 34-layer ResNet's training error below
the 18-layer one's). One rate for every depth, as He et al. trained every depth with one
recipe; at the first two budgets `DESIGN` reads (`HE_BUDGETS`), on data drawn afresh for each
seed. Design v5-he, the same with Page's L test for the second claim and 800 steps too, was
abandoned on the exploration seeds for its power (log); this design's 20 seeds are the smallest
number of `SIZES` at which each claim's estimated power is at least 0.8 (`power`)."""

HE = Setup(seeds=HE_DESIGN.seeds, budgets=HE_BUDGETS, task_seed=HE_TASKS, fresh_tasks=True)
"""The run that decides `HE_DESIGN`'s claims: plain nets (described, not tested) and residual
nets at every depth, at the build's rate, every budget, a fresh task per seed."""
CONFIRMATIONS += (
    Confirmation(
        HE_DESIGN.name, "7 and 8", HE_DESIGN.seeds,
        "He et al.'s claim for the residual nets, a fresh task per seed (section 6)",
    ),
)  # fmt: skip
HE_REPLICATIONS = tuple(
    HE._replace(seeds=tuple(range(first, first + len(HE.seeds)))) for first in (9000, 10000, 11000)
)
"""`HE_DESIGN` run again, unchanged, on three blocks of fresh seeds, each seed with its own task:
replications asked by a review after the confirmation (the reviewer had run them first). Each is
a confirmation run of the design, and the page reports how many held beside the first."""
CONFIRMATIONS += tuple(
    Confirmation(
        HE_DESIGN.name, "7 and 8", s.seeds,
        "a replication of the He et al. design on fresh seeds and tasks, asked by a review",
    )
    # in the log's order: the first block's entry was lost (a checkout of the log file while
    # the others ran) and was recorded again, from the same trainings, after them
    for s in (*HE_REPLICATIONS[1:], HE_REPLICATIONS[0])
)  # fmt: skip
HE_TUNED = HE._replace(lrs=LRS)
"""`HE` at every rate of the full sweep's grid, on the same seeds and tasks: a description made
after the confirmation, at a reviewer's request (each net's best rate, as claims 3 to 6 take
it), deciding nothing."""
HE_EXPLORATION = HE._replace(seeds=HE_DESIGN.exploration_seeds, budgets=BUDGETS)
"""`HE` on the exploration seeds (and their tasks), with 800 steps too: what the designs and the
sample size were chosen on."""


def not_worse(
    loss: FloatArray, depths: Sequence[int], margin: float, statement: str, *, alpha: float
) -> Claim:
    """Non-inferiority: each seed's fitted rise of log-loss from the first depth to the last
    (its `slopes` times the doublings spanned, in decades) is below ``margin``, by a one-sided
    exact Wilcoxon signed-rank test of ``margin - rise`` (`claims.paired_greater`). Its null is
    that those differences are symmetric about 0: a pseudo-median rise at the margin. It holds
    exactly when the Hodges–Lehmann interval of the rise, at coverage ``1 - 2 alpha``, ends
    below the margin.

    Args:
        loss: one row per seed, one column per depth, shape ``(seeds, depths)``.
        depths: the depths of the columns, shallowest first.
        margin: the largest rise that counts as not worse, in decades.
        statement: the claim in words.
        alpha: its level.

    Returns:
        The `Claim`, with the p-value as evidence and the rise's interval as effect.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.residual_depth import not_worse
        >>> flat = np.ones((12, 3)) + 0.001 * np.arange(12.0)[:, None]  # no rise with depth
        >>> not_worse(flat, [4, 8, 16], 0.1, "flat", alpha=0.01).holds
        True
        >>> not_worse(flat * [1.0, 1.2, 1.5], [4, 8, 16], 0.1, "rises", alpha=0.01).holds
        False
    """
    spanned = math.log2(depths[-1] / depths[0])
    rise = slopes(loss, depths) * spanned  # (seeds,)
    claim = paired_greater(np.full_like(rise, margin), rise, statement, alpha=alpha)
    hl = hodges_lehmann(rise, confidence=1 - 2 * alpha)
    test = "one-sided exact Wilcoxon signed-rank test of " + (
        f"the margin {margin:.3f} minus the rise" if margin else "the rise below 0"
    )
    effect = f"rise {_interval(*hl)} decades from {depths[0]} to {depths[-1]} layers"
    return claim._replace(test=test, effect=effect)


def _residual_loss(result: Result) -> FloatArray:
    s = result.setup
    out: FloatArray = result.final_loss[s.arms.index(RESIDUAL), s.lrs.index(s.lr)]
    return out  # (depths, seeds, budgets)


def _not_worse(result: Result) -> Claim:
    s, loss = result.setup, _residual_loss(result)
    parts = [
        not_worse(loss[:, :, i].T, s.depths, HE_DESIGN.margin, "", alpha=HE_DESIGN.alpha)
        for i in range(len(s.budgets))
    ]
    statement = (
        "deeper residual nets are not worse: with shortcuts and 1/√L branches, on a fresh task "
        f"per seed, the loss's fitted rise from {s.depths[0]} to {s.depths[-1]} layers stays "
        f"below a factor {10**HE_DESIGN.margin:.2f} at every budget"
    )
    return every(parts, [f"{b} steps" for b in s.budgets], statement)


def _better(result: Result) -> Claim:
    s, loss = result.setup, _residual_loss(result)
    parts = [
        not_worse(loss[:, :, i].T, s.depths, 0.0, "", alpha=HE_DESIGN.alpha)
        for i in range(len(s.budgets))
    ]  # a rise below 0: the loss falls with depth
    statement = (
        f"deeper residual nets are better: their loss falls with depth from {s.depths[0]} to "
        f"{s.depths[-1]} layers at every budget"
    )
    return every(parts, [f"{b} steps" for b in s.budgets], statement)


def he_claims(result: Result) -> list[Claim]:
    """Decide `HE_DESIGN`'s two claims on a run of `HE` (or `HE_EXPLORATION`), in sequence.

    Args:
        result: what `run` returned for a setup with the residual arm, one rate and budgets.

    Returns:
        Both claims. The second counts only if the first holds (fixed-sequence testing): if
        the first fails, the second is reported as not tested, whatever its own test says.
    """
    first, second = _not_worse(result), _better(result)
    if not first.holds:
        second = second._replace(holds=False, evidence="not tested: the first claim fails")
    return [first, second]


def he_power(
    result: Result, sizes: Sequence[int], *, shrink: float = 0.5, draws: int = 400, seed: int = 0
) -> FloatArray:
    """The sample-size argument of `HE_DESIGN`: how often each claim's test would pass with n
    seeds, each on its own (the second as if the first had held).

    As `power` does: resample the exploration seeds n at a time, each effect cut to ``shrink``
    of its estimate first. The effect is how far the seeds' rise stays below the claim's
    threshold (the margin for the first claim, 0 for the second): each residual net's log-loss
    profile is tilted so that the rise's Hodges–Lehmann estimate moves ``1 - shrink`` of the
    way to the threshold.

    Returns:
        Shape ``(len(sizes), 2)``.
    """
    s = result.setup
    res = s.arms.index(RESIDUAL)
    logs = np.log10(result.final_loss)  # (arms, lrs, depths, seeds, budgets)
    x = np.log2(np.asarray(s.depths, dtype=float))
    x -= x.mean()  # (depths,)
    spanned = math.log2(s.depths[-1] / s.depths[0])
    tilted, scaled = logs.copy(), logs.copy()
    for k in range(len(s.budgets)):
        part = logs[res, :, :, :, k]  # (lrs, depths, seeds)
        rise = slopes(10 ** np.moveaxis(part, 1, -1), s.depths) * spanned  # (lrs, seeds)
        estimate = hodges_lehmann(rise.ravel()).estimate
        for out, threshold in ((tilted, HE_DESIGN.margin), (scaled, 0.0)):
            shift = (1 - shrink) * (threshold - estimate) / spanned  # decades per doubling
            out[res, :, :, :, k] = part + shift * x[None, :, None]
    rng = np.random.default_rng(seed)
    out = np.zeros((len(sizes), 2))
    for row, n in enumerate(sizes):
        for _ in range(draws):
            pick = rng.integers(0, len(s.seeds), size=n)  # (n,)
            one = s._replace(seeds=tuple(range(n)))
            a = result._replace(setup=one, final_loss=10 ** tilted[:, :, :, pick])
            b = result._replace(setup=one, final_loss=10 ** scaled[:, :, :, pick])
            out[row] += (_not_worse(a).holds, _better(b).holds)
    out /= draws
    return out


# ---------------------------------------------------------------------------------------------
# He et al.'s claim again, each depth at the rate tuned for it (design v6-he-rates)


def tuned_rates(result: Result, *, arm: Arm = RESIDUAL, budget: int = 0) -> tuple[float, ...]:
    """Each depth's rate: the rate of the grid with the lowest median log-loss over the seeds.

    Args:
        result: a run over a grid of rates (`HE_TUNED`).
        arm: whose rates.
        budget: the index of the budget in ``result.setup.budgets``.

    Returns:
        One rate per depth, in the order of ``result.setup.depths``.
    """
    s = result.setup
    median = np.median(np.log10(result.final_loss[s.arms.index(arm), ..., budget]), axis=2)
    return tuple(s.lrs[i] for i in median.argmin(axis=0))  # (lrs, depths) -> (depths,)


HE_RATES = (0.016, 0.008, 0.004, 0.002, 0.002)
"""Each depth's rate in `HE_RATES_DESIGN`, for `DEPTHS` in order: `tuned_rates` of the residual
nets of `HE_TUNED` (seeds 8000 to 8019, each with its task) at 200 steps, fixed here before any
run of the design (a test checks the two agree)."""
HE_RATES_SIZES = (40, 80, 120, 160, 240, 320)
"""The numbers of seeds `HE_RATES_DESIGN`'s sample-size argument tries."""


class HeRatesDesign(NamedTuple):
    """He et al.'s claim for the residual nets once more, each depth at its own tuned rate."""

    name: str
    """The design's name in the experiment log."""
    claims: tuple[str, ...]
    """The three claims in words, with the tests that decide them."""
    alpha: float
    """Each claim's level, `claims.ALPHA` / 2. Claims 9 and 10 point opposite ways from the
    margin and claim 11 is tested only if claim 10 holds (fixed sequence), so the chance that
    any of the three holds by luck, when its null is true, is at most `claims.ALPHA`."""
    margin: float
    """`HE_MARGIN`, as `HE_DESIGN` fixed it."""
    budget: int
    """The one budget the claims are decided at, in Adam steps."""
    tuning_seeds: tuple[int, ...]
    """The seeds, and through them the tasks, the rates were tuned and the size chosen on."""
    seeds: tuple[int, ...]
    """The confirmation seeds: fresh seeds, each with a fresh task."""
    power: tuple[tuple[int, tuple[float, float, float]], ...]
    """The sample-size argument (`he_rates_power`, from the log): for n seeds, the estimated
    chance that claim 9 holds if the rise were halfway between the tuning seeds' estimate and
    the margin, that claim 10 holds if the rise were 0, and that claim 11 holds if it were
    minus the margin (the same distance from its threshold, 0, as claim 10's alternative from
    the margin, so the third share equals the second by construction). The seeds are the
    smallest n of `HE_RATES_SIZES` at which the first is at least 0.8: the direction the
    tuning seeds point to."""


_PER_DEPTH = ", ".join(f"{d} layers {r:g}" for d, r in zip(DEPTHS, HE_RATES, strict=True))
HE_RATES_DESIGN = HeRatesDesign(
    name="v6-he-rates",
    claims=(
        "Deeper residual nets are worse: with shortcuts and 1/√L branches, each depth at its "
        f"own rate ({_PER_DEPTH}), on a "
        f"fresh task per seed, the training loss's fitted rise from {DEPTHS[0]} to "
        f"{DEPTHS[-1]} layers after {BUDGETS[0]} steps is above a factor {10**HE_MARGIN:.2f}: "
        "each seed's rise against the margin, by a one-sided exact Wilcoxon signed-rank test.",
        "Deeper residual nets are not worse (He et al., §4.1): on the same nets the rise is "
        "below the margin, by the same test the other way.",
        "Deeper residual nets are better (He et al., §4.1), tested only if claim 10 holds: the "
        "rise is below 0, by the same test with a margin of 0.",
    ),
    alpha=ALPHA / 2,
    margin=HE_MARGIN,
    budget=BUDGETS[0],
    tuning_seeds=HE_DESIGN.seeds,
    seeds=tuple(range(12000, 12160)),
    power=((120, (0.688, 0.078, 0.078)), (160, (0.818, 0.082, 0.082))),
)
"""He et al.'s claim, `HE_DESIGN`'s test, with one change: each depth trains at the rate that
suited it best on other seeds and tasks (`HE_RATES`), not at one rate for all. Where
`HE_DESIGN` held, the fall came from the shallow nets, slow at a rate that suited the deep ones;
with each depth at its own rate, does it remain? Decided at 200 steps only: at 400, on the
tuning seeds at their rates, the seeds' rises spread over decades (the nets nearly fit their
data), more than any number of seeds this design could afford would resolve against the
margin. Claims 9 to 11 say which of "worse", "not worse" and "better" the data support: each
holds exactly when the Hodges–Lehmann interval of the seeds' rise, at coverage
``1 - 2 alpha``, lies above the margin (9), below it (10), or below 0 (11)."""

HE_RATES_RUN = HE._replace(
    seeds=HE_RATES_DESIGN.seeds, arms=(RESIDUAL,), budgets=(HE_RATES_DESIGN.budget,),
    rates=HE_RATES,
)  # fmt: skip
"""The run that decides claims 9 to 11: residual nets only, each depth at its `HE_RATES` rate,
one budget, a fresh task per seed (seed s's from ``default_rng([HE_TASKS, s])``)."""
CONFIRMATIONS += (
    Confirmation(
        HE_RATES_DESIGN.name, "9 to 11", HE_RATES_DESIGN.seeds,
        "He et al.'s claim with each depth at its own tuned rate, a fresh task per seed",
    ),
)  # fmt: skip


def worse(
    loss: FloatArray, depths: Sequence[int], margin: float, statement: str, *, alpha: float
) -> Claim:
    """The mirror of `not_worse`: each seed's fitted rise is above ``margin``, by a one-sided
    exact Wilcoxon signed-rank test of ``rise - margin``. It holds exactly when the
    Hodges–Lehmann interval of the rise, at coverage ``1 - 2 alpha``, starts above the margin.

    Examples:
        >>> import numpy as np
        >>> from paperlens.experiments.residual_depth import worse
        >>> flat = np.ones((12, 3)) + 0.001 * np.arange(12.0)[:, None]  # no rise with depth
        >>> worse(flat * [1.0, 1.2, 1.5], [4, 8, 16], 0.1, "rises", alpha=0.01).holds
        True
        >>> worse(flat, [4, 8, 16], 0.1, "flat", alpha=0.01).holds
        False
    """
    spanned = math.log2(depths[-1] / depths[0])
    rise = slopes(loss, depths) * spanned  # (seeds,)
    claim = paired_greater(rise, np.full_like(rise, margin), statement, alpha=alpha)
    hl = hodges_lehmann(rise, confidence=1 - 2 * alpha)
    test = f"one-sided exact Wilcoxon signed-rank test of the rise minus the margin {margin:.3f}"
    effect = f"rise {_interval(*hl)} decades from {depths[0]} to {depths[-1]} layers"
    return claim._replace(test=test, effect=effect)


def he_rates_claims(result: Result) -> list[Claim]:
    """Decide `HE_RATES_DESIGN`'s claims 9 to 11 on a run of `HE_RATES_RUN` (one budget).

    Returns:
        The three claims; the third is reported as not tested unless the second holds.
    """
    s, d = result.setup, HE_RATES_DESIGN
    loss = result.final_loss[s.arms.index(RESIDUAL), 0, :, :, 0].T  # (seeds, depths)
    rates = "each depth at its own tuned rate"
    span = f"from {s.depths[0]} to {s.depths[-1]} layers after {s.budgets[0]} steps"
    factor = f"a factor {10**d.margin:.2f}"
    found = [
        worse(loss, s.depths, d.margin, f"deeper residual nets are worse: with {rates}, the "
              f"loss's fitted rise {span} is above {factor}", alpha=d.alpha),
        not_worse(loss, s.depths, d.margin, f"deeper residual nets are not worse: with {rates}"
                  f", the rise {span} is below {factor}", alpha=d.alpha),
        not_worse(loss, s.depths, 0.0, f"deeper residual nets are better: with {rates}, the "
                  f"loss falls {span}", alpha=d.alpha),
    ]  # fmt: skip
    if not found[1].holds:
        found[2] = found[2]._replace(holds=False, evidence="not tested: claim 10 fails")
    return found


def tuning_rises(
    result: Result, rates: Sequence[float] = HE_RATES, *, arm: Arm = RESIDUAL
) -> FloatArray:
    """The tuning seeds' fitted rises (decades, shallowest to deepest) with each depth at its
    rate in ``rates``, at `HE_RATES_DESIGN`'s budget: what its sample size was chosen on.

    Args:
        result: `HE_TUNED` as the log recorded it.
        rates: one rate per depth, each in the run's grid.

    Returns:
        Shape ``(seeds,)``.
    """
    s = result.setup
    k = s.budgets.index(HE_RATES_DESIGN.budget)
    loss = np.stack(
        [
            result.final_loss[s.arms.index(arm), s.lrs.index(r), j, :, k]
            for j, r in enumerate(rates)
        ],
        axis=1,
    )  # (seeds, depths)
    out: FloatArray = slopes(loss, s.depths) * math.log2(s.depths[-1] / s.depths[0])
    return out


def he_rates_power(
    rises: FloatArray, sizes: Sequence[int], *, draws: int = 400, seed: int = 0
) -> FloatArray:
    """The sample-size argument of `HE_RATES_DESIGN`: how often each claim's test would hold
    with n seeds, resampling the tuning seeds' rises, each shifted so that their
    Hodges–Lehmann estimate sits at the alternative the claim is powered for: halfway from the
    tuning estimate to the margin (claim 9), 0 (claim 10), minus the margin (claim 11, as if
    claim 10 had held).

    Args:
        rises: the tuning seeds' rises (`tuning_rises`).
        sizes: the numbers of seeds n to try.
        draws: resamples per n.
        seed: seeds the resampling.

    Returns:
        Shape ``(len(sizes), 3)``.
    """
    d = HE_RATES_DESIGN
    centred = rises - hodges_lehmann(rises).estimate  # (seeds,): estimate moved to 0
    at = (0.5 * (hodges_lehmann(rises).estimate + d.margin), 0.0, -d.margin)
    rng = np.random.default_rng(seed)
    out = np.zeros((len(sizes), 3))
    for row, n in enumerate(sizes):
        for _ in range(draws):
            r = centred[rng.integers(0, rises.size, size=n)]  # (n,)
            m = np.full(n, d.margin)
            out[row] += (
                paired_greater(r + at[0], m, "", alpha=d.alpha).holds,
                paired_greater(m, r + at[1], "", alpha=d.alpha).holds,
                paired_greater(np.zeros(n), r + at[2], "", alpha=d.alpha).holds,
            )
    out /= draws
    return out


# ---------------------------------------------------------------------------------------------
# Plain nets whose signal survives initialisation (design v7-kept)

KEPT_TUNING = HE._replace(seeds=tuple(range(13000, 13020)), arms=(PLAIN_KEPT, PLAIN), lrs=LRS)
"""The exploration of `PLAIN_KEPT`: it and `PLAIN` at every rate of the grid, on fresh seeds,
each with its own task, at `HE_BUDGETS`: where each depth's rate is tuned."""
CENTRED_TUNING = KEPT_TUNING._replace(seeds=tuple(range(15000, 15020)), arms=(PLAIN_CENTRED, PLAIN))
"""The exploration of `PLAIN_CENTRED`: it and `PLAIN` at every rate of the grid, on fresh
seeds, each with its own task, at `HE_BUDGETS`."""
KEPT_RATES = (0.016, 0.004, 0.008, 0.004, 0.002)
"""Each depth's rate in `KEPT_DESIGN`, for `DEPTHS` in order: `tuned_rates` of `PLAIN_KEPT` in
`KEPT_TUNING` at 200 steps, fixed here before any run of the design (a test checks the two
agree)."""
KEPT_SIZES = (8, 10, 12, 16, 20, 24)
"""The numbers of seeds `KEPT_DESIGN`'s sample-size argument tries."""


class KeptDesign(NamedTuple):
    """He et al.'s degradation, tested on plain nets whose signal survives initialisation."""

    name: str
    """The design's name in the experiment log."""
    claim: str
    """The claim in words, with its test."""
    alpha: float
    """Its level, `claims.ALPHA`: a family of its own, of one claim."""
    margin: float
    """`HE_MARGIN`: a rise smaller than it does not count as degradation."""
    budget: int
    """The budget it is decided at, in Adam steps."""
    tuning_seeds: tuple[int, ...]
    """The seeds, and through them the tasks, the rates were tuned and the size chosen on."""
    seeds: tuple[int, ...]
    """The confirmation seeds: fresh seeds, each with a fresh task."""
    power: tuple[tuple[int, float], ...]
    """The sample-size argument (`kept_power`, from the log): for n seeds, the estimated chance
    that the claim holds if the rise were halfway between the tuning seeds' estimate and the
    margin. The seeds are the smallest n of `KEPT_SIZES` at which it is at least 0.8."""


KEPT_DESIGN = KeptDesign(
    name="v7-kept",
    claim=(
        "Degradation with the signal kept: plain nets whose blocks' starting weights are "
        "rescaled on the training inputs, so that the signal keeps its mean square from block "
        "to block, each depth at its own rate ("
        + ", ".join(f"{d} layers {r:g}" for d, r in zip(DEPTHS, KEPT_RATES, strict=True))
        + f"), on a fresh task per seed: the training loss's fitted rise from {DEPTHS[0]} to "
        f"{DEPTHS[-1]} layers after {BUDGETS[0]} steps is above a factor {10**HE_MARGIN:.2f}: "
        "each seed's rise against the margin, by a one-sided exact Wilcoxon signed-rank test."
    ),
    alpha=ALPHA,
    margin=HE_MARGIN,
    budget=BUDGETS[0],
    tuning_seeds=KEPT_TUNING.seeds,
    seeds=tuple(range(14000, 14012)),
    power=((10, 0.762), (12, 0.88)),
)
"""Claim 12. He et al.'s plain nets keep their signal by batch normalisation, and they argue
their degradation is not vanishing signals (§4.1); ours start with a shrunken signal (section
1). This design restores its size at the start (`PLAIN_KEPT`; not its direction, which the
rescaling cannot change), gives each depth the rate that suited it on other seeds and tasks,
and asks whether the plain nets still degrade.

After its confirmation a review found that claim 12 could hardly have failed: the rescaling
changes only the signal's size (`keep_signal`), and every tuning seed's rise was far above the
margin. Like `DESIGN`'s claims 5 and 6, the page describes it outside the tested families; its
test, level and the log's record are unchanged."""

KEPT_RUN = HE._replace(
    seeds=KEPT_DESIGN.seeds, arms=(PLAIN_KEPT,), budgets=(KEPT_DESIGN.budget,), rates=KEPT_RATES
)
"""The run that decides claim 12: `PLAIN_KEPT` only, each depth at its `KEPT_RATES` rate."""
CONFIRMATIONS += (
    Confirmation(
        KEPT_DESIGN.name, "12", KEPT_DESIGN.seeds,
        "plain nets whose signal survives initialisation, each depth at its own tuned rate",
    ),
)  # fmt: skip


def kept_claims(result: Result) -> list[Claim]:
    """Decide `KEPT_DESIGN`'s claim 12 on a run of `KEPT_RUN`."""
    s, d = result.setup, KEPT_DESIGN
    loss = result.final_loss[s.arms.index(PLAIN_KEPT), 0, :, :, 0].T  # (seeds, depths)
    statement = (
        "degradation with the signal kept: plain nets whose signal keeps its mean square at the "
        f"start, each depth at its own tuned rate, end {s.budgets[0]} steps with a loss whose "
        f"fitted rise from {s.depths[0]} to {s.depths[-1]} layers is above a factor "
        f"{10**d.margin:.2f}"
    )
    return [worse(loss, s.depths, d.margin, statement, alpha=d.alpha)]


def kept_power(
    rises: FloatArray, sizes: Sequence[int], *, draws: int = 400, seed: int = 0
) -> FloatArray:
    """`KEPT_DESIGN`'s sample-size argument: how often claim 12's test would hold with n seeds,
    resampling the tuning seeds' rises moved halfway from their Hodges–Lehmann estimate to the
    margin.

    Returns:
        Shape ``(len(sizes),)``.
    """
    d = KEPT_DESIGN
    moved = rises - 0.5 * (hodges_lehmann(rises).estimate - d.margin)  # (seeds,)
    rng = np.random.default_rng(seed)
    out = np.zeros(len(sizes))
    for row, n in enumerate(sizes):
        for _ in range(draws):
            r = moved[rng.integers(0, rises.size, size=n)]  # (n,)
            out[row] += paired_greater(r, np.full(n, d.margin), "", alpha=d.alpha).holds
    out /= draws
    return out


KERNEL_CHECKS = ((HE, he_claims), (HE_RATES_RUN, he_rates_claims), (KEPT_RUN, kept_claims))
"""What ``make claims`` (``tools/claims.py``) checks under every BLAS kernel besides `PAGE`'s
claims: `HE`'s, `HE_RATES_RUN`'s and `KEPT_RUN`'s."""


# ---------------------------------------------------------------------------------------------
# What the log keeps, the sample-size argument, and the commands that fill the log


def plateaued(result: Result) -> FloatArray:
    """The share of nets whose loss has plateaued by each budget, at the base rate.

    The criterion, fixed with the design: a net has plateaued by budget T if its loss fell by
    less than a factor 2 over the second half of the budget, from step T/2 to step T.

    Args:
        result: what `run` returned.

    Returns:
        Shape ``(arms, depths, budgets)``, each a share of the seeds.
    """
    base = result.setup.lrs.index(result.setup.lr)
    fell = result.half_loss[:, base] / result.final_loss[:, base]  # (arms, depths, seeds, budgets)
    out: FloatArray = (fell < 2).mean(axis=2)
    return out


def outcome(result: Result) -> dict[str, Any]:
    """What the log records of a run: the claims, and the numbers the page draws from it.

    Args:
        result: what `run` returned.

    Returns:
        A JSON-ready dict. Losses are kept as base-10 logarithms to 4 decimals.
    """
    s = result.setup

    def r4(a: FloatArray) -> Any:
        return np.round(a, 4).tolist()

    medians = np.median(np.log10(result.curves), axis=2)[..., :: max(1, s.tail // 2)]
    out: dict[str, Any] = {
        "claims": [c._asdict() for c in claims(result)],
        "log10 loss (arm, rate, depth, seed, budget)": r4(np.log10(result.final_loss)),
        "log10 loss at half budget": r4(np.log10(result.half_loss)),
        f"median log10 loss every {max(1, s.tail // 2)} steps (arm, depth, step)": r4(medians),
        "plateaued (arm, depth, budget)": r4(plateaued(result)),
        "best rate, count (arm, depth, budget, rate)": np.stack(
            [(result.final_loss.argmin(axis=1) == i).sum(axis=2) for i in range(len(s.lrs))],
            axis=-1,
        ).tolist(),
    }
    if result.rerun_loss is not None:
        out["rerun log10 loss (plain, residual; seed)"] = r4(np.log10(result.rerun_loss))
    return out


def config(setup: Setup) -> dict[str, Any]:
    """The setup as the log records it (arms by name and definition, no seeds)."""
    out: dict[str, Any] = setup._asdict()
    out["arms"] = [  # without the starts an arm does not use, as the log recorded arms before
        {k: v for k, v in a._asdict().items() if k not in ("kept", "centred") or v}
        for a in setup.arms
    ]
    out.pop("seeds")
    if not setup.fresh_tasks:  # as the log recorded setups before the field existed
        out.pop("fresh_tasks")
    if setup.rates is None:  # the same
        out.pop("rates")
    return out


def _hedged(result: Result, which: int, shrink: float) -> Result:
    """``result`` with claim ``which``'s effect cut to ``shrink`` of its estimate (`power`)."""
    s = result.setup
    logs = np.log10(result.final_loss)  # (arms, lrs, depths, seeds, budgets)
    x = np.log2(np.asarray(s.depths, dtype=float))
    x -= x.mean()  # (depths,)
    plain = _arm(s, PLAIN)
    trends = {0: plain, 2: plain, 4: _arm(s, SHORTCUT_ONLY), 5: _arm(s, SCALE_ONLY)}
    if which in trends:  # a trend of one arm: scale its median profile across depths down
        i = trends[which]
        if i is None:
            return result
        profile = np.median(logs[i], axis=2, keepdims=True)  # (lrs, depths, 1, budgets)
        logs[i] -= (1 - shrink) * (profile - profile.mean(axis=1, keepdims=True))
    else:  # a comparison of slopes, a steeper than b: move a's slopes toward b's
        a, b = plain, _arm(s, RESIDUAL)  # claims 2 and 4
        if a is None or b is None:
            return result
        for j in range(len(s.lrs)):
            for k in range(len(s.budgets)):
                d = slopes(10 ** logs[a, j, :, :, k].T, s.depths) - slopes(
                    10 ** logs[b, j, :, :, k].T, s.depths
                )  # (seeds,): the slopes' differences, paired by seed
                theta = hodges_lehmann(d).estimate
                logs[a, j, :, :, k] -= (1 - shrink) * theta * x[:, None]
    return result._replace(final_loss=10**logs)


def power(
    result: Result,
    sizes: Sequence[int],
    *,
    shrink: float = 0.5,
    draws: int = 400,
    seed: int = 0,
) -> FloatArray:
    """The sample-size argument: how often each claim would hold with n seeds.

    Resamples the seeds of an exploration run, n at a time with replacement, and decides each
    claim on each resample. The exploration seeds chose the design, so the effects they show
    are likely optimistic: before resampling, each claim's effect is cut to ``shrink`` of its
    estimate (half, by default). For a trend, the median loss profile across depths of the arm
    the claim is about (the plain nets for claims 1 and 3, a control arm for 5 and 6) is
    scaled down; for a comparison of slopes, the steeper arm's slopes are moved
    toward the other's by ``1 - shrink`` times the Hodges–Lehmann estimate of their
    paired differences.

    Args:
        result: a run on the exploration seeds with every arm, rate and budget of `FULL`.
        sizes: the numbers of seeds n to try.
        shrink: the share of each estimated effect kept.
        draws: resamples per n.
        seed: seeds the resampling.

    Returns:
        For each n, the share of resamples in which each claim held, shape
        ``(len(sizes), claims)``.
    """
    # Claims 1 and 2 are decided on the build's kind of run: the base rate, the first budget.
    hedged = [
        as_page(_hedged(result, i, shrink)) if i < 2 else _hedged(result, i, shrink)
        for i in range(len(DESIGN.claims))
    ]
    rng = np.random.default_rng(seed)
    out = np.zeros((len(sizes), len(hedged)))
    for row, n in enumerate(sizes):
        for _ in range(draws):
            pick = rng.integers(0, len(result.setup.seeds), size=n)  # (n,)
            for i, h in enumerate(hedged):
                sample = h._replace(
                    setup=h.setup._replace(seeds=tuple(range(n))),
                    final_loss=h.final_loss[:, :, :, pick],
                )
                decided = _decide(sample, i)
                out[row, i] += decided is not None and decided.holds
    out /= draws
    return out


EXPLORATION = FULL._replace(seeds=DESIGN.exploration_seeds)
"""The full sweep on the exploration seeds: what the design and the sample size were chosen on."""
NAME = "residual_depth"
"""The experiment's name in the log."""
COMMAND = "python -m paperlens.experiments.residual_depth"
"""The command that runs and records it (`main`)."""
SIZES = (8, 10, 12, 14, 16, 18, 20)
"""The numbers of seeds the sample-size argument tries."""


def from_log(entry: dict[str, Any], setup: Setup) -> Result:
    """A `Result` rebuilt from a log entry's recorded losses (to 4 decimals in log10).

    Args:
        entry: an entry of the experiment log written by `record` or `main`.
        setup: the setup it ran (its seeds are taken from the entry).

    Returns:
        A `Result` with the recorded final and half-budget losses and the rerun if there was
        one; its curves and gradients are empty (the log keeps medians of the curves only).
    """
    found = entry["outcome"]
    rerun = found.get("rerun log10 loss (plain, residual; seed)")
    return Result(
        setup._replace(seeds=tuple(entry["seeds"])),
        10 ** np.array(found["log10 loss (arm, rate, depth, seed, budget)"]),
        10 ** np.array(found["log10 loss at half budget"]),
        np.empty((0,)),
        np.empty((0,)),
        None if rerun is None else 10 ** np.array(rerun),
    )


# ---------------------------------------------------------------------------------------------
# The log: what a confirmation records, and what the page reads back


def exploration() -> Result:
    """The full sweep on the exploration seeds, at the design's rates, as the log recorded it.

    The sweep was explored in parts (a first grid of rates, then larger ones): this gathers
    every exploration entry of the same arms, depths, budgets and seeds, and takes each rate of
    `LRS` from the entry that ran it.

    Returns:
        A `Result` of `EXPLORATION` rebuilt from the log (`from_log`).
    """
    from paperlens.experiments import log

    def same_sweep(config: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in config.items() if k not in ("lr", "lrs", "rerun")}

    wanted = same_sweep(json.loads(json.dumps(config(EXPLORATION))))
    final: dict[float, FloatArray] = {}
    half: dict[float, FloatArray] = {}
    rerun = None
    for e in log.entries(NAME):
        c = e["config"]
        if e["purpose"] != "exploration" or e["seeds"] != list(EXPLORATION.seeds):
            continue
        if "lrs" not in c or same_sweep(c) != wanted:
            continue
        part = EXPLORATION._replace(lrs=tuple(c["lrs"]), lr=c["lr"], rerun=c["rerun"])
        found = from_log(e, part)
        for j, lr in enumerate(part.lrs):
            final[lr], half[lr] = found.final_loss[:, j], found.half_loss[:, j]
        rerun = found.rerun_loss if found.rerun_loss is not None else rerun
    return Result(
        EXPLORATION,
        np.stack([final[lr] for lr in LRS], axis=1),
        np.stack([half[lr] for lr in LRS], axis=1),
        np.empty((0,)),
        np.empty((0,)),
        rerun,
    )


def record(result: Result, *, command: str, note: str = "") -> dict[str, Any]:
    """Append a confirmation run of `DESIGN` (`PAGE` or `FULL`) to the log; return the entry.

    ``python -m paperlens.experiments.residual_depth page --record`` (or ``full --record``)
    calls it, once per setup, after the design was committed. Every entry it writes counts as
    a confirmation run: `CONFIRMATIONS` must list each, and `log.audit` counts their designs.

    Args:
        result: what `run` returned.
        command: the command that ran it.
        note: what else to say (the commit that fixed the design).

    Returns:
        The entry as written.
    """
    from paperlens.experiments import log

    s = result.setup
    return log.record(
        NAME, design=DESIGN.name, purpose="confirmation", status="adopted", config=config(s),
        seeds=s.seeds, command=command, outcome=outcome(result), note=note,
    )  # fmt: skip


def recorded(setup: Setup, *, purpose: str = "confirmation") -> tuple[dict[str, Any], Result]:
    """The log's latest run of ``setup`` with that purpose, and its `Result` (`from_log`).

    Args:
        setup: `FULL`, `HE` (or `PAGE`); with ``purpose="exploration"``, `HE_EXPLORATION` or
            `HE_TUNED`.
        purpose: ``"confirmation"`` or ``"exploration"``.

    Returns:
        ``(entry, result)``.

    Raises:
        LookupError: the log has no such run of ``setup`` yet.
    """
    from paperlens.experiments import log

    wanted = json.loads(json.dumps(config(setup)))  # as JSON stores it: tuples become lists
    found = [
        e
        for e in log.entries(NAME)
        if e["purpose"] == purpose and e["config"] == wanted and e["seeds"] == list(setup.seeds)
    ]
    if not found:
        raise LookupError(f"no {purpose} run of this setup in the log yet: see `{COMMAND}`")
    return found[-1], from_log(found[-1], setup)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table; a pipe inside a cell is escaped."""
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _conditions() -> dict[int, tuple[str, str]]:
    """For claims whose recorded words leave out a condition they were tested under: the words,
    and the same words with the condition added in brackets (a rerun must keep the recorded
    words, so they are not changed in `_decide` or `he_claims`)."""
    budgets = " and ".join(map(str, HE_BUDGETS))
    he = f"at every budget [{budgets} steps, at the one rate {LR:g}; each seed's fitted trend]"
    longer = " and ".join(map(str, BUDGETS[1:]))
    return {
        2: ("shortcuts shrink it", "shortcuts [with 1/√L branches] shrink it"),
        3: ("longer training", f"longer training [budgets of {longer} steps]"),
        4: ("shortcuts shrink it", "shortcuts [with 1/√L branches] shrink it"),
        7: ("at every budget", he),
        8: ("at every budget", he),
    }


def claims_markdown(
    found: Sequence[Claim | dict[str, Any]], *, numbers: Sequence[int], described: str = ""
) -> str:
    """Claims as a Markdown list: each claim's verdict, then its test, evidence and effect size.

    A list rather than a table, so that it reads on a phone as on a desktop.

    Args:
        found: `Claim` objects, or claims as the log records them (dicts).
        numbers: each claim's number in `DESIGN`.
        described: for claims taken out of their tested family after their confirmation, why
            they could hardly have failed (shown before each verdict).

    Returns:
        The list.
    """
    items = []
    conditions = _conditions()
    for number, claim in zip(numbers, found, strict=True):
        c = claim if isinstance(claim, dict) else claim._asdict()
        if number in conditions:
            words, tested = conditions[number]
            c = c | {"statement": c["statement"].replace(words, tested, 1)}
        verdict = "holds" if c["holds"] else "**FAILS**"
        if str(c["evidence"]).startswith("not tested"):  # a fixed sequence stopped before it
            verdict = "not tested"
        if described:
            verdict = f"(described, not tested: {described}) {verdict}"
        elif number in DESIGN.described:
            verdict = (
                "(described, not tested: its arm is broken at initialisation, so it could "
                f"hardly have failed) {verdict}"
            )
        items.append(
            f"- **Claim {number}** {verdict}: {c['statement']}.\n"
            f"    - Test: {c['test']}; n = {c['n']}.\n"
            f"    - Evidence: {c['evidence']}."
            + (f"\n    - Effect size: {c['effect']}." if c["effect"] else "")
        )
    return "\n".join(items)


def designs_markdown(entries: Sequence[dict[str, Any]]) -> str:
    """The log as a short Markdown table: each design tried, on which seeds, and why.

    Args:
        entries: the log's entries (`log.entries`).

    Returns:
        The table, oldest entry first; its last column counts the claims an entry decided and
        quotes every claim that failed, with its evidence.
    """
    rows = []
    for i, e in enumerate(entries, 1):
        seeds = list(e["seeds"])
        run_of = seeds == list(range(seeds[0], seeds[0] + len(seeds)))
        span = f"{seeds[0]}–{seeds[-1]} ({len(seeds)})" if run_of else ", ".join(map(str, seeds))
        status = f"{e['purpose']}, {e['status']}"
        decided = e["outcome"].get("claims", []) if isinstance(e["outcome"], dict) else []
        failed = [c for c in decided if not c["holds"]]
        verdicts = f"{len(decided) - len(failed)} of {len(decided)} hold" if decided else ""
        verdicts += "".join(f"; FAILS: {c['statement']} ({c['evidence']})" for c in failed)
        note = str(e["note"])
        if "computed_by" in e:  # reconstructed: the numbers came from another process
            by = e["computed_by"]
            note += (
                f" (Computed by {by['how']}"
                + (f", commit {by['commit'][:7]}" if "commit" in by else "")
                + ".)"
            )
        row = [str(i), str(e["date"]), f"`{e['design']}`", status, span, note, verdicts]
        rows.append(row)
    header = ["#", "date", "design", "purpose, status", "seeds", "note", "claims decided"]
    return _table(header, rows)


def main(argv: Sequence[str] | None = None) -> int:
    """Run, and with ``--record`` log, the experiment: ``page``, ``full``, ``explore``, ``power``.

    - ``page``: the build's run, `PAGE`, and its claims; recorded, it is the confirmation of
      claims 1 and 2 (once: later runs are reruns).
    - ``full``: the full sweep, `FULL`; recorded, the confirmation of claims 3 to 6.
    - ``explore``: the full sweep on the exploration seeds, `EXPLORATION`.
    - ``power``: the sample-size argument (`power`), from the log's exploration entry.
    """
    import argparse
    import subprocess
    import time

    from paperlens.experiments import log

    parser = argparse.ArgumentParser(prog=COMMAND, description=main.__doc__)
    parser.add_argument(
        "what",
        choices=[
            "page",
            "full",
            "explore",
            "power",
            "he-explore",
            "he-power",
            "he",
            "he-tuned",
            "he-replicate",
            "he-rates-power",
            "he-rates",
            "kept-explore",
            "centred-explore",
            "kept-power",
            "kept",
        ],  # fmt: skip
    )
    parser.add_argument("--record", action="store_true", help="append the run to the log")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument(
        "--lrs", type=float, nargs="+", help="explore: other learning rates than the design's"
    )
    parser.add_argument(
        "--store", type=Path, default=Path(".cache") / NAME,
        help="where each training's curves are kept, so that a stopped run resumes",
    )  # fmt: skip
    args = parser.parse_args(argv)
    command = f"{COMMAND} {args.what}" + (" --record" if args.record else "")
    if args.what in ("kept-explore", "centred-explore"):
        tuning = KEPT_TUNING if args.what == "kept-explore" else CENTRED_TUNING
        start = time.perf_counter()
        explored = run(tuning, jobs=args.jobs, store=args.store)
        seconds = time.perf_counter() - start
        for arm in tuning.arms:
            for k, budget in enumerate(tuning.budgets):
                print(arm.name, budget, tuned_rates(explored, arm=arm, budget=k))
        if args.record:
            what = (
                "Plain nets whose signal survives initialisation (each block rescaled on the "
                "training inputs)"
                if args.what == "kept-explore"
                else "Plain nets with a centred start (each unit of each block set to mean 0 "
                "and variance 1 over the training inputs)"
            )
            log.record(
                NAME, design="v7-kept" if args.what == "kept-explore" else "v8-centred",
                purpose="exploration", status="explored",
                config=config(tuning), seeds=tuning.seeds, command=command,
                outcome=outcome(explored) | {"seconds": round(seconds), "jobs": args.jobs},
                note=(f"{what}, and plain nets, at every rate of the grid on fresh seeds and "
                      "tasks: where each depth's rate is tuned."),
            )  # fmt: skip
        return 0
    if args.what in ("kept-power", "kept"):
        return _main_kept(args.what, args.record, command, args.jobs, args.store)
    if args.what.startswith("he-rates"):
        return _main_he_rates(args.what, args.record, command, args.jobs, args.store)
    if args.what.startswith("he"):
        return _main_he(args.what, args.record, command, args.jobs, args.store)
    if args.what == "power":
        explored = exploration()
        table = power(explored, SIZES)
        for n, row in zip(SIZES, table, strict=True):
            print(f"n = {n:2d}: each claim holds in {np.round(row, 3).tolist()} of the resamples")
        found = claims(as_page(explored)) + claims(explored)
        print(*found, sep="\n")
        if args.record:
            shares = {f"n = {n}": np.round(row, 3).tolist() for n, row in zip(SIZES, table)}  # noqa: B905
            shares["claims on the exploration seeds"] = [c._asdict() for c in found]
            log.record(
                NAME, design=DESIGN.name, purpose="exploration", status="explored",
                config={"shrink": 0.5, "draws": 400, "seed": 0, "sizes": list(SIZES),
                        "lrs": list(LRS)},
                seeds=EXPLORATION.seeds, command=command, outcome=shares,
                note=("The sample-size argument: each claim's share of 400 resamples of n "
                      "exploration seeds in which it held, every effect cut to half its size."),
            )  # fmt: skip
        return 0
    setup = {"page": PAGE, "full": FULL, "explore": EXPLORATION}[args.what]
    if args.lrs and args.what == "explore":  # more rates for the same sweep, without its rerun
        setup = setup._replace(lrs=tuple(args.lrs), lr=args.lrs[0], rerun=False)
        command = f"{command} --lrs {' '.join(map(str, args.lrs))}"
    if not setup.seeds:
        raise SystemExit("DESIGN has no confirmation seeds yet: fix the design first")
    commit = subprocess.run(  # the commit the run starts from, which fixed its design
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    start = time.perf_counter()
    result = run(setup, jobs=args.jobs, store=args.store)
    seconds = time.perf_counter() - start
    found = claims(result)
    print(*found, sep="\n")
    print(f"{len(found)} claims in {seconds:.0f} s on {args.jobs} processes")
    if args.record:
        if args.what == "explore":
            log.record(
                NAME, design=DESIGN.name, purpose="exploration", status="explored",
                config=config(setup), seeds=setup.seeds, command=command,
                outcome=outcome(result) | {"seconds": round(seconds), "jobs": args.jobs},
                note=(
                    f"The full sweep's arms and depths at the rates {setup.lrs} on the "
                    "exploration seeds: larger rates, as the best rate of the shallow nets was "
                    "the grid's largest."
                    if args.lrs
                    else "The full sweep on the exploration seeds: the basis of the sample size."
                ),
            )  # fmt: skip
        else:
            record(result, command=command, note=f"the design fixed in commit {commit}")
    return 0 if all(c.holds for c in found) else 1


def he_outcome(result: Result) -> dict[str, Any]:
    """What the log records of a run of `HE`: `outcome`, with `HE_DESIGN`'s claims."""
    return outcome(result) | {"claims": [c._asdict() for c in he_claims(result)]}


def _main_he(what: str, record_it: bool, command: str, jobs: int, store: Path) -> int:
    """``he-explore``, ``he-power`` and ``he`` (`main`): `HE_DESIGN`'s exploration, its
    sample-size argument, and its confirmation."""
    import subprocess

    from paperlens.experiments import log

    if what == "he-power":
        explored = he_exploration()
        print(*he_claims(explored), sep="\n")
        table = he_power(explored, SIZES)
        for n, row in zip(SIZES, table, strict=True):
            print(f"n = {n:2d}: each claim holds in {np.round(row, 3).tolist()} of the resamples")
        if record_it:
            shares = {f"n = {n}": np.round(row, 3).tolist() for n, row in zip(SIZES, table)}  # noqa: B905
            log.record(
                NAME, design=HE_DESIGN.name, purpose="exploration", status="explored",
                config={"shrink": 0.5, "draws": 400, "seed": 0, "sizes": list(SIZES)},
                seeds=HE_EXPLORATION.seeds, command=command, outcome=shares,
                note=("The sample-size argument of He et al.'s claim: each claim's share of "
                      "400 resamples of n exploration seeds in which its test held, every "
                      f"effect cut to half its size; budgets {list(HE_BUDGETS)}."),
            )  # fmt: skip
        return 0
    exploring = what in ("he-explore", "he-tuned")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if what == "he-replicate":
        each = [
            _run_he(setup, what, record_it, command, jobs, store, exploring, commit)
            for setup in HE_REPLICATIONS
        ]
        return 0 if all(each) else 1
    setup = {"he-explore": HE_EXPLORATION, "he-tuned": HE_TUNED}.get(what, HE)
    if not setup.seeds:
        raise SystemExit("HE_DESIGN has no confirmation seeds yet: fix the design first")
    held = _run_he(setup, what, record_it, command, jobs, store, exploring, commit)
    return 0 if exploring or held else 1


def _run_he(
    setup: Setup, what: str, record_it: bool, command: str, jobs: int, store: Path,
    exploring: bool, commit: str,
) -> bool:  # fmt: skip
    """Run one setup of `HE_DESIGN`, print its claims, record it if asked; whether all held."""
    import time

    from paperlens.experiments import log

    start = time.perf_counter()
    result = run(setup, jobs=jobs, store=store)
    seconds = time.perf_counter() - start
    found = he_claims(result)
    print(*found, sep="\n")
    print(f"{len(found)} claims in {seconds:.0f} s on {jobs} processes")
    if record_it:
        log.record(
            NAME, design=HE_DESIGN.name, purpose="exploration" if exploring else "confirmation",
            status="explored" if exploring else "adopted", config=config(setup),
            seeds=setup.seeds, command=command,
            outcome=he_outcome(result) | {"seconds": round(seconds), "jobs": jobs},
            note={
                "he-explore": "He et al.'s claim on the exploration seeds, a fresh task per "
                "seed: the basis of its sample size.",
                "he-tuned": "After the confirmation, at a reviewer's request: its seeds and tasks "
                "at every rate of the grid, to see the claims with each net's best rate. A "
                "description on seeds already used; it decides nothing.",
                "he-replicate": "A replication of the design, unchanged since its confirmation, "
                "on fresh seeds and tasks, asked by a review after the confirmation (the "
                f"reviewer had run it first); run at commit {commit}.",
            }.get(what, f"the design fixed in commit {commit}"),
        )  # fmt: skip
    return all(c.holds for c in found)


def _main_he_rates(what: str, record_it: bool, command: str, jobs: int, store: Path) -> int:
    """``he-rates-power`` and ``he-rates`` (`main`): `HE_RATES_DESIGN`'s sample-size argument,
    from the log's `HE_TUNED`, and its confirmation, `HE_RATES_RUN`."""

    from paperlens.experiments import log

    d = HE_RATES_DESIGN
    if what == "he-rates-power":
        tuning = recorded(HE_TUNED, purpose="exploration")[1]
        if tuned_rates(tuning) != HE_RATES:
            raise SystemExit(f"HE_RATES {HE_RATES} are not the tuned rates {tuned_rates(tuning)}")
        rises = tuning_rises(tuning)
        table = he_rates_power(rises, HE_RATES_SIZES)
        for n, row in zip(HE_RATES_SIZES, table, strict=True):
            print(f"n = {n:3d}: claims 9, 10, 11 hold in {np.round(row, 3).tolist()}")
        if record_it:
            shares = {
                f"n = {n}": np.round(row, 3).tolist()
                for n, row in zip(HE_RATES_SIZES, table, strict=True)
            }
            log.record(
                NAME, design=d.name, purpose="exploration", status="explored",
                config={"draws": 400, "seed": 0, "sizes": list(HE_RATES_SIZES),
                        "rates": list(HE_RATES), "budget": d.budget},
                seeds=d.tuning_seeds, command=command,
                outcome=shares | {"tuning rise": str(hodges_lehmann(rises))},
                note=("The rates and sample size of He et al.'s claim with each depth at its "
                      "own rate: each depth's rate is the one with the lowest median log-loss "
                      f"of the residual nets of the log's he-tuned entry at {d.budget} steps; "
                      "each claim's share of 400 resamples of n of those seeds' rises in "
                      "which it held, their estimate moved to the alternative it is powered "
                      "for (halfway to the margin for claim 9, 0 for 10, minus the margin "
                      "for 11)."),
            )  # fmt: skip
        return 0
    return _confirm(HE_RATES_RUN, he_rates_claims, d.name, record_it, command, jobs, store)


def _confirm(
    setup: Setup,
    decide: Callable[[Result], list[Claim]],
    design: str,
    record_it: bool,
    command: str,
    jobs: int,
    store: Path,
) -> int:
    """Run a design's confirmation, print its claims and, with ``record_it``, log it as the
    confirmation of ``design`` with the commit it ran at (`_main_he_rates`, `_main_kept`)."""
    import subprocess
    import time

    from paperlens.experiments import log

    if not setup.seeds:
        raise SystemExit(f"{design} has no confirmation seeds yet: fix the design first")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    start = time.perf_counter()
    result = run(setup, jobs=jobs, store=store)
    seconds = time.perf_counter() - start
    found = decide(result)
    print(*found, sep="\n")
    print(f"{len(found)} claims in {seconds:.0f} s on {jobs} processes")
    if record_it:
        log.record(
            NAME, design=design, purpose="confirmation", status="adopted",
            config=config(setup), seeds=setup.seeds, command=command,
            outcome=outcome(result) | {"claims": [c._asdict() for c in found],
                                       "seconds": round(seconds), "jobs": jobs},
            note=f"the design fixed in commit {commit}",
        )  # fmt: skip
    return 0


def _main_kept(what: str, record_it: bool, command: str, jobs: int, store: Path) -> int:
    """``kept-power`` and ``kept`` (`main`): `KEPT_DESIGN`'s sample-size argument, from the
    log's `KEPT_TUNING`, and its confirmation, `KEPT_RUN`."""

    from paperlens.experiments import log

    d = KEPT_DESIGN
    if what == "kept-power":
        tuning = recorded(KEPT_TUNING, purpose="exploration")[1]
        if tuned_rates(tuning, arm=PLAIN_KEPT) != KEPT_RATES:
            raise SystemExit(
                f"KEPT_RATES {KEPT_RATES} are not {tuned_rates(tuning, arm=PLAIN_KEPT)}"
            )
        rises = tuning_rises(tuning, KEPT_RATES, arm=PLAIN_KEPT)
        shares = kept_power(rises, KEPT_SIZES)
        for n, share in zip(KEPT_SIZES, shares, strict=True):
            print(f"n = {n:2d}: claim 12 holds in {share:.3f} of the resamples")
        if record_it:
            log.record(
                NAME, design=d.name, purpose="exploration", status="explored",
                config={"draws": 400, "seed": 0, "sizes": list(KEPT_SIZES),
                        "rates": list(KEPT_RATES), "budget": d.budget},
                seeds=d.tuning_seeds, command=command,
                outcome={f"n = {n}": round(float(v), 3) for n, v in zip(KEPT_SIZES, shares)}  # noqa: B905
                | {"tuning rise": str(hodges_lehmann(rises))},
                note=("The rates and sample size of claim 12: each depth's rate is the one with "
                      "the lowest median log-loss of the kept-signal plain nets of the log's "
                      f"kept-explore entry at {d.budget} steps; the claim's share of 400 "
                      "resamples of n of those seeds' rises, moved halfway to the margin, in "
                      "which it held."),
            )  # fmt: skip
        return 0
    return _confirm(KEPT_RUN, kept_claims, d.name, record_it, command, jobs, store)


def he_exploration() -> Result:
    """`HE_EXPLORATION` as the log recorded it, at `HE_BUDGETS` only: what `HE_DESIGN`'s sample
    size was chosen on."""
    found = recorded(HE_EXPLORATION, purpose="exploration")[1]
    keep = [found.setup.budgets.index(b) for b in HE_BUDGETS]
    return found._replace(
        setup=found.setup._replace(budgets=HE_BUDGETS),
        final_loss=found.final_loss[..., keep],
        half_loss=found.half_loss[..., keep],
    )


if __name__ == "__main__":
    raise SystemExit(main())
