"""What the views print is true (issue 26): tiny answers are not rounded to zero, streams
read back whatever text they hold, a changed setup or an interrupted run heads a diff, skips
are named, one-line messages stay one line, report files are never lost or half-written."""

from __future__ import annotations

import json

import pytest
from runs import TESTS, case_file, one_case

from harness.cli import main
from harness.explain.fingerprint import render
from harness.report.stream import read_run


@pytest.fixture(autouse=True)
def importable_miniatures(monkeypatch):
    monkeypatch.chdir(TESTS)


# --- 6: fingerprint answers --------------------------------------------------------------

def test_fingerprint_keeps_nltks_tiny_zero_overlap_answers(capsys):
    """Issue 26.6: answers were rounded to 10 decimals, so NLTK's 6.2e-78 read 0.0."""
    assert main(["fingerprint", "--implementation", "miniatures:faithful",
                 "--format", "json"]) == 0
    families = {f["family"]: f for f in json.loads(capsys.readouterr().out)["families"]}
    answers = families["zero-overlap"]["answers"]
    tiny = {k: a for k, a in answers.items() if k != "b01-zero-overlap"}  # no match at all: 0
    assert tiny and all(0 < a < 1e-70 for a in tiny.values()), answers


def test_fingerprint_prints_a_tiny_answer_on_significant_digits():
    document = {"implementation": "x", "scale": "0-1", "explanation": None,
                "closest_overall": [], "families": [
                    {"family": "zero-overlap", "like": [], "behaviour": "",
                     "answers": {"b01": 6.2e-78, "b02": 0.0, "b03": "raises"}}]}
    assert "b01=6.2e-78, b02=0, b03=raises" in render(document)


# --- 11: streams the harness reads back ----------------------------------------------------

@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_a_stream_with_unicode_line_separators_reads_back(tmp_path, separator):
    """Issue 26.11: U+2028/2029/0085 in a provenance string or a file name were written raw
    and the reader split lines on them, so the run's own stream was rejected."""
    folder = tmp_path / f"a{separator}b"
    folder.mkdir()
    expect = ("{convention: nltk, value: '1.0', provenance: {kind: documented, "
              f"source: \"s\\u{ord(separator):04x}t\", where: w}}}}")
    case_file(folder, f"c{separator}d.yaml", one_case(expect=expect))
    stream = tmp_path / "run.jsonl"
    assert main(["run", str(folder), "--backend", "own", "--format", "json",
                 "--output", str(stream)]) == 0
    assert separator not in stream.read_text(encoding="utf-8")
    run = read_run(stream)
    assert run.checks[0].provenance["source"] == f"s{separator}t"
    assert separator in run.checks[0].file
    assert main(["diff", str(stream), str(stream)]) == 0
    assert main(["run", str(folder), "--backend", "own", "--baseline", str(stream)]) == 0


def test_the_reader_splits_lines_on_newlines_only(tmp_path):
    stream = tmp_path / "raw.jsonl"
    assert main(["run", str(case_file(tmp_path, "c.yaml", one_case())), "--backend", "own",
                 "--format", "json", "--output", str(stream)]) == 0
    text = stream.read_text(encoding="utf-8").replace('"c.yaml"', '"c\u2028.yaml"')
    stream.write_text(text, encoding="utf-8")
    assert read_run(stream).checks[0].file == "c\u2028.yaml"
