"""Without torch, the torch-optional tests skip, or fail when PAPERLENS_REQUIRE_TORCH=1.

Runs pytest on that file in a subprocess where ``import torch`` raises ImportError.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

OPTIONAL = [
    Path(__file__).with_name(n) for n in ("test_torch_reference.py", "test_masking_dtypes.py")
]


def run_without_torch(tmp_path, require, module):
    blocker = tmp_path / "torch"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('torch hidden by the test')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("PAPERLENS_REQUIRE_TORCH", None)
    if require:
        env["PAPERLENS_REQUIRE_TORCH"] = "1"
    command = [sys.executable, "-m", "pytest", str(module), "-q", "--noconftest"]
    command += ["-p", "no:cacheprovider", "-x"]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("module", OPTIONAL, ids=[m.name for m in OPTIONAL])
@pytest.mark.parametrize("require", [False, True])
def test_missing_torch_skips_or_fails(tmp_path, require, module):
    result = run_without_torch(tmp_path, require, module)
    if require:
        assert result.returncode == 1, result.stdout + result.stderr
        assert "PAPERLENS_REQUIRE_TORCH=1 but torch cannot be imported" in result.stdout
    else:
        assert result.returncode in (0, 5), result.stdout + result.stderr  # 5: none collected
        assert "skipped" in result.stdout
