# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Attention's 1/√d_k: does it matter?
#
# **The claim.** *Attention Is All You Need* (Vaswani et al., 2017), §3.2.1: "We suspect that
# for large values of $d_k$, the dot products grow large in magnitude, pushing the softmax
# function into regions where it has extremely small gradients. To counteract this effect, we
# scale the dot products by $\frac{1}{\sqrt{d_k}}$." Footnote 4 gives the reason: if the
# components of $q$ and $k$ are independent with mean 0 and variance 1, then $q \cdot k$ has
# mean 0 and variance $d_k$.
#
# We test it twice: at initialisation, on random queries and keys, for $d_k$ from 1 to 1024;
# then by training a single attention layer, with and without the scale, on a task where a
# query must find its key. Everything is computed by `paperlens` with hand-derived gradients;
# the whole notebook runs in seconds.

# %%
import numpy as np
from matplotlib.figure import Figure

import paperlens as pl
from paperlens.experiments import attention_scaling as exp

# %% [markdown]
# ## 1. At initialisation
#
# For each $d_k$, 500 trials: one query $q$ and $n_k = 16$ keys with $N(0, 1)$ components. We
# record the largest attention weight (1 means all the weight on one key) and the Frobenius norm
# of the softmax Jacobian $J = \operatorname{diag}(s) - s s^\top$ at the scores, which bounds how
# much of any gradient the softmax passes back to the scores.

# %%
d_ks = [2**i for i in range(11)]  # 1, 2, 4, ..., 1024
stats = exp.scaling_at_init(d_ks, n_k=16, trials=500, rng=np.random.default_rng(0))


def mean_and_se(x):
    """Mean over trials and its standard error, per d_k."""
    return x.mean(axis=1), x.std(axis=1, ddof=1) / np.sqrt(x.shape[1])


for name in ("max_weight_unscaled", "max_weight_scaled", "grad_norm_unscaled", "grad_norm_scaled"):
    m, se = mean_and_se(getattr(stats, name))
    print(
        f"{name:20s} d_k=1: {m[0]:.3f}   d_k=64: {m[6]:.3f}   d_k=1024: {m[-1]:.3f} ± {se[-1]:.3f}"
    )

# %%
fig = Figure(figsize=(8, 3.2), layout="constrained")
ax1, ax2 = fig.subplots(1, 2)
for ax, field, label in [
    (ax1, "max_weight", "mean largest weight"),
    (ax2, "grad_norm", "mean ‖J‖ of the softmax"),
]:
    for arm, colour in [("unscaled", "#D55E00"), ("scaled", "#0072B2")]:
        m, se = mean_and_se(getattr(stats, f"{field}_{arm}"))
        ax.errorbar(d_ks, m, yerr=4 * se, marker="o", ms=3, color=colour, label=arm, capsize=2)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("$d_k$")
    ax.set_ylabel(label)
ax1.axhline(1 / 16, color="grey", lw=0.8, ls=":")
ax1.legend(frameon=False)
pl.show(
    fig,
    "Two panels against d_k from 1 to 1024 on a log axis. Left: the mean largest attention "
    "weight over 16 keys climbs from 0.21 to 0.96 without scaling and stays near 0.25 with "
    "scaling. Right: the norm of the softmax Jacobian falls from about 0.3 to 0.06 without "
    "scaling and stays near 0.3 with it.",
)

# %% [markdown]
# The error bars are ±4 standard errors of the mean over the 500 trials. Both claims hold,
# and we assert them with those error bars as the margin (so the check fails only if the
# difference is smaller than about four times what sampling noise could produce):
#
# - unscaled, the weights become nearly one-hot: at $d_k = 1024$ the mean largest weight is
#   above the scaled one by more than 4 combined standard errors, and above 0.9;
# - unscaled, the softmax passes back far less gradient: at $d_k = 1024$ its Jacobian norm is
#   below the scaled one by more than 4 combined standard errors;
# - scaled, nothing changes with $d_k$ once the scores are near-normal: the $d_k = 1024$ and
#   $d_k = 64$ values agree within 4 combined standard errors.


# %%
def separated(a, b, k=4.0):
    """True if mean(a) exceeds mean(b) by more than k combined standard errors."""
    (ma, sa), (mb, sb) = mean_and_se(a[None]), mean_and_se(b[None])
    return bool(ma[0] - mb[0] > k * np.hypot(sa[0], sb[0]))


big, mid = -1, d_ks.index(64)
assert separated(stats.max_weight_unscaled[big], stats.max_weight_scaled[big])
assert stats.max_weight_unscaled[big].mean() > 0.9
assert separated(stats.grad_norm_scaled[big], stats.grad_norm_unscaled[big])
assert not separated(stats.max_weight_scaled[big], stats.max_weight_scaled[mid])
assert not separated(stats.max_weight_scaled[mid], stats.max_weight_scaled[big])

