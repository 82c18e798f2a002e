"""The build fails closed: a site built without the paperlens plugin is never taken for a
checked one (`sitekit.proof`, run by `make site` after the build)."""

import subprocess
import sys
from pathlib import Path

from sitekit import paths
from sitekit.paths import ROOT


def without_plugin(config: Path) -> Path:
    """The configuration with the `- paperlens:` entry (and its options) removed, as a config
    edited by mistake, or an engine that ignores plugins it does not know, would build it."""
    lines = config.read_text(encoding="utf-8").splitlines()
    start = lines.index("  - paperlens:")
    end = start + 1
    while end < len(lines) and lines[end].startswith("      "):
        end += 1
    text = "\n".join(lines[:start] + lines[end:]) + "\n"
    # Not the point here, and a minute each: the experiment notebooks are converted unexecuted.
    assert "      execute: true\n" in text
    out = config.with_name("mkdocs-without-plugin.yml")
    out.write_text(text.replace("      execute: true\n", "      execute: false\n"), "utf-8")
    return out


def test_make_site_fails_without_the_plugin(scratch_config, tmp_path, make_site):
    config = without_plugin(scratch_config)
    returncode, output = make_site(f"CONFIG={config}", f"SITE_DIR={tmp_path / 'site'}")
    assert returncode != 0, output[-4000:]
    # For the plugin's absence (the strict build misses the figures it generates, or the check
    # after the build the proofs), not for another reason.
    why = ("in strict mode", "proofs of the paperlens plugin's checks")
    assert any(reason in output for reason in why), output[-4000:]


def test_a_site_built_without_the_plugin_is_refused_even_when_the_engine_passes(
    scratch_config, tmp_path
):
    """An engine that neither runs the plugin nor checks links (a non-strict build here) passes;
    the check after it names the pages that carry no proof."""
    config = without_plugin(scratch_config)
    site = tmp_path / "site"
    build = subprocess.run(
        [paths.engine(), "build", "-f", str(config), "-d", str(site)],
        cwd=ROOT,
        env=paths.build_env(),
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    check = subprocess.run(
        [sys.executable, "-m", "sitekit.proof", str(site), str(config)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 1
    assert "foundations/softmax/index.html: 0 proofs of the paperlens plugin's checks" in (
        check.stderr
    )
