"""The plugin's proof of its checks on every page, and the check after the build that reads
it back against the sources (sitekit.proof)."""

from pathlib import Path

import pytest

from sitekit import proof

PAGE = """---
title: A page
---

```python
assert 1 + 1 == 2
```

```python
>>> 2 * 3
6
```
"""
NOTEBOOK = "# %%\nx = 1\n\n# %% [markdown]\n# Words.\n\n# %%\nx + 1\n"
HTML = "<html><head><title>t</title></head><body>text</body></html>"


@pytest.fixture
def built(tmp_path) -> tuple[Path, Path]:
    """Two sources, and the site the plugin would build from them."""
    docs, site = tmp_path / "docs", tmp_path / "site"
    (docs / "reproduce").mkdir(parents=True)
    (docs / "a.md").write_text(PAGE)
    (docs / "reproduce" / "nb.py").write_text(NOTEBOOK)
    pages = {
        "a/index.html": {"source": "docs/a.md", "examples": "2", "status": "passed"},
        "reproduce/nb/index.html": {"source": "docs/reproduce/nb.py", "cells": "2"},
        "404.html": {},
    }
    for name, facts in pages.items():
        if "cells" in facts:
            facts["executed"] = "yes"
        facts["checks"] = "all"
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(proof.mark(HTML, facts))
    return site, docs


def edit(page: Path, old: str, new: str) -> None:
    page.write_text(page.read_text().replace(old, new))


def test_a_site_the_plugin_built_passes_and_its_proofs_read_back(built):
    site, docs = built
    assert proof.check(site, docs) == []
    assert proof.read(site / "a" / "index.html") == [
        {"source": "docs/a.md", "examples": "2", "status": "passed", "checks": "all"}
    ]


def test_proofs_are_read_from_the_whole_head_and_only_from_it(built):
    """Two proofs in a long <head> (past the parser's first chunk, one after a script that
    writes "</head>") are both found; a <meta> in the body is not a proof."""
    site, docs = built
    page = site / "a" / "index.html"
    tag = f'<meta name="{proof.NAME}" content="source=docs/a.md">'
    script = '<script>document.write("</head>")</script>'
    long_head = "<title>t</title>" + "<!-- x -->" * 3000 + script + tag + tag
    page.write_text(f"<html><head>{long_head}</head><body>{tag}text</body></html>")
    assert proof.read(page) == [{"source": "docs/a.md"}] * 2
    assert "a/index.html: 2 proofs of the paperlens plugin's checks, not 1" in proof.check(
        site, docs
    )
    page.write_text(f"<html><head><title>t</title></head><body>{tag}</body></html>")
    assert proof.read(page) == []


def test_a_page_without_its_proof_fails(built):
    site, docs = built
    (site / "a" / "index.html").write_text(HTML)
    assert proof.check(site, docs) == [
        "a/index.html: 0 proofs of the paperlens plugin's checks, not 1",
        "docs/a.md: no page of the site carries its proof",
    ]


@pytest.mark.parametrize(
    ("page", "old", "new", "problem"),
    [
        ("a/index.html", "examples=2", "examples=1", "docs/a.md has 2 examples"),
        ("a/index.html", "status=passed", "status=not-run", "which must have passed"),
        ("a/index.html", "checks=all", "checks=run_examples:off", "checks switched off"),
        ("reproduce/nb/index.html", "executed=yes", "executed=no", "all to be executed"),
        ("reproduce/nb/index.html", "cells=2", "cells=1", "has 2 code cells"),
    ],
)
def test_a_proof_that_says_less_than_the_sources_require_fails(built, page, old, new, problem):
    site, docs = built
    edit(site / page, old, new)
    problems = proof.check(site, docs)
    assert len(problems) == 1 and problem in problems[0], problems


def test_the_checks_switched_off_are_named():
    assert proof.checks({"run_examples": True, "explorables": True}) == "all"
    assert proof.checks({"run_examples": False, "execute_notebooks": False}) == (
        "run_examples:off,execute_notebooks:off"
    )


def test_the_configuration_names_the_pages_folder(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text('site_url: !ENV [X, "https://x/"]\ndocs_dir: pages\n')
    assert proof.docs_dir(config) == (tmp_path / "pages").resolve()
    config.write_text("site_name: x\n")
    assert proof.docs_dir(config) == (tmp_path / "docs").resolve()
