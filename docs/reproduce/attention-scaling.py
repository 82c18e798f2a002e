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
# **The claim.** *Attention Is All You Need* (Vaswani et al., 2017), §3.2.1, comparing
# dot-product attention with additive attention:
#
# > "While for small values of $d_k$ the two mechanisms perform similarly, additive attention
# > outperforms dot product attention without scaling for larger values of $d_k$ [3]. We suspect
# > that for large values of $d_k$, the dot products grow large in magnitude, pushing the softmax
# > function into regions where it has extremely small gradients⁴. To counteract this effect, we
# > scale the dot products by $\frac{1}{\sqrt{d_k}}$."
#
# Footnote 4: "To illustrate why the dot products get large, assume that the components of $q$
# and $k$ are independent random variables with mean $0$ and variance $1$. Then their dot
# product, $q \cdot k = \sum_{i=1}^{d_k} q_i k_i$, has mean $0$ and variance $d_k$."
#
# Read the hedge: *we suspect*. The paper's evidence is the comparison with additive attention
# (its reference [3], Britz et al., 2017), which this page does not repeat. What it tests is the
# mechanism the sentence proposes, in three parts:
#
# 1. **At initialisation**, in footnote 4's setting: from which $d_k$ on is the unscaled softmax
#    nearer one-hot than uniform, and from which $d_k$ on does it pass back less gradient? Two
#    predictions, each with an interval.
# 2. **In training**, one attention layer with and without the scale, each at its own tuned
#    learning rate: equivalent at a small $d_k$, different at the paper's $d_k = 64$, and which
#    way depends on the loss.
# 3. **Why the division, and not a smaller start?** Under gradient descent the two are the same
#    computation, bit for bit; under Adam too, until common conventions get in the way.
#
# **What this notebook needs:** `paperlens` with its `notebooks` extra, which the install line
# on the [home page](../index.md) gives. Everything on the page is computed by the next cell.

# %%
import numpy as np
from IPython.display import Markdown
from matplotlib.figure import Figure

import paperlens as pl
from paperlens.experiments import attention_scaling as exp
from paperlens.experiments import log

setup, design = exp.PAGE, exp.DESIGN
result = exp.run(setup)
claims = exp.claims(result)

# %% tags=["hide-input"]
alpha = pl.experiments.claims.ALPHA
Markdown(
    f"""**How the claims are decided.** Each claim below was written down, with the test that
decides it, before the run that decides it, in `exp.DESIGN`. Each is tested one-sided at the
level {alpha:g}, on draws and seeds that no design choice saw; [Checking a claim
honestly](checking-claims.md) explains the tests. The claims are tested one by one, with no
correction for their number: the chance that any of the {len(claims)} passes while false is at
most {len(claims)} × {alpha:g} = {len(claims) * alpha:g}. The last section lists every design
tried.

<details><summary>The seeds, and how many</summary>

{exp.design_markdown(log.entries("attention_scaling"))}
</details>"""
)

# %% [markdown]
# ## 1. At initialisation
#
# Draw $q$ and $n_k$ keys with $N(0, 1)$ components, as footnote 4 assumes, and compare the
# softmax of the scores $q \cdot k_j$ with that of $q \cdot k_j / \sqrt{d_k}$. One draw first:

# %%
rng = np.random.default_rng(0)
for d_k in (4, 64, 1024):
    q = rng.standard_normal((1, d_k))
    K = rng.standard_normal((16, d_k))  # 16 keys
    unscaled = pl.softmax(q @ K.T).max()  # the largest weight
    scaled = pl.softmax(q @ K.T / np.sqrt(d_k)).max()
    print(f"d_k = {d_k:4}: unscaled {unscaled:.2f}, scaled {scaled:.2f}")

