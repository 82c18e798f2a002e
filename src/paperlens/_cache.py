"""Cached experiment runs, and the sealed entries every cache of the project stores.

An experiment's ``run`` takes seconds to minutes, and the site runs each one in several places:
its notebook in the build, the same notebook in a reader's fresh install (a test), and the
tests. `cached` computes a run once and lets every other caller read it, when the environment
variable ``PAPERLENS_EXPERIMENT_CACHE`` names a folder (the build and the tests set it; a
reader who never sets it runs everything, as the notebooks say). An entry is keyed the way the
build keys a page's examples: by what the run is given (its arguments, pickled), the library's
source (every module of this package, as imported), the versions of Python, NumPy and SciPy,
and the BLAS kernel NumPy computes with (`blas_config`), whose rounding differs between CPUs.

Every entry, here and in the build's caches (`sitekit.cache` uses `write` and `read`), is
sealed: a header holding the SHA-256 of the content. `read` checks it, so a truncated,
emptied or overwritten entry is dropped, reported in one line and computed again, never
returned. `write` goes through a unique temporary name and an atomic rename, so processes that
write the same entry side by side never see each other's half-written file.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pickle
import sys
import uuid
from collections.abc import Callable, Iterator
from importlib import metadata
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import numpy as np

ENV = "PAPERLENS_EXPERIMENT_CACHE"
MAGIC = b"paperlens-cache sha256="
PACKAGE = Path(__file__).resolve().parent
DISTRIBUTIONS = ("numpy", "scipy")
P = ParamSpec("P")
R = TypeVar("R")


def seal(content: bytes) -> bytes:
    """``content`` behind a header holding its SHA-256."""
    return MAGIC + hashlib.sha256(content).hexdigest().encode() + b"\n" + content


def unseal(data: bytes) -> bytes | None:
    """The content of a sealed entry, or None when the entry is damaged."""
    header, newline, content = data.partition(b"\n")
    if not newline or not header.startswith(MAGIC):
        return None
    if header[len(MAGIC) :] != hashlib.sha256(content).hexdigest().encode():
        return None
    return content


def dropped(path: Path, why: str = "damaged") -> None:
    """Report, in one line on the process's own stderr (never a notebook cell's output), an
    entry that was dropped to be computed again."""
    stream = sys.__stderr__ or sys.stderr
    stream.write(f"paperlens: cache entry {path} was {why}: dropped, and computed again\n")
    stream.flush()


def replace_file(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path`` through a temporary file of this process's own and an
    atomic rename: a reader never sees it half-written, and writers never share a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        tmp.write_bytes(content)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def write(path: Path, content: bytes) -> None:
    """Store ``content`` at ``path``, sealed (`seal`), by `replace_file`."""
    replace_file(path, seal(content))


def read(path: Path) -> bytes | None:
    """The content stored at ``path``; None when there is none, or when it is damaged (it is
    then deleted, and reported by `dropped`)."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None
    content = unseal(data)
    if content is None:
        dropped(path)
        path.unlink(missing_ok=True)
    return content


def read_pickle(path: Path) -> Any:
    """The object pickled at ``path``, or None (missing, damaged, or no longer loadable: a
    class it names was renamed)."""
    content = read(path)
    if content is None:
        return None
    try:
        return pickle.loads(content)
    except Exception:
        dropped(path, "unreadable")
        path.unlink(missing_ok=True)
        return None


def blas_config() -> str:
    """The BLAS library NumPy computes with, the kernel it chose for this CPU and its thread
    count, e.g. ``openblas 0.3.31 SkylakeX x2``. Matrix products round differently under each
    kernel, so every cache of computed results is keyed by this.

    Read from NumPy's own OpenBLAS (through its exported functions), so the answer does not
    depend on which other libraries a process has loaded; without one, NumPy's build
    configuration and the CPU count.
    """
    import ctypes

    libs = Path(np.__file__).resolve().parent.parent / "numpy.libs"
    for path in sorted(libs.glob("*openblas*.so*")):
        lib = ctypes.CDLL(str(path))
        for prefix in ("scipy_", ""):
            for suffix in ("64_", "", "_64"):
                corename = getattr(lib, f"{prefix}openblas_get_corename{suffix}", None)
                threads = getattr(lib, f"{prefix}openblas_get_num_threads{suffix}", None)
                config = getattr(lib, f"{prefix}openblas_get_config{suffix}", None)
                if corename is None or threads is None or config is None:
                    continue
                corename.restype = config.restype = ctypes.c_char_p
                build = " ".join(config().decode().split())
                return f"openblas {build}, core {corename().decode()} x{threads()}"
    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    return f"{blas.get('name')} {blas.get('version')} x{os.cpu_count()}"


@functools.cache
def environment_key() -> str:
    """What every run depends on besides its arguments: the library's source, the versions of
    Python, NumPy and SciPy, and the BLAS kernel (read once per process)."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    found = [".".join(map(str, sys.version_info[:3]))]
    for name in DISTRIBUTIONS:
        with contextlib.suppress(metadata.PackageNotFoundError):
            found.append(f"{name} {metadata.version(name)}")
    digest.update(repr(found).encode())
    digest.update(blas_config().encode())
    return digest.hexdigest()


@contextlib.contextmanager
def _one_writer(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path``'s entry: a second process computing the same run
    waits for the first, then reads its result."""
    import fcntl

    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def cached(run: Callable[P, R]) -> Callable[P, R]:
    """Cache an experiment's ``run`` in the folder ``PAPERLENS_EXPERIMENT_CACHE`` names (when
    it names one): the same arguments, library source, versions and BLAS kernel give the
    stored result without computing it again."""

    @functools.wraps(run)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        folder = os.environ.get(ENV)
        if not folder:
            return run(*args, **kwargs)
        try:
            given = pickle.dumps((args, sorted(kwargs.items())), protocol=4)
        except Exception:  # arguments that cannot be pickled cannot be keyed
            return run(*args, **kwargs)
        digest = hashlib.sha256(environment_key().encode())
        digest.update(f"{run.__module__}.{run.__qualname__}".encode() + b"\0" + given)
        path = Path(folder) / f"{digest.hexdigest()[:32]}.pickle"
        with _one_writer(path):
            result = read_pickle(path)
            if result is None:
                result = run(*args, **kwargs)
                write(path, pickle.dumps(result, protocol=4))
        return result  # type: ignore[no-any-return]

    return wrapper
