"""Concepts in order: a page may only use what an earlier page introduced."""

import pytest

from sitekit import PageError, concepts
from sitekit.paths import ROOT


def decl(page, introduces=(), uses=()):
    return concepts.Declaration(page, page, list(introduces), list(uses))


def test_concepts_in_order_pass():
    introduced = concepts.check_order(
        [decl("a.md", ["vector"]), decl("b.md", ["matrix"], ["vector"])]
    )
    assert introduced == {"vector": "a.md", "matrix": "b.md"}


def test_using_a_concept_before_its_page_fails_naming_both():
    with pytest.raises(PageError, match="a.md uses 'matrix'"):
        concepts.check_order([decl("a.md", ["vector"], ["matrix"]), decl("b.md", ["matrix"])])


def test_introducing_a_concept_twice_fails():
    with pytest.raises(PageError, match="already introduced by a.md"):
        concepts.check_order([decl("a.md", ["vector"]), decl("b.md", ["vector"])])


def test_front_matter_must_be_lists_of_names(tmp_path):
    (tmp_path / "p.md").write_text("---\nintroduces: vector\n---\n# P\n")
    with pytest.raises(PageError, match="must be a list"):
        concepts.read_declaration(tmp_path, "p.md", "P")


def test_nav_is_flattened_in_reading_order():
    nav = [{"Home": "index.md"}, {"S": ["s/index.md", {"One": "s/one.md"}]}, {"X": "https://x"}]
    expected = [("Home", "index.md"), ("", "s/index.md"), ("One", "s/one.md")]
    assert concepts.nav_pages(nav) == expected


def test_the_site_declarations_are_in_order():
    declarations = concepts.load_from_config(ROOT / "mkdocs.yml")
    assert declarations
    concepts.check_order(declarations)


def page(front: str, body: str) -> str:
    return f"---\n{front}\n---\n# P\n\n{body}"


def line_of(text: str, snippet: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if snippet in line)


def test_a_matrix_product_in_a_formula_is_a_use_whatever_the_page_declares(tmp_path):
    """§3 once wrote the shortcut projection W_s x, a matrix product, two pages before the
    product is introduced, and declared nothing of it: the check caught nothing."""
    a = page("introduces: [function]\nuses: []", "The shortcut is $W_s\\mathbf{x}$.\n")
    (tmp_path / "a.md").write_text(a)
    (tmp_path / "b.md").write_text(page("introduces: [matrix product]\nuses: []", "$AB$\n"))
    nav = [{"A": "a.md"}, {"B": "b.md"}]
    declarations = concepts.load(tmp_path, nav)
    at = line_of(a, "shortcut")
    assert declarations[0].shown == {"matrix product": f"line {at}: $W_s\\mathbf{{x}}$"}
    with pytest.raises(PageError, match=rf"a.md uses 'matrix product' \(line {at}:"):
        concepts.check_order(declarations)
    concepts.check_order(concepts.load(tmp_path, nav[::-1]))  # after its page: fine


@pytest.mark.parametrize(
    ("code", "line"),
    [
        ("x = 1\ny = W_s @ x  # F(x) + W_s x\n", 2),
        (">>> y = 1\n>>> W_s @ x\narray([1.])\n", 2),
        ("z = np.matmul(W_s, x)\n", 1),
    ],
)
def test_a_matrix_product_in_code_is_a_use(code, line):
    text = page("introduces: []\nuses: []", f"Words.\n\n```python\n{code}```\n")
    shown = concepts.shown_concepts(text)
    first = line_of(text, "```python")
    assert shown["matrix product"].startswith(f"line {first + line}: ")


def test_what_is_not_a_matrix_product():
    """Decorators, comments, strings, words set in formulas, a lone matrix, a function's
    script letter applied to a vector, code in another language: none of them."""
    code = '@functools.cache\ndef f(x):  # (2, 3) @ (3,)\n    return "a @ b"\n'
    text = page(
        "introduces: []\nuses: []",
        "$\\operatorname{Var}(X)$, $K$, $W_Q$, $\\mathcal{H}(\\mathbf{x})$, $N(0, 1)$, "
        "$\\text{BLEU}$\n\n"
        f"```python\n{code}```\n\n```bash\npip install 'a @ b'\n```\n",
    )
    assert "matrix product" not in concepts.shown_concepts(text)


def test_the_exponential_and_the_transpose_have_signs():
    text = page("uses: []", "$e^{s_j}$ and $K^T$\n\n```python\nnp.exp(s) @ K.T\n```\n")
    shown = concepts.shown_concepts(text)
    at, code = line_of(text, "$K^T$"), line_of(text, "np.exp")
    assert shown["exponential"] == f"line {at}: $e^{{s_j}}$"
    assert shown["transpose"] == f"line {at}: $K^T$"
    assert shown["matrix product"] == f"line {code}: np.exp(s) @ K.T"