# %% tags=["hide-input"]
wide, cross = result.wide, result.cross
n_k, mid = setup.n_k, exp.midpoint(setup.n_k)
at_64 = wide.max_weight_unscaled[list(wide.d_k).index(64)]  # (trials,)
Markdown(
    f"""One draw proves little: over {setup.wide_trials} draws at $d_k = 64$, the unscaled
largest weight ranges from {at_64.min():.2f} to {at_64.max():.2f}. So each question below is
decided across {setup.cross_trials:,} draws per $d_k$ near the predicted answer.

**Nearer one-hot than uniform.** With $n_k = {n_k}$ keys, uniform weights have largest weight
$1/n_k = {1 / n_k:g}$ and one-hot weights $1$; a mean largest weight above the midpoint
${mid:g}$ is nearer one-hot. Claim 1 predicts where the unscaled mean crosses it.

**Passing back less gradient.** The softmax passes a gradient $g$ at its weights $w$ back to
the scores as $J g$, with Jacobian $J = \\operatorname{{diag}}(w) - w w^\\top$; its norm
$\\lVert J \\rVert_F$ bounds how much gets through. Compare it draw by draw, unscaled against
scaled: claim 2 predicts the $d_k$ from which the unscaled one is the smaller for *the typical
draw*, that is, from which more than half the draws have the smaller Jacobian unscaled (the
median of the ratio below 1)."""
)

# %% tags=["hide-input"]
d = wide.d_k
blue, vermilion, grey = "#0072B2", "#D55E00", "#555555"
fig = Figure(figsize=(10, 3.4), layout="constrained")
ax1, ax2, ax3 = fig.subplots(1, 3)
for field, colour, label in [("unscaled", vermilion, "unscaled"), ("scaled", blue, "scaled")]:
    w = getattr(wide, f"max_weight_{field}")
    ax1.plot(d, w.mean(axis=1), "o-", ms=3, color=colour, label=label)
    J = getattr(wide, f"jacobian_{field}")
    ax2.plot(d, np.median(J, axis=1), "o-", ms=3, color=colour, label=f"{label}, median")
    ax2.plot(d, J.mean(axis=1), "--", color=colour, label=f"{label}, mean")
ax1.axhline(1 / n_k, color=grey, lw=0.8, ls=":")
ax1.axhline(mid, color=grey, lw=0.8, ls="--")
ax1.set_title("mean largest weight", fontsize="medium")
ax1.legend(frameon=False, loc="upper left")
ax2.set_yscale("log")
ax2.set_title("‖J‖ of the softmax", fontsize="medium")
ax2.legend(frameon=False, fontsize="small", loc="lower left")
share = (wide.jacobian_unscaled < wide.jacobian_scaled).mean(axis=1)
ax3.plot(d, share, "o-", ms=3, color=vermilion)
ax3.axhline(0.5, color=grey, lw=0.8, ls="--")
ax3.set_ylim(0, 1)
ax3.set_title("share of draws whose ‖J‖\nis smaller unscaled", fontsize="medium")
weights_at = float(exp.crossing(cross.d_k, cross.max_weight_unscaled.mean(axis=1), mid))
less = (cross.jacobian_unscaled < cross.jacobian_scaled).mean(axis=1)
jacobian_at = float(exp.crossing(cross.d_k, less, 0.5))
for ax, at in [(ax1, weights_at), (ax3, jacobian_at)]:
    ax.axvline(at, color=grey, lw=0.8)
for ax in (ax1, ax2, ax3):
    ax.set_xscale("log", base=2)
    ax.set_xlabel("$d_k$")
last = -1
ratio_median = float(np.median(wide.jacobian_unscaled[last] / wide.jacobian_scaled[last]))
pl.show(
    fig,
    f"Three panels against d_k from {d[0]:g} to {d[last]:g} on a log axis, {setup.wide_trials} "
    f"draws each. Left: the unscaled mean largest weight climbs from "
    f"{wide.max_weight_unscaled[0].mean():.2f} to {wide.max_weight_unscaled[last].mean():.2f} "
    f"and crosses the dashed midpoint ({mid:g}) at the vertical line, d_k = {weights_at:.1f}; "
    f"the scaled one stays near {wide.max_weight_scaled[last].mean():.2f}. Middle: the norm of "
    f"the softmax Jacobian, median and mean; unscaled, the median falls to "
    f"{np.median(wide.jacobian_unscaled[last]):.1e} at d_k = {d[last]:g} while the mean stays at "
    f"{wide.jacobian_unscaled[last].mean():.2f}; scaled, both stay near "
    f"{np.median(wide.jacobian_scaled[last]):.2f}. Right: the share of draws whose Jacobian is "
    f"smaller unscaled rises through one half at the vertical line, d_k = {jacobian_at:.1f}.",
)

