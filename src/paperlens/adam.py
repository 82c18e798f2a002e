r"""The Adam optimiser (Kingma and Ba, 2015, https://arxiv.org/abs/1412.6980).

For each parameter $\theta$ with gradient $g$ at step $t$:

$$m \leftarrow \beta_1 m + (1 - \beta_1) g, \quad v \leftarrow \beta_2 v + (1 - \beta_2) g^2,
\quad \theta \leftarrow \theta - \eta\,
\frac{m / (1 - \beta_1^t)}{\sqrt{v / (1 - \beta_2^t)} + \epsilon}.$$

Adam divides each gradient by a running estimate of its own size. Its first step moves every
parameter by $\eta$ against the sign of its gradient, whatever the gradient's size (unless the
gradient is as small as $\epsilon$). After that, a step is usually no larger than about $\eta$
(Kingma and Ba, §2.1: approximately bounded by $\eta$ in common cases), but it can be larger:
their figure for the worst case is $\eta (1 - \beta_1)/\sqrt{1 - \beta_2}$, about
$3.2\eta$ at the default $\beta$s, and a gradient that grows over several steps can take
even more. It can also be far smaller: $v$ averages $g^2$ over about $1/(1 - \beta_2)$
steps, $m$ averages $g$ over about $1/(1 - \beta_1)$, so when the gradient shrinks, $v$ still
remembers its larger past values. Multiplying a parameter's gradients by one positive
constant, at every step, leaves its steps unchanged but for $\epsilon$; a negative constant
reverses every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from paperlens._checks import FloatArray, require_real_scalar


class AdamState(NamedTuple):
    """Adam's running averages, one array per parameter, and the step count t."""

    m: tuple[FloatArray, ...]
    """First-moment estimates, each of its parameter's shape."""
    v: tuple[FloatArray, ...]
    """Second-moment estimates, each of its parameter's shape."""
    t: int
    """Steps taken so far."""


def adam_init(params: Sequence[FloatArray]) -> AdamState:
    """A fresh state: zero moments, t = 0.

    Args:
        params: the parameters, any shapes.

    Returns:
        ``AdamState`` with zero arrays of the parameters' shapes.
    """
    return AdamState(
        tuple(np.zeros_like(p) for p in params), tuple(np.zeros_like(p) for p in params), 0
    )


def adam_step(
    params: Sequence[FloatArray],
    grads: Sequence[FloatArray],
    state: AdamState,
    *,
    lr: float,
    beta1: float = 0.9,
    beta2: float = 0.999,
    eps: float = 1e-8,
) -> tuple[list[FloatArray], AdamState]:
    r"""One Adam step; returns new arrays and leaves the inputs untouched.

    Args:
        params: parameters $\theta$, any shapes.
        grads: $\partial L/\partial \theta$, one per parameter, of its shape.
        state: from `adam_init` or the previous step.
        lr: the learning rate $\eta$.
        beta1: decay of the first moment.
        beta2: decay of the second moment.
        eps: keeps the division finite.

    Returns:
        ``(new_params, new_state)``.

    Raises:
        ValueError: the numbers of parameters, gradients and moments differ, or shapes differ.

    Examples:
        >>> import numpy as np
        >>> from paperlens import adam_init, adam_step
        >>> theta = [np.array([1.0, -1.0])]
        >>> theta, state = adam_step(theta, [np.array([10.0, -0.1])], adam_init(theta), lr=0.1)
        >>> np.round(theta[0], 6)  # the first step moves each entry by lr, against its gradient
        array([ 0.9, -0.9])

        Gradients 1000 times larger, at every step, give the same steps (up to eps):

        >>> small, large = [np.array([1.0, -1.0])], [np.array([1.0, -1.0])]
        >>> s_small, s_large = adam_init(small), adam_init(large)
        >>> for g in ([0.3, -0.1], [0.2, 0.05], [-0.4, 0.1]):
        ...     small, s_small = adam_step(small, [np.array(g)], s_small, lr=0.1)
        ...     large, s_large = adam_step(large, [1000 * np.array(g)], s_large, lr=0.1)
        ...
        >>> bool(np.allclose(small[0], large[0], rtol=1e-6)), small[0].round(3)
        (True, array([ 0.8  , -0.901]))

        A negative constant is another matter: gradients times -1 give every step reversed.

        >>> flipped, s_flip = [np.array([1.0, -1.0])], adam_init([np.array([1.0, -1.0])])
        >>> for g in ([0.3, -0.1], [0.2, 0.05], [-0.4, 0.1]):
        ...     flipped, s_flip = adam_step(flipped, [-np.array(g)], s_flip, lr=0.1)
        ...
        >>> bool(np.allclose(flipped[0] - [1.0, -1.0], -(small[0] - [1.0, -1.0])))
        True
    """
    lr = require_real_scalar(lr, "lr")
    if not len(params) == len(grads) == len(state.m):
        raise ValueError(
            f"got {len(params)} parameters, {len(grads)} gradients and a state for {len(state.m)}"
        )
    t = state.t + 1
    new_params: list[FloatArray] = []
    new_m: list[FloatArray] = []
    new_v: list[FloatArray] = []
    for i, (p, g, m, v) in enumerate(zip(params, grads, state.m, state.v, strict=True)):
        if g.shape != p.shape:
            raise ValueError(f"gradient {i} has shape {g.shape} but its parameter {p.shape}")
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        step = (m / (1 - beta1**t)) / (np.sqrt(v / (1 - beta2**t)) + eps)  # bias-corrected
        new_params.append(p - lr * step)
        new_m.append(m)
        new_v.append(v)
    return new_params, AdamState(tuple(new_m), tuple(new_v), t)
