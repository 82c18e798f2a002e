"""How `make serve`'s engine stops (sitekit.lifecycle.Stopper): between two builds once it
serves, as Ctrl-C does before. The whole stop, signals and processes, is tested under
`make serve` in tests/browser/test_serve.py."""

import threading

import pytest

from sitekit.lifecycle import Stopper


class Server:
    """Stands in for the engine's live-reload server: a loop that runs until shut down."""

    def __init__(self) -> None:
        self.stopped = threading.Event()
        self.shutdowns = 0
        self.serve_thread = threading.Thread(target=self.stopped.wait, daemon=True)

    def shutdown(self) -> None:
        self.shutdowns += 1
        self.stopped.set()


def test_a_stop_before_the_server_serves_interrupts_as_ctrl_c_does():
    stopper = Stopper()
    with pytest.raises(KeyboardInterrupt):
        stopper.stop()  # the first build: no server yet
    stopper.server = Server()
    with pytest.raises(KeyboardInterrupt):
        stopper.stop()  # given to the plugin, but not serving yet
    assert stopper.server.shutdowns == 0


def test_a_stop_while_serving_shuts_the_server_down_once_and_a_second_interrupts():
    stopper, server = Stopper(), Server()
    stopper.server = server
    server.serve_thread.start()
    stopper.stop()
    server.serve_thread.join(timeout=10)
    assert not server.serve_thread.is_alive()
    assert server.shutdowns == 1 and stopper.stopping
    with pytest.raises(KeyboardInterrupt):  # a second Ctrl-C: the build in progress stops
        stopper.stop()
    assert server.shutdowns == 1