# %% tags=["hide-input"]
Markdown(exp.claims_markdown(claims[:2]))

# %% tags=["hide-input"]
J_u, J_s = wide.jacobian_unscaled[last], wide.jacobian_scaled[last]
g_u, g_s = wide.grad_q_unscaled[last], wide.grad_q_scaled[last]
med = exp.median_interval(J_u / J_s)
mean_u, mean_s = exp.mean_interval(J_u), exp.mean_interval(J_s)
Markdown(
    f"""**Which statistic, and why.** "Extremely small gradients" is true of the typical draw,
and the claim says so. At $d_k = {d[last]:g}$ the median of the ratio
$\\lVert J \\rVert$ unscaled / scaled is {med.estimate:.1e} (98% interval {med.low:.1e} to
{med.high:.1e}), while the *means* differ only by a factor of
{mean_s.estimate / mean_u.estimate:.1f}: most draws are saturated, and a few, where two keys
nearly tie, pass back a lot and carry the mean. Toward $q$ itself the picture turns: the
gradient reaching $q$ (for a random unit gradient at the weights) is $c\\,K^\\top J g$, and the
scale multiplies it by $c = 1/\\sqrt{{d_k}}$. Its mean norm is {g_u.mean():.3f} unscaled against
{g_s.mean():.3f} scaled, its median {np.median(g_u):.1e} against {np.median(g_s):.3f}: without
the scale the gradient is not uniformly small but heavy-tailed, almost nothing for most queries
and large for a few. So claim 2 is about the median, the typical query, and about the gradient
to the scores.

<details><summary>How the intervals are computed</summary>

Claims 1 and 2 are each two one-sided tests, both at {alpha:g}: below the level at the first
$d_k$, above it at the second. Claiming both at once this way (an intersection-union test)
keeps the level at {alpha:g}. A mean of {setup.cross_trials:,} independent draws, or a share of
them, is normal to a very good approximation, so each test is a $z$-test: the
{100 * (1 - 2 * alpha):g}% interval estimate ± 2.33 standard errors. The crossing's interval
redraws each point of the curve from that normal and interpolates again, linearly between
neighbouring $d_k$ (a parametric bootstrap). The median's interval above is distribution-free,
from order statistics; the means' come from the normal approximation, which a heavy tail makes
rough.
</details>"""
)

# %% [markdown]
# ## 2. Training one attention layer
#
# **The task.** A handful of stored keys $x_j \sim N(0, I)$; each query is a copy of one of them
# plus Gaussian noise. One attention layer projects both with learned $W_q, W_k$ and must put
# its weight on the right key:
#
# $$P = \operatorname{softmax}\!\left(c\, X_q W_q (X_k W_k)^\top\right),$$
#
# with $c = 1/\sqrt{d_k}$ (scaled) or $c = 1$ (unscaled), trained by **full-batch** gradient
# descent, each step's gradient computed on all the queries at once, on one of two losses: the
# mean squared error (**MSE**) between $P$ and the one-hot index of the right key, or the
# cross-entropy $-\log P_{i,t_i}$. The starting weights give the projected keys unit-variance
# components, as in footnote 4.
#
# **A fair learning rate.** The scale multiplies the gradient too, so the two versions need
# different rates. Each gets its own grid, a factor 2 apart, the same number of rates and the
# same number of steps; the unscaled grid is the scaled one divided by $\sqrt{d_k}$, for a
# reason part 3 makes plain. Tuning seeds choose each version's rate: the one whose *worst*
# tuning seed ends lowest, a rate that works for every seed tried. (Near the largest stable
# rate some seeds blow up while others end lowest of all, and the median alone picked such
# rates while the design was explored.) The claims are then tested on fresh seeds, paired by
# seed: the same task and the same starting draw for both versions. The first figure shows the
# tuning: the median and the worst final loss of the tuning seeds at each rate $2^k$ (unscaled,
# $2^k/\sqrt{d_k}$), a square on the rate chosen; the second, the training on the test seeds.

# %% tags=["hide-input"]
keys = list(result.trained)
top = 10.0  # where a run that diverged is drawn


def title(key):
    loss, d_k = key.split(" d_k=")
    return f"{loss.upper()}, $d_k$ = {d_k}"


