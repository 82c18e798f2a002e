"""Sybil runs every code block of every page (docs/) and every docstring example (src/).

The pages' Sybil is the build's (`sitekit.examples`), so the tests and ``make site`` run the
same examples the same way.
"""

from sybil import Sybil
from sybil.parsers.rest import DocTestParser

from sitekit import examples

pages = examples.page_sybil()
docstrings = Sybil(
    parsers=[DocTestParser(optionflags=examples.FLAGS)],
    patterns=["src/*/*.py", "src/*/*/*.py"],
    setup=examples.setup,
    teardown=examples.teardown,
    name="docstrings",
)

pytest_collect_file = (pages + docstrings).pytest()
