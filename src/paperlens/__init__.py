"""paperlens: the numerical core of the papers the site teaches, in plain NumPy.

- ResNet's residual block, ``H(x) = F(x) + x``: :func:`residual`.
- Attention's ``softmax(Q K^T / sqrt(d_k)) V``: :func:`attention`, its hand-derived backward
  :func:`attention_backward`, :func:`causal_mask`, and the softmax beneath it.
- Why ``sqrt(d_k)``: :func:`sample_scores` and the variance helpers.
- :func:`numerical_gradient` checks every backward by finite differences.
"""

from paperlens.attention import (
    AttentionGradients,
    AttentionResult,
    attention,
    attention_backward,
    causal_mask,
)
from paperlens.gradients import numerical_gradient
from paperlens.residual import residual
from paperlens.softmax import (
    softmax,
    softmax_backward,
    softmax_gradient_norm,
    softmax_jacobian,
)
from paperlens.variance import (
    sample_scores,
    sample_variance_stderr,
    score_fourth_moment,
    score_variance,
)

__all__ = [
    "AttentionGradients",
    "AttentionResult",
    "attention",
    "attention_backward",
    "causal_mask",
    "numerical_gradient",
    "residual",
    "sample_scores",
    "sample_variance_stderr",
    "score_fourth_moment",
    "score_variance",
    "softmax",
    "softmax_backward",
    "softmax_gradient_norm",
    "softmax_jacobian",
]