fig = Figure(figsize=(10, 3.6), layout="constrained")
axes = fig.subplots(1, len(keys))
for ax, key in zip(axes, keys, strict=True):
    t = result.trained[key]
    tuning = np.nan_to_num(t.tuning, nan=np.inf)  # (arms, rates, tune seeds)
    for j, (arm, colour) in enumerate(zip(t.arms, (blue, vermilion), strict=True)):
        k = np.log2(t.rates[0])  # the grid's exponents, the same for both arms
        worst = np.minimum(tuning[j].max(axis=1), top)  # a diverged run is drawn at the top
        median = np.minimum(np.median(tuning[j], axis=1), top)
        ax.plot(k, median, "o-", ms=3, color=colour, label=f"{arm}, median")
        ax.plot(k, worst, ":", color=colour, label=f"{arm}, worst")
        ax.plot(k[t.chosen[j]], worst[t.chosen[j]], "s", ms=7, mfc="none", color=colour)
    ax.set_yscale("log")
    ax.set_title(title(key), fontsize="medium")
    ax.set_xlabel("$k$, the rate's exponent")
axes[0].set_ylabel("final loss, tuning seeds")
fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=2, frameon=False)
summary = "; ".join(
    f"{key}: chosen 2^{np.log2(result.trained[key].rates[0][result.trained[key].chosen[0]]):g} "
    f"scaled and 2^{np.log2(result.trained[key].rates[0][result.trained[key].chosen[1]]):g}/√d_k "
    "unscaled"
    for key in keys
)
pl.show(
    fig,
    f"Final training loss after {setup.steps} steps against the learning rate, for "
    f"{', '.join(keys)}: the median and the worst of {len(setup.tune_seeds)} tuning seeds for "
    f"each version (a run that diverged drawn at {top:g}), with a square on the rate each "
    f"chose ({summary}).",
)

# %% tags=["hide-input"]
fig = Figure(figsize=(10, 3.6), layout="constrained")
axes = fig.subplots(1, len(keys))
for ax, key in zip(axes, keys, strict=True):
    t = result.trained[key]
    for j, (arm, colour) in enumerate(zip(t.arms, (blue, vermilion), strict=True)):
        curves = np.minimum(np.nan_to_num(t.curves[j], nan=top), top)  # (seeds, steps + 1)
        ax.plot(np.median(curves, axis=0), color=colour, lw=2, label=f"{arm}, median")
        ax.plot(curves.max(axis=0), color=colour, lw=0.8, ls="--", label=f"{arm}, worst")
    ax.set_yscale("log")
    ax.set_title(title(key), fontsize="medium")
    ax.set_xlabel("gradient step")
axes[0].set_ylabel("training loss, test seeds")
fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=2, frameon=False)
ends = "; ".join(
    f"{key}: median {np.median(result.trained[key].curves[0, :, -1]):.1e} scaled, "
    f"{np.median(result.trained[key].curves[1, :, -1]):.1e} unscaled"
    for key in keys
)
pl.show(
    fig,
    f"Training loss against the step on the {len(setup.seeds)} test seeds, each version at its "
    f"chosen rate, median as a thick line and the worst seed dashed, for {', '.join(keys)}. "
    f"Final losses: {ends}.",
)

# %% tags=["hide-input"]
Markdown(exp.claims_markdown(claims[2:5], start=3))

# %% tags=["hide-input"]
spread = np.sqrt(design.large_d_k)  # the unscaled scores' standard deviation at the start
Markdown(
    f"""**Why the loss decides it.** The two losses send different gradients back to the
scores. With the MSE on the weights, the gradient $\\partial L / \\partial P$ passes through the
softmax's Jacobian, which vanishes when the weights are near one-hot, whether on the right key
or a wrong one: an unscaled layer that starts saturated on a wrong key hardly moves. With the
cross-entropy, the gradient to the scores is $P - Y$ (divided by the number of queries): at a
spike on the wrong key it is as large as it can be. There the unscaled layer's larger start
(scores with standard deviation about $\\sqrt{{d_k}} = {spread:g}$
instead of 1) is no handicap; and since the cross-entropy keeps falling as the scores grow, it
is an advantage. Inside a Transformer the attention weights are not the output: the loss reaches the
scores through $V$ and the softmax's Jacobian, as with the MSE here. The cross-entropy case is
the situation of a classifier's output softmax, not of attention."""
)

