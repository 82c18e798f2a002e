"""The changes this site makes to Material's templates, applied as the theme loads them.

Each change replaces one piece of a theme template's text with another, and says why. A change
whose text the installed theme no longer has fails the build, naming it: after a theme upgrade,
find the new text and change the entry here. Nothing is copied, so every other line of the
theme stays the installed version's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jinja2


class Change(NamedTuple):
    theirs: str
    ours: str
    why: str


CHANGES: dict[str, list[Change]] = {
    "base.html": [
        Change(
            ' id="__drawer" autocomplete="off">',
            ' id="__drawer">',
            "HTML allows autocomplete only on text-like inputs, not on the drawer's checkbox"
            " (Nu Html Checker); main.html's scripts close a toggle a browser restores checked",
        ),
        Change(
            ' id="__search" autocomplete="off">',
            ' id="__search">',
            "the same, for the search toggle",
        ),
        Change(
            'content="{{ page.meta.description }}"',
            'content="{{ page.meta.description | e }}"',
            "a description with a double quote in it must not end the attribute early",
        ),
        Change(
            'content="{{ config.site_description }}"',
            'content="{{ config.site_description | e }}"',
            "the same, for the site's description",
        ),
    ],
    "partials/nav-item.html": [
        Change(
            ' tabindex="{{ tabindex }}">',
            '{% if tabindex %} tabindex="{{ tabindex }}"{% endif %}>',
            'a section\'s label that is not a tab stop gets no tabindex, not tabindex="" (invalid'
            " HTML; browsers ignore it, so readers see no change)",
        ),
    ],
    "partials/toc.html": [
        Change(
            '<label class="md-nav__title" for="__toc">',
            '{%- set toggle = not (page.is_index and page.parent and "navigation.indexes" in'
            " features) %}\n"
            '    <label class="md-nav__title"{% if toggle %} for="__toc"{% endif %}>',
            "nav-item.html renders a section's index page as the section's link, with no __toc"
            " toggle; a label for no control is invalid HTML",
        ),
    ],
    "partials/source.html": [
        Change(
            ' class="md-source" data-md-component="source">',
            ' class="md-source">',
            "without the component, the theme's script does not ask the forge's API for stars"
            " and forks: the site loads nothing from another origin; the link stays",
        ),
    ],
    "partials/search.html": [
        Change(
            'role="dialog">',
            'role="dialog" aria-label="{{ lang.t(\'search\') }}">',
            "the search dialog gets an accessible name (axe and Lighthouse: aria-dialog-name)",
        ),
    ],
}


class ThemeChangeError(Exception):
    """The installed theme's template no longer has the text a change replaces."""


def changed(name: str, source: str, changes: dict[str, list[Change]] = CHANGES) -> str:
    """``source``, the theme's template ``name``, with this site's changes made."""
    for change in changes.get(name, []):
        if change.theirs not in source:
            raise ThemeChangeError(
                f"the installed Material's {name} no longer has {change.theirs!r}, which"
                f" sitekit.theme changes so that {change.why}: update the change there"
            )
        source = source.replace(change.theirs, change.ours)
    return source


class _Loader(jinja2.BaseLoader):
    """The theme's loader, with `changed` applied to each template it loads."""

    def __init__(self, inner: jinja2.BaseLoader) -> None:
        self.inner = inner

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        source, filename, uptodate = self.inner.get_source(environment, template)
        return changed(template, source), filename, uptodate

    def list_templates(self) -> list[str]:
        return self.inner.list_templates()


def apply(env: Any) -> Any:
    """The engine's template environment, loading the theme's templates with this site's
    changes (from the plugin's ``on_env``)."""
    env.loader = _Loader(env.loader)
    return env
