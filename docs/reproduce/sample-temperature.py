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

import paperlens as pl

scores = np.array([2.0, 1.0, 0.0])
for T in (0.25, 1.0, 4.0):
    print(f"T = {T:>4}: weights {np.round(pl.softmax(scores / T), 3)}")

# %% [markdown]
# The largest weight falls as $T$ grows, toward the uniform $1/3$:

# %%
largest = [pl.softmax(scores / T).max() for T in (0.25, 1.0, 4.0)]
assert largest[0] > largest[1] > largest[2] > 1 / 3
largest
