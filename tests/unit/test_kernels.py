"""Tests for paperlens._kernels, and for the rule it exists for.

The rule: no module imports another module's underscore names. Shared computation without
checks lives in ``paperlens._kernels``, shared checks in ``paperlens._checks``; importing those
private modules, or public names from them, is how modules share.
"""

import ast
import importlib.util
from pathlib import Path

import numpy as np

import paperlens
from paperlens import _kernels, linear_backward

SRC = Path(paperlens.__file__).parent


def _underscore_imports() -> set[tuple[str, str, str]]:
    found = set()
    for path in sorted(SRC.rglob("*.py")):
        package = ".".join(("paperlens", *path.relative_to(SRC).parent.parts))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            module = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            if not module.startswith("paperlens"):
                continue
            where = SRC.joinpath(*module.split(".")[1:])  # a package's folder, if it is one
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                a_module = (where / f"{alias.name}.py").is_file() or (where / alias.name).is_dir()
                if private and not a_module:  # `from paperlens import _kernels` is fine
                    found.add((path.relative_to(SRC).as_posix(), module, alias.name))
    return found


def test_no_module_imports_another_modules_underscore_names():
    found = _underscore_imports()
    assert not found, f"import these from paperlens._kernels or paperlens._checks: {found}"


def test_sum_to_shape_sums_what_broadcasting_added_or_stretched():
    g = np.arange(24.0).reshape(2, 3, 4)
    np.testing.assert_array_equal(_kernels.sum_to_shape(g, (3, 1)), g.sum(axis=(0, 2))[:, None])
    np.testing.assert_array_equal(_kernels.sum_to_shape(g, (4,)), g.sum(axis=(0, 1)))
    assert _kernels.sum_to_shape(g, g.shape) is g  # nothing was broadcast: no copy


def test_linear_adds_b_in_place_only_where_that_gives_the_same_array():
    x32, W32 = np.ones((4, 3), np.float32), np.ones((3, 2), np.float32)
    assert _kernels.linear(x32, W32, np.ones(2)).dtype == np.float64  # b widens the dtype
    assert _kernels.linear(x32, W32, np.ones(2, np.float32)).dtype == np.float32
    wide = _kernels.linear(np.ones((4, 3)), np.ones((3, 2)), np.arange(10.0).reshape(5, 1, 2))
    assert wide.shape == (5, 4, 2)  # b's batch dims broadcast x W up
    np.testing.assert_array_equal(wide[:, 0], 3 + np.arange(10.0).reshape(5, 2))


def test_linear_backward_db_is_never_the_callers_grad_output():
    # b of the output's own shape: db = G, but as a new array, or editing one would edit both.
    x, W, G = np.ones((4, 3)), np.ones((3, 2)), np.ones((4, 2))
    dx, dW, db = linear_backward(x, W, G, np.zeros((4, 2)))
    np.testing.assert_array_equal(db, G)
    assert not np.shares_memory(db, G)


