"""Views for CI stay within their medium (issue 29, item 4): with a badly broken
implementation the Markdown view was 372 KB, far over GitHub's 65,536-character limit for a
comment, and the terminal printed 4,601 lines. Now each view says the failures by cause first
and cuts the rows, saying how many more the full reports hold; ``run --maxfail N`` / ``-x``
stop the run as pytest's do."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
from rich.console import Console
from runs import TIE_CORPUS

from bleu_harness.cli import main
from bleu_harness.records import DIFFERENTIAL, EXPECTATION, CheckRecord, Value
from bleu_harness.report.junit import render_junit
from bleu_harness.report.markdown import MARKDOWN_LIMIT, render_markdown
from bleu_harness.report.stream import STOPPED, Footer, Header, Run, read_run
from bleu_harness.report.terminal import CHECKS_PER_CAUSE, render_terminal

SCHEMA = json.loads((Path(__file__).parents[1] / "bleu_harness" / "schema"
                     / "stream.schema.json").read_text(encoding="utf-8"))
#: Causes as the judge words them for a broken implementation, each with many failures.
CAUSES = ("ref=closest_first", "zero=tiny", "smoothing=method1", "not explained by the knobs")


def broken_run(failures_per_cause: int = 300) -> Run:
    """What a badly broken implementation's run holds: thousands of failing checks over a
    few causes, each row as long as the corpus's (paths, options, long values)."""
    checks = []
    for c, cause in enumerate(CAUSES):
        for i in range(failures_per_cause):
            checks.append(CheckRecord(
                case=f"family-{c}-case-{i:04d}-with-a-descriptive-name",
                file="families/some-family-of-inputs.yaml", line=10 + i,
                check=EXPECTATION if i % 2 else DIFFERENTIAL, backend="mymodule:my_bleu",
                convention="nltk", options={"smoothing": "method1", "weights": [0.25] * 4},
                expected="0.4111336169005197", actual=Value(0.12345678901234567),
                verdict="fail", difference=-0.2876768278881741, other="nltk",
                cause={"group": cause, "sentence": f"the implementation differs by {cause}"}))
    header = Header("0", "3", (), "mymodule:my_bleu", ("nltk",), 40, "hash")
    return Run(header, tuple(checks), (), Footer(len(checks), {"fail": len(checks)}, 0, 1))


def test_the_markdown_view_of_a_broken_implementation_fits_a_comment():
    run = broken_run()
    text = render_markdown(run)
    assert len(text) <= MARKDOWN_LIMIT
    summary = text.index("### Failures by cause")
    assert summary < text.index("### New:")  # the summary by cause comes first
    for cause in CAUSES:
        assert f"| {cause} | 300 |" in text
        assert f"### New: {cause} (300)" in text
    assert "more checks of this cause" in text and "--junit-xml" in text
    # the reports that are files keep every check
    assert render_junit(run, False).count("<testcase") >= len(run.checks)


def _with_a_map(run: Run, pairs: int = 200) -> Run:
    """``run`` with a divergence map of ``pairs`` convention pairs (the engine's conventions
    against each other, as a run of the bundled corpus has)."""
    divergences = tuple(CheckRecord(
        case=f"case-{i}", file="families/f.yaml", line=i, check="divergence", backend="own",
        convention=f"convention-{i % 23}", options={}, expected="0.5", actual=Value(0.25),
        verdict="divergence", other=f"another-convention-{i}", tags=("zero-overlap@2",),
        cause={"explained": True, "knobs": ["smoothing", "zero"]}) for i in range(pairs))
    return Run(run.header, run.checks + divergences, run.problems, run.footer)


def test_failures_come_before_the_divergence_map_in_a_view_that_must_be_cut():
    """For a broken implementation on the whole corpus the view was 65,465 characters: three
    rows of failures, then some 250 lines of convention-vs-convention tables. The view fits
    half a comment (32,768 characters) and the map goes before any failure row does; a
    view with room keeps it, folded."""
    assert MARKDOWN_LIMIT == 32_768
    text = render_markdown(_with_a_map(broken_run()))
    assert len(text) <= MARKDOWN_LIMIT and "Divergence map" not in text
    assert text.count("| `family-") >= 4 * 20  # rows of every cause
    small = render_markdown(_with_a_map(broken_run(3), pairs=20))
    assert "<details><summary>Divergence map" in small
    assert small.count("| `family-") == 12


