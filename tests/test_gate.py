"""The exit-code contract of the README, one test per code, and the gate's memory: known
failures (``--known``, ``--baseline``) are not new, and a known failure that no longer
happens fails until it is removed (README, "`bleu-harness run`: the conformance gate")."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest
from runs import (
    CORPUS,
    FAKE,
    NLTK_CHECKS,
    ONE_LIBRARY,
    TESTS,
    alive,
    case_file,
    checks,
    children_of,
    one_case,
    run,
)
from tiers import sampled

from bleu_harness.cli import main
from bleu_harness.records import DRIFT, ERROR, FAIL, PASS, SKIPPED, UNSUPPORTED
from bleu_harness.report.stream import read_run

TIES = str(CORPUS / "families" / "ref-length.yaml")


@pytest.fixture(autouse=True)
def importable_miniatures(monkeypatch):
    """``--implementation MODULE:CALLABLE`` imports from the working directory."""
    monkeypatch.chdir(TESTS)


# --- one test per exit code ----------------------------------------------------------------

def test_exit_0_a_faithful_implementation_passes_everything():
    """Issue #10.1: an implementation that returns what NLTK returns -- a list of scores for
    a list of weight vectors -- passes every check of the corpus (against the backends it is
    checked against, runs.NLTK_CHECKS)."""
    result, _ = run(implementation="miniatures:faithful", claims="nltk", backends=NLTK_CHECKS)
    assert result.exit_code == 0, [(r.case, r.check, r.message) for r in
                                   checks(result) if r.verdict in (FAIL, ERROR)]
    lists = [r for r in checks(result, "differential") if r.actual.kind == "value"
             and r.actual.is_list and r.verdict not in (UNSUPPORTED, SKIPPED)]
    assert lists and all(r.verdict == PASS for r in lists)  # (fast-bleu declines lists)


def test_exit_1_an_unexpected_value(tmp_path, capsys):
    text = (CORPUS / "seeds" / "matlab.yaml").read_text(encoding="utf-8")
    (tmp_path / "wrong.yaml").write_text(text.replace('value: "0.8367"', 'value: "0.9367"', 1),
                                         encoding="utf-8")
    assert main(["run", str(tmp_path), "--backend", "own"]) == 1  # the recorded value fails
    out = capsys.readouterr().out
    assert "FAIL matlab-ngram-weights-half-half" in out and "expected 0.9367" in out


def test_exit_1_a_crash_of_the_implementation_never_matches_an_expected_exception():
    """Issue #10.2: a crash is an error, not the KeyError the case expects."""
    result, _ = run(implementation="miniatures:crashes_the_interpreter", claims="nltk",
                    paths=(str(CORPUS / "families" / "empty-and-text.yaml"),),
                    select="no-reference-at-all", backends=NLTK_CHECKS)
    raising = [r for r in checks(result, "expectation") if r.expected.startswith("raises")]
    assert raising and all(r.verdict == ERROR and r.actual.kind == "harness-error"
                           for r in raising)
    assert not [r for r in checks(result) if r.verdict == PASS and r.check != "drift"]
    assert result.exit_code == 1


# A module that does not exist, a command that answers NaN or garbage at start, and more:
# tests/test_fuzz_workers.py (the command line in its own process, and what it leaves).
@pytest.mark.parametrize("arguments, says", [
    (["--implementation", "miniatures:no_such_function", "--claims", "nltk"], "no_such_function"),
    (["--implementation", "miniatures:crashes_always", "--claims", "nltk"], "exited with code 3"),
    (["--implementation", "miniatures:raises_always", "--claims", "nltk"], "RuntimeError"),
    (["--implementation", "miniatures:wrong_type_always", "--claims", "nltk"], "not a number"),
    (["--implementation", "miniatures:returns_nan_always", "--claims", "nltk"],
     "with NaN, not a finite score"),
    (["--implementation-cmd", "no-such-command --flag", "--claims", "nltk"], "cannot start"),
    (["--implementation-cmd", "'unclosed", "--claims", "nltk"], "No closing quotation"),
])
def test_exit_2_an_implementation_that_does_not_start(arguments, says, capsys):
    """Issue #10.3: one clear line, exit 2, before any case runs (no 86 s, no tracebacks).
    (The engine the only reference backend: the others start and end alike.)"""
    started = time.monotonic()
    assert main(["run", TIES, "--backend", "own", *arguments, "--startup-timeout", "20"]) == 2
    captured = capsys.readouterr()
    assert says in captured.err and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err + captured.out and not captured.out
    assert time.monotonic() - started < 15


