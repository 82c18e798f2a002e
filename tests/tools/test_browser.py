"""Where the build and the tests find a browser (`sitekit.browser.find_chromium`): in
PAPERLENS_CHROMIUM, then Playwright's managed Chromium, then on PATH, then Chrome's macOS path."""

import os
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sitekit import browser


def executable(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A machine with no browser anywhere: an empty PATH, no Playwright Chromium, no macOS
    Chrome. Each test puts browsers where it wants them."""
    monkeypatch.delenv("PAPERLENS_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv("PLAYWRIGHT_BROWSERS_PATH", str(tmp_path / "ms-playwright"))
    monkeypatch.setattr(browser, "_playwright_chromium", lambda: None)
    monkeypatch.setattr(browser, "MACOS_CHROME", tmp_path / "Applications" / "Google Chrome")
    browser.find_chromium.cache_clear()
    yield tmp_path
    browser.find_chromium.cache_clear()


def test_no_browser_anywhere_is_none_and_the_reason_says_how_to_get_one(machine):
    assert browser.find_chromium() is None
    reason = browser.chromium_missing()
    assert reason is not None
    assert "no Chromium found" in reason and "apt-get install chromium" in reason
    assert "PAPERLENS_CHROMIUM" in reason and "playwright install chromium" in reason
    with pytest.raises(RuntimeError, match="no Chromium found"):
        browser.chromium()


@pytest.mark.parametrize("name", browser.ON_PATH)
def test_each_usual_name_is_found_on_path(machine, name):
    found = executable(machine / "bin", name)
    assert browser.find_chromium() == found
    assert browser.chromium_missing() is None


def test_the_names_on_path_are_tried_in_order(machine):
    executable(machine / "bin", "google-chrome")
    first = executable(machine / "bin", "chromium-browser")
    assert browser.find_chromium() == first


def test_a_file_that_cannot_run_is_not_a_browser(machine):
    (machine / "bin").mkdir()
    (machine / "bin" / "chromium").write_text("not executable")
    assert browser.find_chromium() is None


def test_playwright_s_own_chromium_comes_before_path(machine, monkeypatch):
    executable(machine / "bin", "chromium")
    managed = executable(machine / "ms-playwright" / "chromium-1" / "chrome-linux64", "chrome")
    monkeypatch.setattr(browser, "_playwright_chromium", lambda: managed)
    assert browser.find_chromium() == managed


def test_playwright_s_path_counts_only_once_installed(machine, monkeypatch):
    on_path = executable(machine / "bin", "chromium")
    (machine / "ms-playwright" / "chromium-1").mkdir(parents=True)  # a folder, without the browser
    monkeypatch.setattr(browser, "_playwright_chromium", lambda: machine / "not-installed")
    assert browser.find_chromium() == on_path


def test_playwright_is_not_asked_when_it_has_installed_no_chromium(machine, monkeypatch):
    """Asking Playwright starts its driver (half a second of every build): it is asked only
    when its browsers' folder holds a Chromium."""
    on_path = executable(machine / "bin", "chromium")

    def asked() -> Path:
        raise AssertionError("Playwright's driver was started")

    monkeypatch.setattr(browser, "_playwright_chromium", asked)
    (machine / "ms-playwright" / "firefox-1").mkdir(parents=True)
    assert browser.find_chromium() == on_path


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"PLAYWRIGHT_BROWSERS_PATH": "/opt/browsers"}, Path("/opt/browsers")),
        ({"XDG_CACHE_HOME": "/c"}, Path("/c/ms-playwright")),
    ],
)
def test_playwright_s_browsers_folder_is_where_its_registry_puts_it(env, expected, monkeypatch):
    monkeypatch.delenv("PLAYWRIGHT_BROWSERS_PATH", raising=False)
    monkeypatch.setattr(browser.sys, "platform", "linux")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert browser.playwright_browsers() == expected


def test_without_playwright_for_python_the_reason_says_to_run_make_env(machine, monkeypatch):
    executable(machine / "bin", "chromium")
    monkeypatch.setattr(browser.importlib.util, "find_spec", lambda name: None)
    assert browser.chromium_missing() == "Playwright for Python is not installed; run `make env`"