def test_a_small_run_is_shown_whole():
    run = broken_run(3)
    text = render_markdown(run)
    assert "more checks of this cause" not in text
    assert text.count("| `family-") == len(run.checks)


def test_a_view_too_long_even_without_rows_ends_at_a_whole_line_saying_so():
    text = render_markdown(broken_run(), limit=400)
    assert len(text) <= 400
    assert text.endswith("--html list every check.\n") and "Cut at 400 characters" in text


def test_the_terminal_prints_a_few_checks_per_cause_and_the_count_of_the_rest():
    run = broken_run()
    out = io.StringIO()
    render_terminal(run, Console(file=out, width=400, no_color=True))
    lines = out.getvalue().splitlines()
    assert len(lines) < 10 * CHECKS_PER_CAUSE * len(CAUSES) / 4 + 50  # was one block per check
    assert sum("more of this cause" in line for line in lines) == len(CAUSES)
    assert "1200 failed" in lines[-1]
    every = io.StringIO()
    render_terminal(run, Console(file=every, width=400, no_color=True), per_cause=None)
    assert every.getvalue().count("FAIL family-") == len(run.checks)


def test_exitfirst_stops_after_the_first_case_with_a_new_failure(tmp_path, capsys,
                                                                 monkeypatch, tie_bug_run):
    """The tie bug fails on the tie family's cases: -x stops after the first of them, with
    a stream whose footer says so and that diff refuses as a whole run."""
    monkeypatch.chdir(Path(__file__).parent)  # --implementation imports the miniatures here
    stream = tmp_path / "stopped.jsonl"
    code = main(["run", *TIE_CORPUS, "--implementation", "miniatures:first_reference_wins_ties",
                 "--claims", "nltk", "--backend", "nltk", "-x", "--format", "json",
                 "--output", str(stream)])
    assert code == 1
    captured = capsys.readouterr()
    assert "stopped at -x: the case that reached it was judged whole" in captured.err
    assert "STOPPED at --maxfail" in captured.out
    lines = [json.loads(line) for line in stream.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        jsonschema.validate(line, SCHEMA)
    footer = lines[-1]
    assert footer["status"] == STOPPED and footer["exit_code"] == 1
    failed_cases = {line["case"] for line in lines if line.get("verdict") == "fail"}
    assert len(failed_cases) == 1  # the case that reached the limit, whole, and none after
    whole = tie_bug_run["run"]  # the same run without -x (tests/conftest.py)
    assert len({r.case for r in whole.checks if r.verdict == "fail"}) > 1
    assert len({r.case for r in whole.checks}) > len({line.get("case") for line in lines[1:-1]})
    assert read_run(stream).footer.finished is False
    assert main(["diff", str(stream), str(stream)]) == 2
    assert "the run was stopped" in capsys.readouterr().err
    # nor is a partial run a baseline (a new user's interrupted stream was taken as one)
    assert main(["run", *TIE_CORPUS, "--baseline", str(stream)]) == 2
    assert "--baseline" in capsys.readouterr().err


def test_html_without_plotly_is_said_before_the_run(monkeypatch, capsys, tmp_path):
    """A new user's run with --html and no plotly ran whole (66 s) and then exited 2 in
    place of its own result."""
    import sys

    monkeypatch.setitem(sys.modules, "plotly", None)  # importing it fails
    monkeypatch.setitem(sys.modules, "plotly.graph_objects", None)
    started = []
    monkeypatch.setattr("bleu_harness.cli.run.execute_run",
                        lambda *a, **k: started.append(1))
    assert main(["run", "--html", str(tmp_path / "r.html")]) == 2
    assert "pip install 'bleu-harness[html]'" in capsys.readouterr().err and not started


@pytest.mark.parametrize("arguments, message", [
    (["--maxfail", "0"], "give 1 or more failures, not 0"),
    (["--maxfail", "many"], "not a whole number: 'many'"),
    (["-x", "--maxfail", "2"], "not allowed with argument -x/--exitfirst"),
    (["--checks-per-cause", "-1"], "give 0 (every check) or more, not -1"),
    (["--tag", "zero-overlapp"], "is no tag of the corpus (did you mean zero-overlap?)"),
])
def test_the_limits_are_checked_before_anything_runs(arguments, message, capsys):
    """(A mistyped --tag selected nothing and said only '0 cases', a new user found.)"""
    try:
        code = main(["run", *arguments])
    except SystemExit as stop:  # argparse's own checks
        code = stop.code
    assert code == 2
    assert message in capsys.readouterr().err