@pytest.mark.parametrize("python, says", [
    ("/nonexistent/python", "/nonexistent/python: no such program"),
    ("false", "exited with code 1"),
    (sys.executable + " -c 'import sys; sys.exit(1)' #", "no such program"),
])
def test_exit_2_a_library_python_that_does_not_run_the_library(python, says, capsys):
    """Issue 26.13: ``--library-python nltk=/nonexistent/python`` dropped NLTK without a
    word and exited 0. A library asked for by name must run, or the run stops."""
    assert main(["run", "--library-python", f"nltk={python}", "--backend", "nltk",
                 str(CORPUS / "families" / "ref-length.yaml")]) == 2
    captured = capsys.readouterr()
    assert says in captured.err and captured.err.count("\n") == 1 and not captured.out
    assert f"--library-python nltk={python}" in captured.err


def test_exit_2_a_hanging_implementation_times_out_at_start(capsys):
    assert main(["run", TIES, *ONE_LIBRARY, "--implementation", "miniatures:hangs_always", "--claims", "nltk",
                 "--startup-timeout", "2"]) == 2
    assert "did not answer within 2 s" in capsys.readouterr().err


def test_exit_2_a_case_file_problem_and_the_rest_still_runs(tmp_path, capsys):
    (tmp_path / "broken.yaml").write_text("schema: 1\ncases:\n  - id: x\n    level: [\n",
                                          encoding="utf-8")
    case_file(tmp_path, "bad-case.yaml", "  - id: no-description\n    tags: []\n"
              "    level: sentence\n    segments: [{hyp: a, refs: [a]}]\n    expect: []\n")
    (tmp_path / "good.yaml").write_text((CORPUS / "seeds" / "matlab.yaml").read_text(
        encoding="utf-8"), encoding="utf-8")
    assert main(["run", str(tmp_path), "--backend", "own", "--format", "json"]) == 2
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    problems = [line for line in lines if line["type"] == "problem"]
    assert any(p["file"].endswith("broken.yaml") and p["line"] == 5 for p in problems)
    assert any(p["case"] == "no-description" and p["line"] == 3 for p in problems)
    assert any(line["type"] == "check" and line["case"] == "matlab-evaluate-summary"
               for line in lines)


def test_exit_2_usage_errors(capsys):
    assert main(["run", TIES, "--claims", "nltk"]) == 2
    assert main(["run", TIES, "--implementation", "x:y", "--implementation-cmd", "z"]) == 2
    assert main(["run", TIES, "--select", "no-such-case-*"]) == 2
    assert main(["run", TIES, "--backend", "nosuch"]) == 2
    assert main(["diff", __file__, __file__]) == 2
    err = capsys.readouterr().err
    assert "--claims" in err and "no check ran" in err and "Traceback" not in err
    assert f"no case of {TIES} matched --select no-such-case-*" in err


def test_exit_2_a_folder_without_cases_says_so(tmp_path, capsys):
    """Not a --select or --tag that matched nothing: none was given."""
    assert main(["run", str(tmp_path), "--backend", "own", "--no-map"]) == 2
    assert f"no check ran ({tmp_path} holds no case)" in capsys.readouterr().err


@pytest.mark.parametrize("typo, meant", [("--tiemout", "--timeout"), ("--strict-refrences",
                                                                      "--strict-references")])
def test_exit_2_a_typo_in_a_flag_says_what_was_meant(typo, meant, capsys):
    with pytest.raises(SystemExit) as done:
        main(["run", typo, "3"])
    assert done.value.code == 2
    assert f"did you mean {meant}?" in capsys.readouterr().err


