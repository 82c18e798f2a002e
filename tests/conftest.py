"""Shared by tests/site and tests/browser: one strict build of the whole site per test session.

The browser tests are parametrized by the pages of the built site (its HTML files, so pages
added later are tested without listing them), which needs the build at collection time; the
build is therefore made by ``built_site`` on first use, collection or fixture, and kept for the
session in ``config.stash``. ``PAPERLENS_SITE=DIR`` uses a site already built into DIR instead
(with ``mkdocs build --strict``: nothing checks that it was), and leaves it in place.
"""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from sitekit import paths
from sitekit.paths import ROOT

_BUILD = pytest.StashKey[tuple[Path, str | None]]()
SITE_PAGES = pytest.StashKey[list[str]]()  # the pages, in the order the browser tests visit them


def built_site(config: pytest.Config) -> tuple[Path, str | None]:
    """The built site folder and, when the strict build failed, why (else ``None``).

    ``properdocs build --strict`` (the engine, as ``make site`` runs it): any warning fails the
    build. Never add ``--quiet``: it hides warnings from the counter that ``--strict`` relies
    on, and the build then passes with warnings (MkDocs 1.6, and so ProperDocs).
    """
    if _BUILD not in config.stash and os.environ.get("PAPERLENS_SITE"):
        # A site built already (``mkdocs build --strict -d DIR``), to rerun the browser or site
        # checks without building again; it is the caller's, so it is not deleted at the end.
        config.stash[_BUILD] = (Path(os.environ["PAPERLENS_SITE"]).resolve(), None)
    if _BUILD not in config.stash:
        out = Path(tempfile.mkdtemp(prefix="paperlens-site-"))
        result = subprocess.run(
            [paths.engine(), "build", "--strict", "-f", "mkdocs.yml", "-d", str(out)],
            cwd=ROOT,
            # The environment of a reproducible build, as the Makefile sets it.
            env=paths.build_env(),
            capture_output=True,
            text=True,
        )
        error = None
        if result.returncode != 0:
            error = f"strict build failed:\n{result.stdout}\n{result.stderr}"
        config.stash[_BUILD] = (out, error)
    return config.stash[_BUILD]


def pytest_unconfigure(config: pytest.Config) -> None:
    if _BUILD in config.stash and not os.environ.get("PAPERLENS_SITE"):
        shutil.rmtree(config.stash[_BUILD][0], ignore_errors=True)
    if _OFFLINE in config.stash:
        proc, folder = config.stash[_OFFLINE]
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        shutil.rmtree(folder, ignore_errors=True)


# --- The cold offline build (tests/site/test_reproducible.py), started early -------------------

_OFFLINE = pytest.StashKey[tuple[subprocess.Popen[str], Path]]()
REPRODUCIBLE = "tests/site/test_reproducible.py"


def offline_namespace_available() -> bool:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    probe = subprocess.run(["unshare", "-rn", "true"], capture_output=True)
    return probe.returncode == 0


def start_offline_build(config: pytest.Config) -> None:
    """``make site`` in a network namespace with only loopback, from empty caches, into a
    scratch folder. It takes minutes and mostly one core, so it starts as soon as the tests are
    collected and runs beside them; the test that compares it waits for it."""
    if _OFFLINE in config.stash or not offline_namespace_available():
        return
    folder = Path(tempfile.mkdtemp(prefix="paperlens-offline-"))
    env = dict(
        os.environ,
        PAPERLENS_CACHE_DIR=str(folder / "cache"),
        SOURCE_DATE_EPOCH=paths.build_env()["SOURCE_DATE_EPOCH"],
    )
    # The Jupyter kernel that executes the notebooks talks to the build over loopback.
    script = f"ip link set lo up && exec make --no-print-directory site SITE_DIR={folder / 'site'}"
    with open(folder / "build.log", "w") as log:  # a file: a full pipe would stall the build
        proc = subprocess.Popen(
            ["unshare", "-rn", "sh", "-c", script],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
    config.stash[_OFFLINE] = (proc, folder)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if any(item.nodeid.startswith(REPRODUCIBLE) for item in items):
        start_offline_build(config)


@pytest.fixture(scope="session")
def offline_build(request) -> tuple[int, str, Path]:
    """The cold offline build's exit status, its output and the site it built."""
    if not offline_namespace_available():
        pytest.skip(
            "needs `unshare -rn` (util-linux) and `ip` (iproute2) with user namespaces enabled"
        )
    start_offline_build(request.config)
    proc, folder = request.config.stash[_OFFLINE]
    proc.wait()
    return proc.returncode, (folder / "build.log").read_text(), folder / "site"


@pytest.fixture(scope="session")
def site(request):
    """The built site folder (``properdocs build --strict``; any warning fails the session)."""
    out, error = built_site(request.config)
    assert error is None, error
    return out


# --- Browser tests (tests/browser): one test per page of the built site -------------------------


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "searchable: run only on pages in the search index (not the 404 page)"
    )


