"""Shared by tests/site and tests/browser: the session's builds of the site.

Every test session builds the site once, cold: ``make site`` (the strict build, then the check
of every page's proof, `sitekit.proof`) from empty caches, in a network namespace with only
loopback when the machine allows one, into a scratch folder. Its caches are the session's own
(``PAPERLENS_CACHE_DIR``, ``PAPERLENS_EXPERIMENT_CACHE``, set for every test and subprocess), so
everything computed once is read afterwards: by the build over damaged caches that
tests/site/test_damaged_caches.py compares byte for byte, by the builds and servers of scratch
copies of the pages, by the reader's notebooks and by the experiments the tests run again.

The cold build starts as soon as the tests are collected and runs beside them; the tests that
need the site run last (`pytest_collection_modifyitems`), and the first of them waits for it.
The browser tests are parametrized by the pages the sources make (`source_pages`; the built-site
tests check that the build made exactly those). ``PAPERLENS_SITE=DIR`` uses a site already built
into DIR instead (with ``make site``: nothing checks that it was), and leaves it in place; with
``PAPERLENS_CACHE_DIR`` too, the caches that build filled (say ``.cache``) are the session's.
"""

import contextlib
import itertools
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from paperlens import _cache as experiment_cache
from sitekit import cards, citations, notebooks, paths, print_edition
from sitekit.paths import ROOT, page_url
from sitekit.wheel import build_wheel, wheel_name

# The session's folder, set by the process that made it: pytest-xdist's workers (`make test`
# runs two) share it, its caches and its builds, each build started by the first that asks.
SESSION_ENV = "PAPERLENS_TEST_SESSION"


