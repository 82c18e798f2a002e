"""The session's cold build runs with no network at all (tests/conftest.py, `offline_command`).

That a second, warm build gives the very same bytes is shown by the build over damaged caches
(tests/site/test_damaged_caches.py), which reads every other entry the cold build cached.
"""

import errno
import shlex
import subprocess
import sys


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
