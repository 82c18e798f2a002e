"""The build's environment and the repository root are defined once, in ``sitekit.paths``."""

import re
import subprocess
import sys

from sitekit import paths
from sitekit.paths import BUILD_ENV, OVERRIDABLE, ROOT


def makefile_exports() -> dict[str, tuple[str, str]]:
    """``{name: (operator, value)}`` of every ``export NAME OP VALUE`` line of the Makefile."""
    pattern = re.compile(r"^export (\w+) *(\?=|:=|=) *(.*?) *$", re.M)
    text = (ROOT / "Makefile").read_text()
    return {m[1]: (m[2], m[3]) for m in pattern.finditer(text)}


def test_the_makefile_exports_the_build_env():
    exports = makefile_exports()
    assert {name: value for name, (_, value) in exports.items()} == dict(BUILD_ENV)
    for name, (operator, _) in exports.items():
        assert (operator == "?=") == (name in OVERRIDABLE), f"{name}: {operator}"


def test_build_env_keeps_a_callers_source_date_epoch_and_sets_the_rest():
    env = paths.build_env({"SOURCE_DATE_EPOCH": "42", "PYTHONHASHSEED": "random", "HOME": "/h"})
    assert env == {**BUILD_ENV, "SOURCE_DATE_EPOCH": "42", "HOME": "/h"}
    assert paths.build_env({})["SOURCE_DATE_EPOCH"] == BUILD_ENV["SOURCE_DATE_EPOCH"]


def test_root_is_the_checkout():
    assert (ROOT / "pyproject.toml").is_file() and (ROOT / "tools" / "sitekit").is_dir()


def test_nothing_puts_tools_on_sys_path_by_hand():
    """sitekit is installed (tools/pyproject.toml, ``make env``); a fresh interpreter outside
    the checkout imports it, and no file of the project edits sys.path or PYTHONPATH for it."""
    probe = "import sitekit.paths; print(sitekit.paths.ROOT)"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd="/", capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == str(ROOT)
    files = subprocess.run(
        ["git", "ls-files", "*.py", "*.md", "Makefile", "*.toml", "*.yml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    hacks = re.compile(r"sys\.path\.(insert|append)\(.*tools|PYTHONPATH" r"=tools")
    offenders = [f for f in files if hacks.search((ROOT / f).read_text(errors="replace"))]
    assert not offenders
