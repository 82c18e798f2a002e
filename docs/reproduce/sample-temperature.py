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
# # Sample notebook: softmax temperature
#
# A minimal executed notebook. It is written as a percent-format Python file, run while the
# site is built (a failing cell fails the build) and offered for download as a notebook.
#
# Dividing scores by a temperature $T$ before softmax sharpens the weights when $T < 1$ and
# flattens them when $T > 1$:
#
# $$\operatorname{softmax}(s / T)_j = \frac{e^{s_j / T}}{\sum_l e^{s_l / T}}$$

# %%
import numpy as np
from IPython.display import Markdown
from matplotlib.figure import Figure

import paperlens as pl

scores = np.array([2.0, 1.0, 0.0])
temperatures = np.array([0.25, 1.0, 4.0])
weights = pl.softmax(scores / temperatures[:, None])  # (T, keys)
largest = weights.max(axis=-1)  # (T,)
assert largest[0] > largest[1] > largest[2] > 1 / len(scores)
weights.round(3)

# %% [markdown]
# A cell that only writes prose from the results, or only draws a figure, carries the cell tag
# `hide-input` (its first line is `# %% tags=["hide-input"]`). The site shows its output
# alone; the downloaded notebook keeps its code. The next two cells are such cells.

# %% tags=["hide-input"]
Markdown(
    f"The largest weight falls as $T$ grows: {largest[0]:.3f} at $T = {temperatures[0]:g}$, "
    f"{largest[1]:.3f} at $T = {temperatures[1]:g}$ and {largest[2]:.3f} at "
    f"$T = {temperatures[2]:g}$, on its way to the uniform $1/{len(scores)}$."
)

# %% tags=["hide-input"]
fig = Figure(figsize=(6, 2.6), layout="constrained")
ax = fig.subplots()
for key, colour in zip(range(len(scores)), ("#0072B2", "#D55E00", "#009E73"), strict=True):
    ax.plot(temperatures, weights[:, key], marker="o", color=colour, label=f"score {scores[key]:g}")

ax.set_xscale("log", base=2)
ax.set_xlabel("temperature $T$")
ax.set_ylabel("weight")
ax.legend(frameon=False)
pl.show(
    fig,
    f"The softmax weight of each of the scores {', '.join(f'{s:g}' for s in scores)} against the "
    f"temperature from {temperatures[0]:g} to {temperatures[-1]:g} on a log axis: the largest "
    f"score's weight falls from {largest[0]:.2f} to {largest[-1]:.2f} and the others rise "
    f"toward 1/{len(scores)}.",
)
