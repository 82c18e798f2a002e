"""The theme templates copied into ``overrides/`` are the installed theme's, changed only where
their header says.

A template that is copied freezes the theme at the version it was copied from. These tests
compare each copy with the installed Material template, so that a theme upgrade that changes a
copied template fails here (re-copy it and re-apply the change) instead of silently serving the
old one.
"""

import re
from importlib.metadata import version
from pathlib import Path

import material
import pytest

from sitekit.paths import ROOT

OVERRIDES = ROOT / "overrides"
THEME = Path(material.__file__).parent / "templates"
HEADER = re.compile(r"\A\{#-\n.*?\n-#\}\n", re.S)

# template: the changes made to the theme's copy, as (theme's text, override's text) pairs.
COPIES = {
    "base.html": [
        (' id="__drawer" autocomplete="off">', ' id="__drawer">'),
        (' id="__search" autocomplete="off">', ' id="__search">'),
        ('content="{{ page.meta.description }}"', 'content="{{ page.meta.description | e }}"'),
        ('content="{{ config.site_description }}"', 'content="{{ config.site_description | e }}"'),
    ],
    "partials/nav-item.html": [
        (' tabindex="{{ tabindex }}">', '{% if tabindex %} tabindex="{{ tabindex }}"{% endif %}>'),
    ],
    "partials/toc.html": [
        (
            '<label class="md-nav__title" for="__toc">',
            "{#- nav-item.html renders a section's index page as the section's link, without"
            " __toc -#}\n"
            '    {% set toggle = not (page.is_index and page.parent and "navigation.indexes" in'
            " features) %}\n"
            '    <label class="md-nav__title"{% if toggle %} for="__toc"{% endif %}>',
        ),
    ],
    "partials/source.html": [
        (' class="md-source" data-md-component="source">', ' class="md-source">'),
    ],
    "partials/search.html": [
        (
            'role="dialog">',
            'role="dialog" aria-label="{{ lang.t(\'search\') }}">',
        ),
    ],
}


def test_every_copied_template_is_listed_here():
    copied = {
        p.relative_to(OVERRIDES).as_posix()
        for p in OVERRIDES.rglob("*.html")
        if (THEME / p.relative_to(OVERRIDES)).is_file()
        and "{% extends" not in p.read_text()  # main.html extends the theme's; it copies nothing
    }
    assert copied == set(COPIES)


@pytest.mark.parametrize("template", sorted(COPIES))
def test_copy_is_the_installed_theme_plus_its_change(template):
    override = (OVERRIDES / template).read_text()
    header = HEADER.match(override)
    assert header, f"overrides/{template}: no header comment saying what was changed"
    assert f"Material {version('mkdocs-material')} {template}, copied" in header.group(0), (
        f"overrides/{template} was copied from another Material version: re-copy it from the "
        f"installed theme and re-apply its change"
    )
    expected = HEADER.sub("", (THEME / template).read_text(), count=1)
    for theirs, ours in COPIES[template]:
        assert theirs in expected, f"the theme's {template} no longer has {theirs!r}"
        expected = expected.replace(theirs, ours)
    assert override[header.end() :] == expected
