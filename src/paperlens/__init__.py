"""paperlens: the numerical core of the papers the site teaches, in plain NumPy.

- ResNet's residual block, ``H(x) = F(x) + x``: `residual`.
- Attention's ``softmax(Q K^T / sqrt(d_k)) V``: `attention`, its hand-derived backward
  `attention_backward`, `causal_mask`, and the softmax beneath it.
- Why ``sqrt(d_k)``: `sample_scores` and the variance helpers.
- `numerical_gradient` checks every backward by finite differences.
- For the experiments that reproduce the papers' claims (:mod:`paperlens.experiments`): a
  `linear` layer, `relu`, `mse_loss`, a plain or residual `mlp`, the
  `adam_step` optimiser, each with its hand-derived backward; `show` gives a
  notebook figure its alt text.
"""

from paperlens.adam import AdamState, adam_init, adam_step
from paperlens.attention import (
    AttentionGradients,
    AttentionResult,
    attention,
    attention_backward,
    causal_mask,
)
from paperlens.chunked_attention import chunked_attention
from paperlens.gradients import numerical_gradient
from paperlens.linear import LinearGradients, linear, linear_backward
from paperlens.losses import mse_loss, mse_loss_backward
from paperlens.memory import peak_memory
from paperlens.mlp import MLPCache, MLPParams, init_mlp, mlp, mlp_backward, stack_params
from paperlens.relu import relu, relu_backward
from paperlens.residual import residual
from paperlens.show import FigureWithAlt, show
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
    "AdamState",
    "AttentionGradients",
    "AttentionResult",
    "FigureWithAlt",
    "LinearGradients",
    "MLPCache",
    "MLPParams",
    "adam_init",
    "adam_step",
    "attention",
    "attention_backward",
    "causal_mask",
    "chunked_attention",
    "init_mlp",
    "linear",
    "linear_backward",
    "mlp",
    "mlp_backward",
    "mse_loss",
    "mse_loss_backward",
    "numerical_gradient",
    "peak_memory",
    "relu",
    "relu_backward",
    "residual",
    "show",
    "stack_params",
    "sample_scores",
    "sample_variance_stderr",
    "score_fourth_moment",
    "score_variance",
    "softmax",
    "softmax_backward",
    "softmax_gradient_norm",
    "softmax_jacobian",
]