def test_exit_2_a_typo_in_a_backend_says_what_was_meant(capsys):
    """``run --backend`` and the plugin's ``--bleu-backend`` check the name in one place
    (``registry.check_backend_names``)."""
    assert main(["run", str(CORPUS / "seeds" / "matlab.yaml"), "--backend", "nltx"]) == 2
    assert "--backend 'nltx': unknown (did you mean 'nltk'?" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["nan", "-1", "inf", "0", "ten"])
def test_exit_2_a_timeout_that_is_not_a_number_of_seconds(value, capsys):
    """Issue #10 fuzzing: nan meant no timeout, -1/inf broke every case, 0 timed out all."""
    with pytest.raises(SystemExit) as done:
        main(["run", f"--timeout={value}"])
    assert done.value.code == 2 and "seconds" in capsys.readouterr().err


def test_exit_3_only_with_strict_references_and_only_for_drift(tmp_path):
    # A recorded NLTK value that the installed NLTK does not give: the library drifted. The
    # implementation under test claims sacrebleu, so only the drift decides the exit code.
    case_file(tmp_path, "drift.yaml", one_case(
        "drifted", "{convention: nltk, value: '0.5', provenance: {kind: computed, source: s, "
        "library: nltk, version: '0.0'}}"))
    options = dict(paths=(str(tmp_path),), backends=("nltk",),
                   implementation_cmd=f"{FAKE} ok", claims="sacrebleu")
    loose, _ = run(**options)
    assert [r.verdict for r in checks(loose)] == [DRIFT]
    assert loose.exit_code == 0
    assert run(**options, strict_references=True)[0].exit_code == 3


@pytest.mark.parametrize("signum, code", sampled([(signal.SIGINT, 130),
                                                   (signal.SIGTERM, 143)]))
def test_exit_130_143_an_interrupted_run_leaves_a_readable_stream(tmp_path, signum, code):
    """Issue #10.8: every line is written as it is judged; the footer says interrupted; the
    workers are ended; the views say so; no traceback."""
    stream_file = tmp_path / "run.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "bleu_harness", "run", TIES, *ONE_LIBRARY, "--implementation",
         "miniatures:hangs", "--claims", "nltk", "--timeout", "30", "--format", "json",
         "--output", str(stream_file)], cwd=TESTS, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not any(  # the stream is written beside it first
            partial.read_text().count("\n") >= 1 for partial in tmp_path.glob(".run.jsonl.*")):
        time.sleep(0.2)
    time.sleep(1.0)  # the run is under way: requests are out
    workers = children_of(process.pid)
    process.send_signal(signum)
    out, err = process.communicate(timeout=30)
    assert process.returncode == code, err
    assert "Traceback" not in err
    run_read = read_run(stream_file)
    assert run_read.footer.interrupted and run_read.footer.exit_code == code
    assert "INTERRUPTED" in out
    assert workers and not alive(workers)


# --- known failures ------------------------------------------------------------------------

def test_a_known_failure_is_not_new_and_a_stale_one_fails(tmp_path):
    """Issue #10.9: listed failures do not fail the gate; a listed one that passes does."""
    known = tmp_path / "known.yaml"
    known.write_text("- case: tie-two-refs-longer-first\n  reason: ties go to the first\n"
                     "- {case: tie-three-refs}\n- {case: tie-corpus-mixed-text}\n",
                     encoding="utf-8")
    from bleu_harness.gate import Known, read_known_file

    options = dict(implementation="miniatures:first_reference_wins_ties", claims="nltk",
                   paths=(TIES,), select="tie-*", backends=NLTK_CHECKS)
    listed = Known(entries=read_known_file(str(known)), known_file=str(known))
    result, lines = run(**options, known=listed)
    failing = [r for r in checks(result) if r.verdict == FAIL]
    assert failing and all(r.known for r in failing)
    assert result.exit_code == 0
    assert lines[0]["known"] == {"known": str(known)}
    known.write_text(known.read_text() + "- {case: tie-two-refs-shorter-first, check: expectation}\n",
                     encoding="utf-8")
    stale = Known(entries=read_known_file(str(known)), known_file=str(known))
    result, _ = run(**options, known=stale)
    assert result.exit_code == 1
    assert any("tie-two-refs-shorter-first" in s for s in result.footer.no_longer_failing)


