"""The reproduce pages' claims, checked on the same functions with smaller configurations.

Thresholds follow the pages: separations of more than 4 standard errors, worst-seed-beats-
best-seed comparisons, and seed-for-seed comparisons that hold for every seed.
"""

import numpy as np

from paperlens.experiments import attention_scaling as att
from paperlens.experiments import residual_depth as res


def mean_se(x):
    return x.mean(), x.std(ddof=1) / np.sqrt(x.size)


def test_unscaled_softmax_saturates_at_large_d_k_and_scaled_does_not():
    stats = att.scaling_at_init([1, 64, 1024], n_k=16, trials=300, rng=np.random.default_rng(1))
    (mu, su), (ms, ss) = (
        mean_se(stats.max_weight_unscaled[-1]),
        mean_se(stats.max_weight_scaled[-1]),
    )
    assert mu - ms > 4 * np.hypot(su, ss) and mu > 0.9
    (gu, sgu), (gs, sgs) = (
        mean_se(stats.grad_norm_unscaled[-1]),
        mean_se(stats.grad_norm_scaled[-1]),
    )
    assert gs - gu > 4 * np.hypot(sgu, sgs)
    (m64, s64) = mean_se(stats.max_weight_scaled[1])
    assert abs(ms - m64) < 4 * np.hypot(ss, s64)
    # at d_k = 1 the scale is 1: both arms see the same scores
    np.testing.assert_array_equal(stats.max_weight_unscaled[0], stats.max_weight_scaled[0])


def test_scaled_attention_trains_and_unscaled_stalls():
    common = dict(d_k=256, seeds=range(3), steps=100, n=32)
    scaled = att.train_matching(scaled=True, lrs=[100.0], **common).loss[0, :, -1]
    unscaled = att.train_matching(scaled=False, lrs=[0.3], **common).loss[0, :, -1]
    small = att.train_matching(scaled=False, lrs=[10.0], init_scale=256**-0.25, **common)
    assert scaled.max() < unscaled.min()
    assert small.loss[0, :, -1].max() < unscaled.min()


def test_same_seed_same_task_and_start_in_every_arm():
    a = att.train_matching(d_k=16, scaled=True, lrs=[1.0], seeds=[7], steps=0).loss
    b = att.train_matching(d_k=16, scaled=True, lrs=[1.0, 2.0], seeds=[7], steps=0).loss
    np.testing.assert_array_equal(a[0], b[1])


def test_best_lr_treats_diverged_runs_as_worst():
    loss = np.array([[[1.0, np.nan]], [[1.0, 0.5]]])
    assert att.best_lr_index(loss) == 1


def test_residual_gradients_are_even_across_layers_and_plain_ones_are_not():
    X, y = res.regression_task(128, 8, rng=np.random.default_rng(1234))
    spread = {}
    for residual in (False, True):
        g = res.gradient_norms_at_init(X, y, depth=32, width=32, residual=residual, seeds=range(5))
        spread[residual] = g.max(axis=1) / g.min(axis=1)
    assert spread[True].max() < spread[False].min()


def test_deep_plain_net_trains_worse_than_shallow_and_residual_does_better():
    X, y = res.regression_task(256, 8, rng=np.random.default_rng(1234))
    common = dict(width=16, seeds=range(5), steps=300, lr=0.002)
    plain = res.train_depths(X, y, depths=[8, 32], residual=False, **common)[..., -1]
    residual = res.train_depths(X, y, depths=[32], residual=True, **common)[..., -1]
    assert (plain[1] > plain[0]).all()
    assert (residual[0] < plain[1]).all()
