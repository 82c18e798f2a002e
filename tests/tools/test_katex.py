"""Build-time math: KaTeX renders TeX to HTML, and refuses what it cannot read."""

import pytest

from sitekit import PageError, katex


@pytest.fixture
def renderer(tmp_path, monkeypatch):
    r = katex.Renderer(tmp_path / "katex.json")
    yield r
    r.close()


def test_inline_and_display_math_become_katex_html(renderer):
    page = (
        '<p><span class="arithmatex">\\(\\sqrt{d_k}\\)</span></p>'
        '<div class="arithmatex">\\[\\sum_{i=1}^{d_k} q_i k_i\\]</div>'
    )
    out = renderer.render_page(page, where="docs/x.md")
    assert "arithmatex" not in out
    assert out.count('class="katex"') == 2

    assert 'class="katex-display"' in out
    assert "sqrt" in out  # KaTeX draws the root with its own svg/class names


def test_operatorname_renders_without_a_stray_space(renderer):
    out = renderer.render(r"\operatorname{Var}(X)", display=False, where="docs/x.md")
    assert 'class="mop' in out and "Var" in out


def test_html_entities_are_unescaped_before_rendering(renderer):
    # arithmatex escapes < and & inside math; KaTeX must see the real characters.
    out = renderer.render_page('<span class="arithmatex">\\(a &lt; b\\)</span>', where="p.md")
    assert "&lt;" in out and "amp;lt" not in out


@pytest.mark.parametrize("tex", [r"\frac{1}{", r"\notacommand{x}", r"\sqrt{d_k"])
def test_malformed_or_unknown_tex_fails_naming_page_and_formula(renderer, tex):
    page = f'<span class="arithmatex">\\({tex}\\)</span>'
    with pytest.raises(PageError) as err:
        renderer.render_page(page, where="docs/foundations/softmax.md")
    assert "docs/foundations/softmax.md" in str(err.value)
    assert repr(tex) in str(err.value)


def test_rendered_formulas_are_cached_between_builds(tmp_path, monkeypatch):
    first = katex.Renderer(tmp_path / "katex.json")
    html = first.render("x^2", display=False, where="p.md")
    first.close()
    assert first.rendered == 1
    second = katex.Renderer(tmp_path / "katex.json")
    assert second.render("x^2", display=False, where="p.md") == html
    assert second.rendered == 0
    second.close()


def test_a_damaged_cache_is_dropped_and_the_formulas_rendered_again(tmp_path, monkeypatch, capfd):
    """A truncated katex.json once stopped every later build with a JSONDecodeError."""
    first = katex.Renderer(tmp_path / "katex.json")
    html = first.render("x^2", display=False, where="p.md")
    first.close()
    data = first.cache_file.read_bytes()
    first.cache_file.write_bytes(data[: len(data) // 2])
    second = katex.Renderer(tmp_path / "katex.json")
    assert second.render("x^2", display=False, where="p.md") == html
    assert second.rendered == 1
    second.close()
    assert "katex.json was damaged: dropped" in capfd.readouterr().err


def test_notebook_text_math_is_marked_as_a_page_s_and_rendered(renderer):
    marked = katex.mark_text_math("<p>cost $O(n^2)$ and $$e^x$$</p>")
    assert marked == (
        '<p>cost <span class="arithmatex">\\(O(n^2)\\)</span> and '
        '<div class="arithmatex">\\[e^x\\]</div></p>'
    )
    out = renderer.render_page(marked, where="nb.py")
    assert "$" not in out and "arithmatex" not in out
    assert out.count('class="katex"') == 2


def test_notebook_code_keeps_its_dollars(renderer):
    code = '<div class="highlight"><pre><span>f"$d_k = {d}$ and $n$"</span></pre></div>'
    inline = "<p>run <code>print('$x$')</code> for $x$</p>"
    out = katex.mark_text_math(code + inline)
    assert out.startswith(code)
    assert "<code>print('$x$')</code>" in out and out.count('class="arithmatex"') == 1


def test_shipped_assets_are_local_woff2_fonts_only():
    assets = katex.asset_files()
    css = assets["assets/katex/katex.min.css"].decode()
    assert ".woff)" not in css and ".ttf)" not in css
    fonts = [p for p in assets if p.endswith(".woff2")]
    assert len(fonts) >= 15
    for name in fonts:
        assert f"url(fonts/{name.rsplit('/', 1)[1]})" in css


@pytest.mark.parametrize(
    ("heading", "text"),
    [
        (r"Why \(QK^\top\) needs it", "Why QKᵀ needs it"),
        (r"Divide by \(\sqrt{d_k}\)", "Divide by √d_k"),
        (r"The score \(\mathbf{q} \cdot \mathbf{k}\)", "The score q · k"),
        (r"\(\operatorname{Var}(cX)\)", "Var(cX)"),
        ("No math here", "No math here"),
    ],
)
def test_math_in_headings_is_spelled_in_unicode_for_the_toc(heading, text):
    assert katex.plain_text(heading) == text
