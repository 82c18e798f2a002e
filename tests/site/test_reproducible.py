"""Two builds of the same sources give byte-identical sites, even with no network at all."""

from pathlib import Path



def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_a_cold_offline_build_is_byte_identical_to_the_session_build(site, offline_build):
    """`make site` in a network namespace with only loopback, from empty caches (started by
    tests/conftest.py as soon as the tests are collected, and run beside them).

    Compared with the session's build (made with whatever caches the checkout has), it proves
    three things at once: the build needs no network, caches never change the output, and
    nothing in the output depends on time, hash seeds or file order.
    """
    returncode, output, out = offline_build
    assert returncode == 0, output[-6000:]
    first, second = tree(site), tree(out)
    assert sorted(first) == sorted(second)
    differ = [name for name in first if first[name] != second[name]]
    assert not differ, f"{len(differ)} files differ between two builds: {differ[:10]}"
