"""Without torch, the torch-optional tests skip, or fail when PAPERLENS_REQUIRE_TORCH=1.

Runs pytest on both files in one subprocess where ``import torch`` raises ImportError.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

OPTIONAL = [
    Path(__file__).with_name(n) for n in ("test_torch_reference.py", "test_masking_dtypes.py")
]


def run_without_torch(tmp_path, require):
    """pytest on both files at once (one interpreter start, not one per file), with -rfEs so
    each file's skip or failure is reported by name."""
    blocker = tmp_path / "torch"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('torch hidden by the test')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("PAPERLENS_REQUIRE_TORCH", None)
    if require:
        env["PAPERLENS_REQUIRE_TORCH"] = "1"
    command = [sys.executable, "-m", "pytest", *map(str, OPTIONAL), "-q", "--noconftest"]
    command += ["-p", "no:cacheprovider", "-rfEs"]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("require", [False, True])
def test_missing_torch_skips_or_fails(tmp_path, require):
    result = run_without_torch(tmp_path, require)
    report = result.stdout + result.stderr
    summary = result.stdout[result.stdout.rfind("short test summary info") :]
    for module in OPTIONAL:
        said = [line for line in summary.splitlines() if module.name in line]
        if require:
            assert any(line.startswith(("FAILED", "ERROR")) for line in said), report
        else:
            assert any(line.startswith("SKIPPED") for line in said), report
    if require:
        assert result.returncode == 1, report
        assert "PAPERLENS_REQUIRE_TORCH=1 but torch cannot be imported" in result.stdout
        assert "passed" not in summary, report
    else:
        assert result.returncode in (0, 5), report  # 5: every file skipped, none collected
        assert "failed" not in summary and "error" not in summary, report
