"""The build's run of a page's examples (sitekit.examples) and what the page then says
(sitekit.example_report): the same Sybil as the tests, failures located, passes cached."""

import ast
import subprocess
import sys
import warnings
from pathlib import Path

import markdown
import numpy as np
import pytest

from sitekit import PageError, example_report, examples, page_model

PAGE = """---
title: T
---
# T

Some prose.

```python
>>> 1 + 1
2
```

??? note "How this page checks it"
    A check inside a block the reader opens.

    ```python
    assert 2 + 2 == 5, "planted false claim"
    ```

<!-- skip: next "shown, not run" -->
```python
raise RuntimeError("never run")
```

```python
>>> 2 * 3
7
```
"""


def line_of(text: str) -> int:
    """The 1-based line of ``PAGE`` that holds ``text``."""
    return next(n for n, line in enumerate(PAGE.split("\n"), 1) if text in line)


def write(folder: Path, text: str = PAGE) -> Path:
    docs = folder / "docs"
    docs.mkdir(exist_ok=True)
    page = docs / "t.md"
    page.write_text(text)
    return page


def test_a_page_runs_as_the_tests_run_it(tmp_path):
    page = write(tmp_path)
    outcome = examples.run_page(str(page), "docs/t.md")
    assert outcome.collected == examples.collected(page) == 5  # 3 blocks, the skip, 1 skipped
    assert outcome.passed == 2  # the first doctest and the skip directive
    assert [reason for _, reason in outcome.skipped] == ["shown, not run"]
    errors = [(f.line, f.error) for f in outcome.failures]
    fence = line_of("2 + 2 == 5") - 1
    assert errors == [
        (fence, "AssertionError: planted false claim"),
        (line_of(">>> 2 * 3"), "the output differs from what the page shows"),
    ]
    assert f'File "docs/t.md", line {fence + 1}' in outcome.failures[0].report
    assert "Expected:\n    7\nGot:\n    6" in outcome.failures[1].report
    assert f"docs/t.md, line {fence}: AssertionError" in outcome.describe()


def test_a_warning_fails_the_example_in_the_build_as_in_the_tests(tmp_path):
    """pytest's ``filterwarnings = ["error"]``, in the build's run too; caught on purpose
    (``np.errstate``), it passes in both."""
    page = write(
        tmp_path,
        "# W\n\n```python\nimport numpy as np\n\nnp.log(np.zeros(1))\n```\n\n"
        '```python\nwith np.errstate(divide="ignore"):\n    np.log(np.zeros(1))\n```\n',
    )
    with warnings.catch_warnings():  # as a build's worker has them, not as pytest does
        warnings.simplefilter("default")
        outcome = examples.run_page(str(page), "docs/t.md")
    assert [f.error for f in outcome.failures] == [
        "RuntimeWarning: divide by zero encountered in log"
    ]
    assert outcome.passed == 1


def test_each_failure_is_marked_after_its_block_at_its_indent(tmp_path):
    page = write(tmp_path)
    outcome = examples.run_page(str(page), "docs/t.md")
    body = PAGE.split("---\n", 2)[2].lstrip("\n")
    marked = example_report.mark(body, PAGE, outcome).split("\n")
    # The notice goes right under the title and links to both boxes.
    assert marked[0] == "# T"
    notice = "\n".join(marked[1:12])
    assert "2 of the 5 examples on this page failed" in notice
    assert "(#example-failure-1)" in notice and "(#example-failure-2)" in notice
    # The first box sits inside the admonition (indented like the block), after its fence.
    start = marked.index(
        '    !!! failure example-failure "This example failed when the page was built"'
    )
    assert marked[start - 2] == "    ```"  # the closing fence of the failing block, then a blank
    assert "        {: #example-failure-1 }" in marked[start:]
    # The second, at the top level after the last fence.
    second = [i for i, line in enumerate(marked) if line.startswith("!!! failure example-failure ")]
    assert len(second) == 1 and marked[second[0] - 2] == "```"
    # Rendered as the site renders it: the first box inside the reader's collapsed block.
    html = markdown.markdown(
        "\n".join(marked),
        extensions=["admonition", "attr_list", "pymdownx.details", "pymdownx.superfences"],
    )
    details = html[html.index("<details") : html.index("</details>")]
    assert 'class="admonition failure example-failure"' in details
    assert 'id="example-failure-1"' in details and "Traceback" in details
    assert 'id="example-failure-2"' in html[html.index("</details>") :]


