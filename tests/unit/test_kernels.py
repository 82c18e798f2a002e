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
    for dtype in (np.float32, np.float64):
        info, top = np.finfo(dtype), _kernels.exp_safe(np.dtype(dtype))
        with np.errstate(all="raise"):  # exp at ±exp_safe: normal floats, no overflow
            big, small = np.exp(dtype(top)), np.exp(dtype(-top))
            assert np.isfinite(big * dtype(2.0**40)) and small >= info.smallest_normal


def test_attention_skips_the_shift_only_where_no_exp_can_overflow_and_stays_accurate():
    """Without the shift by the row maximum (every score under exp_safe in size) the weights
    are as accurate as with it, in relative terms down to the smallest; above the bound, the
    shift is made, or exp(89) would be inf in float32 and the weights NaN."""
    rng = np.random.default_rng(0)
    for dtype, eps in ((np.float32, 2.0**-23), (np.float64, 2.0**-52)):
        top = _kernels.exp_safe(np.dtype(dtype))
        for size in (0.99 * top, 4 * top):  # under the bound: no shift; over it: shift
            # One query along the first key, of length size: scores from -size to size.
            K = rng.standard_normal((300, 8))
            K /= np.linalg.norm(K, axis=1, keepdims=True)  # unit keys
            q = np.zeros((1, 8))
            q[0] = K[0] * size
            mask = np.ones((1, 300), bool)
            mask[0, 1::7] = False
            Q, K_ = q.astype(dtype), K.astype(dtype)
            for m in (None, mask):
                P = paperlens.attention(Q, K_, K_, scale=1.0, mask=m).weights
                s = (Q.astype(np.longdouble) @ K_.astype(np.longdouble).T)[0]
                if m is not None:
                    s[~mask[0]] = -np.inf
                want = np.exp(s - s.max())
                want /= want.sum()
                # relative error where the weight is a normal float (under the bound, all are;
                # over it, the shifted exp rightly underflows to 0 below e^-87 in float32)
                tiny = np.finfo(dtype).smallest_normal
                kept = want >= tiny
                assert np.all(np.abs(P[0][~kept] - want[~kept]) <= tiny)
                assert kept.sum() == (300 if m is None else mask.sum()) or size > top
                # a few roundings of exp's argument (up to 4 size) and of the sum
                error = np.abs(P[0][kept] / want[kept] - 1).max()
                assert error < 8 * (1 + size) * eps, (dtype, size, error)
    # A row all masked keeps zero weights without the shift, too.
    rows = [[True] * 3, [False] * 3]
    P = paperlens.attention(np.ones((2, 2)), np.ones((3, 2)), np.ones((3, 1)), mask=rows).weights
    assert P[1].tolist() == [0.0, 0.0, 0.0] and np.isclose(P[0].sum(), 1)