def test_pages_that_declare_nothing_are_not_read(tmp_path):
    """The home page names the destination, softmax(QK^T / sqrt(d_k)) V, before any of it."""
    (tmp_path / "index.md").write_text("---\ntitle: Home\n---\n# Home\n\n$QK^T$\n")
    assert concepts.read_declaration(tmp_path, "index.md", "Home").shown == {}


def test_the_target_equations_symbols_have_signs():
    """§1 once wrote ResNet's equation, and §6 and §7 attention's sqrt(d_k), pages before they
    were introduced, and the check caught neither: it read only products, transposes and
    exponentials."""
    text = page(
        "uses: []",
        "In $\\mathcal{H}(\\mathbf{x}) = \\mathcal{F}(\\mathbf{x}) + \\mathbf{x}$ the bold x.\n\n"
        "In $\\operatorname{softmax}(QK^T/\\sqrt{d_k})V$ the softmax.\n\n"
        "Divides by $\\sqrt{d_k}$, and $\\operatorname{Var}(X)$.\n",
    )
    shown = concepts.shown_concepts(text)
    at_h, at_att, at_var = line_of(text, "mathcal{H}"), line_of(text, "QK^T"), line_of(text, "Var")
    assert shown["desired mapping H"].startswith(f"line {at_h}: ")
    assert shown["residual F"].startswith(f"line {at_h}: ")
    for concept in ("softmax", "√d_k scaling", "scaled dot-product attention"):
        assert shown[concept].startswith(f"line {at_att}: "), concept
    assert shown["variance"].startswith(f"line {at_var}: ")


@pytest.mark.parametrize(
    ("code", "concept"),
    [
        ("h = pl.residual(f, x)\n", "residual F"),
        ("out = pl.attention(Q, K, V).output\n", "scaled dot-product attention"),
        ("w = pl.softmax(s)\n", "softmax"),
        ("v = np.var(x, ddof=1)\n", "variance"),
    ],
)
def test_the_target_equations_functions_are_signs_in_code(code, concept):
    text = page("uses: []", f"Words.\n\n```python\n{code}```\n")
    assert concept in concepts.shown_concepts(text)


def test_a_symbol_before_its_page_fails_the_build(tmp_path):
    early = page("introduces: [vector]\nuses: []", "$\\mathcal{H}(\\mathbf{x})$ is the goal.\n")
    (tmp_path / "a.md").write_text(early)
    (tmp_path / "b.md").write_text(page("introduces: [desired mapping H]\nuses: []", "H.\n"))
    nav = [{"A": "a.md"}, {"B": "b.md"}]
    with pytest.raises(PageError, match=r"a.md uses 'desired mapping H' \(line"):
        concepts.check_order(concepts.load(tmp_path, nav))


def test_what_is_not_a_sign_of_the_target_equations():
    """Other script letters, other square roots, the word softmax in prose: none of them."""
    text = page(
        "uses: []",
        "The softmax of $\\mathcal{L}$, $\\sqrt{2}$, $\\sqrt{d_{\\text{model}}}$, $\\sqrt{n}$.\n\n"
        "```python\nsoftmax = 1\nvariance = np.sqrt(2)\n```\n",
    )
    shown = concepts.shown_concepts(text)
    for concept in ("desired mapping H", "residual F", "√d_k scaling", "softmax", "variance"):
        assert concept not in shown, concept


def test_the_home_page_names_every_sign():
    """The home page says what the check reads formulas and code for; that list is whole."""
    home = " ".join((ROOT / "docs" / "index.md").read_text(encoding="utf-8").split())
    for concept, sign in concepts.SIGNS.items():
        assert sign.said in home, concept


@pytest.mark.parametrize(
    ("formula", "concept"),
    [
        ("$H(\\mathbf{x}) = F(\\mathbf{x}) + \\mathbf{x}$", "desired mapping H"),
        ("$H(x) = F(x) + x$", "residual F"),
        ("$\\operatorname{softmax}(Q K^\\top / \\sqrt{d_{k}})V$", "scaled dot-product attention"),
        ("$\\frac{Q K^{T}}{\\sqrt{d_k}}$", "scaled dot-product attention"),
        ("divide by $\\sqrt{d_{k}}$", "√d_k scaling"),
        ("divide by $√d_k$", "√d_k scaling"),
    ],
)
def test_the_target_equations_in_another_typeface_are_signs_too(formula, concept):
    """A page that sets ResNet's equation in plain letters, or attention's with d_{k} and a
    \\top, uses them as much as one in this site's notation."""
    assert concept in concepts.shown_concepts(page("uses: []", f"Words {formula}.\n"))


def test_other_functions_of_x_are_not_resnets():
    formulas = "$G(\\mathbf{x}) = 2\\mathbf{x}$, $F(x) + y$, $H(x, y)$, $f(x) = x^2$."
    text = page("uses: []", formulas + "\n")
    shown = concepts.shown_concepts(text)
    assert "desired mapping H" not in shown and "residual F" not in shown
