"""A page's examples, run at build time exactly as the tests run them.

The tests (``conftest.py``) and the build take the same Sybil from here: the same parsers,
the same print options around each page, the same skip rules and output checking. So a page
whose examples fail cannot be built by ``make site``, and ``make serve`` shows the failure in
the page (see ``sitekit.plugin``).

Each page is run in a fresh namespace, in a small pool of worker processes that stays warm
between the rebuilds of ``make serve`` (no interpreter start, no NumPy import per edit). An
outcome that passed is cached under ``.cache/examples/`` by a hash of the page's examples (each
with its line: not the prose around them, `page_key`), the library's source (its version number
never changes), the build machinery's source, the versions of the installed dependencies and
the BLAS kernel; so a page whose examples did not change costs a parse and a hash.
"""

from __future__ import annotations

import contextlib
import doctest
import hashlib
import io
import multiprocessing
import os
import pickle
import re
import time
import traceback
import warnings
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from doctest import ELLIPSIS, NORMALIZE_WHITESPACE
from pathlib import Path
from typing import Any
from unittest import SkipTest

import numpy as np
import sybil
from sybil import Document, Example, Sybil
from sybil.example import SybilFailure
from sybil.parsers.markdown import ClearNamespaceParser, SkipParser
from sybil.typing import Parser

from sitekit import lifecycle
from sitekit.cache import (
    LIBRARY,
    blas_config,
    hash_files,
    hash_sitekit,
    read_pickle,
    versions,
    write,
)
from sitekit.paths import ROOT, cache_root
from sitekit.sybil_parsers import PythonBlockParser

FLAGS = ELLIPSIS | NORMALIZE_WHITESPACE
PATTERNS = ["docs/*.md", "docs/**/*.md"]
# What every page's examples can see, besides the page: the library, the sitekit modules that
# run them (this one and what it imports, `sitekit.cache.hash_sitekit`), and the installed
# distributions of `sitekit.cache.versions`. A page whose examples import sitekit themselves (as
# the contributing guide's do) depends on the whole of it (`BUILD_CODE`, in `page_key`).
BUILD_CODE = ("tools/sitekit/**/*.py", "tools/sitekit/*.js")


# NumPy's own print options, as a fresh ``python3`` or Jupyter kernel has them (NumPy 2 shows
# a scalar as ``np.float64(0.5)``). A page's examples run with these and nothing else, so what a
# page shows is what a reader who runs its snippets sees; tests/site/test_reader_install.py
# checks that against a reader's install, in a notebook and in a plain ``python3``.
NUMPY_PRINT_DEFAULTS: dict[str, Any] = {
    "edgeitems": 3,
    "threshold": 1000,
    "floatmode": "maxprec",
    "precision": 8,
    "suppress": False,
    "linewidth": 75,
    "nanstr": "nan",
    "infstr": "inf",
    "sign": "-",
    "formatter": None,
    "legacy": False,
    "override_repr": None,
}


def setup(namespace: dict[str, Any]) -> None:
    namespace["__printoptions"] = np.get_printoptions()
    np.set_printoptions(**NUMPY_PRINT_DEFAULTS)


def teardown(namespace: dict[str, Any]) -> None:
    np.set_printoptions(**namespace["__printoptions"])


def parsers() -> list[Parser]:
    """Python fences and invisible blocks (doctest or plain code), skips, namespace clears."""
    return [PythonBlockParser(doctest_optionflags=FLAGS), SkipParser(), ClearNamespaceParser()]


def page_sybil() -> Sybil:
    """The Sybil that runs every page's examples, in the tests and in the build."""
    # Sybil reads ``patterns`` from the folder of the file that creates it unless told.
    return Sybil(
        parsers=parsers(),
        patterns=PATTERNS,
        path=str(ROOT),
        setup=setup,
        teardown=teardown,
        name="pages",
    )


@dataclass(frozen=True)
class Failure:
    """One example that did not pass: where it starts, the error, and its report."""

    line: int  # of the example, in the page's source file (front matter included)
    offset: int  # of the example's region, in the source file's text
    error: str  # one line: "AssertionError: planted false claim"
    report: str  # the traceback, or Sybil's expected-and-got report


@dataclass(frozen=True)
class Outcome:
    """What running one page's examples gave."""

    page: str  # docs/foundations/softmax.md
    collected: int  # every example Sybil collects (what `pytest --collect-only` counts)
    passed: int
    skipped: tuple[tuple[int, str], ...] = ()  # (line, reason)
    failures: tuple[Failure, ...] = ()
    answers: dict[str, Any] | None = None  # the page's `answers` (self-test pages)
    seconds: float = 0.0
    versions: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures

    def describe(self) -> str:
        """The failures, as the terminal shows them (page, line, error, report)."""
        parts = []
        for f in self.failures:
            parts.append(f"{self.page}, line {f.line}: {f.error}\n{f.report.rstrip()}")
        return "\n\n".join(parts)


