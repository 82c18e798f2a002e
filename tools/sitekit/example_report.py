"""What a page says about its own examples: the footer line that it was checked, and, under
``make serve``, each failing example marked in place with its error.

``make site`` never gets here with a failure (the build stops, naming the page and the line);
``make serve`` keeps serving, so the page itself must say that a claim on it is false.
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from sitekit import PageError, page_model
from sitekit.cache import versions
from sitekit.examples import Failure, Outcome

FAILURE_CLASS = "example-failure"
NOTICE_CLASS = "example-failures"
FOOTER_CLASS = "page-checked"


def failure_id(number: int) -> str:
    return f"example-failure-{number}"


def _fence(text: str) -> str:
    """A tilde fence longer than any run of tildes in ``text``."""
    longest = max((len(m) for m in re.findall(r"~+", text)), default=0)
    return "~" * max(3, longest + 1)


def _box(failures: list[tuple[int, Failure]], page: str, indent: str) -> list[str]:
    title = "This example failed when the page was built"
    if len(failures) > 1:
        title = f"{len(failures)} examples in this block failed when the page was built"
    out = ["", f'{indent}!!! failure {FAILURE_CLASS} "{title}"']
    for number, failure in failures:
        fence = _fence(failure.report)
        out += [
            "",
            f"{indent}    Line {failure.line} of <code>{html.escape(page)}</code>:"
            f" <code>{html.escape(failure.error)}</code>",
            f"{indent}    {{: #{failure_id(number)} }}",
            "",
            f"{indent}    {fence}text",
            *(f"{indent}    {line}" for line in failure.report.rstrip().splitlines()),
            f"{indent}    {fence}",
        ]
    return [*out, ""]


def count(n: int, noun: str, plural: str = "") -> str:
    """``1 example``, ``2 examples``: a number and its noun, in the number's grammar."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def failed_of(failed: int, collected: int) -> str:
    """How many of a page's examples failed, as a sentence's subject and verb: ``The one
    example on this page failed``, ``Both examples ...``, ``All 3 examples ...``, ``1 of the 3
    examples ...``."""
    if collected < failed:  # the page's examples could not be collected or run at all
        return "The examples on this page failed"
    if collected == 1:
        return "The one example on this page failed"
    if failed == collected:
        whole = "Both examples" if collected == 2 else f"All {collected} examples"
        return f"{whole} on this page failed"
    return f"{failed} of the {collected} examples on this page failed"


def _notice(outcome: Outcome, *, linked: bool = True) -> list[str]:
    """The notice at the top of the page; ``linked``: each failure links to its box."""
    title = f"{failed_of(len(outcome.failures), outcome.collected)} when it was built"
    out = ["", f'!!! failure {NOTICE_CLASS} "{title}"', ""]
    out.append("    A claim on this page does not hold. `make site` refuses to publish it.")
    out.append("")
    for number, failure in enumerate(outcome.failures, 1):
        said = f"Line {failure.line}: <code>{html.escape(failure.error)}</code>"
        out.append(f"    - [{said}](#{failure_id(number)})" if linked else f"    - {said}")
    return [*out, ""]


def mark(markdown: str, source: str, outcome: Outcome) -> str:
    """``markdown`` (the page after its front matter, as MkDocs hands it to the plugin) with a
    failure box after each block whose examples failed and a notice at the top linking to them.

    ``source`` is the page's whole file, as the examples were parsed from it.
    """
    if not outcome.failures:
        return markdown
    lines = markdown.split("\n")
    # MkDocs strips the front matter (and the blank lines after it) from the start of the file.
    front = source[: len(source) - len(markdown)].count("\n") if source.endswith(markdown) else 0
    at = 1 if lines and lines[0].startswith("# ") else 0  # under the page's title, else first
    try:
        model = page_model.parse(source, outcome.page)
    except PageError:  # Sybil cannot read the page: the notice alone, which says where and why
        return "\n".join(lines[:at] + _notice(outcome, linked=False) + lines[at:])
    after: dict[int, list[tuple[int, Failure]]] = defaultdict(list)  # body line -> failures
    indents: dict[int, str] = {}
    for number, failure in enumerate(outcome.failures, 1):
        block = model.block_at(failure.offset)
        last = (block.end_line if block is not None else failure.line) - front
        last = min(max(last, 1), len(lines))
        after[last].append((number, failure))
        indents[last] = block.indent if block is not None else ""
    out: list[str] = []
    for index, line in enumerate(lines, 1):
        out.append(line)
        if index in after:
            out += _box(after[index], outcome.page, indents[index])
    # The notice goes under the page's title when it opens the page, else first.
    at = 1 if out and out[0].startswith("# ") else 0
    return "\n".join(out[:at] + _notice(outcome) + out[at:])


def mark_failures(markdown: str, page: Any, outcome: Outcome | None) -> str:
    """`mark`, for a page of the build: its failing examples marked where they fail (under
    ``make serve``; ``make site`` has stopped already)."""
    if outcome is None or outcome.ok:
        return markdown
    source = Path(page.file.abs_src_path).read_text(encoding="utf-8")
    return mark(markdown, source, outcome)


def failures_report(outcomes: dict[str, Outcome]) -> tuple[str, str] | None:
    """A title and a report of every failing example, as the terminal shows them; None when
    every example passed."""
    failed = [o for o in outcomes.values() if not o.ok]
    if not failed:
        return None
    failures = sum(len(o.failures) for o in failed)
    title = f"{count(failures, 'example')} failed on {count(len(failed), 'page')}"
    return title, "\n\n".join(o.describe() for o in failed)


def _versions() -> str:
    found = versions()
    return f"paperlens {found.get('paperlens', '?')} and NumPy {found.get('numpy', '?')}"


def footer(outcome: Outcome | None, notebook_cells: int | None = None) -> str:
    """The page's line saying its examples ran: computed from the run, never typed.

    A Markdown page counts the examples Sybil collects for it (what ``pytest --collect-only``
    counts); a notebook page counts its code cells, which mkdocs-jupyter ran with errors
    disallowed. A page without either says nothing.
    """
    if notebook_cells:
        cells = "code cell" if notebook_cells == 1 else f"{notebook_cells} code cells"
        text = (
            f"This notebook's {cells} ran, top to bottom, when the page was built, "
            f"with {_versions()}."
        )
        return f'\n<p class="{FOOTER_CLASS}" data-cells="{notebook_cells}">{text}</p>\n'
    if outcome is None or not outcome.collected:
        return ""
    n = outcome.collected
    examples = count(n, "example")
    if outcome.failures:
        text = f"{failed_of(len(outcome.failures), n)} when it was built, with {_versions()}."
    elif outcome.skipped:
        skipped = len(outcome.skipped)
        text = (
            f"{examples} on this page {'was' if n == 1 else 'were'} checked when it was built, "
            f"with {_versions()}: {outcome.passed} ran and passed, and {skipped} "
            f"{'was' if skipped == 1 else 'were'} skipped on purpose, its reason written in the "
            "page's source."
        )
    else:
        text = f"{examples} on this page ran and passed when it was built, with {_versions()}."
    status = "failed" if outcome.failures else "passed"
    return f'\n<p class="{FOOTER_CLASS}" data-examples="{n}" data-status="{status}">{text}</p>\n'
