"""Caches that cannot lie: after a warm build, an entry of every kind of cache is damaged, and
the next `make site` passes, says so in one line per entry and builds the very same site.

Damaged as a disk that filled up or a machine that lost power leaves files: cut short, emptied,
or overwritten with garbage. Every way is tried on every kind of entry by the unit tests
(tests/tools/test_cache.py); here each kind gets one (`one_of_each_kind` in tests/conftest.py),
in a copy of the session's warm caches, so only the damaged entries are computed again. The
build starts as soon as the session's site is built (``damaged_build_started``), beside the
browser tests. (`tools/damaged_caches.py` damages every file.)
"""

from sitekit import cache


def test_a_build_over_damaged_caches_is_the_clean_build(site, damaged_build):
    returncode, output, given = damaged_build
    assert returncode == 0, output[-6000:]
    assert "Traceback" not in output
    assert len(given.damaged) == 9
    for path in given.damaged:  # one line each
        assert output.count(f"cache entry {path} was damaged") == 1, path
    first, second = cache.tree(site), cache.tree(given.site)
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []
