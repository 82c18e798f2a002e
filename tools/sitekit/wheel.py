"""A wheel of ``paperlens`` published with the site, so readers can ``pip install`` it.

Built by the standard PEP 517 route, ``python -m build --wheel --no-isolation``, with the build
backend that ``pyproject.toml`` names (flit_core), so the wheel's metadata (dependencies and
extras, such as ``paperlens[notebooks]``) is whatever ``pyproject.toml`` says. ``--no-isolation``
uses the backend installed in this environment (the ``docs`` extra pins it): no network, and
the same backend version every time. flit_core writes nothing into the source tree, stamps
every file with ``SOURCE_DATE_EPOCH`` and normalises permissions, so the same sources always
give the same bytes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from sitekit.paths import ROOT

# A wheel's zip timestamps cannot be before 1980; used when the build does not set one.
DEFAULT_EPOCH = "315532800"


class WheelError(Exception):
    """The build backend failed; the message has its output."""


def _project() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]  # type: ignore[no-any-return]


def wheel_name() -> str:
    project = _project()
    return f"{project['name']}-{project['version']}-py3-none-any.whl"


def build_wheel() -> bytes:
    """The wheel's bytes, built from the checkout by its own PEP 517 backend."""
    env = dict(os.environ)
    env.setdefault("SOURCE_DATE_EPOCH", DEFAULT_EPOCH)
    with tempfile.TemporaryDirectory(prefix="paperlens-wheel-") as out:
        command = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", out]
        result = subprocess.run(
            [*command, str(ROOT)], env=env, capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            raise WheelError(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
        built = sorted(Path(out).glob("*.whl"))
        if [p.name for p in built] != [wheel_name()]:
            raise WheelError(f"expected {wheel_name()}, the backend built {built}")
        return built[0].read_bytes()