def _relative(path: Path) -> str:
    path = path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def _report(err: BaseException, page: Path, name: str) -> tuple[str, str]:
    """One line for the error, and the report: Sybil's for a doctest mismatch, else the
    traceback from the page's own code on (Sybil's and this module's frames left out)."""
    if isinstance(err, SybilFailure):
        return "the output differs from what the page shows", err.result
    frames = traceback.extract_tb(err.__traceback__)
    sybil_dir = str(Path(sybil.__file__).resolve().parent)
    kept = [f for f in frames if not f.filename.startswith(sybil_dir) and f.filename != __file__]
    page_name = str(page)
    for i, f in enumerate(kept):  # start at the page's code
        if f.filename == page_name:
            kept = kept[i:]
            break
    lines = ["Traceback (most recent call last):\n", *traceback.format_list(kept)]
    lines += traceback.format_exception_only(type(err), err)
    error = traceback.format_exception_only(type(err), err)[-1].strip()
    text = "".join(lines).replace(page_name, name or _relative(page))
    return error, text


def run_document(document: Document, sybil: Sybil, page: Path, name: str = "") -> Outcome:
    """Evaluate every example of ``document`` in order, as pytest does: a failure is recorded
    and the next example still runs, in the same namespace, and a warning is an error (the
    tests' ``filterwarnings = ["error"]``)."""
    start = time.perf_counter()
    examples: list[Example] = list(document)
    passed, skipped, failures = 0, [], []
    if sybil.setup is not None:
        sybil.setup(document.namespace)
    # What the page's code prints is the reader's to see, not the build log's (pytest
    # captures it too); doctest examples check their own output inside this.
    try:
        with (
            contextlib.redirect_stdout(io.StringIO()),
            contextlib.redirect_stderr(io.StringIO()),
            warnings.catch_warnings(),
        ):
            warnings.simplefilter("error")
            for example in examples:
                try:
                    example.evaluate()
                except SkipTest as err:
                    skipped.append((example.line, str(err)))
                except Exception as err:
                    error, report = _report(err, page, name)
                    failures.append(Failure(example.line, example.region.start, error, report))
                else:
                    passed += 1
    finally:
        if sybil.teardown is not None:
            sybil.teardown(document.namespace)
    answers = document.namespace.get("answers")
    return Outcome(
        page=name or _relative(page),
        collected=len(examples),
        passed=passed,
        skipped=tuple(skipped),
        failures=tuple(failures),
        answers=dict(answers) if isinstance(answers, dict) else None,
        seconds=time.perf_counter() - start,
        versions=versions(),
    )


def run_page(path: str, name: str = "") -> Outcome:
    """Run one page's examples (in a worker process); ``name`` is how reports name the page
    (``docs/foundations/softmax.md``, wherever the docs folder is)."""
    page = Path(path).resolve()
    sybil = page_sybil()
    try:
        document = sybil.parse(page)
    except ValueError as err:  # doctest's own parser: ">>>x", with no blank after the prompt
        return unreadable(page, name, err)
    return run_document(document, sybil, page, name)


def unreadable(page: Path, name: str, err: ValueError) -> Outcome:
    """The outcome of a page Sybil cannot read: one failure, at the line it quotes."""
    quoted = re.search(r": '(?P<text>.*)'$", str(err))
    lines = page.read_text(encoding="utf-8").splitlines()
    at = next((i for i, x in enumerate(lines, 1) if quoted and quoted["text"] in x), 1)
    error = f"an example Sybil cannot read: {err}".replace(str(page), name or page.name)
    return Outcome(name or str(page), 0, 0, failures=(Failure(at, 0, error, error),))


def page_name(page: Path, docs_dir: Path) -> str:
    """``docs/<path inside the docs folder>``: a page's name in reports and cache keys."""
    return "docs/" + page.resolve().relative_to(docs_dir.resolve()).as_posix()


def page_namespace(path: Path) -> dict[str, Any]:
    """Run a page's examples as the tests do and return the namespace they leave (for tests
    that compare a page's values with a figure's); raise ValueError if any example fails."""
    page = path.resolve()
    sybil = page_sybil()
    document = sybil.parse(page)
    outcome = run_document(document, sybil, page)
    if outcome.failures:
        raise ValueError(outcome.describe())
    return document.namespace


