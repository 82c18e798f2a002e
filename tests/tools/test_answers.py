"""Answer boxes: the expected answer in the HTML is the value the page's own code computed."""

import json
import re
from html import unescape

import pytest

from sitekit import PageError, answers, notebooks
from sitekit.paths import ROOT

SELF_TEST = ROOT / "docs" / "foundations" / "self-test.md"

PAGE = """# Q

<!-- invisible-code-block: python
answers = {}
-->

??? question "1. What is 2 + 2?"
    Four.

    ```python
    >>> answers["1"] = 2 + 2
    >>> answers["1"]
    4
    ```

<!-- answer-box: 1 | a number | [§1](one.md#sums) -->

??? question "2. Up or down?"
    Down.

    ```python
    answers["2"] = "down"
    ```

<!-- answer-choice: 2 | up, down | [§2](two.md) -->
"""


def expected(markdown):
    found = re.findall(r'data-kind="(\w+)" data-expected="([^"]*)"', markdown)
    return [(kind, json.loads(unescape(value))) for kind, value in found]


def test_the_page_code_runs_as_the_tests_run_it_and_fills_the_forms(tmp_path):
    page = tmp_path / "q.md"
    page.write_text(PAGE)
    values = answers.compute(page)
    assert values == {"1": 4, "2": "down"}
    html = answers.expand(PAGE, values, page="q.md")
    assert expected(html) == [("numbers", [4]), ("choice", "down")]
    assert '<label for="answer-1">Your answer to question 1' in html
    assert 'aria-live="polite"' in html and "[§1](one.md#sums)" in html
    assert "<legend>Your answer to question 2</legend>" in html
    assert 'value="up"' in html and 'value="down"' in html
    assert "answer-box:" not in html


def test_a_failing_block_stops_the_build_naming_the_page(tmp_path):
    page = tmp_path / "q.md"
    page.write_text(PAGE.replace("    4\n", "    5\n"))
    with pytest.raises(PageError, match="q.md, line"):
        answers.compute(page)


def test_a_missing_or_impossible_answer_stops_the_build(tmp_path):
    with pytest.raises(PageError, match=r"no answers\['2'\]"):
        answers.expand(PAGE, {"1": 4}, page="q.md")
    with pytest.raises(PageError, match="not one of the options"):
        answers.expand(PAGE, {"1": 4, "2": "sideways"}, page="q.md")
    with pytest.raises(PageError, match="finite"):
        answers.expand(PAGE, {"1": float("nan"), "2": "up"}, page="q.md")


def test_numbers_are_flattened_and_only_fractions_get_a_tolerance():
    assert answers.numbers(((16, 7), (5, 7))) == [16, 7, 5, 7]
    exact = answers.expected_attributes("box", (8, 64), [])
    assert exact["data-expected"] == "[8, 64]" and exact["data-tolerance"] == "0"
    loose = answers.expected_attributes("box", [[0.25, -0.25]], [])
    assert loose["data-expected"] == "[0.25, -0.25]"
    assert float(loose["data-tolerance"]) == answers.TOLERANCE


def test_the_self_test_asks_for_every_numeric_answer_its_cards_compute():
    markdown = SELF_TEST.read_text()
    values = answers.compute(SELF_TEST)
    keys = [m.group("key") for m in answers.directives(markdown)]
    assert keys == list(values), "each computed answer has its box, in page order"
    found = dict(
        zip(keys, expected(answers.expand(markdown, values, page="self-test")), strict=True)
    )
    assert found["2"] == ("numbers", [8, 64])
    assert found["6"] == ("numbers", [12])
    assert found["8"] == ("numbers", [5])
    assert found["10"] == ("numbers", [0.25, -0.25, -0.25, 0.25])
    assert found["11"] == ("choice", "shrinks")
    assert found["12"][1] == pytest.approx([2.4])
    assert found["14"] == ("numbers", [256, 16])


def test_in_the_notebook_a_computed_answer_stays_after_its_question():
    notebook = notebooks.page_to_notebook(
        PAGE, page="q.md", figures={}, site_url="https://example.org/"
    )
    cells = [(c["cell_type"], c["source"]) for c in notebook["cells"]]
    question = next(i for i, (_, s) in enumerate(cells) if "**1. What is 2 + 2?**" in s)
    kind, source = cells[question]
    assert "<details><summary>Answer</summary>" in source and "Four." in source
    assert source.count("<details>") == source.count("</details>")  # none spans a cell
    assert cells[question + 1] == ("code", 'answers["1"] = 2 + 2\nanswers["1"]')
    assert "answer-box" not in "".join(s for _, s in cells)


def test_a_directive_inside_a_code_fence_is_an_example_and_stays():
    example = "```markdown\n<!-- answer-box: 1 | a number | [§1](one.md) -->\n```\n"
    assert not answers.has_boxes(example)
    assert answers.expand(example + PAGE, {"1": 4, "2": "up"}, page="q.md").startswith(example)
