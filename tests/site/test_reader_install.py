"""What a reader does with the site: install the published wheel with the home page's own
install line, in a fresh virtual environment outside the repository, then run every notebook the
site offers in a fresh kernel of that environment.

The install line is read from ``docs/index.md``, with the site's address replaced by the built
wheel's local file. The environment is made once per session, beside the build (``reader_python``
in tests/conftest.py); pip resolves it against ``requirements.lock`` (``PIP_CONSTRAINT``), so it
gets the versions the rest of the tests use, and it uses the pip that ``python3 -m venv`` gives a
reader, not the project's. This replaces running the notebooks in the project's own environment:
it runs the same notebooks, in a stricter setting. The experiments they run are computed once
per session, by the build, and read here from the session's cache (``paperlens._cache``): the
same inputs, library source, versions and BLAS kernel give the same result.
"""

import json
import os
import shutil
import subprocess
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from sitekit.notebooks import execute

KERNEL = "paperlens-reader"


def test_the_install_gives_the_published_library_and_consistent_dependencies(
    reader_python, reader_environment, tmp_path
):
    code = "import paperlens, sys; print(paperlens.__file__); print(sys.prefix)"
    out = subprocess.run(
        [str(reader_python), "-c", code],
        cwd=tmp_path,
        env=reader_environment,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    venv = reader_python.parent.parent
    assert Path(out[0]).is_relative_to(venv), f"paperlens imported from {out[0]}, not the venv"
    assert Path(out[1]) == venv
    check = subprocess.run(
        [str(reader_python), "-m", "pip", "check"],
        env=reader_environment,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr


def _use_reader_kernel(kernels_dir: str) -> None:
    """Worker set-up: find the reader's kernelspec, and nothing of the project's on sys.path."""
    os.environ["JUPYTER_PATH"] = kernels_dir
    os.environ.pop("PYTHONPATH", None)


def test_every_notebook_runs_after_the_home_page_install(reader_python, site, tmp_path):
    """Every ``.ipynb`` in the built site, copied alone into an empty folder (as a download
    is), runs top to bottom in a fresh kernel of the reader's environment."""
    notebooks = sorted(site.rglob("*.ipynb"))
    assert notebooks
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [str(reader_python), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec.joinpath("kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "reader", "language": "python"})
    )
    copies = []
    for number, notebook in enumerate(notebooks):
        folder = tmp_path / "downloads" / f"{number:03d}"
        folder.mkdir(parents=True)
        copies.append(str(shutil.copy(notebook, folder)))
    with ProcessPoolExecutor(
        max_workers=2, initializer=_use_reader_kernel, initargs=(str(tmp_path / "jupyter"),)
    ) as pool:
        reports = pool.map(execute, copies, [KERNEL] * len(copies))
        failures = [
            f"{notebook.relative_to(site)}: {report}"
            for notebook, report in zip(notebooks, reports, strict=True)
            if report
        ]
    assert not failures, f"{len(failures)} of {len(notebooks)} notebooks fail:\n\n" + "\n\n".join(
        failures
    )
