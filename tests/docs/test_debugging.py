"""The runs "Debug before you reproduce" shows are the ones its figures draw."""

import numpy as np
import pytest

from sitekit import examples, render
from sitekit.paths import ROOT

PAGE = ROOT / "docs" / "reproduce" / "debugging.md"
FIGURES = ROOT / "figures" / "reproduce" / "debugging"


@pytest.fixture(scope="module")
def page():
    return examples.page_namespace(PAGE)


@pytest.fixture(scope="module")
def helper():
    return render.load(FIGURES / "overfit.py").runs.__wrapped__.__globals__


def test_the_figures_train_the_page_s_network_on_the_page_s_data(page, helper):
    assert np.array_equal(page["X"], helper["X"]) and np.array_equal(page["y"], helper["y"])
    assert all(np.array_equal(a, b) for a, b in zip(page["net"], helper["NET"], strict=True))


@pytest.mark.parametrize("bug", [False, True])
def test_the_figures_backward_pass_is_the_page_s_copy(page, helper, bug):
    grad = page["grad"]
    ours = helper["backward"](page["net"], page["cache"], grad, bug=bug)
    theirs = page["backward"](page["net"], page["cache"], grad, bug=bug)
    assert all(np.array_equal(a, b) for a, b in zip(ours, theirs, strict=True))


def test_the_figures_draw_the_page_s_runs(page, helper):
    runs, checks = helper["runs"](), helper["checks"]()
    for name, curve in runs.items():
        np.testing.assert_array_equal(curve, page[name], err_msg=name)
    for name, errors in checks.items():
        assert errors == page[name], name
