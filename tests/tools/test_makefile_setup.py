"""The Makefile's set-up on a fresh machine (README, Requirements): it refuses a Python older
than 3.11, naming PYTHON=, and remakes a .venv that a failed first run left without pip.

Each test runs the real Makefile in a scratch folder with a stand-in Python, a shell script
that answers the version check as told and records what it is asked; nothing is installed."""

import os
import shutil
import subprocess
from pathlib import Path

from sitekit.paths import ROOT

VENV_PYTHON = "#!/bin/sh\n{body}\n"  # a venv's python: pip works (exit 0), or is missing (1)
FAKE = """#!/bin/sh
echo "$@" >> "{log}"
case "$1" in
  --version) echo "Python {version}" ;;
  -c) exit {old} ;;
  -m) mkdir -p "$3/bin" && printf '{venv_python}' > "$3/bin/python"
      chmod +x "$3/bin/python" ;;
esac
"""


def scratch(tmp_path: Path, version: str) -> tuple[Path, Path]:
    """A folder with the Makefile and what its set-up reads, and a stand-in Python."""
    for name in ("Makefile", "pyproject.toml", "requirements.lock", "tools/pyproject.toml"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    log = tmp_path / "python-calls"
    old = int(tuple(map(int, version.split("."))) < (3, 11))
    venv_python = VENV_PYTHON.format(body="exit 0")
    python = tmp_path / "python-stand-in"
    python.write_text(FAKE.format(log=log, version=version, old=old, venv_python=venv_python))
    python.chmod(0o755)
    return python, log


def make_venv(folder: Path, python: Path) -> subprocess.CompletedProcess[str]:
    # Not the variables of the make that runs these tests: under CI's `make test WITH_TORCH=1`
    # make passes WITH_TORCH=1 on, in MAKEFLAGS and in the environment, and the rule would be
    # .installed-1's; so WITH_TORCH=0 is given on the command line, which beats both.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    return subprocess.run(
        [
            "make",
            "--no-print-directory",
            ".venv/bin/.installed-0",
            "WITH_TORCH=0",
            f"PYTHON={python}",
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
    )


def test_an_old_python_is_refused_naming_the_way_out(tmp_path):
    python, _ = scratch(tmp_path, "3.10.12")
    result = make_venv(tmp_path, python)
    assert result.returncode != 0
    assert "paperlens needs Python 3.11 or newer" in result.stderr
    assert "Python 3.10.12" in result.stderr and "PYTHON=python3.11" in result.stderr
    assert not (tmp_path / ".venv").exists()


def test_a_venv_left_without_pip_is_made_again(tmp_path):
    python, log = scratch(tmp_path, "3.11.7")
    broken = tmp_path / ".venv" / "bin" / "python"
    broken.parent.mkdir(parents=True)
    broken.write_text(VENV_PYTHON.format(body="exit 1"))  # "No module named pip"
    broken.chmod(0o755)
    result = make_venv(tmp_path, python)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "-m venv .venv" in log.read_text()  # made afresh
    assert "exit 0" in broken.read_text()  # the stand-in venv's python, not the broken one
    assert (tmp_path / ".venv" / "bin" / ".installed-0").is_file()


def test_a_working_venv_is_kept(tmp_path):
    python, log = scratch(tmp_path, "3.11.7")
    make_venv(tmp_path, python)
    (tmp_path / ".venv" / "bin" / ".installed-0").unlink()  # set up again, as after a lock edit
    log.write_text("")
    result = make_venv(tmp_path, python)
    assert result.returncode == 0, result.stderr
    assert "-m venv" not in log.read_text()