def collected(path: Path) -> int:
    """How many examples Sybil collects for a page, without running them."""
    return len(list(page_sybil().parse(path.resolve())))


def environment_key() -> str:
    """Everything an outcome depends on besides the page: sources, versions, BLAS kernel."""
    digest = hashlib.sha256(hash_files(LIBRARY).encode())
    digest.update(hash_sitekit([Path(__file__)]).encode())  # an edit to the rest runs nothing
    digest.update(repr(sorted(versions().items())).encode())
    digest.update(blas_config().encode())
    return digest.hexdigest()


def page_key(page: Path, name: str, environment: str) -> str:
    """What a page's outcome depends on in the page: each example Sybil collects there, with
    its line and its kind, and nothing of the prose around them (a prose edit runs nothing)."""
    digest = hashlib.sha256(environment.encode())
    digest.update(name.encode())
    imports_build_code = False
    for example in page_sybil().parse(page.resolve()):
        parsed = example.region.parsed
        if isinstance(parsed, doctest.Example):  # no repr of its own: its source and output
            parsed = (parsed.source, parsed.want, sorted(parsed.options.items()))
        kind = type(example.region.evaluator).__name__
        digest.update(f"\0{example.line}\0{kind}\0{parsed!r}".encode())
        imports_build_code = imports_build_code or "sitekit" in repr(parsed)
    if imports_build_code:
        digest.update(hash_files(BUILD_CODE).encode())
    return digest.hexdigest()[:32]


def _worker_start() -> None:
    lifecycle.worker_started()  # stopped by the engine, never left behind by it
    os.chdir(ROOT)  # pages run from the repository root, as pytest runs them
    import paperlens  # noqa: F401  (warm: the first page need not pay for the import)


class Runner:
    """Runs pages' examples in a warm pool of worker processes, with a cache of passes.

    The pool is replaced when anything the workers have imported changes (the environment
    key), so an edit to ``src/paperlens`` is always seen.
    """

    def __init__(self, jobs: int = 2, cache_dir: Path | None = None) -> None:
        self.jobs = jobs
        self.cache_dir = cache_dir or cache_root() / "examples"
        self._pool: ProcessPoolExecutor | None = None
        self._pool_key = ""
        self.ran = 0  # pages run afresh in the last call

    def _executor(self, environment: str) -> ProcessPoolExecutor:
        if self._pool is None or self._pool_key != environment:
            self.close()
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.jobs, mp_context=context, initializer=_worker_start
            )
            self._pool_key = environment
        return self._pool

    def start(self, pages: list[Path], docs_dir: Path) -> dict[str, Outcome | Future[Outcome]]:
        """Start running every stale page; cached outcomes are returned as they are."""
        environment = environment_key()
        out: dict[str, Outcome | Future[Outcome]] = {}
        self._keys: dict[str, str] = {}
        for page in pages:
            name = page_name(page, docs_dir)
            try:
                key = page_key(page, name, environment)
            except ValueError:  # Sybil cannot read an example: the run reports it, uncached
                key = ""
            cached = read_pickle(self.cache_dir / f"{key}.pickle") if key else None
            if isinstance(cached, Outcome):
                out[name] = cached
                continue
            self._keys[name] = key
            out[name] = self._executor(environment).submit(run_page, str(page), name)
        self.ran = len(self._keys)
        return out

    def finish(self, started: dict[str, Outcome | Future[Outcome]]) -> dict[str, Outcome]:
        """Wait for the pages started; cache the ones that passed."""
        out: dict[str, Outcome] = {}
        for name, item in started.items():
            if isinstance(item, Outcome):
                out[name] = item
                continue
            try:
                outcome = item.result()
            except Exception as err:  # report it as the page's failure
                if isinstance(err, BrokenProcessPool):  # a worker died: the others go with it
                    self.close()
                report = "".join(traceback.format_exception(err))
                failure = Failure(1, 0, f"the examples could not be run: {err!r}", report)
                outcome = Outcome(name, 0, 0, failures=(failure,))
            out[name] = outcome
            if outcome.ok and self._keys[name]:
                write(self.cache_dir / f"{self._keys[name]}.pickle", pickle.dumps(outcome))
        return out

    def run(self, pages: list[Path], docs_dir: Path) -> dict[str, Outcome]:
        return self.finish(self.start(pages, docs_dir))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def kill(self) -> None:
        """End the workers at once, whatever they are running (a stop during a build). The
        interpreter's exit then finds no live worker to wait for; an exit that interrupts the
        pool mid-build otherwise closes its queue before the workers get its last word, and
        waits on them forever."""
        if self._pool is not None:
            for process in list(self._pool._processes.values()):  # no public kill before 3.14
                process.kill()
