"""``tools/record_real.py`` runs the real tool behind each ``recorded`` value again: the
values the tools print agree, and a value no tool printed is named (exit 1). Never the
engine: NLTK here, tensorflow/nmt's ``compute_bleu`` and T2T's ``bleu_hook`` from
``tests/oracles/``, and the Perl scripts where Perl is installed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nltk
import yaml

from bleu_harness.adapters.perl_scripts import why_unavailable

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "record_real.py"
sys.path.insert(0, str(ROOT / "tools"))

from record_real import provenance  # noqa: E402


def case_file(tmp_path: Path, expectations: list[dict]) -> Path:
    path = tmp_path / "recorded.yaml"
    path.write_text(yaml.safe_dump({"schema": 1, "cases": [{
        "id": "zero-overlap-probe", "description": "e f g h against a b c d",
        "tags": ["zero-overlap"], "level": "sentence", "tokenized": True,
        "segments": [{"hyp": "e f g h", "refs": ["a b c d"]}], "expect": expectations}]}),
        encoding="utf-8")
    return path


def recorded(convention: str, value: str, options: dict | None = None) -> dict:
    version = nltk.__version__ if convention == "nltk" else ""
    return {"convention": convention, "value": value, **({"options": options} if options else {}),
            "provenance": provenance(convention, "sentence", version)}


def run(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), str(path)], capture_output=True, text=True,
                          timeout=300)


def test_the_tools_agree_with_what_they_printed(tmp_path):
    expectations = [recorded("nltk", "0"),
                    recorded("tf-nmt", "0.30214", {"smooth": True}), recorded("t2t", "0.07987")]
    if why_unavailable("multi-bleu.perl") is None:
        expectations.append(recorded("multi-bleu", "0.00"))
    if why_unavailable("mteval-v13a.pl") is None:
        expectations.append(recorded("mteval-v13a", "0.0799"))
    done = run(case_file(tmp_path, expectations))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(expectations) and all(line.startswith("ok ") for line in lines)
    assert "tensor2tensor 1.15.7: 0.079867884516716" in done.stdout


def test_a_value_no_tool_printed_is_named(tmp_path):
    done = run(case_file(tmp_path, [recorded("tf-nmt", "0.5", {"smooth": True}),
                                    recorded("t2t", "0.07987")]))
    assert done.returncode == 1, done.stdout + done.stderr
    first, second = done.stdout.splitlines()
    assert first.startswith("DISAGREES zero-overlap-probe tf-nmt") and "0.30213" in first
    assert second.startswith("ok ")
