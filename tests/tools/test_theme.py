"""This site's changes to Material's templates (sitekit.theme) apply to the installed theme, and
one whose text the theme no longer has fails the build, naming it."""

from pathlib import Path

import jinja2
import material
import pytest

from sitekit import theme

THEME = Path(material.__file__).parent / "templates"


@pytest.mark.parametrize("name", sorted(theme.CHANGES))
def test_every_change_applies_to_the_installed_theme(name):
    source = (THEME / name).read_text()
    out = theme.changed(name, source)
    for change in theme.CHANGES[name]:
        assert change.theirs not in out
    assert out != source


def test_a_change_whose_text_is_gone_fails_naming_template_and_text():
    changes = {"base.html": [theme.Change("<old text>", "<new>", "a reason")]}
    with pytest.raises(theme.ThemeChangeError, match=r"base\.html.*'<old text>'.*a reason"):
        theme.changed("base.html", "<html></html>", changes)


def test_the_engine_loads_the_changed_templates():
    env = theme.apply(jinja2.Environment(loader=jinja2.FileSystemLoader(str(THEME))))
    source, _, _ = env.loader.get_source(env, "partials/source.html")
    assert 'data-md-component="source"' not in source
    assert 'class="md-source"' in source