def test_chrome_s_macos_path_comes_last(machine):
    assert browser.find_chromium() is None
    mac = executable(browser.MACOS_CHROME.parent, browser.MACOS_CHROME.name)
    browser.find_chromium.cache_clear()
    assert browser.find_chromium() == mac
    on_path = executable(machine / "bin", "google-chrome-stable")
    browser.find_chromium.cache_clear()
    assert browser.find_chromium() == on_path


def test_paperlens_chromium_comes_first_and_alone(machine, monkeypatch):
    executable(machine / "bin", "chromium")
    mine = executable(machine / "mine", "my-chromium")
    monkeypatch.setenv("PAPERLENS_CHROMIUM", str(mine))
    assert browser.find_chromium() == mine
    # Named but absent: a mistake to report, not a reason to take another browser silently.
    monkeypatch.setenv("PAPERLENS_CHROMIUM", str(machine / "absent"))
    browser.find_chromium.cache_clear()
    assert browser.find_chromium() is None
    assert (
        browser.chromium_missing()
        == f"PAPERLENS_CHROMIUM={machine / 'absent'} is not an executable file"
    )


def test_playwright_names_its_own_chromium_for_this_version(tmp_path):
    """The real lookup: Playwright says where `playwright install chromium` puts its browser,
    inside PLAYWRIGHT_BROWSERS_PATH when that is set, whether or not it is installed."""
    pytest.importorskip("playwright.sync_api")
    # In a fresh Python: Playwright's sync API refuses to start inside another's loop, as a
    # browser test's session leaves it in this process (when it ran first, on this worker).
    asked = subprocess.run(
        [
            sys.executable,
            "-c",
            "from sitekit import browser; print(browser._playwright_chromium())",
        ],
        env=os.environ | {"PLAYWRIGHT_BROWSERS_PATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=True,
    )
    named = Path(asked.stdout.strip())
    assert named.is_relative_to(tmp_path), asked.stdout + asked.stderr
    assert named.relative_to(tmp_path).parts[0].startswith("chromium"), named


class _Request:
    """What `sitekit.browser.Tab` reads of a Playwright request when it fails."""

    def __init__(self, referer: str | None):
        self.headers = {"referer": referer} if referer else {}


@pytest.mark.parametrize(
    ("referer", "another"),
    [
        ("http://127.0.0.1:8000/walkthrough/step-3/", True),  # the previous page's image
        ("http://127.0.0.1:8000/walkthrough/step-5/", False),  # the page's own
        ("http://127.0.0.1:8000/assets/stylesheets/main.css", False),  # a font its CSS asked for
        (None, False),  # no Referer: counted, as before
    ],
)
def test_a_cancelled_load_is_the_page_s_own_unless_another_page_asked_for_it(referer, another):
    """A load the previous page started just before its tab moved on can be reported after
    the next visit began: its cancellation (ERR_ABORTED) is not the next page's failure."""
    visit = browser.Visit(page=None, url="http://127.0.0.1:8000/walkthrough/step-5/")  # type: ignore[arg-type]
    assert browser._asked_by_another_page(_Request(referer), visit) is another  # type: ignore[arg-type]


def test_a_client_that_leaves_mid_download_leaves_no_traceback(tmp_path, capfd):
    """A browser that moves on before a file has arrived resets the connection; the test
    server used to print socketserver's traceback of the broken pipe into the test output."""
    (tmp_path / "big.bin").write_bytes(b"x" * 20_000_000)
    with browser.serve(tmp_path) as base:
        port = int(base.rstrip("/").rsplit(":", 1)[1])
        client = socket.create_connection(("127.0.0.1", port))
        client.sendall(b"GET /big.bin HTTP/1.0\r\n\r\n")
        assert client.recv(100).startswith(b"HTTP/1.0 200")
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.close()  # a reset, not a polite close
        time.sleep(1)  # the server's thread meets the reset while it writes
    assert "Traceback" not in capfd.readouterr().err