# %% [markdown]
# ## 3. Why the division, and not a smaller start?
#
# Write the unscaled layer's weights as $U = aW$ for $W_q$ and $W_k$, with $a^2 = 1/\sqrt{d_k}$.
# Its scores are $X_q U_q (X_k U_k)^\top = a^2\, X_q W_q (X_k W_k)^\top$: exactly the scaled
# layer's scores at $W$. The gradients follow: $\nabla_U L = \nabla_W L / a$. So a gradient
# step of size $\eta_U$ on $U$ moves $W = U/a$ by $\eta_U / a^2 = \eta_U \sqrt{d_k}$ times the
# gradient. **The scaled layer trained at rate $\eta$ is the unscaled layer started
# $d_k^{1/4}$ times smaller and trained at $\eta / \sqrt{d_k}$**; dividing by $\sqrt{d_k}$ is a
# choice of starting scale and learning rate for $W_q, W_k$, nothing more. (That is why the
# unscaled grid in part 2 is the scaled one over $\sqrt{d_k}$: at the same $k$ the two versions
# differ only in their start, $d_k^{1/4}$ times larger unscaled.)
#
# **Adam** (Kingma and Ba, 2015) is the optimiser most Transformers are trained with: it
# divides a running average $m$ of each weight's gradient by the root of a running average $v$ of
# its square (plus a small $\epsilon$), so a step's size depends little on the gradient's. Under
# Adam the same holds with $\eta\, d_k^{-1/4}$ and $\epsilon\, d_k^{1/4}$ for $W_q, W_k$: the
# gradients of $U$ are $1/a$ times those of $W$, so $m$ and $\sqrt{v}$ are too, and with
# $\epsilon/a$ in place of $\epsilon$ the ratio $m/(\sqrt{v} + \epsilon)$ is the same number for
# both; a rate $\eta a$ then moves $U = aW$ exactly $a$ times as far as $\eta$ moves $W$. Check
# both, on the layer of part 2 (gradient descent) and on one that also learns $W_v$ and $W_o$
# and outputs the retrieved key (Adam):

# %%
for name, (scaled, unscaled) in result.exact.items():
    # each: loss curves, shape (seeds, steps + 1)
    same = np.array_equal(scaled, unscaled)
    print(f"{name}: {len(scaled)} seeds, equal bit for bit: {same}")

# %% tags=["hide-input"]
exact_dk, full_dk = design.exact_d_k, exp.FULL.adam_d_k
a = exact_dk**-0.25
Markdown(
    f"""At $d_k = {exact_dk}$, $a = d_k^{{-1/4}} = {a:g}$ is a power of two, so
multiplying by it is exact in floating point and every rounding happens the same way in both
runs: the loss curves agree to the last bit, on every seed and every step. At other $d_k$ they
agree to rounding, and a chaotic run can amplify that.

**What breaks it.** Under Adam, the reparametrisation needs $W_q, W_k$ to get their own learning
rate and $\\epsilon$ while $W_v, W_o$ keep theirs. Conventions forbid that: one learning rate
for every weight, one $\\epsilon$, weight decay at one strength for every weight, and an
initialisation fixed by the framework rather than chosen per layer. Each of these makes "divide
by $\\sqrt{{d_k}}$" and "start smaller" different things. The full sweeps measure each one alone
(and the last, which is how the two layers usually differ: same start, same rate, same
$\\epsilon$) at $d_k = {full_dk}$, both versions tuned on the same grid of the shared
rate. They take minutes, so `make claims` runs them and records them in the log; the table below
reads the log, not this build."""
)

# %% tags=["hide-input"]
Markdown(exp.conventions_markdown(log.entries("attention_scaling")))

