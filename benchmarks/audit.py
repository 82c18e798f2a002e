"""Lighthouse audit of a few pages against the site's performance budget: ``make audit``.

    .venv/bin/python benchmarks/audit.py [--site DIR] [--keep DIR]

Builds the site strictly into a temporary folder (or takes ``--site``), serves it on 127.0.0.1
with gzip for text files as a static host would, and runs Lighthouse 12 (npm ``lighthouse``,
pinned in package.json) in Debian's Chromium on four pages, each as desktop (``--preset=desktop``)
and mobile (Lighthouse's default: a mid-range phone, throttled):

- the home page;
- one Foundations page, one Walkthrough page and one notebook page (``reproduce/``), the first
  built in each folder that is not its index or its print edition (else its index); a missing
  one is reported and left out.

It prints each category's score and each page's transferred bytes, split into *shared* and
*own*. Shared bytes are the files every page loads and a browser caches after the first:
everything under ``assets/`` (the theme's JavaScript and CSS, KaTeX's CSS and fonts, the site's
own CSS, the favicon) and the search index under ``search/``. Own bytes are the rest: the page's
HTML, its figures and any other file only it uses. It also prints the page weight of scripts
and of images: the bytes of each kind the page loaded (Lighthouse's resource summary; images
below the first screen load lazily, so they count only once scrolled to, as for a reader).

Each page and form is audited ``--runs`` times (3) and each score is the median, as Lighthouse's
documentation advises: scores vary from run to run, most of all on a busy machine. To compare
two builds, give ``--site`` twice: the runs alternate between the sites (run 1 of each page on
each site, then run 2, ...), so that the load of a busy machine falls on both alike. Goals, each
figure marked ``ok`` or ``MISS``: performance >= 0.95 desktop and >= 0.90 mobile;
accessibility 1.0; best practices >= 0.95; SEO >= 0.95; own bytes under 300 KB (300 000 bytes).
The exit status is 0 when every goal is met, 1 otherwise (2 when Lighthouse could not run).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

from sitekit import browser
from sitekit.paths import ROOT, build_env, engine

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
GOALS = {
    ("performance", "desktop"): 0.95,
    ("performance", "mobile"): 0.90,
    ("accessibility", "desktop"): 1.0,
    ("accessibility", "mobile"): 1.0,
    ("best-practices", "desktop"): 0.95,
    ("best-practices", "mobile"): 0.95,
    ("seo", "desktop"): 0.95,
    ("seo", "mobile"): 0.95,
}
OWN_BYTES_GOAL = 300_000
SHARED_PREFIXES = ("/assets/", "/search/")


def build(out: Path) -> None:
    subprocess.run(
        [engine(), "build", "--strict", "-f", "mkdocs.yml", "-d", str(out)],
        cwd=ROOT,
        env=build_env(),
        check=True,
    )


def pick_pages(site: Path) -> list[tuple[str, str]]:
    """(label, path) of the pages to audit; a section with no page is reported and skipped."""
    paths = browser.page_paths(site)
    chosen = [("home", "")]
    for label, folder in (
        ("foundations", "foundations/"),
        ("walkthrough", "walkthrough/"),
        ("notebook", "reproduce/"),
    ):
        inside = [p for p in paths if p.startswith(folder)]
        # not the index, nor the section's print edition (all its pages on one, not a page)
        pages = [p for p in inside if p not in (folder, f"{folder}print/")] or inside
        if pages:
            chosen.append((label, pages[0]))
        else:
            print(f"audit: no {label} page ({folder}) in the built site; left out", flush=True)
    return chosen


def lighthouse(url: str, form: str, out: Path) -> dict:
    flags = " ".join(browser.CHROMIUM_ARGS)
    cmd = [
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--chrome-flags={flags}",
        f"--only-categories={','.join(CATEGORIES)}",
    ]
    if form == "desktop":
        cmd.append("--preset=desktop")
    env = dict(os.environ, CHROME_PATH=str(browser.chromium()))
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text())


def transfer(report: dict, base: str) -> tuple[int, int, int, int]:
    """(total, own, script, image) bytes transferred, from the network-requests audit and the
    resource summary."""
    origin = urlsplit(base).netloc
    total = own = 0
    for item in report["audits"]["network-requests"]["details"]["items"]:
        size = int(item.get("transferSize") or 0)
        total += size
        url = urlsplit(item["url"])
        if url.netloc == origin and not url.path.startswith(SHARED_PREFIXES):
            own += size
    kinds = {
        item["resourceType"]: int(item.get("transferSize") or 0)
        for item in report["audits"]["resource-summary"]["details"]["items"]
    }
    return total, own, kinds.get("script", 0), kinds.get("image", 0)


Run = tuple[dict, int, int, int, int]  # scores, total, own, script and image bytes


def median_run(runs: list[Run]) -> Run:
    """Each category's median score over the runs, and the bytes of the run with the median
    performance (Lighthouse's scores vary from run to run; its docs advise a median)."""
    scores = {
        c: (
            None
            if any(r[0][c] is None for r in runs)
            else statistics.median_low(r[0][c] for r in runs)
        )
        for c in CATEGORIES
    }
    by_performance = sorted(runs, key=lambda r: r[0]["performance"] or 0)
    return (scores, *by_performance[(len(runs) - 1) // 2][1:])


def mark(ok: bool) -> str:
    return "ok" if ok else "MISS"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--site",
        type=Path,
        action="append",
        help="a built site (default: build one); twice to compare two builds, runs interleaved",
    )
    parser.add_argument("--keep", type=Path, help="keep the JSON reports in this folder")
    parser.add_argument(
        "--runs", type=int, default=3, help="Lighthouse runs per page and form; medians (3)"
    )
    parser.add_argument(
        "--forms", default="desktop,mobile", help="desktop, mobile or both (the default)"
    )
    parser.add_argument("--json", type=Path, help="also write every run's numbers here")
    args = parser.parse_args()
    forms = [f for f in args.forms.split(",") if f]
    if not set(forms) <= {"desktop", "mobile"}:
        parser.error("--forms takes desktop, mobile or desktop,mobile")

    missing = browser.chromium_missing()
    if missing or not LIGHTHOUSE.exists():
        print(f"audit: {missing or 'no Lighthouse; run `npm ci`'}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="paperlens-audit-") as tmp, ExitStack() as stack:
        work = Path(tmp)
        sites = args.site
        if not sites:
            sites = [work / "site"]
            build(sites[0])
        reports = args.keep or work / "reports"
        reports.mkdir(parents=True, exist_ok=True)
        bases = [stack.enter_context(browser.serve(site, gzip=True)) for site in sites]
        pages = pick_pages(sites[0])
        runs: dict[tuple[int, str, str], list[Run]] = {}
        for run in range(args.runs):
            for label, path in pages:
                for form in forms:
                    for i, base in enumerate(bases):
                        tag = f" (site {i + 1})" if len(sites) > 1 else ""
                        print(f"audit: {label} /{path} {form} run {run + 1}{tag}", flush=True)
                        name = f"{i + 1}-{browser.page_name(path)}-{form}-{run + 1}.json"
                        report = lighthouse(base + path, form, reports / name)
                        scores = {c: report["categories"][c]["score"] for c in CATEGORIES}
                        runs.setdefault((i, path, form), []).append(
                            (scores, *transfer(report, base))
                        )
        if args.keep is None:
            shutil.rmtree(reports, ignore_errors=True)
    if args.json:
        args.json.write_text(
            json.dumps(
                [
                    {"site": str(sites[i]), "page": "/" + path, "form": form, "runs": found}
                    for (i, path, form), found in runs.items()
                ],
                indent=1,
            )
        )

    all_ok = True
    for i, site in enumerate(sites):
        print(f"\n{site}" if len(sites) > 1 else "")
        head = f"{'page':<50} {'form':<8}"
        head += "".join(f" {c:>15}" for c in CATEGORIES)
        head += f" {'total KB':>9} {'own KB':>11} {'js KB':>7} {'img KB':>7}"
        print(head)
        print("-" * len(head))
        for label, path in pages:
            for form in forms:
                scores, total, own, script, image = median_run(runs[(i, path, form)])
                line = f"{label + ' /' + path:<50} {form:<8}"
                for c in CATEGORIES:
                    ok = scores[c] is not None and scores[c] >= GOALS[(c, form)]
                    all_ok &= ok
                    score = "n/a" if scores[c] is None else f"{scores[c]:.2f}"
                    line += f" {score + ' ' + mark(ok):>15}"
                ok = own < OWN_BYTES_GOAL
                all_ok &= ok
                line += f" {total / 1000:>9.1f} {f'{own / 1000:.1f} {mark(ok)}':>11}"
                line += f" {script / 1000:>7.1f} {image / 1000:>7.1f}"
                print(line)
    print()
    print(
        "Goals: performance >= 0.95 desktop, >= 0.90 mobile; accessibility 1.0; best practices"
        " >= 0.95; SEO >= 0.95; own < 300 KB.\nKB = 1000 bytes transferred (gzip for text);"
        " shared = assets/ and search/ (cached after the first page), own = the rest;\njs and"
        " img: the page's scripts and images, shared or not (Lighthouse's resource summary).\n"
        f"Scores: median of {args.runs} Lighthouse run(s) per page and form; bytes from the run"
        " with the median performance."
    )
    print("all goals met" if all_ok else "some goals missed (MISS)")
    return 0 if all_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