# %% [markdown]
# ## 2. Training a layer, with and without the scale
#
# **The task.** $n_k = 8$ stored keys $x_j \sim N(0, I_{16})$; each of 32 queries is a copy of
# one of them plus noise $N(0, 0.5^2)$. One attention layer projects both to $d_k = 256$ with
# learned $W_q, W_k$, and must put its weight on the right key:
#
# $$O = \operatorname{softmax}\!\left(c\, X_q W_q (X_k W_k)^\top\right), \qquad
# c = 1/\sqrt{d_k} \text{ or } 1,$$
#
# with loss the mean squared error between $O$ and the one-hot index of the right key. The
# gradients come from `pl.attention_backward` and `pl.linear_backward`; the weights start as
# $N(0, 1/16)$, so projected $q$ and $k$ have unit-variance components as in footnote 4.
#
# **A fair learning rate.** The two versions need very different learning rates (the scale
# multiplies the gradient too), so each gets its own grid of four rates a factor √10 apart, the
# same 5 seeds (seed $s$ fixes the task and the starting weights), 150 full-batch steps, and
# keeps the rate with the lowest median final loss. We assert that the chosen rate is inside
# its grid, not at an edge, so a better rate was not left untried.
#
# A third arm asks whether the scale itself matters or only the size of the scores at the
# start: no scale, but weights started $d_k^{1/4} = 4$ times smaller, so that the initial
# scores are exactly those of the scaled version.

# %%
arms = {
    "scaled": dict(scaled=True, lrs=[10.0, 30.0, 100.0, 300.0]),
    "unscaled": dict(scaled=False, lrs=[0.1, 0.3, 1.0, 3.0]),
    "unscaled, small init": dict(scaled=False, lrs=[1.0, 3.0, 10.0, 30.0], init_scale=256**-0.25),
}
seeds = range(5)
curves = {}
for name, arm in arms.items():
    run = exp.train_matching(d_k=256, seeds=seeds, steps=150, n=32, **arm)
    best = exp.best_lr_index(run.loss)
    assert 0 < best < len(run.lrs) - 1, f"{name}: best rate {run.lrs[best]} is at the grid's edge"
    curves[name] = run.loss[best]  # (seeds, steps + 1)
    medians = np.median(run.loss[..., -1], axis=1)
    grid = ", ".join(f"lr {lr:g}: {m:.4f}" for lr, m in zip(run.lrs, medians, strict=True))
    print(f"{name}: median final loss {grid} -> lr {run.lrs[best]:g}")
    print(f"  final loss per seed at that rate: {np.round(curves[name][:, -1], 4)}")

# %%
fig = Figure(figsize=(7, 3.2), layout="constrained")
ax = fig.subplots()
colours = {"scaled": "#0072B2", "unscaled": "#D55E00", "unscaled, small init": "#009E73"}
for name, loss in curves.items():
    ax.fill_between(range(loss.shape[1]), loss.min(0), loss.max(0), color=colours[name], alpha=0.2)
    ax.plot(np.median(loss, axis=0), color=colours[name], label=name)
ax.set_yscale("log")
ax.set_xlabel("gradient step")
ax.set_ylabel("training loss (MSE)")
ax.legend(frameon=False)
pl.show(
    fig,
    "Training loss on a log axis over 150 steps, median line and min-to-max band over 5 seeds. "
    "The unscaled layer stalls, its 5 seeds ending between 0.08 and 0.17; the scaled layer and "
    "the unscaled layer with a 4 times smaller initialisation fall to nearly zero on most seeds, "
    "their worst seed ending near 0.02.",
)

# %% [markdown]
# The bands are the spread over the 5 seeds at each arm's chosen rate. The assertion is the
# plainest we could make from them: the *worst* seed of the scaled layer ends with a lower loss
# than the *best* seed of the unscaled one. The same holds for the small-initialisation arm.

# %%
final = {name: loss[:, -1] for name, loss in curves.items()}
assert final["scaled"].max() < final["unscaled"].min()
assert final["unscaled, small init"].max() < final["unscaled"].min()

# %% [markdown]
# ## What this shows, and what it does not
#
# **Shows.** With unit-variance $q$ and $k$, unscaled scores have standard deviation
# $\sqrt{d_k}$, and the softmax saturates: at $d_k = 1024$ the largest of 16 weights averages
# 0.96 and the Jacobian's norm is a fifth of the scaled one. Dividing by $\sqrt{d_k}$ keeps both
# where they are at $d_k = 1$. In training at $d_k = 256$, the unscaled layer stalls on some
# queries — those whose softmax starts saturated on a wrong key get almost no gradient — while
# the scaled layer learns the task, with each version at its own best learning rate.
#
# **Does not show.** That the *division* is what matters: the third arm, unscaled with weights
# started 4× smaller, learns as well as the scaled one. What matters is the size of the scores
# when training starts, which the scale fixes for any $d_k$ without touching the initialisation.
# A layer of 16-dimensional inputs and 32 queries is not a Transformer, and a grid of four
# rates and 150 steps is a small budget: with far longer training or an adaptive optimiser the
# unscaled layer might catch up further; we have not tested that. Five seeds show a consistent
# direction, not a precise effect size.
