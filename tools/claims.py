"""``make claims``: every claim of the site under every BLAS kernel this CPU can execute.

Floating-point results differ between CPUs because NumPy's bundled OpenBLAS picks a kernel for
the processor at start-up, and each kernel rounds matrix products differently. This is a
developer's check, run before finishing a change to an experiment or a page (not in CI, which
must leave ``OPENBLAS_CORETYPE`` alone): for each distinct kernel, and once more on the native
kernel with one thread, it runs

1. both Reproduce experiments, printing each claim's statistic;
2. every page's examples (Sybil, ``pytest docs``);
3. a cold strict build of the site (fresh caches), which runs the notebooks again.

Kernels are found by trying names in a subprocess and reading the ``Core:`` line that
``OPENBLAS_VERBOSE=2`` prints: an unknown name falls back to the native kernel silently, and
several names share a kernel. A kernel the CPU cannot execute dies with SIGILL and is skipped.
Figures and printed digits may differ between kernels; claims may not. The table at the end
gives each claim's evidence per configuration.

Usage: ``python tools/claims.py [--jobs N] [--skip-site] [--skip-pages]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from sitekit.paths import ROOT, engine

PYTHON = sys.executable
NAMES = [
    "Prescott", "Core2", "Nehalem", "Sandybridge", "Haswell", "Zen", "SkylakeX", "Cooperlake",
    "SapphireRapids",
]  # fmt: skip
CLAIMS_SCRIPT = """
import json
from paperlens.experiments import attention_scaling, residual_depth
out = []
for module in (attention_scaling, residual_depth):
    for claim in module.claims(module.run(module.PAGE)):
        out.append(dict(experiment=module.__name__.rsplit(".", 1)[1], **claim._asdict()))
print("CLAIMS" + json.dumps(out))
"""


@dataclass
class Config:
    name: str
    env: dict[str, str]
    results: dict[str, object] = field(default_factory=dict)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENBLAS_")}
    return env | extra


def kernels() -> tuple[list[Config], list[str]]:
    """One configuration per distinct kernel, and notes on the names that were not."""
    probe = "import numpy; a = numpy.ones((64, 64)); a @ a"
    seen: dict[str, str] = {}
    notes = []
    for name in NAMES:
        proc = subprocess.run(
            [PYTHON, "-c", probe],
            env=_env(OPENBLAS_CORETYPE=name, OPENBLAS_VERBOSE="2"),
            capture_output=True,
            text=True,
        )
        if proc.returncode == -signal.SIGILL:
            notes.append(f"{name}: skipped, this CPU cannot execute it (SIGILL)")
            continue
        if proc.returncode != 0:
            notes.append(f"{name}: skipped, exit code {proc.returncode}")
            continue
        core = re.search(r"Core: (\w+)", proc.stdout + proc.stderr)
        chosen = core.group(1) if core else "?"
        if "not found" in proc.stdout + proc.stderr:
            notes.append(f"{name}: unknown to this OpenBLAS, falls back to {chosen}")
        elif chosen in seen:
            notes.append(f"{name}: runs the same kernel as {seen[chosen]} ({chosen})")
        else:
            seen[chosen] = name
    configs = [
        Config(f"{core} ({name})", _env(OPENBLAS_CORETYPE=name)) for core, name in seen.items()
    ]
    native = subprocess.run(
        [PYTHON, "-c", probe], env=_env(OPENBLAS_VERBOSE="2"), capture_output=True, text=True
    )
    core = re.search(r"Core: (\w+)", native.stdout + native.stderr)
    name = core.group(1) if core else "native"
    configs.append(Config(f"{name}, 1 thread", _env(OPENBLAS_NUM_THREADS="1")))
    return configs, notes


def _run(args: list[str], env: dict[str, str], **kwargs: object) -> tuple[int, str, float]:
    start = time.perf_counter()
    proc = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    return proc.returncode, proc.stdout + proc.stderr, time.perf_counter() - start


def check(config: Config, *, pages: bool, site: bool) -> Config:
    code, out, seconds = _run([PYTHON, "-c", CLAIMS_SCRIPT], config.env)
    found = [line for line in out.splitlines() if line.startswith("CLAIMS")]
    config.results["claims"] = json.loads(found[0][6:]) if code == 0 and found else out[-2000:]
    config.results["claims time"] = seconds
    if pages:
        code, out, seconds = _run(
            [PYTHON, "-m", "pytest", "docs", "-q", "-p", "no:randomly"], config.env
        )
        summary = out.strip().splitlines()[-1] if out.strip() else "?"
        config.results["pages"] = (code == 0, summary, seconds)
    if site:
        with tempfile.TemporaryDirectory() as tmp:
            env = config.env | {"PAPERLENS_CACHE_DIR": f"{tmp}/cache"}
            build = [engine(), "build", "--strict", "-f", "mkdocs.yml", "-d", f"{tmp}/site"]
            code, out, seconds = _run(build, env)
        errors = [line for line in out.splitlines() if "ERROR" in line or "Error" in line]
        config.results["site"] = (code == 0, errors[:3], seconds)
    print(f"  done: {config.name}", flush=True)
    return config


def _short(claim: dict[str, object]) -> str:
    evidence = str(claim["evidence"])
    interval = re.search(r"\[[^\]]+\]", evidence)
    text = interval.group(0) if interval else evidence.replace("p = ", "p=")
    return ("ok " if claim["holds"] else "FAIL ") + text


def table(configs: list[Config]) -> tuple[str, bool]:
    rows: list[list[str]] = [["claim", *[c.name for c in configs]]]
    ok = True
    first = configs[0].results["claims"]
    if isinstance(first, list):
        for i, claim in enumerate(first):
            label = f"{claim['experiment']} {i % 5 + 1}: {str(claim['statement'])[:48]}"
            row = [label]
            for c in configs:
                cs = c.results["claims"]
                if isinstance(cs, list):
                    row.append(_short(cs[i]))
                    ok &= bool(cs[i]["holds"])
                else:
                    row.append("ERROR")
                    ok = False
            rows.append(row)
    for key in ("pages", "site"):
        if key in configs[0].results:
            row = ["page examples (pytest docs)" if key == "pages" else "cold make site (strict)"]
            for c in configs:
                result = c.results[key]
                assert isinstance(result, tuple)
                passed, detail, seconds = result
                ok &= bool(passed)
                summary = detail if key == "pages" else ("ok" if passed else f"FAIL {detail}")
                row.append(f"{summary} ({seconds:.0f} s)")
            rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [" | ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines), ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="configurations checked at once")
    parser.add_argument("--skip-pages", action="store_true", help="do not run pytest docs")
    parser.add_argument("--skip-site", action="store_true", help="do not build the site")
    args = parser.parse_args()
    start = time.perf_counter()
    configs, notes = kernels()
    print("kernels:", ", ".join(c.name for c in configs))
    for note in notes:
        print("  " + note)
    with ThreadPoolExecutor(args.jobs) as pool:
        done = list(
            pool.map(
                lambda c: check(c, pages=not args.skip_pages, site=not args.skip_site), configs
            )
        )
    text, ok = table(done)
    print(text)
    for c in done:
        if not isinstance(c.results["claims"], list):
            print(f"\n{c.name}: the experiments failed:\n{c.results['claims']}")
    print(f"\nmake claims: {'every claim holds' if ok else 'SOME CLAIM FAILS'} under "
          f"{len(done)} configurations, in {time.perf_counter() - start:.0f} s")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
