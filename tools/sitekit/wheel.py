"""A wheel of ``paperlens`` published with the site, so readers can ``pip install`` it.

Built by hand (a wheel is a zip file with three metadata files) rather than by ``pip wheel``:
that needs no build environment or network, and with fixed timestamps and a sorted file list
the same sources always give the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import time
import tomllib
import zipfile

from sitekit.paths import ROOT

SRC = ROOT / "src"


def _project() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]  # type: ignore[no-any-return]


def wheel_name() -> str:
    project = _project()
    return f"{project['name']}-{project['version']}-py3-none-any.whl"


def _metadata(project: dict[str, object]) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        f"License: {project['license']}",
    ]
    lines += [f"Requires-Dist: {dep}" for dep in project["dependencies"]]  # type: ignore[attr-defined]
    return "\n".join(lines) + "\n"


def build_wheel() -> bytes:
    project = _project()
    dist_info = f"{project['name']}-{project['version']}.dist-info"
    files: dict[str, bytes] = {}
    for path in sorted((SRC / "paperlens").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".py", ".typed"):
            files[path.relative_to(SRC).as_posix()] = path.read_bytes()
    files[f"{dist_info}/METADATA"] = _metadata(project).encode()
    files[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: paperlens-site\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()

    epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)  # ≥ 1980
    stamp = time.gmtime(epoch)[:6]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return buffer.getvalue()