def test_the_footer_is_computed_from_the_outcome(tmp_path):
    outcome = examples.run_page(str(write(tmp_path)), "docs/t.md")
    assert 'data-status="failed"' in example_report.footer(outcome)
    assert "2 of the 5 examples on this page failed" in example_report.footer(outcome)
    clean = PAGE.replace("2 + 2 == 5", "2 + 2 == 4").replace("\n7\n", "\n6\n")
    ok = examples.run_page(str(write(tmp_path, clean)), "docs/t.md")
    footer = example_report.footer(ok)
    assert "5 examples on this page were checked" in footer
    assert "4 ran and passed, and 1 was skipped" in footer
    assert example_report.footer(None) == ""
    assert "This notebook's 3 code cells ran" in example_report.footer(None, 3)


def test_passes_are_cached_and_failures_are_not(tmp_path):
    page = write(tmp_path, "# T\n\n```python\nassert True\n```\n")
    runner = examples.Runner(jobs=1, cache_dir=tmp_path / "cache")
    try:
        first = runner.run([page], tmp_path / "docs")
        assert runner.ran == 1 and first["docs/t.md"].ok
        runner.run([page], tmp_path / "docs")
        assert runner.ran == 0  # unchanged: a hash, no run
        page.write_text("# T\n\n```python\nassert False, 'now false'\n```\n")
        failed = runner.run([page], tmp_path / "docs")
        assert runner.ran == 1 and not failed["docs/t.md"].ok
        runner.run([page], tmp_path / "docs")
        assert runner.ran == 1  # a failure is run again, never served from the cache
    finally:
        runner.close()


def test_a_damaged_outcome_is_run_again(tmp_path, capfd):
    page = write(tmp_path, "# T\n\n```python\nassert True\n```\n")
    runner = examples.Runner(jobs=1, cache_dir=tmp_path / "cache")
    try:
        first = runner.run([page], tmp_path / "docs")
        (entry,) = (tmp_path / "cache").iterdir()
        entry.write_bytes(b"")  # emptied
        again = runner.run([page], tmp_path / "docs")
        assert runner.ran == 1 and again["docs/t.md"].passed == first["docs/t.md"].passed == 1
        assert "was damaged: dropped" in capfd.readouterr().err
    finally:
        runner.close()


def test_the_cache_key_covers_the_library_and_the_page_s_examples_not_its_prose(tmp_path):
    page = write(tmp_path)
    environment = examples.environment_key()
    key = examples.page_key(page, "docs/t.md", environment)
    assert examples.page_key(page, "docs/t.md", environment + "x") != key
    page.write_text(PAGE + "\nmore prose\n")  # after the examples: their lines stay
    assert examples.page_key(page, "docs/t.md", environment) == key
    changed = {
        "an example's code": PAGE.replace("2 + 2 == 5", "2 + 3 == 5"),
        "an example's output": PAGE.replace("\n7\n", "\n6\n"),
        "an example's line": PAGE.replace("Some prose.", "Some prose.\n\nMore prose."),
        "a skip's reason": PAGE.replace("shown, not run", "shown only"),
    }
    for what, text in changed.items():
        page.write_text(text)
        assert text != PAGE and examples.page_key(page, "docs/t.md", environment) != key, what


@pytest.mark.parametrize("page", sorted(Path(examples.ROOT, "docs").rglob("*.md")), ids=str)
def test_the_model_and_the_tests_see_the_same_examples(page):
    assert len(page_model.parse_file(page).examples) == examples.collected(page)


