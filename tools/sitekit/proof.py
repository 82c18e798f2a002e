"""The build fails closed: every page carries the plugin's proof that it checked it, and a
step after the build (``make site``; the built-site tests too) refuses a site where one is
missing or says less than the sources require.

A plugin cannot report that it was skipped: another engine (Zensical reads ``mkdocs.yml`` but
silently ignores plugins it does not know), or a configuration edited by mistake, builds the
pages without it, and nothing in the engine notices. So the plugin writes into the ``<head>``
of every HTML file it builds one ``<meta name="paperlens-checked">`` (`mark`), saying what it
checked there, and `check` reads them back against the sources::

    <meta name="paperlens-checked" content="source=docs/foundations/softmax.md examples=6
        status=passed checks=all">

- ``examples``: how many examples of the page ran (what Sybil collects from its source, which
  `check` counts again), and ``status``: ``passed``, ``failed``, or ``not-run`` (the plugin's
  ``run_examples: false``);
- ``cells`` and ``executed`` for an experiment notebook: its code cells, and ``yes`` when the
  build ran them (``execute_notebooks``);
- ``checks``: ``all``, or the checks the plugin's options switched off.

Run it by hand as ``.venv/bin/python -m sitekit.proof SITE_DIR [CONFIG]``.
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import yaml

NAME = "paperlens-checked"
SWITCHES = ("run_examples", "explorables", "execute_notebooks")


def facts_text(facts: dict[str, str]) -> str:
    """``key=value`` pairs, in a fixed order (a build is byte-identical to the next)."""
    return " ".join(f"{k}={v}" for k, v in facts.items())


def mark(page_html: str, facts: dict[str, str]) -> str:
    """``page_html`` with the proof in its ``<head>``."""
    tag = f'<meta name="{NAME}" content="{facts_text(facts)}">'
    head, found, rest = page_html.partition("</head>")
    if not found:
        raise ValueError("a page without </head>: the proof of its checks has nowhere to go")
    return f"{head}{tag}\n{found}{rest}"


def checks(options: dict[str, Any]) -> str:
    """``all``, or the checks the plugin's options switched off (``run_examples:off,...``)."""
    off = [name for name in SWITCHES if not options.get(name, True)]
    return ",".join(f"{name}:off" for name in off) or "all"


class _Proofs(HTMLParser):
    """The proofs in a page's ``<head>``; `head_read` once its end tag is parsed."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[dict[str, str]] = []
        self.head_read = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "meta" and a.get("name") == NAME and not self.head_read:
            content = a.get("content") or ""
            self.found.append(dict(part.split("=", 1) for part in content.split() if "=" in part))

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self.head_read = True


# The parser reads a page this many characters at a time, up to the end of its <head>.
_CHUNK = 16384


def read(page: Path) -> list[dict[str, str]]:
    """The proofs in the ``<head>`` of one built HTML file, where `mark` puts them (exactly one
    when the plugin built it). The body, most of a page's bytes (parsing every page whole took
    two thirds of ``make site``'s check), is not read."""
    parser = _Proofs()
    text = page.read_text(encoding="utf-8")
    for start in range(0, len(text), _CHUNK):
        parser.feed(text[start : start + _CHUNK])
        if parser.head_read:
            break
    return parser.found


# A YAML loader that reads mkdocs.yml's own tags (``!ENV``, ``!!python/name``) as nothing: only
# the plain settings are wanted here.
_AnyTag: Any = type("_AnyTag", (yaml.SafeLoader,), {})
_AnyTag.add_multi_constructor("", lambda loader, suffix, node: None)
_AnyTag.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def docs_dir(config: Path) -> Path:
    """The pages' folder a configuration names (``docs_dir``, relative to the file)."""
    settings = yaml.load(config.read_text(encoding="utf-8"), Loader=_AnyTag) or {}
    return (config.parent / str(settings.get("docs_dir") or "docs")).resolve()


def check(site: Path, docs: Path) -> list[str]:
    """Every problem with the proofs of the site built into ``site`` from ``docs``: a page
    without its proof, a check switched off, an example count or a notebook's cells that differ
    from what its source holds, a failed or unexecuted page, a source with no page."""
    from sitekit.examples import collected
    from sitekit.notebooks import code_cells, is_notebook

    problems: list[str] = []
    proved: set[str] = set()
    pages = sorted(site.rglob("*.html"))
    if not pages:
        return [f"{site}: no HTML pages"]
    for page in pages:
        name = page.relative_to(site).as_posix()
        found = read(page)
        if len(found) != 1:
            problems.append(f"{name}: {len(found)} proofs of the paperlens plugin's checks, not 1")
            continue
        facts = found[0]
        if facts.get("checks") != "all":
            problems.append(f"{name}: built with checks switched off ({facts.get('checks')})")
        source = facts.get("source", "")
        if not source:  # a page of the theme (404.html): nothing of the sources to check
            continue
        proved.add(source)
        path = docs.joinpath(source.removeprefix("docs/"))
        if is_notebook(source.removeprefix("docs/")):
            cells = code_cells(path.read_text(encoding="utf-8")) if path.is_file() else 0
            if facts.get("cells") != str(cells) or facts.get("executed") != "yes":
                problems.append(
                    f"{name}: {facts.get('cells')} code cells, executed={facts.get('executed')};"
                    f" {source} has {cells} code cells, all to be executed"
                )
            continue
        count = collected(path) if path.is_file() else 0  # a generated page has none
        status = "passed" if count else "none"
        if facts.get("examples") != str(count) or facts.get("status") != status:
            problems.append(
                f"{name}: examples={facts.get('examples')} status={facts.get('status')}; "
                f"{source} has {count} examples, which must have {status}"
            )
    sources = [p for p in docs.rglob("*.md")] + [p for p in docs.rglob("*.py")]
    for path in sorted(sources):
        source = "docs/" + path.relative_to(docs).as_posix()
        if source.endswith(".md") or is_notebook(source.removeprefix("docs/")):
            if source not in proved:
                problems.append(f"{source}: no page of the site carries its proof")
    return problems


def main(argv: list[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print("usage: python -m sitekit.proof SITE_DIR [CONFIG]", file=sys.stderr)
        return 2
    site = Path(argv[0])
    config = Path(argv[1] if len(argv) > 1 else "mkdocs.yml")
    problems = check(site, docs_dir(config))
    if problems:
        print(
            f"{site}: {len(problems)} problems with the paperlens plugin's proof of its checks"
            f" (was the plugin in {config}'s plugins, with every check on?):\n  "
            + "\n  ".join(problems[:40]),
            file=sys.stderr,
        )
        return 1
    pages = len(list(site.rglob("*.html")))
    print(f"{site}: every one of the {pages} pages carries the plugin's proof of its checks")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
