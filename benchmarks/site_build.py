"""Time ``make site``: cold, no-change, one page edited, one figure edited, against a bare build.

    .venv/bin/python benchmarks/site_build.py [--runs 3]

Works on a scratch copy of the tracked files (so the checkout and its caches are untouched),
with its own cache folder. ``make site`` is the strict build and the check of every page's
proof after it. "Bare" is ``properdocs build`` of the same Markdown and theme with no plugins:
no math, figures, notebooks, API page or search index. Prints the median of each and its ratio
to the bare build, all measured in this one run, with the load average.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sitekit.paths import ROOT, build_env, engine

PAGE = "docs/contributing/sample-page.md"
FIGURE = "figures/contributing/sample-page/softmax-two-scores.py"


def scratch_copy(dest: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, files):
        src = ROOT / name.decode()
        if src.is_file():
            target = dest / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    (dest / "node_modules").symlink_to(ROOT / "node_modules")


def bare_config(repo: Path) -> Path:
    """mkdocs.yml without ``hooks:`` and ``plugins:`` (and their indented bodies)."""
    kept, skipping = [], False
    for line in (repo / "mkdocs.yml").read_text().splitlines():
        if line.startswith(("hooks:", "plugins:")):
            skipping = True
            continue
        if skipping and (line.startswith((" ", "\t")) or not line.strip()):
            continue
        skipping = False
        kept.append(line)
    path = repo / "mkdocs-bare.yml"
    path.write_text("\n".join(kept) + "\nplugins: []\n")
    return path


def bare_build(repo: Path, env: dict[str, str], config: str) -> float:
    """``properdocs build`` of the bare configuration."""
    args = [engine(), "build", "-f", config, "-d", str(repo / "site")]
    return timed(args, repo, env, config)


def make_site(repo: Path, env: dict[str, str]) -> float:
    """``make site`` in the copy: the strict build, then the check of every page's proof
    (sitekit.proof), with the checkout's environment (its venv, already installed).

    Its ``env`` step is never run (``-o``: make takes the install stamps as up to date): it
    would install the copy's library and sitekit, editable, into the checkout's venv, pointing
    it at a folder deleted when the benchmark ends, and time a pip install as a build."""
    venv = Path(engine()).parent
    installed = [f"-o{venv}/.installed-{torch}" for torch in (0, 1)] + ["-onode_modules/.installed"]
    args = ["make", "--no-print-directory", *installed, "site", f"BIN={venv}"]
    return timed([*args, f"SITE_DIR={repo / 'site'}"], repo, env, "make site")


def timed(args: list[str], repo: Path, env: dict[str, str], what: str) -> float:
    start = time.perf_counter()
    result = subprocess.run(args, cwd=repo, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"{what} failed:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}")
    return elapsed


def edited(path: Path, extra: str):
    original = path.read_text()

    class _Edit:
        def __enter__(self) -> None:
            path.write_text(original + extra)

        def __exit__(self, *exc: object) -> None:
            path.write_text(original)

    return _Edit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    times: dict[str, list[float]] = {
        k: [] for k in ("bare", "cold", "no change", "one page edited", "one figure edited")
    }
    with tempfile.TemporaryDirectory() as tmp:
        repo, cache = Path(tmp) / "repo", Path(tmp) / "cache"
        scratch_copy(repo)
        bare = bare_config(repo)
        # The copy builds with its own sitekit and paperlens, not the checkout's editable
        # installs (whose ROOT is the checkout): PYTHONPATH comes before site-packages.
        env = build_env(os.environ)
        env.pop("PAPERLENS_EXPERIMENT_CACHE", None)  # the experiments' too: under the cache
        env.update(
            PAPERLENS_CACHE_DIR=str(cache),
            PYTHONPATH=os.pathsep.join([str(repo / "tools"), str(repo / "src")]),
        )
        for run in range(args.runs):
            times["bare"].append(bare_build(repo, env, bare.name))
            shutil.rmtree(cache, ignore_errors=True)
            times["cold"].append(make_site(repo, env))
            times["no change"].append(make_site(repo, env))
            with edited(repo / PAGE, f"\n\nEdited for the benchmark, run {run}.\n"):
                times["one page edited"].append(make_site(repo, env))
            with edited(repo / FIGURE, f"\n# edited for the benchmark, run {run}\n"):
                times["one figure edited"].append(make_site(repo, env))
            print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
    base = statistics.median(times["bare"])
    print(f"{'build':<20}{'median s':>10}{'× bare':>9}   runs")
    for name, values in times.items():
        median = statistics.median(values)
        runs = ", ".join(f"{v:.2f}" for v in values)
        print(f"{name:<20}{median:>10.2f}{median / base:>9.2f}   {runs}")
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
