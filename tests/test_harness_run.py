"""``bleu-harness run`` as a CI gate: exit codes, misbehaving implementations, reports."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from harness.cli import main
from harness.report.stream import read_run
from harness.runner import RunOptions, execute

TESTS = Path(__file__).parent
CORPUS = TESTS.parent / "cases"
TIE_CASES = "tie-*"


@pytest.fixture(autouse=True)
def importable_miniatures(monkeypatch):
    """``--implementation MODULE:CALLABLE`` imports from the working directory, as
    ``python -m`` does; the miniatures live in tests/."""
    monkeypatch.chdir(TESTS)


def checks(result, check=None, verdict=None):
    return [l for l in result.lines if l["type"] == "check"
            and (check is None or l["check"] == check)
            and (verdict is None or l["verdict"] == verdict)]


def test_bundled_corpus_runs_clean():
    result = execute(RunOptions())
    assert result.exit_code == 0, [c for c in checks(result) if c["verdict"] in ("fail", "error")]
    assert checks(result, "expectation", "pass") and checks(result, "drift", "pass")
    assert checks(result, "differential", "pass") and checks(result, "divergence")
    header = result.lines[0]
    assert {b["name"] for b in header["backends"]} >= {"own", "nltk", "sacrebleu", "documented"}
    assert all(b["version"] for b in header["backends"])
    assert result.lines[-1]["type"] == "footer"


def test_wrong_expectation_exits_1_naming_the_case(tmp_path, capsys):
    text = (CORPUS / "seeds" / "matlab.yaml").read_text(encoding="utf-8")
    (tmp_path / "wrong.yaml").write_text(text.replace('value: "0.8367"', 'value: "0.9367"', 1),
                                         encoding="utf-8")
    assert main(["run", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL matlab-ngram-weights-half-half" in out and "expected 0.9367" in out


def test_malformed_file_exits_2_and_the_rest_still_runs(tmp_path, capsys):
    (tmp_path / "broken.yaml").write_text("schema: 1\ncases:\n  - id: x\n    level: [\n",
                                          encoding="utf-8")
    (tmp_path / "bad-case.yaml").write_text(
        "schema: 1\ncases:\n  - id: no-description\n    tags: []\n    level: sentence\n"
        "    segments: [{hyp: a, refs: [a]}]\n    expect: []\n", encoding="utf-8")
    good = (CORPUS / "seeds" / "matlab.yaml").read_text(encoding="utf-8")
    (tmp_path / "good.yaml").write_text(good, encoding="utf-8")
    assert main(["run", str(tmp_path), "--format", "json"]) == 2
    lines = [json.loads(l) for l in capsys.readouterr().out.splitlines()]
    problems = [l for l in lines if l["type"] == "problem"]
    assert any(p["file"].endswith("broken.yaml") and p["line"] == 5 for p in problems)
    assert any(p["case"] == "no-description" and p["line"] == 3 for p in problems)
    assert any(l["type"] == "check" and l["case"] == "matlab-evaluate-summary" for l in lines)


def test_first_reference_tie_break_is_caught_and_tagged():
    result = execute(RunOptions(implementation="miniatures:first_reference_wins_ties",
                                claims="nltk", select=TIE_CASES,
                                paths=(str(CORPUS / "families" / "ref-length.yaml"),)))
    assert result.exit_code == 1
    failed = checks(result, verdict="fail")
    assert {c["case"] for c in failed} == {"tie-two-refs-longer-first", "tie-three-refs",
                                           "tie-corpus-mixed-text"}
    assert all("ref-length-tie" in c["tags"] for c in failed)
    assert checks(result, "differential", "fail")


def test_faithful_implementation_passes():
    result = execute(RunOptions(implementation="miniatures:faithful", claims="nltk",
                                paths=(str(CORPUS),), select="tie-*"))
    assert result.exit_code == 0


@pytest.mark.parametrize("function, kind", [
    ("raises", "raised"), ("returns_nan", "value"), ("wrong_type", "invalid"),
    ("hangs", "timeout"), ("crashes_the_interpreter", "raised"),
])
def test_misbehaving_callables_become_outcomes(function, kind):
    result = execute(RunOptions(implementation=f"miniatures:{function}", claims="nltk",
                                paths=(str(CORPUS),), select="tie-two-refs-longer-first",
                                timeout=2.0))
    assert result.exit_code == 1
    mine = checks(result, "expectation")
    assert mine and all(c["actual"]["kind"] == kind for c in mine)
    assert all(c["verdict"] in ("fail", "error") for c in mine)


def test_wrong_scale_is_tagged_scale():
    result = execute(RunOptions(implementation="miniatures:wrong_scale", claims="nltk",
                                paths=(str(CORPUS),), select="closest-vs-shortest-*"))
    failed = checks(result, "expectation", "fail")
    assert failed and all("scale" in c["tags"] for c in failed)


@pytest.mark.parametrize("mode, kind", [
    ("garbage", "invalid"), ("crash", "raised"), ("hang", "timeout"), ("error", "raised"),
    ("wrong-key", "invalid"),
])
def test_misbehaving_commands_become_outcomes(mode, kind):
    command = f"{sys.executable} {TESTS / 'fake_command.py'} {mode}"
    result = execute(RunOptions(implementation_cmd=command, claims="nltk",
                                paths=(str(CORPUS / "families" / "ref-length.yaml"),),
                                select="tie-t*", timeout=1.0))
    mine = checks(result, "expectation")
    assert len(mine) == 3 and all(c["actual"]["kind"] == kind for c in mine)
    assert result.exit_code == 1


def test_json_markdown_and_junit_reports(tmp_path):
    stream_file, markdown, junit = tmp_path / "run.jsonl", tmp_path / "run.md", tmp_path / "j.xml"
    assert main(["run", "--select", "tie-*", "--format", "json", "--output", str(stream_file),
                 "--junit-xml", str(junit)]) == 0
    run = read_run(stream_file)
    assert run.header["corpus_hash"] and run.footer["exit_code"] == 0
    assert "<testsuite" in junit.read_text() and 'name="expected"' in junit.read_text()
    assert main(["run", "--select", "tie-*", "--format", "markdown", "--output",
                 str(markdown)]) == 0
    assert markdown.read_text().startswith("## bleu-harness run: passed")
    assert not list(tmp_path.glob(".*.tmp"))


def test_baseline_fails_only_on_new_divergences(tmp_path):
    command = f"{sys.executable} {TESTS / 'fake_command.py'} ok"
    options = dict(implementation_cmd=command, claims="nltk", paths=(str(CORPUS),))
    old = execute(RunOptions(**options, select="closest-vs-shortest-tf*"))
    stored = tmp_path / "old.jsonl"
    stored.write_text("".join(json.dumps(l) + "\n" for l in old.lines))
    assert old.exit_code == 1  # always 1.0: wrong wherever BP < 1
    again = execute(RunOptions(**options, select="closest-vs-shortest-tf*",
                               baseline=read_run(stored)))
    assert again.exit_code == 0
    wider = execute(RunOptions(**options, select="closest-*", baseline=read_run(stored)))
    assert wider.exit_code == 1


def test_diff_reports_what_got_worse(tmp_path, capsys):
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    assert main(["run", "--select", "tie-*", "--format", "json", "--output", str(old)]) == 0
    assert main(["run", "--select", "tie-*", "--implementation", "miniatures:first_reference_wins_ties",
                 "--claims", "nltk", "--format", "json", "--output", str(new)]) == 1
    capsys.readouterr()
    assert main(["diff", str(old), str(new), "--format", "markdown"]) == 1
    out = capsys.readouterr().out
    assert "New divergences" in out and "tie-two-refs-longer-first" in out
    assert main(["diff", str(old), str(old)]) == 0


def test_usage_errors_exit_2(capsys):
    assert main(["run", "--claims", "nltk"]) == 2
    assert main(["run", "--implementation", "x:y"]) == 2
    assert main(["run", "--select", "no-such-case-*"]) == 2
    assert main(["diff", __file__, __file__]) == 2
    err = capsys.readouterr().err
    assert "--claims" in err and "Traceback" not in err


def test_strict_references_turns_drift_into_exit_3(tmp_path):
    # A recorded NLTK value that the installed NLTK does not give: the library drifted. The
    # implementation under test claims sacrebleu, so only the drift decides the exit code.
    (tmp_path / "drift.yaml").write_text(
        "schema: 1\ncases:\n  - id: drifted\n    description: d\n    tags: []\n"
        "    level: sentence\n    segments: [{hyp: a b c d, refs: [a b c d]}]\n"
        "    expect: [{convention: nltk, value: '0.5', provenance: "
        "{kind: computed, source: s, library: nltk, version: '0.0'}}]\n", encoding="utf-8")
    command = f"{sys.executable} {TESTS / 'fake_command.py'} ok"
    options = dict(paths=(str(tmp_path),), backends=("nltk",), implementation_cmd=command,
                   claims="sacrebleu")
    loose = execute(RunOptions(**options))
    assert [c["verdict"] for c in checks(loose)] == ["drift"]
    assert loose.exit_code == 0
    assert execute(RunOptions(**options, strict_references=True)).exit_code == 3


def test_help_reads_well(capsys):
    for command in ([], ["run"], ["validate"], ["diff"], ["score"]):
        with pytest.raises(SystemExit) as done:
            main([*command, "--help"])
        assert done.value.code == 0
    out = capsys.readouterr().out
    assert "exit codes" in out and "--implementation-cmd" in out and "HYP_FILE" in out


def test_figures_are_checked_where_a_backend_reports_them():
    """An implementation under test answers scores only: a precision figure is unsupported
    for it, while NLTK's list-of-weights scores (scores.N) are drift-checked on NLTK itself."""
    result = execute(RunOptions(implementation="miniatures:faithful", claims="nltk",
                                paths=(str(CORPUS / "seeds" / "nltk-docs.yaml"),)))
    figures = [c for c in checks(result, "expectation") if c.get("figure")]
    assert figures and all(c["verdict"] == "unsupported" for c in figures)
    assert any("not precision.1" in c["message"] for c in figures)
    drifts = [c for c in checks(result, "drift") if (c.get("figure") or "").startswith("scores.")]
    assert drifts and all(c["verdict"] == "pass" for c in drifts)