@dataclass
class Builds:
    """The session's folder (its caches, its sites, the builds' logs) and its runs: the cold
    ``make site`` and the reader's install, each run once for the session, whichever
    process asks first, and read by every process that needs it."""

    folder: Path
    owner: bool  # this process made the folder, and removes it and what is left running
    given: Path | None = None  # PAPERLENS_SITE
    # The cache entries the cold build left (or the given site's build), relative to the
    # caches' folder: later scratch builds of edited pages add entries the site never reads.
    cold_entries: frozenset[str] = frozenset()

    @property
    def site(self) -> Path:
        return self.given or self.folder / "site"

    def claim(self, name: str) -> bool:
        """Whether this process is the first of the session to ask for the run ``name``."""
        try:
            os.close(os.open(self.folder / f"{name}.started", os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return False
        return True

    def launch(self, name: str, command: list[str], *, cwd: Path = ROOT, env=None) -> None:
        """Start ``command`` in the background: its output goes to ``folder/<name>.log`` (a
        file: a full pipe would stall it) and its exit status to ``folder/<name>.rc``
        (`wait`). In a session of its own, not this process's child, it outlives a worker that
        ends first; the folder's owner stops what is left (`close`)."""
        log, rc, pid = (shlex.quote(str(self.folder / f"{name}.{s}")) for s in ("log", "rc", "pid"))
        inner = f'"$@" > {log} 2>&1; echo $? > {rc}.tmp && mv {rc}.tmp {rc}'
        outer = f'setsid sh -c {shlex.quote(inner)} sh "$@" </dev/null & echo $! > {pid}'
        subprocess.run(["sh", "-c", outer, "sh", *command], cwd=cwd, env=env, check=True)

    def start(self, name: str, *, offline: bool) -> None:
        """``make site`` into ``folder/<name>``, offline when asked and possible. The cold one
        (``site``) lists the cache entries it leaves in ``folder/site.entries``."""
        target = self.folder / name
        script = f"make --no-print-directory site SITE_DIR={target}"
        if name == "site":
            entries = shlex.quote(str(self.folder / "site.entries"))
            caches = shlex.quote(os.environ["PAPERLENS_CACHE_DIR"])
            # (A build that failed early may have made no cache folder: list nothing then.)
            script += f"; rc=$?; (cd {caches} 2>/dev/null && find . -type f) > {entries}; exit $rc"
        command = (
            offline_command(script)
            if offline and offline_namespace_available()
            else ["sh", "-c", script]
        )
        if self.claim(name):
            self.launch(name, command, env=paths.build_env())

    def start_reader_install(self) -> None:
        """The home page's install, in a fresh venv outside the repository, of the wheel the
        site publishes (built here as the build builds it: `reader_install` checks the two are
        the same bytes); it takes a minute, so it runs beside the build."""
        if not self.claim("reader"):
            return
        home = self.folder / "reader"
        home.mkdir()
        wheel = home / wheel_name()
        wheel.write_bytes(build_wheel())
        args = [
            a.replace(f"{SITE_ADDRESS}downloads/{wheel.name}", wheel.as_uri())
            for a in home_page_install_args()
        ]
        assert any(wheel.as_uri() in a for a in args), f"the install line names no {wheel.name}"
        venv = home / "venv"
        # pip compiles what it installs (.pyc), as a reader's pip does: where Python writes no
        # bytecode of its own (PYTHONDONTWRITEBYTECODE, set on these machines), an install with
        # --no-compile had every kernel and session compile NumPy, SciPy and IPython again, 1.3
        # to 3.5 s more per process, over fifty processes; compiling once takes 10 s.
        script = (
            f"{shlex.quote(sys.executable)} -m venv {venv} && {venv}/bin/python -m pip install"
            f" --quiet {shlex.join(args)}"
        )
        env = dict(
            reader_env(),
            PIP_CONSTRAINT=str(ROOT / "requirements.lock"),
            PIP_DISABLE_PIP_VERSION_CHECK="1",
        )
        self.launch("reader", ["sh", "-c", script], cwd=home, env=env)

    def wait(self, name: str) -> tuple[int, str]:
        """The exit status and output of the run ``name``, once it has ended."""
        rc, pid = self.folder / f"{name}.rc", self.folder / f"{name}.pid"
        asked = time.monotonic()
        while not rc.exists():
            if not pid.exists() and time.monotonic() - asked > 120:
                return -1, f"{name} was claimed but never started (its claimant failed first)"
            if pid.exists() and pid.read_text().strip() and not rc.exists():
                try:
                    os.kill(int(pid.read_text()), 0)
                except ProcessLookupError:
                    time.sleep(0.5)  # it may have written its status as it ended
                    if not rc.exists():
                        return -1, f"{name} was stopped before it ended"
            time.sleep(0.5)
        return int(rc.read_text()), (self.folder / f"{name}.log").read_text()

    def close(self) -> None:
        if not self.owner:
            return
        for pid in self.folder.glob("*.pid"):
            if pid.with_suffix(".rc").exists():  # it ended: its number may be another's now
                continue
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.killpg(int(pid.read_text()), signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)


_BUILDS = pytest.StashKey[Builds]()
# Fixtures of the tests that need the built site (or build and serve scratch copies of the
# pages with the session's caches): they run after every other test.
NEEDS_SITE = ("site", "scratch_config", "scratch_with_figures", "reader_python")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "searchable: run only on pages in the search index (not the 404 page)"
    )
    config.addinivalue_line(
        "markers",
        "on_screen: not on the print edition's pages, which repeat their section's pages (each "
        "checked on its own) to be printed",
    )
    shared = os.environ.get(SESSION_ENV)
    folder = Path(shared) if shared else Path(tempfile.mkdtemp(prefix="paperlens-session-"))
    builds = Builds(folder, owner=not shared)
    config.stash[_BUILDS] = builds
    caches = folder / "cache"
    if os.environ.get("PAPERLENS_SITE"):  # a site built already, with the caches it used
        builds.given = Path(os.environ["PAPERLENS_SITE"]).resolve()
        caches = Path(os.environ.get("PAPERLENS_CACHE_DIR", caches))
        builds.cold_entries = cache_entries(caches)  # what that build left, before any test
    # Every build, server and test of the session shares these caches.
    os.environ[SESSION_ENV] = str(folder)
    os.environ["PAPERLENS_CACHE_DIR"] = str(caches)
    os.environ[experiment_cache.ENV] = str(caches / "experiments")


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    """The output of a session's cold build that failed, once, after every test's report."""
    builds = config.stash.get(_BUILDS, None)
    rc = builds.folder / "site.rc" if builds and builds.given is None else None
    if rc and rc.exists() and rc.read_text().strip() != "0":
        terminalreporter.section("make site failed: the session's cold build printed")
        terminalreporter.write((builds.folder / "site.log").read_text()[-6000:])


def pytest_unconfigure(config: pytest.Config) -> None:
    if _BUILDS in config.stash:
        config.stash[_BUILDS].close()


def offline_namespace_available() -> bool:
    """Whether `offline_command` can run here: ``unshare`` (util-linux) and ``ip`` (iproute2),
    with user namespaces allowed. Without them the cold build runs with the network, and
    tests/site/test_reproducible.py says so in a skip."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return False
    probe = subprocess.run(["unshare", "-rn", "true"], capture_output=True)
    return probe.returncode == 0


@pytest.fixture(scope="session")
def offline_namespace():
    """`offline_command`, which makes the cold build's command; skips, saying so, where it
    cannot run."""
    if not offline_namespace_available():
        pytest.skip(
            "needs unshare (util-linux) and ip (iproute2) with user namespaces: the cold build"
            " ran with the network (README, Requirements)"
        )
    return offline_command


def offline_command(script: str) -> list[str]:
    """The command that runs the shell ``script`` in a network namespace of its own, with only
    loopback (the Jupyter kernel that executes the notebooks talks to the build over it)."""
    return ["unshare", "-rn", "sh", "-c", f"ip link set lo up && {script}"]


# The files that need the site and take longest (over half a minute each in `make test`), given
# to the workers first, so that the short ones fill in at the end and both workers finish at
# about the same time (a long file taken last keeps one worker busy while the other idles).
LONGEST_SITE_FILES = (
    "browser/test_pages.py",
    "site/test_reader_install.py",
    "browser/test_serve.py",
    "browser/test_explorables.py",
    "browser/test_self_test.py",
    "site/test_damaged_caches.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start the cold build if a test needs the site, and run those tests last: the whole
    file of one (`make test`'s workers take whole files, and a worker given one early would
    sit waiting for the build)."""
    needing = {
        i.path for i in items if any(f in NEEDS_SITE for f in getattr(i, "fixturenames", ()))
    }
    needs = [i.path in needing for i in items]
    builds = config.stash[_BUILDS]
    if any(needs) and builds.given is None:
        builds.start("site", offline=True)
    if any("reader_python" in getattr(i, "fixturenames", ()) for i in items):
        builds.start_reader_install()
    first = {name: rank for rank, name in enumerate(LONGEST_SITE_FILES)}

    def place(n: int) -> tuple[bool, int]:  # stable: otherwise as collected
        path = items[n].path
        return needs[n], first.get(f"{path.parent.name}/{path.name}", len(first)) if needs[n] else 0

    order = sorted(range(len(items)), key=place)
    items[:] = [items[n] for n in order]


@pytest.fixture(scope="session")
def cold_build(request) -> tuple[int, str, Path]:
    """The session's cold build: its exit status, its output and the site it built."""
    builds = request.config.stash[_BUILDS]
    if builds.given is not None:
        return 0, f"PAPERLENS_SITE={builds.given}", builds.given
    builds.start("site", offline=True)
    returncode, output = builds.wait("site")
    listed = builds.folder / "site.entries"
    if returncode == 0:
        names = listed.read_text().split("\n")
        builds.cold_entries = frozenset(n.removeprefix("./") for n in names if n)
    return returncode, output, builds.site


def cache_entries(caches: Path) -> frozenset[str]:
    return frozenset(p.relative_to(caches).as_posix() for p in caches.rglob("*") if p.is_file())


@pytest.fixture(scope="session")
def cold_cache_entries(request, site) -> frozenset[str]:
    """The cache entries the session's cold build left, or the given site's build
    (``PAPERLENS_SITE``), relative to ``PAPERLENS_CACHE_DIR``."""
    return request.config.stash[_BUILDS].cold_entries


@pytest.fixture(scope="session")
def site(cold_build):
    """The built site folder (``make site``: strict, and every page's proof checked)."""
    returncode, output, folder = cold_build
    if returncode != 0:  # every test that needs the site fails, each saying why in one line
        pytest.fail(
            f"make site failed: {first_error(output)} (its output is at the end of the run)",
            pytrace=False,
        )
    return folder


def first_error(output: str) -> str:
    """The build's first error on one line: its ``ERROR`` line and the indented ones after it."""
    lines = output.splitlines()
    for n, line in enumerate(lines):
        if line.startswith("ERROR"):
            more = list(itertools.takewhile(lambda m: m[:1].isspace(), lines[n + 1 :]))
            return " ".join([line.split("-", 1)[-1].strip(), *(m.strip() for m in more)])
    return "see its output below"


@pytest.fixture(scope="session")
def make_site():
    """``make site`` with ``arguments`` (``CONFIG=...``, ``SITE_DIR=...``) and the build's
    environment updated by ``env``: its exit status and its whole output."""

    def run(*arguments: str, env: dict[str, str] | None = None) -> tuple[int, str]:
        result = subprocess.run(
            ["make", "--no-print-directory", "site", *arguments],
            cwd=ROOT,
            env=paths.build_env() | (env or {}),
            capture_output=True,
            text=True,
        )
        return result.returncode, result.stdout + result.stderr

    return run


# --- A reader's install (tests/site/test_reader_install.py) ---------------------------------------

HOME_PAGE = ROOT / "docs" / "index.md"
# The line on the home page that installs the site's wheel (inside a ```bash block).
INSTALL_LINE = re.compile(
    r"^[ \t]*(python3 -m pip install .*/downloads/paperlens-.*\.whl.*)$", re.M
)
SITE_ADDRESS = "https://<this site>/"


def home_page_install_args() -> list[str]:
    lines = INSTALL_LINE.findall(HOME_PAGE.read_text())
    assert len(lines) == 1, f"docs/index.md: expected one install line for the wheel, got {lines}"
    args = shlex.split(lines[0])
    assert args[:4] == ["python3", "-m", "pip", "install"], lines[0]
    assert any(SITE_ADDRESS in a for a in args), f"no {SITE_ADDRESS} in {lines[0]}"
    return args[4:]


def reader_env() -> dict[str, str]:
    """This process's environment without what ties a Python to the project's venv."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(sys.prefix)
    )
    return env


@pytest.fixture(scope="session")
def reader_environment() -> dict[str, str]:
    return reader_env()


@pytest.fixture(scope="session")
def reader_python(request, site):
    """The Python of a fresh venv outside the repository, after the home page's install of
    the wheel the site publishes."""
    builds = request.config.stash[_BUILDS]
    builds.start_reader_install()
    home = builds.folder / "reader"
    assert ROOT not in home.parents
    returncode, output = builds.wait("reader")
    assert returncode == 0, f"pip install of the home page's line:\n{output[-3000:]}"
    published = site / "downloads" / wheel_name()
    assert published.read_bytes() == (home / wheel_name()).read_bytes(), "not the site's wheel"
    return home / "venv" / "bin" / "python"


# --- Browser tests (tests/browser): one test per page of the built site -------------------------

SITE_PAGES = pytest.StashKey[list[str]]()  # the pages, in the order the browser tests visit them
NOT_FOUND_PAGE = "404.html"


def source_pages() -> list[str]:
    """The pages the sources make, as URL paths relative to the site (``""``,
    ``foundations/softmax/``), the 404 page last: every Markdown page and notebook in docs/,
    and the pages the build generates, the Review page, the References page and each
    section's print edition
    (tests/site/test_built_site.py checks that the build makes exactly these)."""
    docs = ROOT / "docs"
    sources = [p.relative_to(docs).as_posix() for p in docs.rglob("*.md")]
    sources += [
        p.relative_to(docs).as_posix()
        for p in docs.rglob("*.py")
        if notebooks.is_notebook(p.relative_to(docs).as_posix())
    ]
    generated = [
        cards.REVIEW_PAGE,
        citations.PAGE,
        *map(print_edition.print_source, print_edition.SECTIONS),
    ]
    urls = sorted(page_url(src).removesuffix("index.html") for src in [*sources, *generated])
    return [*urls, NOT_FOUND_PAGE]


PRINT_PAGES = [
    page_url(print_edition.print_source(folder)).removesuffix("index.html")
    for folder in print_edition.SECTIONS
]


def _page_id(path: str) -> str:
    return path or "home"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``site_page`` by every page of the site (`source_pages`).

    Module-scoped, so pytest groups a module's tests by page and a module-scoped fixture can load
    each page once for all its checks. The 404 page comes last so that the other pages keep the
    same index in tests marked ``searchable``, which leave it out (and the print edition's
    pages, which are not in the search index).
    """
    if "site_page" not in metafunc.fixturenames:
        return
    pages = source_pages()
    metafunc.config.stash[SITE_PAGES] = pages
    if metafunc.definition.get_closest_marker("searchable"):
        # Left out of the search index: the 404 page, and the print edition's pages (their
        # text is the other pages'; sitekit.print_edition).
        unsearched = {NOT_FOUND_PAGE, *PRINT_PAGES}
        pages = [p for p in pages if p not in unsearched]
    if metafunc.definition.get_closest_marker("on_screen"):
        # The checks of what only a screen shows (the dark palette, a phone's width): the print
        # edition's pages are the section's pages, checked there figure by figure, set for
        # paper; their own parts (contents, links) are checked in the light palette.
        pages = [p for p in pages if p not in PRINT_PAGES]
    metafunc.parametrize("site_page", pages, ids=_page_id, scope="module")


@pytest.fixture(scope="session")
def site_pages(request):
    """The pages ``site_page`` takes, in order (empty when the tests were not parametrized)."""
    return request.config.stash.get(SITE_PAGES, [])


# --- A scratch copy of the pages, to build or serve with a page edited -------------------------


@pytest.fixture
def scratch_config(site, tmp_path) -> Path:
    """A configuration to build or serve a scratch copy of the pages (see `make_scratch`),
    once the session's build has filled the caches it reads."""
    return make_scratch(tmp_path)


@pytest.fixture(scope="module")
def scratch_with_figures(site, tmp_path_factory) -> Path:
    """Like ``scratch_config``, with a copy of ``figures/`` too, for a module's tests to share
    (one ``make serve`` for several checks)."""
    return make_scratch(tmp_path_factory.mktemp("scratch"), figures=True)


def make_scratch(folder: Path, *, figures: bool = False) -> Path:
    """``folder/mkdocs.yml``: the site's configuration over a copy of ``docs/`` (and of
    ``includes/``) in ``folder``, with every other path pointing back into the checkout, so
    a test can edit a page without touching the checkout. With ``figures``, the figure scripts
    are copied too (`sitekit.figures.Figure.name` names a copy's scripts as the originals, so
    their cache entries still apply). The caches are the session's."""
    shutil.copytree(ROOT / "docs", folder / "docs")
    shutil.copytree(ROOT / "includes", folder / "includes")
    figures_dir = ROOT / "figures"
    if figures:
        figures_dir = folder / "figures"
        shutil.copytree(ROOT / "figures", figures_dir, ignore=shutil.ignore_patterns("__pycache__"))
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
        where = figures_dir if relative == "figures" else ROOT / relative
        text = text.replace(line, f"  - {where}\n")
    for old, new in (
        ("custom_dir: overrides", f"custom_dir: {ROOT / 'overrides'}"),
        ("paths: [src]", f"paths: [{ROOT / 'src'}]"),
        ("figures: figures", f"figures: {figures_dir}"),
    ):
        assert old in text, f"mkdocs.yml no longer has {old!r}: update scratch_config"
        text = text.replace(old, new)
    config = folder / "mkdocs.yml"
    config.write_text(text, encoding="utf-8")
    return config
