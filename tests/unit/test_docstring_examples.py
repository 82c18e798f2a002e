"""Each docstring example runs pasted into a fresh ``python3``, as the API page shows it: it
imports every name it uses. (Sybil runs the same examples in their module's namespace, where a
missing import goes unnoticed: three examples on the API page once raised NameError pasted.)"""

import doctest
import importlib
import pkgutil
import re

import pytest

import paperlens


def docstring_tests() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder()
    found = []
    for info in pkgutil.walk_packages(paperlens.__path__, "paperlens."):
        module = importlib.import_module(info.name)
        found += [t for t in finder.find(module, globs={}) if t.examples]
    return found


@pytest.mark.parametrize("test", docstring_tests(), ids=lambda t: t.name)
def test_a_docstring_example_runs_in_an_empty_namespace(test):
    test.globs = {}  # what a fresh interpreter has: nothing from the module
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    result = runner.run(test, out=report.append)
    assert result.failed == 0, "".join(report)


COMPOUND = re.compile(r">>> (for|while|def|class|if|with|try)\b")


@pytest.mark.parametrize("test", docstring_tests(), ids=lambda t: t.name)
def test_a_pasted_loop_or_def_ends_as_the_interactive_prompt_needs(test):
    """Pasted into python3, a loop or ``def`` runs only at an empty ``...`` line; without one
    the next line joins its body, and the 3.11 prompt raises SyntaxError (doctest does not)."""
    lines = [line.strip() for line in (test.docstring or "").split("\n")]
    unended = []
    for i, line in enumerate(lines):
        if COMPOUND.match(line):
            j = i + 1
            while j < len(lines) and lines[j].startswith("... "):
                j += 1
            if j == len(lines) or lines[j] != "...":
                unended.append(line)
    assert not unended, f"no empty '...' line after: {unended}"
