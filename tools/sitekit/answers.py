"""Answer boxes: a question the reader answers in the page, checked against a value the build
computed, with no Python in the browser and no request.

A page asks for an answer with a directive in an HTML comment, on a line of its own::

    <!-- answer-box: 2 | a shape, such as (3, 4) | [§ Matrices](matrices.md#shape) -->
    <!-- answer-choice: 10 | grows, shrinks | [§](gradients.md#saturation) -->

``answer-box`` takes numbers (a number, a vector, a shape, several of them), and the text
after the key is the hint its label gives; ``answer-choice`` offers the options listed. The
link names the section that teaches the answer; the verdict links there.

The expected value is ``answers[key]``, set by the page's own code (inside the question's
recall card). The build runs the page's examples with the tests' Sybil (`sitekit.examples`)
and takes ``answers`` from that run, so the value in the HTML is the value the tests checked:
they cannot drift.
:func:`expand` turns each directive into a form whose ``data-expected`` holds that value as
JSON; ``docs/assets/self-test.js`` reads it and says right or wrong.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import numpy as np

from sitekit import PageError, examples, page_model

DIRECTIVE = re.compile(
    r"^[ \t]*<!--\s*answer-(?P<kind>box|choice):\s*(?P<key>[\w.-]+)\s*\|\s*(?P<spec>[^|]*?)\s*"
    r"\|\s*(?P<link>\[[^\]]+\]\([^)\s]+\))\s*-->[ \t]*$",
    re.MULTILINE,
)
# Answers with a fractional part are accepted to two decimal places; whole numbers exactly.
TOLERANCE = 0.005


def directives(markdown: str) -> list[re.Match[str]]:
    """The directives of a page, in order; one inside a fenced code block is an example."""
    found, offset = [], 0
    lines = markdown.splitlines(keepends=True)
    for line, code in zip(lines, page_model.in_fences(lines), strict=True):
        d = None if code else DIRECTIVE.match(markdown, offset, offset + len(line.rstrip("\n")))
        found += [d] if d else []
        offset += len(line)
    return found


def has_boxes(markdown: str) -> bool:
    return bool(directives(markdown))


def fill_boxes(markdown: str, page: Any, outcome: examples.Outcome | None) -> str:
    """A page of the build with its answer boxes expanded from the ``answers`` its examples
    computed (`expand`).

    Raises:
        PageError: the page has boxes but its code defines no ``answers`` dictionary.
    """
    if not has_boxes(markdown):
        return markdown
    where = f"docs/{page.file.src_uri}"
    if outcome is None:  # the examples were not run (the plugin's `run_examples: false`)
        return expand(markdown, {}, page=where, missing_ok=True)
    if not isinstance(outcome.answers, dict):
        raise PageError(f"{where}: the page's code defines no `answers` dictionary")
    return expand(markdown, outcome.answers, page=where, missing_ok=not outcome.ok)


def compute(path: Path) -> dict[str, Any]:
    """The ``answers`` dictionary the page's examples fill, run as the tests run them (the
    build takes it from its own run of the page, `sitekit.examples`, instead)."""
    outcome = examples.run_page(str(path))
    if outcome.failures:
        first = outcome.failures[0]
        raise PageError(f"{path}, line {first.line}: {first.error}")
    if not isinstance(outcome.answers, dict):
        raise PageError(f"{path}: the page's code defines no `answers` dictionary")
    return outcome.answers


def numbers(value: Any) -> list[float]:
    """A number, a shape or an array of any nesting, flattened to a list of floats."""
    flat = np.asarray(value, dtype=np.float64).ravel()
    if flat.size == 0 or not np.isfinite(flat).all():
        raise PageError(f"not a finite number or list of numbers: {value!r}")
    return [float(x) for x in flat]


def _number_json(x: float) -> str:
    return str(int(x)) if x.is_integer() else repr(x)


def expected_attributes(kind: str, value: Any, options: list[str]) -> dict[str, str]:
    if kind == "choice":
        if value not in options:
            raise PageError(f"answer {value!r} is not one of the options {options}")
        return {"data-kind": "choice", "data-expected": json.dumps(value)}
    flat = numbers(value)
    exact = all(x.is_integer() for x in flat)
    return {
        "data-kind": "numbers",
        "data-expected": "[" + ", ".join(_number_json(x) for x in flat) + "]",
        "data-count": str(len(flat)),
        "data-tolerance": "0" if exact else str(TOLERANCE),
    }


def _attrs(attributes: dict[str, str]) -> str:
    return " ".join(f'{k}="{html.escape(v)}"' for k, v in attributes.items())


def _form(m: re.Match[str], value: Any) -> str:
    kind, key, spec, link = m.group("kind", "key", "spec", "link")
    ident = "answer-" + re.sub(r"[^\w-]", "-", key)
    options = [o.strip() for o in spec.split(",")] if kind == "choice" else []
    attributes = {"class": "answer-box", **expected_attributes(kind, value, options)}
    verdict = (
        f'<p class="answer-box__verdict" id="{ident}-verdict" role="status" aria-live="polite"'
        ' markdown="span"><span class="answer-box__message"></span>'
        f' <span class="answer-box__teach" hidden>Taught in {link}.</span></p>'
    )
    button = '<button type="submit" class="md-button">Check</button>'
    if kind == "choice":
        radios = "\n".join(
            f'<label class="answer-box__option"><input type="radio" name="{ident}"'
            f' value="{html.escape(o)}"> {html.escape(o)}</label>'
            for o in options
        )
        row = (
            f'<fieldset class="answer-box__row" aria-describedby="{ident}-verdict" markdown="0">\n'
            f"<legend>Your answer to question {html.escape(key)}</legend>\n"
            f"{radios}\n{button}\n</fieldset>"
        )
    else:
        hint = f' <span class="answer-box__hint">({html.escape(spec)})</span>' if spec else ""
        precision = ", to two decimal places" if attributes["data-tolerance"] != "0" else ""
        row = (
            '<div class="answer-box__row" markdown="0">\n'
            f'<label for="{ident}">Your answer to question {html.escape(key)}{hint}'
            f"{precision}</label>\n"
            f'<input id="{ident}" type="text" inputmode="text" autocomplete="off"'
            f' spellcheck="false" aria-describedby="{ident}-verdict">\n'
            f"{button}\n</div>"
        )
    return f'<form {_attrs(attributes)} hidden markdown="block">\n{row}\n{verdict}\n</form>'


def expand(markdown: str, answers: dict[str, Any], *, page: str, missing_ok: bool = False) -> str:
    """Replace each directive of ``markdown`` by its form, with the expected answer filled in.

    With ``missing_ok`` (a page whose examples failed, previewed by ``make serve``), a question
    whose answer the failed code never set is left out instead of stopping the build.
    """

    def replace(m: re.Match[str]) -> str:
        key = m.group("key")
        if key not in answers and missing_ok:
            return ""
        if key not in answers:
            raise PageError(f"{page}: no answers[{key!r}] is set by the page's code")
        try:
            return "\n" + _form(m, answers[key]) + "\n"
        except PageError as err:
            raise PageError(f"{page}, question {key}: {err}") from None

    out, end = [], 0
    for m in directives(markdown):
        out += [markdown[end : m.start()], replace(m)]
        end = m.end()
    return "".join(out) + markdown[end:]
