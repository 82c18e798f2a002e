"""The caches cannot lie: every entry is verified when read, a damaged one is dropped and
computed again, and writers never share a file (sitekit.cache, paperlens._cache)."""

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from paperlens import _cache as experiments
from sitekit import cache, examples, figures

# The three ways a disk that filled up, a lost power or a stray write leaves a file.
DAMAGE = {
    "truncated": lambda data: data[: len(data) // 2],
    "emptied": lambda data: b"",
    "garbage": lambda data: bytes(range(256)) * 2,
}


def damage(path, how):
    path.write_bytes(DAMAGE[how](path.read_bytes()))


def test_an_entry_reads_back_as_written(tmp_path):
    path = tmp_path / "x" / "entry.svg"
    cache.write(path, b"<svg/>")
    assert cache.read(path) == b"<svg/>"
    assert path.read_bytes().startswith(b"paperlens-cache sha256=")
    assert cache.read(tmp_path / "missing") is None
    assert list(path.parent.iterdir()) == [path]  # no temporary file left behind


@pytest.mark.parametrize("how", DAMAGE)
def test_a_damaged_entry_is_dropped_and_reported_in_one_line(tmp_path, capfd, how):
    path = tmp_path / "entry.svg"
    cache.write(path, b"<svg>" + b"x" * 100 + b"</svg>")
    damage(path, how)
    assert cache.read(path) is None
    assert not path.exists()  # dropped: the next build computes it again
    err = capfd.readouterr().err
    assert err == f"paperlens: cache entry {path} was damaged: dropped, and computed again\n"


def test_a_damaged_entry_with_a_matching_hash_is_impossible():
    content = b"abc"
    sealed = experiments.seal(content)
    assert experiments.unseal(sealed) == content
    assert experiments.unseal(sealed[:-1] + b"d") is None
    assert experiments.unseal(sealed.replace(b"sha256=", b"sha256=0", 1)) is None


def test_json_and_pickle_entries_that_no_longer_load_are_dropped(tmp_path, capfd):
    cache.write(tmp_path / "a.json", b"{not json")
    cache.write(tmp_path / "b.pickle", b"not a pickle")
    assert cache.read_json(tmp_path / "a.json") is None
    assert cache.read_pickle(tmp_path / "b.pickle") is None
    assert not list(tmp_path.iterdir())
    assert capfd.readouterr().err.count("unreadable") == 2
    cache.write_json(tmp_path / "c.json", {"b": 1, "a": [2]})
    assert cache.read_json(tmp_path / "c.json") == {"a": [2], "b": 1}


def _write_many(path, content, times):
    for _ in range(times):
        cache.write(path, content)
    return True


def test_processes_writing_one_entry_at_once_never_fail(tmp_path):
    """Two renderer processes both write each explorable's frames.json: with one shared
    temporary name, one's rename found the other's file gone (issues 22 and 25)."""
    path = tmp_path / "frames.json"
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        jobs = [pool.submit(_write_many, path, b'{"same": "content"}', 300) for _ in range(2)]
        assert all(job.result() for job in jobs)
    assert cache.read(path) == b'{"same": "content"}'
    assert [p.name for p in tmp_path.iterdir()] == ["frames.json"]


def test_the_blas_kernel_names_the_library_its_core_and_its_threads():
    config = cache.blas_config()
    assert config == experiments.blas_config()  # one home, the library's
    assert config.startswith("openblas ") and ", core " in config and config.rsplit(" x", 1)[1]


# --- The experiments' cache (paperlens._cache.cached) ------------------------------------------

CALLS = []


@experiments.cached
def square(x, *, offset=0):
    CALLS.append(x)
    return {"value": x * x + offset}


def test_an_experiment_is_computed_once_then_read(tmp_path, monkeypatch):
    monkeypatch.setenv(experiments.ENV, str(tmp_path))
    CALLS.clear()
    assert square(3) == {"value": 9}
    assert square(3) == {"value": 9}
    assert square(3, offset=1) == {"value": 10}  # other inputs: computed separately
    assert CALLS == [3, 3]
    entries = sorted(tmp_path.glob("*.pickle"))
    assert len(entries) == 2
    for entry in entries:  # damaged: computed again, and the result is the same
        damage(entry, "truncated")
    assert square(3) == {"value": 9} and CALLS == [3, 3, 3]
    assert pickle.loads(cache.read(entries[0]) or cache.read(entries[1])) == {"value": 9}


def test_without_the_variable_nothing_is_cached(monkeypatch):
    monkeypatch.delenv(experiments.ENV, raising=False)
    CALLS.clear()
    square(2)
    square(2)
    assert CALLS == [2, 2]


def test_the_key_covers_the_library_source_and_versions(tmp_path, monkeypatch):
    monkeypatch.setenv(experiments.ENV, str(tmp_path))
    CALLS.clear()
    square(4)
    monkeypatch.setattr(experiments, "environment_key", lambda: "another library or kernel")
    square(4)
    assert CALLS == [4, 4]


def test_the_library_s_key_covers_its_data_as_well_as_its_code(tmp_path, monkeypatch):
    """The experiment pages read the log and the kernels' verdicts: a new record must run them
    again (it once left them showing the configurations of the record before)."""
    library = tmp_path / "src" / "paperlens"
    log = library / "experiments" / "log" / "kernels.json"
    log.parent.mkdir(parents=True)
    (library / "__init__.py").write_text("x = 1\n")
    log.write_text('{"native": "Haswell"}')
    monkeypatch.setattr(cache, "ROOT", tmp_path)
    keys = {"figures and notebooks": figures.library_key, "examples": examples.environment_key}
    before = {name: key() for name, key in keys.items()}
    (library / "__pycache__").mkdir()
    (library / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"compiled")
    assert {name: key() for name, key in keys.items()} == before  # not a file of the library's
    log.write_text('{"native": "SkylakeX"}')
    after = {name: key() for name, key in keys.items()}
    assert all(after[name] != before[name] for name in keys), after
