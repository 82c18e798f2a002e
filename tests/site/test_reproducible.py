"""Two builds of the same sources give byte-identical sites, even with no network at all."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sitekit.paths import ROOT, build_env


def offline_namespace_available() -> bool:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    probe = subprocess.run(["unshare", "-rn", "true"], capture_output=True)
    return probe.returncode == 0


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.mark.skipif(
    not offline_namespace_available(),
    reason="needs `unshare -rn` (util-linux) and `ip` (iproute2) with user namespaces enabled",
)
def test_a_cold_offline_build_is_byte_identical_to_the_session_build(site, tmp_path):
    """`make site` in a network namespace with only loopback, from empty caches.

    Compared with the session's build (made with whatever caches the checkout has), it proves
    three things at once: the build needs no network, caches never change the output, and
    nothing in the output depends on time, hash seeds or file order.
    """
    out = tmp_path / "site"
    env = dict(
        os.environ,
        PAPERLENS_CACHE_DIR=str(tmp_path / "cache"),
        SOURCE_DATE_EPOCH=build_env()["SOURCE_DATE_EPOCH"],
    )
    # The Jupyter kernel that executes the notebooks talks to the build over loopback.
    script = f"ip link set lo up && exec make --no-print-directory site SITE_DIR={out}"
    result = subprocess.run(
        ["unshare", "-rn", "sh", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    first, second = tree(site), tree(out)
    assert sorted(first) == sorted(second)
    differ = [name for name in first if first[name] != second[name]]
    assert not differ, f"{len(differ)} files differ between two builds: {differ[:10]}"