def test_pages_run_with_the_print_options_of_a_fresh_python():
    """What a page shows under ``>>>`` is what a reader's fresh ``python3`` prints: NumPy's own
    defaults (``np.float64(0.5)``), not a legacy style only the tests would have."""
    fresh = subprocess.run(
        [sys.executable, "-c", "import numpy; print(repr(numpy.get_printoptions()))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert examples.NUMPY_PRINT_DEFAULTS == ast.literal_eval(fresh)
    np.set_printoptions(legacy="1.25", precision=3)  # left behind by something else
    try:
        namespace: dict = {}
        examples.setup(namespace)
        assert repr(np.float64(0.68)) == "np.float64(0.68)"
        examples.teardown(namespace)
        assert np.get_printoptions()["legacy"] == "1.25" and repr(np.float64(0.5)) == "0.5"
    finally:
        np.set_printoptions(**examples.NUMPY_PRINT_DEFAULTS)


@pytest.mark.parametrize(
    ("failed", "collected", "said"),
    [
        (1, 1, "The one example on this page failed"),
        (1, 2, "1 of the 2 examples on this page failed"),
        (2, 2, "Both examples on this page failed"),
        (1, 3, "1 of the 3 examples on this page failed"),
        (2, 3, "2 of the 3 examples on this page failed"),
        (3, 3, "All 3 examples on this page failed"),
        (1, 0, "The examples on this page failed"),  # a worker died: nothing was collected
    ],
)
def test_the_notice_and_the_footer_count_in_english(failed, collected, said):
    failures = tuple(examples.Failure(i + 1, i, "AssertionError", "report") for i in range(failed))
    outcome = examples.Outcome("docs/t.md", collected, collected - failed, failures=failures)
    notice = "\n".join(example_report._notice(outcome))
    assert f'"{said} when it was built"' in notice
    if collected:
        assert f">{said} when it was built, with paperlens" in example_report.footer(outcome)


def test_the_terminal_report_counts_in_english():
    def failing(page: str, failed: int) -> examples.Outcome:
        failures = tuple(examples.Failure(1, 0, "AssertionError", "r") for _ in range(failed))
        return examples.Outcome(page, 3, 3 - failed, failures=failures)

    one = example_report.failures_report({"a": failing("docs/a.md", 1)})
    two = example_report.failures_report({"a": failing("a", 1), "b": failing("b", 2)})
    assert one is not None and one[0] == "1 example failed on 1 page"
    assert two is not None and two[0] == "3 examples failed on 2 pages"


def test_a_page_sybil_cannot_read_fails_with_sybil_s_message_and_is_not_cached(tmp_path):
    """``>>>x`` (no blank after the prompt) makes Sybil's parser raise: the build reports it as
    the page's failure, as it reports a false example, instead of stopping."""
    page = write(tmp_path, "# T\n\n```python\n>>>x = 1\n```\n")
    runner = examples.Runner(jobs=1, cache_dir=tmp_path / "cache")
    try:
        docs = tmp_path / "docs"
        good = [docs / "u.md", docs / "v.md"]
        for other in good:
            other.write_text("# U\n\n```python\n>>> 1 + 1\n2\n```\n")
        out = runner.run([page, *good], docs)  # one worker: the others run after it
        outcome = out["docs/t.md"]
        assert not outcome.ok and "lacks blank after >>>" in outcome.failures[0].error
        assert outcome.failures[0].line == 4 and str(docs) not in outcome.failures[0].error
        assert out["docs/u.md"].ok and out["docs/v.md"].ok  # the pool was not taken down
        cached = list((tmp_path / "cache").glob("*.pickle"))
        assert len(cached) == 2  # the two pages that passed
    finally:
        runner.close()


def test_every_step_that_reads_a_page_names_an_example_sybil_cannot_read(tmp_path):
    """The recall check, the notebooks and the deck read the page through its model: an
    unreadable example is the author's mistake there too, naming the page, and the failure
    notice still shows (`example_report.mark`)."""
    text = "# T\n\n```python\n>>>x = 1\n```\n"
    with pytest.raises(PageError, match=r"docs/t\.md: an example Sybil cannot read: .*>>>"):
        page_model.parse(text, "docs/t.md")
    failure = examples.Failure(1, 0, "the examples could not be run: ValueError()", "report")
    outcome = examples.Outcome("docs/t.md", 0, 0, failures=(failure,))
    marked = example_report.mark(text, text, outcome)
    assert "when it was built" in marked and "could not be run" in marked
    assert marked.endswith("```python\n>>>x = 1\n```\n")  # no box inside the example
    assert "#example-failure" not in marked  # and no link to a box that is not there


def test_an_edit_to_build_code_the_examples_do_not_run_runs_none_of_them(tmp_path, monkeypatch):
    """The key holds the sitekit modules that run the examples, not the rest of the build: a
    restart of `make serve` after an edit to the build code ran every page's examples again.
    A page whose examples import sitekit themselves depends on all of it."""
    from sitekit import cache

    runs_them = {p.name for p in cache.sitekit_sources([Path(examples.__file__)])}
    assert {"sybil_parsers.py", "cache.py"} <= runs_them
    assert not {"copy_code.py", "numbers.py", "plugin.py"} & runs_them
    plain = write(tmp_path)
    builds = tmp_path / "builds.md"
    builds.write_text("```python\nfrom sitekit import figstyle\n```\n")
    keys = [examples.page_key(p, p.name, "environment") for p in (plain, builds)]
    monkeypatch.setattr(examples, "BUILD_CODE", ("tools/sitekit/copy_code.py",))  # other bytes
    again = [examples.page_key(p, p.name, "environment") for p in (plain, builds)]
    assert again[0] == keys[0] and again[1] != keys[1]
