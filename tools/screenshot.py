"""Screenshot built pages in headless Chromium: ``python tools/screenshot.py OUTDIR PAGE...``.

Serves ``site/`` on a free local port; ``--dark`` switches to the dark palette first;
``--full`` captures the whole page. PAGE is a path inside the site, such as ``foundations/``.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def serve(directory: Path) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("outdir", type=Path)
    parser.add_argument("pages", nargs="+")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--site", type=Path, default=ROOT / "site", help="built site folder")
    args = parser.parse_args()
    args.outdir.mkdir(parents=True, exist_ok=True)
    server = serve(args.site)
    base = f"http://127.0.0.1:{server.server_port}/"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": args.width, "height": 900})
        for path in args.pages:
            page.goto(base + path)
            if args.dark:
                page.click("label[for=__palette_1]")
                page.wait_for_timeout(200)
            name = (path.strip("/").replace("/", "_") or "index") + ("-dark" if args.dark else "")
            out = args.outdir / f"{name}.png"
            page.screenshot(path=str(out), full_page=args.full)
            print(out)
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
