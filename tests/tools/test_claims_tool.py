"""``make claims`` (tools/claims.py) writes its verdicts where the Reproduce pages read them."""

import importlib.util
import json
import sys

from paperlens.experiments import log
from sitekit.paths import ROOT

spec = importlib.util.spec_from_file_location("claims_tool", ROOT / "tools" / "claims.py")
assert spec and spec.loader
tool = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = tool  # for its dataclass
spec.loader.exec_module(tool)


def test_the_verdicts_under_each_kernel_are_written_for_the_pages(tmp_path, monkeypatch):
    path = tmp_path / "kernels.json"
    monkeypatch.setattr(log, "KERNELS", path)
    claim = {"experiment": "demo", "statement": "it rises", "holds": True, "evidence": "p = 0.001"}
    configs = [
        tool.Config("Prescott (Prescott)", {}, {"claims": [claim]}),
        tool.Config("Haswell, 1 thread", {}, {"claims": [claim | {"holds": False}]}),
        tool.Config("Zen (Zen)", {}, {"claims": "Traceback: the run failed"}),
    ]
    tool.write_verdicts(configs, "python tools/claims.py", "commit abc1234")
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["configurations"] == [c.name for c in configs]
    assert written["claims"][0]["verdicts"] == {
        "Prescott (Prescott)": [True, "p = 0.001"],
        "Haswell, 1 thread": [False, "p = 0.001"],
    }
    shown = log.kernels_markdown("demo", path=path)
    # a failure under one kernel, and a configuration that ran nothing, are both shown
    assert "not every one reached the verdict its confirmation recorded" in shown
    assert "- It rises: holds under 1 of 3 (Prescott (Prescott): p = 0.001; " in shown
    assert "Haswell, 1 thread: FAILS, p = 0.001)" in shown
    assert "recorded no claim of other" in log.kernels_markdown("other", path=path)


def test_a_claim_its_confirmation_refuted_counts_when_it_fails_under_every_kernel(
    tmp_path, monkeypatch
):
    path = tmp_path / "kernels.json"
    monkeypatch.setattr(log, "KERNELS", path)
    refuted = {
        "experiment": "demo", "statement": "it is not worse", "holds": False,
        "evidence": "p = 1", "expected": False,
    }  # fmt: skip
    configs = [tool.Config(name, {}, {"claims": [refuted]}) for name in ("Prescott", "Haswell")]
    text, ok = tool.table(configs)
    assert ok and "FAIL" not in text
    assert not tool.table([tool.Config("Haswell", {}, {"claims": [refuted | {"holds": True}]})])[1]
    tool.write_verdicts(configs, "python tools/claims.py", "commit abc1234")
    shown = log.kernels_markdown("demo", path=path)
    assert "each reached the verdict its confirmation recorded under each" in shown
    assert "- It is not worse: fails, as its confirmation found, under 2 of 2" in shown
