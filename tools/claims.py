"""``make claims``: every experiment's claims under every BLAS kernel this CPU runs, and the
full sweeps once, recorded in the experiment log.

Floating-point results differ between CPUs because NumPy's bundled OpenBLAS picks a kernel for
the processor at start-up, and each kernel rounds matrix products differently. This is a
developer's check, run before finishing a change to an experiment or a page (not in CI, which
must leave ``OPENBLAS_CORETYPE`` alone). It runs:

1. each experiment's page setup, ``claims(run(PAGE))``, under every distinct kernel and once
   more on the native kernel with one thread, printing each claim's evidence per kernel;
2. each experiment's full sweeps, ``claims(run(FULL))``, once, on the native kernel, and
   records them in the experiment log (`paperlens.experiments.log`) with this command and the
   commit it ran at;
3. every page's examples (Sybil, ``pytest docs``) and a cold strict build of the site, under
   every kernel (skip them with ``--skip-pages`` and ``--skip-site``).

The contract an experiment module keeps to take part (``/work/briefs/experiments.md``):
``PAGE``, ``run(setup, *, perturbation=None)`` and ``claims(result) -> list[Claim]``; for the
full sweeps also ``FULL``, and ``record(result, *, command, note) -> dict`` to write its own log
entry (without ``record`` the entry is generic: the claims, ``FULL``'s fields as the config and
its ``seeds``). A module may also list ``KERNEL_CHECKS``, pairs of a setup and the function that
decides its claims (or triples, with the function that runs the setup, when ``run`` does not),
run with the page setup under every kernel (and not recorded); each such
claim must reach the verdict its confirmation recorded (``recorded(setup)``), which for a
claim the data refuted is "fails". A page claim must hold.
``--record-page`` records the page setup's run too: the first time, that is the
design's confirmation (run it once, after committing the design); later runs are reruns, which
the log's audit tells apart.

Kernels are found by trying names in a subprocess and reading the ``Core:`` line that
``OPENBLAS_VERBOSE=2`` prints: an unknown name falls back to the native kernel silently, and
several names share a kernel. A kernel the CPU cannot execute dies with SIGILL and is skipped.
Figures and printed digits may differ between kernels; claims may not.

Usage: ``python tools/claims.py [--jobs N] [--experiments NAME ...] [--skip-full]
[--no-record] [--record-page] [--skip-site] [--skip-pages]``. The machine is shared: run it
with ``nice``, and ``--jobs 1`` when it is busy.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
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
EXPERIMENTS = ["attention_scaling", "residual_depth"]
"""The modules of `paperlens.experiments` that make the Reproduce pages' claims."""

