"""Two builds of the same sources give byte-identical sites, the first with no network at all."""

from pathlib import Path


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_a_warm_build_is_byte_identical_to_the_cold_offline_one(site, warm_build):
    """The session's site is a cold ``make site`` from empty caches, in a network namespace with
    only loopback (tests/conftest.py); the second reads everything the first computed from the
    session's caches, and renders every page again.

    Byte-identical, they show three things at once: the build needs no network, caches never
    change the output, and nothing in the output depends on time, hash seeds or file order.
    (That each computation gives the same bytes twice is checked where it is cheap: a figure,
    an explorable's frames, tests/tools.)
    """
    returncode, output, again = warm_build
    assert returncode == 0, output[-6000:]
    first, second = tree(site), tree(again)
    assert sorted(first) == sorted(second)
    differ = [name for name in first if first[name] != second[name]]
    assert not differ, f"{len(differ)} files differ between two builds: {differ[:10]}"
