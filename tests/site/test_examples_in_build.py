"""The build runs every page's examples, as the tests do: a false claim cannot be published.

Each test builds a scratch copy of the pages (``scratch_config`` in tests/conftest.py) with
one page edited; the caches are the session's, so only the edited page's examples run again.
"""

import subprocess
import sys
from pathlib import Path

from sitekit import examples, paths
from sitekit.paths import ROOT

PAGE = "foundations/softmax.md"
PLANTED = '\n```python\nassert 1 + 1 == 3, "planted false claim"\n```\n'


def plant(docs: Path, page: str = PAGE) -> int:
    """Append a false claim to a page; return the line its example starts on."""
    path = docs / page
    text = path.read_text(encoding="utf-8").rstrip("\n") + "\n"
    path.write_text(text + PLANTED, encoding="utf-8")
    return text.count("\n") + 2  # the blank line, then the fence


def build(config: Path, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [paths.engine(), "build", "--strict", "-f", str(config), "-d", str(out)],
        cwd=ROOT,
        env=paths.build_env(),
        capture_output=True,
        text=True,
    )


def test_a_false_claim_fails_the_strict_build_naming_the_page_and_the_line(
    scratch_config, tmp_path
):
    config = scratch_config
    line = plant(tmp_path / "docs")
    result = build(config, tmp_path / "site")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output[-3000:]
    assert f"docs/{PAGE}, line {line}: AssertionError: planted false claim" in output
    # The traceback names the page's own line, as pytest's does.
    assert f'File "docs/{PAGE}", line {line + 1}' in output
    assert not (tmp_path / "site" / "foundations" / "softmax" / "index.html").exists()


def test_the_footer_counts_the_examples_sybil_collects(pages):
    """Every page's footer line, against what Sybil collects for the page (what
    ``pytest --collect-only`` counts); pages without examples have no line."""
    checked = 0
    for source in sorted((ROOT / "docs").rglob("*.md")):
        name = paths.page_url(source.relative_to(ROOT / "docs").as_posix())
        page = pages[name]
        collected = examples.collected(source)
        found = page.footer_examples
        if collected == 0:
            assert found is None, f"{name} has no examples but its footer counts {found}"
            continue
        assert found == collected, f"{name}: footer says {found}, Sybil collects {collected}"
        assert f"{collected} example" in page.text
        checked += 1
    assert checked >= 25  # the walkthrough and foundations pages all have examples


def test_pytest_collects_what_the_footer_counts(pages):
    """The same count, the way the tests see it: ``pytest --collect-only`` on one page."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
        + [f"docs/{PAGE}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    items = [line for line in result.stdout.splitlines() if line.startswith(f"docs/{PAGE}::")]
    assert items, result.stdout + result.stderr
    assert pages[paths.page_url(PAGE)].footer_examples == len(items)


def test_notebook_pages_say_their_cells_ran(pages):
    page = pages["reproduce/attention-scaling/index.html"]
    assert page.footer_cells is not None and page.footer_cells > 0
    assert f"{page.footer_cells} code cells ran" in page.text
