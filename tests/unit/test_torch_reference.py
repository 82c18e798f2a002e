"""paperlens.attention against torch.nn.functional.scaled_dot_product_attention.

Outputs are compared directly, gradients through torch's autograd. Batch dims that broadcast are
expanded explicitly before torch sees them (``Tensor.expand``), so autograd sums the gradients
back to each input's shape, as attention_backward must.

Fully masked query rows: torch 2.13 (CPU, math and flash backends, float32 and float64, bool and
-inf masks) gives a zero output row and zero gradients there, as paperlens does, so those rows
are compared like any other. (Older torch versions gave NaN.)

Without torch these tests skip, unless PAPERLENS_REQUIRE_TORCH=1: then each of them fails.
"""

import os

import numpy as np
import pytest

from paperlens import attention, attention_backward, causal_mask

REQUIRE_TORCH = os.environ.get("PAPERLENS_REQUIRE_TORCH") == "1"
try:
    import torch
    from torch.nn.functional import scaled_dot_product_attention
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


TOLERANCE = {np.float32: {"rtol": 2e-5, "atol": 2e-5}, np.float64: {"rtol": 1e-10, "atol": 1e-12}}


def torch_attention(Q, K, V, G, mask=None, scale=None):
    """Output and (dQ, dK, dV) from torch, for L = sum(G * output)."""
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    leaves = [torch.from_numpy(x).requires_grad_() for x in (Q, K, V)]
    expanded = [x.expand(*batch, *x.shape[-2:]) for x in leaves]
    attn_mask = None if mask is None else torch.from_numpy(np.asarray(mask))
    output = scaled_dot_product_attention(*expanded, attn_mask=attn_mask, scale=scale)
    (output * torch.from_numpy(G)).sum().backward()
    return output.detach().numpy(), [x.grad.numpy() for x in leaves]


def random_case(seed, dtype, mask_kind):
    rng = np.random.default_rng(seed)
    n_q, n_k, d_k, d_v = (int(n) for n in rng.integers(1, 9, size=4))
    batch = tuple(int(n) for n in rng.integers(1, 4, size=rng.integers(0, 3)))
    # each input drops or keeps each batch dim, so broadcasting gets exercised
    own = [tuple(n if rng.random() < 0.7 else 1 for n in batch) for _ in range(3)]
    Q = rng.normal(size=(*own[0], n_q, d_k)).astype(dtype)
    K = rng.normal(size=(*own[1], n_k, d_k)).astype(dtype)
    V = rng.normal(size=(*own[2], n_k, d_v)).astype(dtype)
    allowed = rng.random((*batch, n_q, n_k)) < 0.7
    allowed[..., 0, :] = False  # the first query sees no key at all
    if mask_kind == "none":
        mask = None
    elif mask_kind == "bool":
        mask = allowed
    elif mask_kind == "-inf":
        mask = np.where(allowed, 0.0, -np.inf).astype(dtype)
    else:  # "bias": finite additive bias over (n_q, n_k), broadcast over the batch
        mask = rng.normal(size=(n_q, n_k)).astype(dtype)
    scale = [None, 1.0, 0.3][seed % 3]
    G = rng.normal(size=(*batch, n_q, d_v)).astype(dtype)
    return Q, K, V, G, mask, scale


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mask_kind", ["none", "bool", "-inf", "bias"])
def test_output_and_gradients_match_torch(seed, dtype, mask_kind):
    Q, K, V, G, mask, scale = random_case(seed, dtype, mask_kind)
    expected_output, expected_grads = torch_attention(Q, K, V, G, mask=mask, scale=scale)
    output, _ = attention(Q, K, V, mask=mask, scale=scale)
    grads = attention_backward(Q, K, V, G, mask=mask, scale=scale)
    assert output.dtype == dtype
    np.testing.assert_allclose(output, expected_output, **TOLERANCE[dtype])
    for name, grad, expected in zip("QKV", grads, expected_grads, strict=True):
        assert grad.shape == expected.shape
        assert grad.dtype == dtype
        np.testing.assert_allclose(grad, expected, **TOLERANCE[dtype], err_msg=f"d{name}")


@pytest.mark.parametrize("mask_kind", ["bool", "-inf"])
def test_fully_masked_rows_are_zero_in_torch_too(mask_kind):
    Q, K, V, G, mask, scale = random_case(3, np.float64, mask_kind)
    expected_output, expected_grads = torch_attention(Q, K, V, G, mask=mask, scale=scale)
    np.testing.assert_array_equal(expected_output[..., 0, :], 0.0)
    np.testing.assert_array_equal(attention(Q, K, V, mask=mask).output[..., 0, :], 0.0)


def test_multihead_attention_with_its_weights_gives_nan_there():
    # Why attention's docstring names scaled_dot_product_attention, not "PyTorch": torch's
    # module, asked for its weights, gives NaN on a fully masked row, weights and output.
    torch.manual_seed(0)
    x = torch.randn(1, 3, 4)
    blocked = torch.zeros(3, 3, dtype=torch.bool)
    blocked[1] = True  # True = may not attend: query 1 may attend to no key
    module = torch.nn.MultiheadAttention(4, 1, batch_first=True)
    with torch.no_grad():
        output, weights = module(x, x, x, attn_mask=blocked, need_weights=True)
    assert torch.isnan(weights[0, 1]).all() and torch.isnan(output[0, 1]).all()
    assert torch.isfinite(weights[0, [0, 2]]).all()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_causal_mask_matches_is_causal_for_square_scores(dtype):
    rng = np.random.default_rng(42)
    Q, K, V = (rng.normal(size=(2, 6, 4)).astype(dtype) for _ in range(3))
    with torch.no_grad():
        expected = scaled_dot_product_attention(
            *(torch.from_numpy(x) for x in (Q, K, V)), is_causal=True
        ).numpy()
    output = attention(Q, K, V, mask=causal_mask(6)).output
    np.testing.assert_allclose(output, expected, **TOLERANCE[dtype])