def test_the_baseline_is_named_and_each_failure_marked_new_or_known(tmp_path, capsys):
    """Issue #10.10: the header names the baseline; every failure says new or known; a
    baseline failure that is fixed fails until the baseline is refreshed."""
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    common = ["--implementation-cmd", f"{FAKE} ok", "--claims", "nltk", TIES,
              *(f"--backend={name}" for name in NLTK_CHECKS)]
    assert main(["run", *common, "--select", "closest-vs-shortest-tf*", "--format", "json",
                 "--output", str(old)]) == 1  # always 1.0: wrong wherever BP < 1
    capsys.readouterr()
    assert main(["run", *common, "--select", "closest-vs-shortest-tf*", "--baseline",
                 str(old)]) == 0
    out = capsys.readouterr().out
    assert f"baseline: {old}" in out and "known:" in out and "new:" not in out
    assert main(["run", *common, "--select", "closest-*", "--baseline", str(old),
                 "--format", "json", "--output", str(new)]) == 1
    marked = read_run(new)
    assert marked.header.known == {"baseline": str(old)}
    failing = [r for r in marked.checks if r.verdict == FAIL]
    assert {r.known for r in failing} == {True, False}
    assert main(["run", "--select", "closest-vs-shortest-tf*", TIES, *ONE_LIBRARY, "--baseline",
                 str(old)]) == 1  # the engine passes what the baseline had failing
    assert "NO LONGER FAILS" in capsys.readouterr().out


def test_a_known_check_failing_for_another_cause_is_new(tmp_path, capsys):
    """``--baseline`` matched a known failure by its check alone: a brevity-penalty bug run
    against a lowercasing bug's baseline gave 32 new and 6 "known" failures, and the summary
    read ``causes: bp=off (32) · bp=off (6)``. A check that fails in the baseline is known
    only where it fails for the same cause (a fit of its diagnosis in common); the summary
    says which causes are new and which known."""
    baseline = tmp_path / "ties.jsonl"
    common = ["--claims", "nltk", TIES, "--select", "tie-*",
              *(f"--backend={name}" for name in NLTK_CHECKS)]
    assert main(["run", "--implementation", "miniatures:first_reference_wins_ties", *common,
                 "--format", "json", "--output", str(baseline)]) == 1
    tie_failures = {r.key() for r in read_run(baseline).checks if r.verdict == FAIL}
    capsys.readouterr()
    # the same bug against its own baseline: every failure known
    assert main(["run", "--implementation", "miniatures:first_reference_wins_ties", *common,
                 "--baseline", str(baseline)]) == 0
    out = capsys.readouterr().out
    assert "── known: ref=closest_first" in out
    assert out.splitlines()[-2].startswith("causes: ref=closest_first (") and out.splitlines()[
        -2].endswith(" known)"), out
    # another bug on the same checks: new, though the checks failed in the baseline
    again = tmp_path / "scale.jsonl"
    assert main(["run", "--implementation", "miniatures:wrong_scale", *common, "--baseline",
                 str(baseline), "--format", "json", "--output", str(again)]) == 1
    failing = [r for r in read_run(again).checks if r.verdict == FAIL]
    assert tie_failures & {r.key() for r in failing}  # the same checks fail
    assert failing and not any(r.known for r in failing)
    capsys.readouterr()
    main(["run", "--implementation", "miniatures:wrong_scale", *common, "--baseline",
          str(baseline)])
    causes = capsys.readouterr().out.splitlines()[-2]
    assert causes.startswith("causes: ") and "known" not in causes, causes


def test_a_known_list_that_is_not_one_is_a_usage_error(tmp_path, capsys):
    bad = tmp_path / "known.yaml"
    bad.write_text("- {case: x, why: typo}\n", encoding="utf-8")
    assert main(["run", "--known", str(bad)]) == 2
    assert f"{bad}:1: unknown key 'why'" in capsys.readouterr().err
