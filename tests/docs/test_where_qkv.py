"""The toy sentence of "Where Q, K and V come from" is the one its figure draws."""

import numpy as np

from sitekit import examples, render
from sitekit.paths import ROOT

PAGE = ROOT / "docs" / "walkthrough" / "where-qkv-come-from.md"
FIGURE = ROOT / "figures" / "walkthrough" / "where-qkv-come-from" / "weights.py"


def test_the_figure_draws_the_page_s_example():
    page = examples.page_namespace(PAGE)
    figure = render.load(FIGURE)
    assert figure.TOKENS == page["tokens"]
    for name in ("X", "W_Q", "W_K", "W_V"):
        assert np.array_equal(getattr(figure, name), page[name]), name


def test_step_1_uses_the_page_s_queries_and_keys():
    """Step 1's reason for two vectors per word uses the toy sentence's Q and K, copied."""
    page = examples.page_namespace(PAGE)
    step_1 = examples.page_namespace(PAGE.with_name("step-1-query-and-key.md"))
    assert np.array_equal(step_1["Q_sentence"], page["Q"])
    assert np.array_equal(step_1["K_sentence"], page["K"])
