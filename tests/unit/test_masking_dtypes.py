"""What Step 7 of the walkthrough says about masks in low precision, checked against PyTorch.

The page (docs/walkthrough/step-7-corner-cases.md) checks the NumPy side of each sentence itself;
these tests check the sentences about PyTorch, in the dtype each sentence names: the Annotated
Transformer's ``masked_fill(mask == 0, -1e9)`` raises on a float16 tensor, holds in bfloat16,
``torch.finfo(dtype).min`` is a safe fill value, a fully -inf row gives NaN even in a softmax
that subtracts the maximum, and adding -1e9 to a float32 row makes its scores equal. The
foundations page on variance says PyTorch's ``nn.Linear`` starts from a uniform distribution;
that is checked here too.

Without torch these tests skip, unless PAPERLENS_REQUIRE_TORCH=1: then each of them fails.
"""

import math
import os

import numpy as np
import pytest

import paperlens as pl

REQUIRE_TORCH = os.environ.get("PAPERLENS_REQUIRE_TORCH") == "1"
try:
    import torch
except ImportError:
    if not REQUIRE_TORCH:
        pytest.skip(
            "PyTorch is not installed (make WITH_TORCH=1 installs it); "
            "set PAPERLENS_REQUIRE_TORCH=1 to make this a failure",
            allow_module_level=True,
        )
    torch = None


@pytest.fixture(autouse=True)
def _torch_is_there():
    if torch is None:
        pytest.fail("PAPERLENS_REQUIRE_TORCH=1 but torch cannot be imported: install torch==2.13.0")


ROW = [2.0, 0.5, -1.0, 1.0]  # the page's row of scores


def test_masked_fill_minus_1e9_overflows_float16_with_an_error():
    scores = torch.tensor(ROW, dtype=torch.float16)
    mask = torch.tensor([1, 1, 0, 0])
    message = "value cannot be converted to type c10::Half without overflow"
    with pytest.raises(RuntimeError, match=message):
        scores.masked_fill(mask == 0, -1e9)


def test_bfloat16_holds_minus_1e9_and_a_fully_masked_row_is_uniform():
    scores = torch.tensor(ROW, dtype=torch.bfloat16)
    filled = scores.masked_fill(torch.ones(4, dtype=torch.bool), -1e9)
    assert torch.isfinite(filled).all()
    assert filled[0].item() == -998244352.0  # -9.98e8, the nearest bfloat16
    torch.testing.assert_close(filled.float().softmax(-1), torch.full((4,), 0.25))


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float32"])
def test_finfo_min_is_a_safe_fill_value(name):
    dtype = getattr(torch, name)  # looked up here, so that collection works without torch
    scores = torch.tensor(ROW, dtype=dtype)
    keep = torch.tensor([True, True, False, False])
    low = torch.finfo(dtype).min
    partial = scores.masked_fill(~keep, low).float().softmax(-1)
    full = scores.masked_fill(torch.ones(4, dtype=torch.bool), low).float().softmax(-1)
    assert torch.isfinite(partial).all() and (partial[2:] == 0).all()
    torch.testing.assert_close(partial[:2], torch.tensor(ROW[:2]).softmax(-1))
    torch.testing.assert_close(full, torch.full((4,), 0.25))


def test_an_all_minus_inf_row_is_nan_in_torch_softmax():
    # softmax subtracts the row maximum, and -inf - (-inf) is NaN
    assert torch.isnan(torch.full((4,), -math.inf).softmax(-1)).all()
    assert math.isnan(-math.inf - (-math.inf))


def test_a_fully_masked_row_is_zero_in_sdpa_and_nan_in_multihead_attention():
    """The page: paperlens gives a fully masked row zeros, as scaled_dot_product_attention
    does; nn.MultiheadAttention gives NaN when it returns its weights, and in some settings of
    its fast inference path (here: eval mode, no gradients, two heads, batch_first, one tensor
    as query, key and value) when it does not."""
    torch.manual_seed(0)
    q, k, v = torch.randn(1, 1, 2, 8), torch.randn(1, 1, 4, 8), torch.randn(1, 1, 4, 3)
    may_attend = torch.ones(1, 1, 2, 4, dtype=torch.bool)
    may_attend[..., 0, :] = False  # the first query may attend to no key
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=may_attend)
    assert (out[0, 0, 0] == 0).all() and torch.isfinite(out[0, 0, 1]).all()
    mha = torch.nn.MultiheadAttention(8, 1, batch_first=True)
    x = torch.randn(1, 4, 8)
    padded = torch.ones(1, 4, dtype=torch.bool)  # every key is padding
    out, weights = mha(x, x, x, key_padding_mask=padded, need_weights=True)
    assert torch.isnan(weights).all() and torch.isnan(out).all()
    heads = torch.nn.MultiheadAttention(8, 2, batch_first=True).eval()
    with torch.no_grad():
        out, weights = heads(x, x, x, key_padding_mask=padded, need_weights=False)
    assert weights is None and torch.isnan(out).all()


def test_adding_minus_1e9_in_float32_makes_every_score_equal():
    shifted = torch.tensor(ROW, dtype=torch.float32) - 1e9
    assert (shifted == -1e9).all()
    torch.testing.assert_close(shifted.softmax(-1), torch.full((4,), 0.25))
    np.testing.assert_allclose(pl.softmax(shifted.numpy()), 0.25)  # paperlens agrees


def test_nn_linear_starts_uniform_not_normal():
    """Kaiming-uniform with a = √5: U(-1/√fan_in, 1/√fan_in), variance 1/(3 fan_in)."""
    torch.manual_seed(0)
    fan_in = 256
    weight = torch.nn.Linear(fan_in, 64).weight.detach().double().numpy().ravel()
    bound = 1 / math.sqrt(fan_in)
    assert np.abs(weight).max() <= bound  # bounded: a normal draw would pass it
    assert np.abs(weight).max() > 0.999 * bound  # and it fills the interval
    # a uniform draw puts half its values in the middle half of the interval; a normal of the
    # same variance would put 61% there
    middle = np.mean(np.abs(weight) < bound / 2)
    assert abs(middle - 0.5) < 4 * math.sqrt(0.25 / weight.size)
    se = pl.sample_variance_stderr(weight)
    assert abs(np.var(weight, ddof=1) - 1 / (3 * fan_in)) < 4 * se
