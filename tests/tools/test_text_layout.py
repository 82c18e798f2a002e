"""Text that overlaps or runs off the edge fails a figure (sitekit.text_layout), and
`python -m sitekit.draw` draws a script's four variants as PNGs with the same checks."""

import io
from pathlib import Path

import matplotlib

matplotlib.use("svg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from sitekit import draw, figstyle, render, text_layout  # noqa: E402


def found(fig) -> list[str]:
    with text_layout.drawn_texts() as drawn:
        fig.savefig(io.BytesIO(), format="svg")
    plt.close(fig)
    return text_layout.problems(fig, drawn)


def two_labels(x: float, y: float) -> list[str]:
    """The problems of a figure with a label at (0.5, 0.5) and another at (x, y)."""
    fig, ax = plt.subplots(figsize=(4, 3), layout="constrained")
    ax.text(0.5, 0.5, "first label", ha="center")
    ax.text(x, y, "second label", ha="center")
    return found(fig)


def test_labels_on_top_of_each_other_overlap_and_apart_they_do_not():
    (problem,) = two_labels(0.52, 0.51)
    assert problem.startswith("'first label' overlaps 'second label' (")
    assert problem.endswith(" pt)")
    assert two_labels(0.5, 0.1) == []


def test_a_label_past_the_figure_edge_is_cut_off():
    fig, ax = plt.subplots(figsize=(3, 2), layout="constrained")
    fig.text(0.9, 0.5, "a label far too long for this narrow figure")
    (problem,) = found(fig)
    assert problem.startswith("'a label far too long")
    assert "runs off the figure's right by" in problem


def test_tick_labels_outside_the_axis_limits_are_not_drawn_so_not_counted():
    fig, ax = plt.subplots(figsize=(3, 2), layout="constrained")
    ax.plot([0, 1], [0, 1])
    ax.set_xticks([-5, 0, 1, 5])  # -5 and 5 keep labels, placed outside, never drawn
    ax.set_xlim(0, 1)
    ax.annotate("arrow's label", xy=(0.1, 0.1), xytext=(0.5, 0.5), arrowprops={"arrowstyle": "->"})
    assert found(fig) == []


SCRIPT = '''"""Two labels."""

import paperlens as pl
from sitekit.figstyle import new_figure

SEED = 0


def make_figure(style, layout):
    fig, ax = new_figure(height=2, layout=layout)
    fig.text(0.1, 0.5, "a label, and {gap}another label", color=style.foreground)
    return pl.show(fig, "Two labels side by side.")
'''


def script(folder: Path, text: str) -> Path:
    path = folder / "figures" / "sec" / "page" / "labels.py"
    path.parent.mkdir(parents=True)
    path.write_text(text)
    return path


def test_the_build_fails_a_figure_whose_labels_run_off_its_narrow_layout(tmp_path):
    long = script(tmp_path, SCRIPT.format(gap=" " * 60))
    with pytest.raises(ValueError, match="light narrow: text that readers cannot read") as err:
        render.render(long, tmp_path / "out.svg")
    assert "runs off the figure's right" in str(err.value)


def test_a_known_figure_passes_until_it_is_fixed_then_must_leave_the_list(tmp_path, monkeypatch):
    long = script(tmp_path / "a", SCRIPT.format(gap=" " * 60))
    monkeypatch.setitem(text_layout.KNOWN, "sec/page/labels.py", "narrow: a label is cut off")
    render.render(long, tmp_path / "a.svg")  # reported, not failed
    fixed = script(tmp_path / "b", SCRIPT.format(gap=""))
    with pytest.raises(ValueError, match="take it off the list"):
        render.render(fixed, tmp_path / "b.svg")


def test_draw_writes_the_four_variants_as_pngs_and_reports_what_fails(tmp_path, capsys):
    long = script(tmp_path, SCRIPT.format(gap=" " * 60))
    out = tmp_path / "png"
    assert draw.main([str(long), "--out", str(out), "--dpi", "50"]) == 1
    names = sorted(p.name for p in out.iterdir())
    variants = [f"{s.name}.{lay.name}" for s in figstyle.STYLES for lay in figstyle.LAYOUTS]
    assert names == sorted(f"labels.{v}.png" for v in variants)
    assert all((out / n).read_bytes().startswith(b"\x89PNG") for n in names)
    said = capsys.readouterr()
    assert "alt text: Two labels side by side." in said.out
    assert "light narrow: 'a label, and" in said.err and "runs off" in said.err
    assert "wide:" not in said.err  # the wide layout has room for it


FRAMES_SCRIPT = '''"""Two labels that meet in one frame."""

import paperlens as pl
from sitekit.figstyle import Frames, new_figure

SEED = 0
FRAMES = Frames(label="gap", values=(0.0, 0.4), default=0.4)


def make_frame(gap, style, layout):
    fig, ax = new_figure(height=2, layout=layout)
    ax.text(0.3, 0.5, "first label", color=style.foreground)
    ax.text(0.3 + gap, 0.5, "second label", color=style.foreground)
    return pl.show(fig, "Two labels side by side.")


def make_figure(style, layout):
    return make_frame(FRAMES.default, style, layout)
'''


def test_an_explorable_frame_with_overlapping_labels_fails_unless_known(tmp_path, monkeypatch):
    from sitekit import render_frames

    path = script(tmp_path, FRAMES_SCRIPT)
    module = render.load(path)
    (tmp_path / "out").mkdir()
    with pytest.raises(ValueError, match=r"frame 0.0, light wide: (.|\n)*overlaps 'second label'"):
        render_frames.render_frame(module, module.FRAMES, 0, tmp_path / "out")
    monkeypatch.setitem(text_layout.KNOWN_FRAMES, "sec/page/labels.py", "frame 0: they meet")
    render_frames.render_frame(module, module.FRAMES, 0, tmp_path / "out")
    render_frames.render_frame(module, module.FRAMES, 1, tmp_path / "out")
