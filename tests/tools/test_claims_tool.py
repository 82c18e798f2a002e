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
    assert "not every one held" in shown
    assert "- It rises: holds under 1 of 3 (Prescott (Prescott): p = 0.001; " in shown
    assert "Haswell, 1 thread: FAILS, p = 0.001)" in shown
    assert "recorded no claim of other" in log.kernels_markdown("other", path=path)