# %% [markdown]
# **Where this leads: μP.** If the division is a choice of starting scale and per-layer learning
# rate, the question is how to choose all of them together. That is what the maximal update
# parametrisation, μP, does (Yang and Hu, *Tensor Programs IV*, 2021; Yang et al., *Tensor
# Programs V*, 2022): it prescribes how each layer's initialisation, multiplier and learning rate
# scale with width, so that every layer keeps learning as the model grows and the best
# hyperparameters found on a narrow model carry over to a wide one. Tensor Programs IV notes the
# freedom this page measured, in its own terms (powers of the width) and for networks trained by
# SGD: a layer's multiplier can be traded for its initialisation's scale and its learning rate
# without changing training. For attention, when $d_k$ grows with the width, μP scales the scores
# by $1/d_k$, not $1/\sqrt{d_k}$. Its argument is about training, not initialisation: once
# training has made $q$ and $k$ correlated, $q \cdot k$ grows like $d_k$ (a law of large numbers)
# rather than like $\sqrt{d_k}$ (the central limit theorem of footnote 4, which holds for
# independent $q$ and $k$). At initialisation $1/d_k$ makes the weights nearly uniform, and the μP
# authors suggest starting $W_q$ at zero anyway. So μP does not say the division is wrong; it says
# the factor belongs to a whole scheme of scales, of which this page has tested one piece.
#
# ## The claims, together
#
# The site runs this notebook while it builds, and the build fails if a claim fails.

# %% tags=["hide-input"]
jitter, last_bit = pl.experiments.claims.JITTER, np.finfo(float).eps
exponent = round(np.log10(jitter))
Markdown(
    f"""The tests run the same experiment twice more with every starting value multiplied by
$1 + 10^{{{exponent}}}\\,z$, $z \\sim N(0, 1)$: a change about {jitter / last_bit:,.0f} times
float64's last bit ({last_bit:.1e}), far larger than the rounding of one product,
and made once, where another CPU's rounding differs at every step. A claim that holds only for
these exact last bits would fail there. `make claims` also reruns it under every BLAS kernel
this CPU can execute. Every claim must hold each time.

{exp.claims_markdown(claims)}"""
)

# %%
assert all(claim.holds for claim in claims)

# %% [markdown]
# ## How the design was fixed
#
# The design above is the last of several. Every one tried is in the experiment log, which
# ships with `paperlens` (`paperlens.experiments.log`), with the seeds it ran on, what it found
# and why it was kept or dropped; exploration used its own seeds, and the confirmation runs
# (this page's, and the full sweeps') used seeds no earlier entry had. `log.audit` checks that.

# %%
entries = log.entries("attention_scaling")
assert log.audit(entries) == []

# %% tags=["hide-input"]
count = {kind: sum(e["purpose"] == kind for e in entries) for kind in log.PURPOSES}
dropped = sorted({e["design"] for e in entries if e["status"] == "abandoned"})
Markdown(
    f"""The log holds {len(entries)} entries: {count["exploration"]} exploration runs, among them
{len(dropped)} designs tried and dropped ({", ".join(f"`{d}`" for d in dropped)}), and
{count["confirmation"]} confirmation runs of `{design.name}`.

<details><summary>The experiment log</summary>

{exp.log_markdown(entries)}
</details>"""
)

# %% tags=["hide-input"]
small_dk, large_dk = design.small_d_k, design.large_d_k
Markdown(
    f"""## What this shows, and what it does not

**Shows.** With unit-variance $q$ and $k$, unscaled scores have standard deviation
$\\sqrt{{d_k}}$, and the softmax over {n_k} keys is nearer one-hot than uniform from
$d_k \\approx {weights_at:.0f}$ on; the typical draw passes back less gradient to its scores
than the scaled one only from $d_k \\approx {jacobian_at:.0f}$ on, and far less at large
$d_k$. Trained with the MSE on its weights, a single attention layer learns as well without the
scale at $d_k = {small_dk}$ and far worse at $d_k = {large_dk}$; with the
cross-entropy the unscaled layer ends *lower*. And the division is a reparametrisation: under
gradient descent, and under Adam with per-layer settings, the scaled layer *is* an unscaled one
started smaller, bit for bit.

**Does not show.** That the scale matters in a Transformer: a one-layer model on a toy task,
{setup.steps} full-batch steps, is not one, and the loss here reaches the scores more directly
than in a deep model. Nor that additive attention outperforms unscaled dot-product attention,
the paper's own evidence, which this page does not repeat. What it shows is narrower: the size
of the scores when training starts, and the learning rate of $W_q, W_k$, are what the division
sets; whether that matters depends on the loss and on conventions that tie those settings to
the rest of the model."""
)
