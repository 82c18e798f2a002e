"""The experiment log: every design tried, what it was run on, and what it found.

A claim decided on the data that chose its design is optimistic in a way no p-value corrects:
the design was picked, out of the ones tried, because it worked there. So each experiment keeps
a log, one JSON object per line in ``log/<experiment>.jsonl`` beside this module (it ships with
the library, so a downloaded notebook shows it too):

- every **exploration** run, on seeds that may inform the design, including designs that were
  abandoned, with the reason;
- every **confirmation** run, of any design (parts and reruns included), on seeds that no
  earlier entry used, except a rerun, which repeats an earlier confirmation's design, seeds and
  config with the same verdicts.

Each entry also records the command that computes (or reproduces) its numbers and the
provenance of the process that recorded it: the hash of the library's source, the Python, NumPy
and SciPy versions and the BLAS kernel. Where that is not the whole story of what computed the
numbers (another process computed them, the entry was reconstructed after the fact, the work
was split between runs, or the recorder's source matches no commit), ``computed_by`` says what
did: the commits and their source hashes where they are known.
`audit` checks the rules that make the log worth keeping: confirmation seeds are fresh, and the
log confirms exactly as many designs as the page discloses.

Examples:
    >>> import tempfile
    >>> from pathlib import Path
    >>> from paperlens.experiments import log
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = log.record(
    ...     "demo", design="v1", purpose="exploration", status="abandoned", config={"steps": 10},
    ...     seeds=range(5), command="python demo.py", outcome={"holds": False},
    ...     note="too few seeds to decide", folder=folder,
    ... )
    >>> _ = log.record(
    ...     "demo", design="v2", purpose="confirmation", status="adopted", config={"steps": 10},
    ...     seeds=range(100, 112), command="python demo.py", outcome={"holds": True},
    ...     folder=folder,
    ... )
    >>> [e["design"] for e in log.entries("demo", folder=folder)]
    ['v1', 'v2']
    >>> log.audit(log.entries("demo", folder=folder))
    []
"""

from __future__ import annotations

import datetime
import hashlib
import json
import platform
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np

LOG_DIR = Path(__file__).parent / "log"
"""Where the logs live: ``<experiment>.jsonl``, one entry per line, oldest first."""

PURPOSES = ("exploration", "confirmation")
STATUSES = ("adopted", "abandoned", "explored")
FIELDS = (
    "experiment",
    "date",
    "design",
    "purpose",
    "status",
    "config",
    "seeds",
    "command",
    "outcome",
    "note",
    "provenance",
)


def source_hash() -> str:
    """SHA-256 of the library's Python source (every ``*.py`` of ``paperlens``, by path)."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def blas_kernel() -> str:
    """The BLAS library and the kernel it chose for this CPU, e.g. ``openblas Haswell x2``."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:  # not a dependency of the library: say so rather than guess
        return "unknown (threadpoolctl not installed)"
    return ", ".join(
        f"{lib.get('internal_api')} {lib.get('architecture')} x{lib.get('num_threads')}"
        for lib in threadpool_info()
        if lib.get("user_api") == "blas"
    )


