"""Sybil runs every code block of every page (docs/) and every docstring example (src/)."""

from doctest import ELLIPSIS, NORMALIZE_WHITESPACE
from typing import Any

import numpy as np
from sybil import Sybil
from sybil.parsers.markdown import ClearNamespaceParser, SkipParser
from sybil.parsers.rest import DocTestParser

from sitekit.sybil_parsers import PythonBlockParser

FLAGS = ELLIPSIS | NORMALIZE_WHITESPACE


def _setup(namespace: dict[str, Any]) -> None:
    # NumPy 2 prints scalars as np.float64(0.5); pages show them the way readers see them.
    namespace["__printoptions"] = np.get_printoptions()
    np.set_printoptions(legacy="1.25")


def _teardown(namespace: dict[str, Any]) -> None:
    np.set_printoptions(**namespace["__printoptions"])


pages = Sybil(
    parsers=[PythonBlockParser(doctest_optionflags=FLAGS), SkipParser(), ClearNamespaceParser()],
    patterns=["docs/*.md", "docs/**/*.md"],
    setup=_setup,
    teardown=_teardown,
    name="pages",
)
docstrings = Sybil(
    parsers=[DocTestParser(optionflags=FLAGS)],
    patterns=["src/*/*.py", "src/*/*/*.py"],
    setup=_setup,
    teardown=_teardown,
    name="docstrings",
)

pytest_collect_file = (pages + docstrings).pytest()
