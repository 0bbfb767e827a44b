"""The recording tools' family writer (``tools/family_file.py``) keeps the version ranges that
``tools/fix_ranges.py`` applied from the atlas: regenerating the fast-bleu family dropped its
two measured ``>=3.3`` ranges (nothing kept them but the NLTK emulate_multibleu tool)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import yaml

TOOLS = Path(__file__).parents[1] / "tools"


def _family_file():
    spec = importlib.util.spec_from_file_location("family_file", TOOLS / "family_file.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cases(value: str) -> list[dict]:
    return [{"id": "c", "description": "d", "tags": [], "level": "sentence",
             "segments": [{"hyp": "a b", "refs": ["a b"]}],
             "expect": [{"convention": "nltk", "options": {"smoothing": "method0"},
                         "value": value, "provenance": {"kind": "computed", "source": "s"}},
                        {"convention": "sacrebleu", "value": "100.0",
                         "provenance": {"kind": "computed", "source": "s"}}]}]


def test_a_measured_range_survives_a_rewrite_of_the_same_answer(tmp_path, capsys):
    family_file = _family_file()
    path = tmp_path / "family.yaml"
    family_file.write_family(path, "a tool", "d", _cases("0.5"))
    text = path.read_text(encoding="utf-8")
    # what tools/fix_ranges.py does: a line after the expectation's convention
    path.write_text(text.replace("  - convention: nltk\n",
                                 '  - convention: nltk\n    versions: {nltk: ">=3.3"}\n', 1),
                    encoding="utf-8")
    family_file.write_family(path, "a tool", "d", _cases("0.5"))
    expect = yaml.safe_load(path.read_text(encoding="utf-8"))["cases"][0]["expect"]
    assert expect[0]["versions"] == {"nltk": ">=3.3"} and "versions" not in expect[1]
    assert list(expect[0])[:2] == ["convention", "versions"]
    assert not capsys.readouterr().err

    family_file.write_family(path, "a tool", "d", _cases("0.25"))  # another answer
    expect = yaml.safe_load(path.read_text(encoding="utf-8"))["cases"][0]["expect"]
    assert "versions" not in expect[0]
    assert "the recorded answer changed, so its measured range" in capsys.readouterr().err


def test_no_recording_tool_writes_a_family_of_its_own():
    """The tools that write families with ranges go through ``write_family``: no tool dumps
    a family file of its own (those lost the ranges)."""
    writers = [path.name for path in TOOLS.glob("*.py")
               if "yaml.safe_dump({\"schema\"" in path.read_text(encoding="utf-8")]
    assert writers == [], writers