def provenance() -> dict[str, str]:
    """What a rerun needs to match: the library's source hash, versions and the BLAS kernel."""
    import scipy

    return {
        "library_sha256": source_hash(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "blas": blas_kernel(),
    }


def _path(experiment: str, folder: Path | None) -> Path:
    if not experiment or not experiment.replace("_", "").replace("-", "").isalnum():
        raise ValueError(
            f"experiment must be a plain name such as 'residual_depth', got {experiment!r}"
        )
    return (LOG_DIR if folder is None else Path(folder)) / f"{experiment}.jsonl"


def record(
    experiment: str,
    *,
    design: str,
    purpose: Literal["exploration", "confirmation"],
    status: Literal["adopted", "abandoned", "explored"],
    config: Mapping[str, Any],
    seeds: Iterable[int],
    command: str,
    outcome: Mapping[str, Any],
    note: str = "",
    computed_by: Mapping[str, str] | None = None,
    folder: Path | None = None,
) -> dict[str, Any]:
    """Append one entry to the experiment's log and return it.

    Args:
        experiment: the experiment's name, e.g. ``"residual_depth"``.
        design: a short name of the design run, e.g. ``"v2-depth-trend"``.
        purpose: ``"exploration"`` (seeds that may inform the design) or ``"confirmation"``
            (fresh seeds, the run that decides the page's claims).
        status: ``"adopted"``, ``"abandoned"`` or ``"explored"`` (informed the design).
        config: the design's settings, JSON-serialisable.
        seeds: the seeds it ran on.
        command: the command that computes (or reproduces) the numbers.
        outcome: what it found (claims, statistics), JSON-serialisable.
        note: why, in words, e.g. why a design was abandoned.
        computed_by: what computed the numbers, where this process's provenance does not say it
            all (e.g. ``{"commit": ..., "library_sha256": ..., "how": ...}``); the entry's
            ``provenance`` is always this process's, the recorder's.
        folder: where the log lives (default `LOG_DIR`).

    Returns:
        The entry as written.
    """
    if purpose not in PURPOSES:
        raise ValueError(f"purpose must be one of {PURPOSES}, got {purpose!r}")
    if status not in STATUSES:
        raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
    entry = {
        "experiment": experiment,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
        "design": design,
        "purpose": purpose,
        "status": status,
        "config": dict(config),
        "seeds": [int(s) for s in seeds],
        "command": command,
        "outcome": dict(outcome),
        "note": note,
        "provenance": provenance(),
    }
    if computed_by is not None:
        entry["computed_by"] = dict(computed_by)
    path = _path(experiment, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(entry, ensure_ascii=False, default=_plain)
    with path.open("a", encoding="utf-8") as f:
        f.write(line + "\n")
    return json.loads(line)  # type: ignore[no-any-return]


def _plain(value: Any) -> Any:
    """NumPy scalars and arrays as plain JSON values."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"cannot record a {type(value).__name__} in the log: {value!r}")


def entries(experiment: str, *, folder: Path | None = None) -> list[dict[str, Any]]:
    """Every entry of the experiment's log, oldest first (empty if it has none)."""
    path = _path(experiment, folder)
    if not path.exists():
        return []
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}, line {number}: not a JSON object: {error}") from None
        missing = [f for f in FIELDS if f not in entry]
        if missing:
            raise ValueError(f"{path}, line {number}: the entry lacks {', '.join(missing)}")
        found.append(entry)
    return found


def _verdicts(entry: Mapping[str, Any]) -> Any:
    """What a confirmation concluded: each claim's statement and verdict, or its outcome."""
    outcome = entry.get("outcome", {})
    if isinstance(outcome, Mapping) and isinstance(outcome.get("claims"), list):
        return [[c.get("statement"), c.get("holds")] for c in outcome["claims"]]
    return outcome


def audit(log: Sequence[Mapping[str, Any]], *, confirmations: int = 1) -> list[str]:
    """The log's breaches of its own rules, in words (an empty list when it keeps them).

    - Every confirmation entry runs on seeds that no earlier entry ran on, exploration or
      confirmation. A confirmation may be rerun (``make claims`` reruns the full sweeps): an
      entry with the same design, seeds and config as an earlier confirmation, that states the
      same claims (their margins and windows are in their words) with the same verdicts, is a
      rerun of it, not a new use of its seeds. Anything else on those seeds (a margin edited
      after a failure, a verdict that changed) is a new confirmation on used seeds. One design
      may be confirmed in parts, each on fresh seeds (the build's run and the full sweeps).
    - The log confirms exactly ``confirmations`` designs, whatever their status. Running
      confirmations of several designs and keeping the best chooses the design on the
      confirmation seeds, whether or not the others are later called "abandoned"; so a page
      whose first confirmation failed must say so and pass the number of designs it confirmed,
      and a log with none has confirmed nothing.

    Args:
        log: the entries, oldest first (`entries`).
        confirmations: how many confirmed designs the page that shows the log discloses.

    Returns:
        One sentence per breach.
    """
    problems = []
    seen: dict[int, str] = {}
    runs: set[tuple[str, tuple[int, ...], str]] = set()
    confirmed: dict[str, list[str]] = {}  # design: the statuses of its confirmation runs
    for number, entry in enumerate(log, 1):
        if entry["purpose"] == "confirmation":
            config = json.dumps([entry.get("config"), _verdicts(entry)], sort_keys=True)
            key = (entry["design"], tuple(entry["seeds"]), config)
            if key in runs:  # a rerun of the same confirmation, to the same verdicts
                continue
            runs.add(key)
            reused = sorted(set(entry["seeds"]) & set(seen))
            if reused:
                where = ", ".join(f"{s} ({seen[s]})" for s in reused[:5])
                problems.append(
                    f"entry {number} ({entry['design']}) confirms on seeds already used: {where}"
                )
            confirmed.setdefault(entry["design"], []).append(entry["status"])
        for seed in entry["seeds"]:
            seen.setdefault(seed, f"entry {number}, {entry['design']}")
    if len(confirmed) != confirmations:
        designs = ", ".join(f"{d} ({', '.join(st)})" for d, st in confirmed.items()) or "none"
        disclosed = f"where the page discloses {confirmations}"
        problems.append(f"{len(confirmed)} designs confirmed {disclosed}: {designs}")
    return problems


def markdown(log: Sequence[Mapping[str, Any]]) -> str:
    """The log as a Markdown table, for a page or a notebook to show."""
    rows = [
        "| # | date | design | purpose | status | seeds | what it found | note |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for number, entry in enumerate(log, 1):
        found = "; ".join(f"{k}: {_short(v)}" for k, v in entry["outcome"].items())
        cells = [
            str(number),
            entry["date"],
            f"`{entry['design']}`",
            entry["purpose"],
            entry["status"],
            _seed_range(entry["seeds"]),
            found,
            entry["note"],
        ]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)


def _short(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, list) and len(value) > 8:
        return f"{len(value)} values"
    return str(value)


def _seed_range(seeds: Sequence[int]) -> str:
    """``0–11 (12)`` for a run of consecutive seeds, else the list."""
    if seeds and list(seeds) == list(range(seeds[0], seeds[0] + len(seeds))) and len(seeds) > 2:
        return f"{seeds[0]}–{seeds[-1]} ({len(seeds)})"
    return ", ".join(map(str, seeds))


KERNELS = LOG_DIR / "kernels.json"
"""The verdicts of the last ``make claims`` (``tools/claims.py``), which reruns each
experiment's build claims under every BLAS kernel the CPU could run: written by it, read by the
pages (`kernels_markdown`), so that "holds under every kernel" can be audited from the site."""


def kernels_markdown(experiment: str, *, path: Path = KERNELS) -> str:
    """What the last ``make claims`` found for one experiment's claims, kernel by kernel.

    Args:
        experiment: the experiment's name, as in the log (``residual_depth``).
        path: the file ``make claims`` wrote.

    Returns:
        A paragraph, and a list with one item per claim: how many configurations it held
        under (or, for a claim its confirmation refuted, failed under), out of all the run's
        configurations, and the evidence under each configuration that ran it.

    Examples:
        >>> import json, tempfile
        >>> from pathlib import Path
        >>> from paperlens.experiments import log
        >>> found = {"date": "2026-12-06", "commit": "commit abc1234", "native": "Haswell",
        ...          "command": "python tools/claims.py", "configurations": ["Prescott", "Haswell"],
        ...          "claims": [{"experiment": "demo", "statement": "it rises",
        ...                      "verdicts": {"Prescott": [True, "p = 0.001"],
        ...                                   "Haswell": [True, "p = 0.002"]}}]}
        >>> path = Path(tempfile.mkdtemp()) / "kernels.json"
        >>> _ = path.write_text(json.dumps(found))
        >>> print(log.kernels_markdown("demo", path=path).splitlines()[-1])
        - It rises: holds under 2 of 2 (Prescott: p = 0.001; Haswell: p = 0.002).
    """
    if not path.is_file():
        return "*No run of `make claims` is recorded yet.*"
    found = json.loads(path.read_text(encoding="utf-8"))
    configurations = found["configurations"]
    claims = [c for c in found["claims"] if c["experiment"] == experiment]
    if not claims:
        return f"*The last `make claims` ({found['date']}) recorded no claim of {experiment}.*"
    items = []
    for claim in claims:
        verdicts, expected = claim["verdicts"], claim.get("expected", True)
        held = sum(bool(verdicts[c][0]) for c in configurations if c in verdicts)
        each = "; ".join(
            f"{c}: {verdicts[c][1] if verdicts[c][0] else 'FAILS, ' + verdicts[c][1]}"
            for c in configurations
            if c in verdicts
        )
        statement = claim["statement"][:1].upper() + claim["statement"][1:]
        counted = (
            f"holds under {held} of {len(configurations)}"
            if expected
            else f"fails, as its confirmation found, under {len(verdicts) - held} of "
            f"{len(configurations)}"
        )
        items.append(f"- {statement}: {counted} ({each}).")
    every = all(
        bool(v[0]) == c.get("expected", True) and len(c["verdicts"]) == len(configurations)
        for c in claims
        for v in c["verdicts"].values()
    )
    head = (
        f"The last `make claims` ran on {found['date']} at {found['commit']} "
        f"(`{found['command']}`; native kernel {found['native']}). It reran the "
        f"{len(claims)} claims below under {len(configurations)} BLAS configurations, "
        f"{', '.join(configurations)}: "
        + (
            "each reached the verdict its confirmation recorded under each."
            if every
            else "not every one reached the verdict its confirmation recorded."
        )
    )
    return head + "\n\n" + "\n".join(items)
