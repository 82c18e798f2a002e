"""Every built page is valid HTML: the Nu Html Checker (npm ``vnu-jar``) finds no error in it.

The checker needs Java (Debian: ``apt-get install default-jre-headless``). Without it this test
skips and says so, unless PAPERLENS_REQUIRE_HTML_CHECK=1 (CI sets it): then it fails. Errors are
fixed where they come from (the theme's templates in ``sitekit.theme``, the notebook HTML in
``sitekit.notebooks``), never by telling the checker to ignore a rule.
"""

import collections
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sitekit.paths import ROOT

VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
REQUIRED = os.environ.get("PAPERLENS_REQUIRE_HTML_CHECK") == "1"


def checker_missing() -> str | None:
    if shutil.which("java") is None:
        return "no `java` on PATH: apt-get install default-jre-headless"
    if not VNU.is_file():
        return f"no {VNU.relative_to(ROOT)}: run `make env` (npm ci)"
    return None


def test_every_page_is_valid_html(site):
    missing = checker_missing()
    if missing:
        if REQUIRED:
            pytest.fail(f"PAPERLENS_REQUIRE_HTML_CHECK=1 but {missing}", pytrace=False)
        pytest.skip(f"Nu Html Checker cannot run: {missing}")
    pages = sorted(site.rglob("*.html"))
    assert pages
    result = subprocess.run(
        ["java", "-jar", str(VNU), "--errors-only", "--format", "json", *map(str, pages)],
        capture_output=True,
        text=True,
    )
    # The report goes to stderr; the exit code is 1 when there are errors.
    messages = json.loads(result.stderr)["messages"]
    errors = [m for m in messages if m["type"] in ("error", "non-document-error")]
    by_message = collections.defaultdict(list)
    for m in errors:
        page = Path(m.get("url", "").removeprefix("file:")).relative_to(site).as_posix()
        by_message[m.get("message", m["type"])].append(f"{page}:{m.get('lastLine', '?')}")
    report = "\n".join(
        f"{len(where)} × {message}\n    {', '.join(where[:5])}"
        for message, where in sorted(by_message.items(), key=lambda kv: -len(kv[1]))
    )
    assert not errors, f"{len(errors)} HTML errors in {len(pages)} pages:\n{report}"
    assert result.returncode == 0, result.stdout + result.stderr