def test_the_public_functions_are_their_checks_then_their_kernels():
    rng = np.random.default_rng(0)
    x, W, b = rng.normal(size=(2, 5, 3)), rng.normal(size=(3, 4)), rng.normal(size=(4,))
    G = rng.normal(size=(2, 5, 4))
    np.testing.assert_array_equal(paperlens.linear(x, W, b), _kernels.linear(x, W, b))
    public = paperlens.linear_backward(x, W, G, b)
    for got, want in zip(public, _kernels.linear_backward(x, W, G, b.shape), strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(paperlens.relu(x), _kernels.relu(x))
    np.testing.assert_array_equal(
        paperlens.relu_backward(x, 2 * x), _kernels.relu_backward(x, 2 * x)
    )
    s = paperlens.softmax(x)
    np.testing.assert_array_equal(s, _kernels.softmax_(x.copy()))
    np.testing.assert_array_equal(paperlens.softmax_backward(s, x), _kernels.softmax_backward(s, x))
    Q, K, V = rng.normal(size=(2, 5, 3)), rng.normal(size=(6, 3)), rng.normal(size=(2, 6, 4))
    output, P = _kernels.attention(Q, K, V, 0.5, None)
    for got, want in zip(paperlens.attention(Q, K, V, scale=0.5), (output, P), strict=True):
        np.testing.assert_array_equal(got, want)
    G = rng.normal(size=output.shape)
    public = paperlens.attention_backward(Q, K, V, G, scale=0.5)
    for got, want in zip(public, _kernels.attention_backward(Q, K, V, P, G, 0.5), strict=True):
        np.testing.assert_array_equal(got, want)


def may_overflow(Q, K):
    return _kernels.may_overflow(_kernels.score_bound(Q, K), np.result_type(Q, K))


def test_may_overflow_rules_out_an_overflow_only_where_cauchy_schwarz_does():
    Q = np.full((2, 4), 8e18, np.float32)  # |q| = 1.6e19
    assert not may_overflow(Q, Q / 2)  # |q| |k| = 1.28e38, under half of 3.4e38
    assert may_overflow(Q, Q)  # 2.56e38
    assert not may_overflow(Q.astype(np.float64), Q)  # float64 holds 1e308
    assert may_overflow(Q * 2, Q / 1e10)  # |q|^2 = 1e39 overflows float32: "may"
    rng = np.random.default_rng(1)
    for size in 10.0 ** np.arange(15, 21, 0.25):  # around float32's edge, 3.4e38 = (1.8e19)^2
        Q, K = (size * rng.standard_normal((64, 16), dtype=np.float32) / 4 for _ in range(2))
        with np.errstate(over="ignore", invalid="ignore"):
            finite = np.isfinite(Q @ K.T).all()
        assert finite or may_overflow(Q, K), size  # never "cannot" where it did


def test_exp_safe_is_a_quarter_of_the_log_of_the_largest_float_as_its_docstring_says():
    assert round(_kernels.exp_safe(np.dtype(np.float32)), 1) == 22.2
    assert round(_kernels.exp_safe(np.dtype(np.float64))) == 177
    if np.finfo(np.longdouble).nmant == 63:  # x86's 80-bit long double
        assert round(_kernels.exp_safe(np.dtype(np.longdouble))) == 2839
    for dtype in (np.float32, np.float64, np.longdouble):
        info, top = np.finfo(dtype), _kernels.exp_safe(np.dtype(dtype))
        with np.errstate(all="raise"):  # exp at ±exp_safe: normal floats, no overflow
            big, small = np.exp(dtype(top)), np.exp(dtype(-top))
            assert np.isfinite(big * dtype(2.0**40)) and small >= info.smallest_normal


def _shifts(monkeypatch):
    """The ``shift`` of every call `_kernels.attention` makes to `_kernels.softmax_`."""
    calls = []
    softmax_ = _kernels.softmax_

    def spy(scores, **kwargs):
        calls.append(kwargs.get("shift", True))
        return softmax_(scores, **kwargs)

    monkeypatch.setattr(_kernels, "softmax_", spy)
    return calls


def test_attention_skips_the_shift_only_below_exp_safe_and_with_no_mask_but_a_bool_one(
    monkeypatch,
):
    calls = _shifts(monkeypatch)
    for dtype in (np.float32, np.float64):
        top = _kernels.exp_safe(np.dtype(dtype))
        # One query along the first of two unit keys: the bound |q| |k| is the query's length.
        K = np.array([[1.0, 0.0], [0.0, 1.0]], dtype)
        for size, shift in ((0.99 * top, False), (1.01 * top, True)):
            q = np.array([[size, 0.0]], dtype)
            for mask, masked_shift in (
                (None, shift),
                ([[True, False]], shift),
                ([[0.0, 0.0]], True),
            ):
                calls.clear()
                P = paperlens.attention(q, K, K, scale=1.0, mask=mask).weights
                assert calls == [masked_shift], (dtype, size, mask)
                assert np.isfinite(P).all() and np.isclose(P.sum(), 1)
    # The bound is taken on the scaled queries: a scale moves scores across it either way.
    for dtype in (np.float32, np.float64):
        top = _kernels.exp_safe(np.dtype(dtype))
        K = np.array([[1.0, 0.0], [0.0, 1.0]], dtype)
        for size, scale, shift in ((2 * top, 0.45, False), (0.5 * top, 3.0, True)):
            calls.clear()
            q = np.array([[size, 0.0]], dtype)
            assert np.isfinite(paperlens.attention(q, K, K, scale=scale).weights).all()
            assert calls == [shift], (dtype, size, scale)
    calls.clear()
    q, eye = np.eye(1, 2, dtype=np.float32), np.eye(2, dtype=np.float32)
    w = paperlens.attention(q, eye, eye, scale=100.0).weights  # scores 100 and 0, in float32
    assert calls == [True] and w[0, 0] == 1 and w[0, 1] < 1e-43  # e^-100, subnormal
    # Above the bound the shift is needed: exp(88.9) is inf in float32, and inf / inf is NaN.
    q = np.array([[88.9, 0.0]], np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        assert np.isnan(_kernels.softmax_(q @ np.eye(2, dtype=np.float32), shift=False)).any()
    eye = np.eye(2, dtype=np.float32)
    w = paperlens.attention(q, eye, eye, scale=1.0).weights[0]  # 1 and e^-88.9
    assert w[0] == 1 and 0 <= w[1] < 1e-38
    # long double: its exp_safe is computed in the dtype (2839 on x86), neither infinite nor
    # float64's 177
    K = np.array([[1.0, 0.0], [0.0, 1.0]], np.longdouble)
    wide = _kernels.exp_safe(np.dtype(np.longdouble)) > 300  # x86's, or IEEE quad
    for size, shift in ((300.0, not wide), (20000.0, True)):
        calls.clear()
        w = paperlens.attention(np.array([[size, 0.0]], np.longdouble), K, K, scale=1.0).weights
        assert calls == [shift] and w[0, 0] == 1 and w[0, 1] < 1e-130, size


def test_the_unshifted_softmax_is_within_a_few_eps_of_exact_below_exp_safe():
    """On the same float32 scores spread up to exp_safe, against a long-double softmax of them:
    there the shift's rounding of s - max costs the shifted softmax more, so the unshifted one
    is no worse (on small scores the two differ by fractions of an eps either way)."""
    rng = np.random.default_rng(0)
    top = _kernels.exp_safe(np.dtype(np.float32))
    eps = np.finfo(np.float32).eps
    S = (rng.uniform(-0.99, 0.99, (50, 300)) * top).astype(np.float32)
    S[:10, 0] = 0.99 * top  # rows with one dominant score
    S[10:20] = S[10:20, :1]  # rows of equal scores
    exact = np.exp(S.astype(np.longdouble))
    exact /= exact.sum(axis=-1, keepdims=True)
    error = {}
    for shift in (True, False):
        P = _kernels.softmax_(S.copy(), shift=shift)
        error[shift] = float(np.max(np.abs(P / exact - 1))) / eps  # in units of eps
        assert np.allclose(P.sum(axis=-1), 1, rtol=2 * eps, atol=0)
    assert error[False] <= error[True] and error[False] < 4, error
    # and where no row is near the bound's edge, the two agree closely
    small = S / np.float32(top)  # scores in (-1, 1)
    np.testing.assert_allclose(
        _kernels.softmax_(small.copy(), shift=False), _kernels.softmax_(small.copy()), rtol=8 * eps
    )
