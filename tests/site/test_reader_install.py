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

import doctest
import functools
import json
import os
import shutil
import subprocess
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from sitekit import page_model
from sitekit.notebooks import execute, shown_and_printed
from sitekit.paths import ROOT

KERNEL = "paperlens-reader"
# Feeds a notebook's code cells to a plain interactive Python (run by the reader's Python).
SESSION = Path(__file__).with_name("python3_session.py")


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


@pytest.fixture(scope="module")
def executed(reader_python, site, tmp_path_factory):
    """Every ``.ipynb`` in the built site, copied alone into an empty folder (as a download
    is) and run top to bottom in a fresh kernel of the reader's environment, saved with its
    outputs: ``(the notebook in the site, the executed copy, a failure report or None)``."""
    tmp_path = tmp_path_factory.mktemp("notebooks")
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
        reports = list(pool.map(functools.partial(execute, kernel=KERNEL, save=True), copies))
    return [
        (notebook, Path(copy), report)
        for notebook, copy, report in zip(notebooks, copies, reports, strict=True)
    ]


def test_every_notebook_runs_after_the_home_page_install(executed, site):
    failures = [f"{nb.relative_to(site)}: {report}" for nb, _, report in executed if report]
    assert not failures, f"{len(failures)} of {len(executed)} notebooks fail:\n\n" + "\n\n".join(
        failures
    )


def _mismatches(where: str, compared: list[tuple[str, str, str]]) -> list[str]:
    """``(code, shown, printed)`` triples where the reader gets other text than the page shows."""
    return [
        f"{where}:\n{code}\n--- the page shows:\n{shown}--- the reader gets:\n{printed}"
        for code, shown, printed in compared
        if printed.rstrip("\n") != shown.rstrip("\n")
    ]


def _shown_on_pages(site) -> int:
    """How many outputs the pages that offer a notebook show under ``>>>`` lines, counted from
    the examples the tests run (Sybil's), not from the notebooks."""
    count = 0
    for notebook in site.rglob("*.ipynb"):
        page = json.loads(notebook.read_text())["metadata"].get("paperlens", {}).get("page")
        if not page:
            continue
        model = page_model.parse_file(ROOT / "docs" / page)
        for block in model.blocks:
            if block.runs:
                parsed = [model.examples[i].region.parsed for i in block.examples]
                count += sum(isinstance(p, doctest.Example) and bool(p.want) for p in parsed)
    return count


def test_every_notebook_shows_what_its_page_shows(executed, site):
    """Each output a page shows under a ``>>>`` line is, character for character, what a
    reader running the downloaded notebook in a fresh kernel sees in that cell."""
    compared, problems = 0, []
    for notebook, copy, report in executed:
        if report:
            continue  # reported by the test above
        triples = shown_and_printed(nbformat.read(copy, as_version=4))
        compared += len(triples)
        problems += _mismatches(str(notebook.relative_to(site)), triples)
    assert compared == _shown_on_pages(site) > 0
    assert not problems, f"{len(problems)} outputs differ:\n\n" + "\n\n".join(problems)


def test_a_python3_session_shows_what_each_page_shows(
    reader_python, reader_environment, site, tmp_path
):
    """The same outputs, for a reader who pastes each page's snippets, in order, into a plain
    ``python3`` of the reader's install (`python3_session.py`: every expression statement
    echoed, as the interactive interpreter does)."""
    pages = [nb for nb in sorted(site.rglob("*.ipynb")) if '"shows"' in nb.read_text()]
    assert pages

    def run(notebook: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
        folder = tmp_path / notebook.relative_to(site).with_suffix("")
        folder.mkdir(parents=True)
        result = subprocess.run(
            [str(reader_python), str(SESSION), str(notebook)],
            cwd=folder,
            env=reader_environment,
            capture_output=True,
            text=True,
        )
        return notebook, result

    compared, problems = 0, []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for notebook, result in pool.map(run, pages):
            where = str(notebook.relative_to(site))
            if result.returncode != 0:
                problems.append(f"{where}: the session failed:\n{result.stderr[-2000:]}")
                continue
            triples = [tuple(t) for t in json.loads(result.stdout)]
            compared += len(triples)
            problems += _mismatches(where, triples)
    assert not problems, f"{len(problems)} outputs differ:\n\n" + "\n\n".join(problems)
    assert compared == _shown_on_pages(site)
