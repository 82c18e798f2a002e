"""Two builds of the same sources give byte-identical sites, the first with no network at all."""

import errno
import shlex
import subprocess
import sys
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


def test_the_cold_build_s_namespace_has_no_network_but_loopback(offline_namespace):
    """The namespace the session's cold build runs in (tests/conftest.py, `offline_command`): a
    connection to another host fails at once for want of a route (where the machine's own
    network times out or refuses), and one to loopback is answered."""
    probe = (
        "import socket\n"
        "server = socket.create_server(('127.0.0.1', 0))\n"
        "socket.create_connection(server.getsockname(), timeout=5).close()\n"
        "try:\n"
        "    socket.create_connection(('192.0.2.1', 80), timeout=5)\n"
        "except OSError as err:\n"
        "    print('unreachable', err.errno)\n"
    )
    result = subprocess.run(
        offline_namespace(f"{shlex.quote(sys.executable)} -c {shlex.quote(probe)}"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["unreachable", str(errno.ENETUNREACH)], result.stdout