def _page_id(path: str) -> str:
    return path or "home"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``site_page`` by every page of the built site, discovered from its HTML files.

    Module-scoped, so pytest groups a module's tests by page and a module-scoped fixture can load
    each page once for all its checks. The 404 page comes last so that the other pages keep the
    same index in tests marked ``searchable``, which leave it out (and the print edition's
    pages, which are not in the search index).
    """
    if "site_page" not in metafunc.fixturenames:
        return
    from sitekit.browser import NOT_FOUND_PAGE, chromium_missing, page_paths

    if chromium_missing():
        # The browser fixture skips, saying how to install Chromium (fails, when required).
        paths = ["(no browser)"]
    else:
        out, error = built_site(metafunc.config)
        if error is not None:
            paths = ["(build failed)"]  # the site fixture fails with the build's output
        else:
            paths = page_paths(out, include_not_found=True)
            paths.sort(key=lambda p: p == NOT_FOUND_PAGE)
            metafunc.config.stash[SITE_PAGES] = paths
            if metafunc.definition.get_closest_marker("searchable"):
                # Left out of the search index: the 404 page, and the print edition's pages
                # (their text is the other pages'; sitekit.print_edition).
                from sitekit.print_edition import SECTIONS

                unsearched = {NOT_FOUND_PAGE, *(f"{folder}/print/" for folder in SECTIONS)}
                paths = [p for p in paths if p not in unsearched]
    metafunc.parametrize("site_page", paths, ids=_page_id, scope="module")


@pytest.fixture(scope="session")
def site_pages(request):
    """The pages ``site_page`` takes, in order (empty when the tests were not parametrized)."""
    return request.config.stash.get(SITE_PAGES, [])


# --- A scratch copy of the pages, to build or serve with a page edited -------------------------


@pytest.fixture
def scratch_config(tmp_path) -> Path:
    """A configuration to build or serve a scratch copy of the pages (see `make_scratch`)."""
    return make_scratch(tmp_path)


def make_scratch(folder: Path) -> Path:
    """``folder/mkdocs.yml``: the site's configuration over a copy of ``docs/`` (and of
    ``includes/``) in ``folder``, with every other path pointing back into the checkout, so
    a test can edit a page without touching the checkout. The caches stay the checkout's."""
    shutil.copytree(ROOT / "docs", folder / "docs")
    shutil.copytree(ROOT / "includes", folder / "includes")
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    # The folders `serve` watches besides the pages.
    for relative in (
        "src/paperlens",
        "figures",
        "tools/sitekit",
        "overrides",
    ):
        line = f"  - {relative}\n"
        assert line in text, f"mkdocs.yml no longer lists {relative}: update scratch_config"
        text = text.replace(line, f"  - {ROOT / relative}\n")
    for old, new in (
        ("custom_dir: overrides", f"custom_dir: {ROOT / 'overrides'}"),
        ("paths: [src]", f"paths: [{ROOT / 'src'}]"),
        ("figures: figures", f"figures: {ROOT / 'figures'}"),
    ):
        assert old in text, f"mkdocs.yml no longer has {old!r}: update scratch_config"
        text = text.replace(old, new)
    config = folder / "mkdocs.yml"
    config.write_text(text, encoding="utf-8")
    return config