# Runs in a subprocess: sys.argv[1] is "page" or "full", the rest are experiment names; argv
# after "--" is the command and note to record, or nothing.
SCRIPT = """
import importlib, json, sys, time
part, rest = sys.argv[1], sys.argv[2:]
cut = rest.index("--") if "--" in rest else len(rest)
names, record = rest[:cut], rest[cut + 1 :]
out = []
for name in names:
    module = importlib.import_module(f"paperlens.experiments.{name}")
    setup = getattr(module, part.upper(), None)
    if setup is None:
        continue
    start = time.perf_counter()
    result = module.run(setup)
    seconds = time.perf_counter() - start
    claims = module.claims(result)
    expected = [True] * len(claims)
    if part == "page":  # the log's other designs, checked under every kernel too (not recorded)
        for other, decide, *runner in getattr(module, "KERNEL_CHECKS", ()):
            found = decide((runner[0] if runner else module.run)(other))
            recorded = module.recorded(other)[0]["outcome"]["claims"]
            claims += found
            expected += [c["holds"] for c in recorded]
        seconds = time.perf_counter() - start
    if record:
        command, note = record
        if hasattr(module, "record"):
            module.record(result, command=command, note=note)
        else:
            from paperlens.experiments import log
            log.record(
                name, design=getattr(getattr(module, "DESIGN", None), "name", part),
                purpose="confirmation", status="adopted",
                config=setup._asdict() if hasattr(setup, "_asdict") else {"setup": repr(setup)},
                seeds=list(getattr(setup, "seeds", [])), command=command,
                outcome={f"claim {i}": str(c) for i, c in enumerate(claims, 1)}, note=note,
            )
    for claim, verdict in zip(claims, expected, strict=True):
        out.append(dict(experiment=name, seconds=seconds, expected=verdict, **claim._asdict()))
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
    configs.append(Config(f"{native_kernel()}, 1 thread", _env(OPENBLAS_NUM_THREADS="1")))
    return configs, notes


def native_kernel() -> str:
    """The kernel OpenBLAS picks for this CPU when left alone."""
    probe = "import numpy; a = numpy.ones((64, 64)); a @ a"
    native = subprocess.run(
        [PYTHON, "-c", probe], env=_env(OPENBLAS_VERBOSE="2"), capture_output=True, text=True
    )
    core = re.search(r"Core: (\w+)", native.stdout + native.stderr)
    return core.group(1) if core else "native"


def _run(args: list[str], env: dict[str, str], **kwargs: object) -> tuple[int, str, float]:
    start = time.perf_counter()
    proc = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    return proc.returncode, proc.stdout + proc.stderr, time.perf_counter() - start


def _claims(part: str, experiments: list[str], env: dict[str, str], record: list[str]) -> object:
    """The experiments' claims at PAGE or FULL, as a list of dicts, or the error's last lines."""
    args = [PYTHON, "-c", SCRIPT, part, *experiments, *(["--", *record] if record else [])]
    code, out, _ = _run(args, env)
    found = [line for line in out.splitlines() if line.startswith("CLAIMS")]
    return json.loads(found[0][6:]) if code == 0 and found else out[-3000:]


def check(
    config: Config, experiments: list[str], *, pages: bool, site: bool, record: list[str]
) -> Config:
    """Run the page claims (and pages, site) under one configuration."""
    start = time.perf_counter()
    config.results["claims"] = _claims("page", experiments, config.env, record)
    config.results["claims time"] = time.perf_counter() - start
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
    print(f"  done: {config.name} ({time.perf_counter() - start:.0f} s)", flush=True)
    return config


def _short(claim: dict[str, object]) -> str:
    evidence = str(claim["evidence"])
    interval = re.search(r"\[[^\]]+\]", evidence)
    text = interval.group(0) if interval else evidence.replace("p = ", "p=")
    return ("ok " if _as_recorded(claim) else "FAIL ") + text


def _as_recorded(claim: dict[str, object]) -> bool:
    """Whether the claim reached the verdict its confirmation recorded (a page claim: holds)."""
    return bool(claim["holds"]) == bool(claim.get("expected", True))


def _labels(claims: list[dict[str, object]]) -> list[str]:
    """``experiment i: statement``, numbered within each experiment."""
    labels, count = [], {}  # type: ignore[var-annotated]
    for claim in claims:
        name = str(claim["experiment"])
        count[name] = count.get(name, 0) + 1
        labels.append(f"{name} {count[name]}: {str(claim['statement'])[:48]}")
    return labels


def table(configs: list[Config]) -> tuple[str, bool]:
    """One row per claim (and for pages and site), one column per configuration."""
    rows: list[list[str]] = [["claim", *[c.name for c in configs]]]
    ok = True
    first = next(
        (c.results["claims"] for c in configs if isinstance(c.results["claims"], list)), None
    )
    if isinstance(first, list):
        for i, label in enumerate(_labels(first)):
            row = [label]
            for c in configs:
                cs = c.results["claims"]
                if isinstance(cs, list) and i < len(cs):
                    row.append(_short(cs[i]))
                    ok &= _as_recorded(cs[i])
                else:
                    row.append("ERROR")
                    ok = False
            rows.append(row)
    else:
        ok = False
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


def write_verdicts(configs: list[Config], command: str, commit: str) -> None:
    """Write every configuration's verdict on each page claim to the file the Reproduce pages
    read (`paperlens.experiments.log.KERNELS`), so that the site shows what this run found."""
    from paperlens.experiments import log

    runs = [c for c in configs if isinstance(c.results["claims"], list)]
    first = runs[0].results["claims"] if runs else []
    assert isinstance(first, list)
    claims = []
    for i, claim in enumerate(first):
        verdicts = {}
        for c in runs:
            found = c.results["claims"]
            assert isinstance(found, list)
            if i < len(found):
                verdicts[c.name] = [bool(found[i]["holds"]), str(found[i]["evidence"])]
        claims.append(
            {
                "experiment": claim["experiment"],
                "statement": claim["statement"],
                "expected": bool(claim.get("expected", True)),
                "verdicts": verdicts,
            }
        )
    run = {
        "date": time.strftime("%Y-%m-%d"),
        "commit": commit,
        "command": command,
        "native": native_kernel(),
        "configurations": [c.name for c in configs],
        "claims": claims,
    }
    log.KERNELS.write_text(json.dumps(run, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _commit() -> str:
    """The commit the run is at, and whether the library had uncommitted changes."""
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    from paperlens.experiments import log

    verdicts = log.KERNELS.relative_to(ROOT).as_posix()  # this run's own output
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "src", f":(exclude){verdicts}"],
        cwd=ROOT, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    return f"commit {head}" + (" with uncommitted changes in src/" if dirty else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="configurations checked at once")
    parser.add_argument(
        "--experiments", nargs="+", default=EXPERIMENTS, choices=EXPERIMENTS, metavar="NAME",
        help=f"which experiments (default: all of {', '.join(EXPERIMENTS)})",
    )  # fmt: skip
    parser.add_argument("--skip-full", action="store_true", help="do not run the full sweeps")
    parser.add_argument(
        "--no-record", action="store_true", help="run the full sweeps without recording them"
    )
    parser.add_argument(
        "--record-page", action="store_true",
        help="record the page setup's run on the native kernel too (a design's confirmation)",
    )  # fmt: skip
    parser.add_argument("--skip-pages", action="store_true", help="do not run pytest docs")
    parser.add_argument("--skip-site", action="store_true", help="do not build the site")
    args = parser.parse_args()
    start = time.perf_counter()
    command = "python tools/claims.py " + shlex.join(sys.argv[1:])
    commit = _commit()  # at the start: the run checks this tree, not one committed during it
    note = f"make claims, {commit}, native kernel {native_kernel()}"
    configs, notes = kernels()
    print("kernels:", ", ".join(c.name for c in configs))
    for line in notes:
        print("  " + line)
    jobs = []
    with ThreadPoolExecutor(args.jobs) as pool:
        if not args.skip_full:  # the longest job first
            record = [] if args.no_record else [command, note]
            jobs.append(pool.submit(_claims, "full", args.experiments, _env(), record))
        done = list(
            pool.map(
                lambda c: check(
                    c, args.experiments, pages=not args.skip_pages, site=not args.skip_site,
                    record=[command, note] if args.record_page and c is configs[-1] else [],
                ),
                configs,
            )
        )  # fmt: skip
        full = jobs[0].result() if jobs else None
    text, ok = table(done)
    print(text)
    if args.experiments == EXPERIMENTS:  # every page's claims: what the pages show
        write_verdicts(done, command, commit)
    for c in done:
        if not isinstance(c.results["claims"], list):
            print(f"\n{c.name}: the experiments failed:\n{c.results['claims']}")
    if full is not None:
        print(f"\nfull sweeps ({'not recorded' if args.no_record else 'recorded in the log'}):")
        if isinstance(full, list):
            for label, claim in zip(_labels(full), full, strict=True):
                print(f"  {_short(claim)}  {label}  ({claim['seconds']:.0f} s for the sweep)")
                ok &= _as_recorded(claim)
        else:
            print(full)
            ok = False
    print(f"\nmake claims: {'every claim as recorded' if ok else 'SOME CLAIM DIFFERS'} under "
          f"{len(done)} configurations, in {time.perf_counter() - start:.0f} s")  # fmt: skip
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
