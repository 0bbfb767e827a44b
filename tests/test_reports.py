"""Reports a reviewer reads in seconds (issue #11): every failure of the implementation under
test says why, grouped by cause, in every view; the CI log reads from the bottom; diff is a
regression report; identify and explain say what they mean."""

from __future__ import annotations

import json
import re
from xml.etree import ElementTree

import pytest
from runs import CORPUS, NLTK_CHECKS, ONE_LIBRARY, TESTS, checks, inner_pytest, run

from bleu_harness.cli import main
from bleu_harness.report.junit import render_junit
from bleu_harness.report.markdown import render_markdown

TIES = str(CORPUS / "families" / "ref-length.yaml")


@pytest.fixture(autouse=True)
def importable_miniatures(monkeypatch):
    monkeypatch.chdir(TESTS)


def test_a_wrong_scale_is_named_as_the_scale():
    result, _ = run(implementation="miniatures:wrong_scale", claims="nltk", paths=(TIES,),
                    backends=NLTK_CHECKS)
    groups = {r.cause["group"] for r in checks(result, verdict="fail")}
    assert groups == {"scale 0-100"}


def test_an_exception_where_a_score_is_due_is_its_own_cause():
    result, _ = run(implementation="miniatures:raises", claims="nltk", paths=(TIES,),
                    select="tie-t*", backends=NLTK_CHECKS)
    assert {r.cause["group"] for r in checks(result, verdict="fail")} == {
        "raises RuntimeError where nltk gives a score"}


def test_the_terminal_view_reads_from_the_bottom(tmp_path, capsys):
    """A one-line header, the failures grouped by cause, the summary last; no divergence
    map unless asked; nothing wrapped."""
    assert main(["run", TIES, "--implementation", "miniatures:first_reference_wins_ties",
                 "--claims", "nltk", *(f"--backend={name}" for name in ("own", *NLTK_CHECKS))]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("bleu-harness ") and "under test" in lines[0]
    assert lines[-1].endswith("→ exit 1") and "divergences between conventions" in lines[-1]
    group = next(i for i, line in enumerate(lines) if line.startswith("── new: ref=closest_first"))
    assert "the first-listed on a tie" in lines[group + 1]
    end = next((i for i, line in enumerate(lines) if line.startswith("── not run")),
               len(lines) - 1)
    assert all(line.startswith(("FAIL", "    ")) for line in lines[group + 2:end])
    assert all(line.startswith("   ") for line in lines[end + 1:-2])  # skips: one per reason
    assert lines[-2] == "causes: ref=closest_first (8)"  # beside the summary, read first
    assert not any("Divergence map" in line for line in lines)
    assert main(["run", str(CORPUS / "families" / "weights.yaml"), *ONE_LIBRARY, "--select",
                 "weights-today-list", "--implementation", "miniatures:wrong_scale",
                 "--claims", "nltk"]) == 1
    long = [line for line in capsys.readouterr().out.splitlines() if line.startswith("FAIL")]
    assert long and all(line.endswith("[0.25, 0.25, 0.25, 0.25]]") and len(line) > 200
                        for line in long)  # one record a line, not wrapped at 200 columns
    assert main(["run", TIES, *ONE_LIBRARY, "--map"]) == 0
    assert "Divergence map" in capsys.readouterr().out


def test_quiet_prints_only_failures_and_the_summary(capsys):
    assert main(["run", TIES, "--quiet", "--implementation",
                 "miniatures:first_reference_wins_ties", "--claims", "nltk",
                 *(f"--backend={name}" for name in NLTK_CHECKS)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("── new:") and lines[-1].endswith("→ exit 1")


def test_diff_is_a_regression_report_with_a_summary_first(tmp_path, capsys):
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    assert main(["run", TIES, *ONE_LIBRARY, "--format", "json", "--output", str(old)]) == 0
    assert main(["run", TIES, *ONE_LIBRARY, "--implementation", "miniatures:first_reference_wins_ties",
                 "--claims", "nltk", "--format", "json", "--output", str(new)]) == 1
    capsys.readouterr()
    assert main(["diff", str(old), str(new)]) == 1
    text = capsys.readouterr().out
    summary, details = text.index("newly failing"), text.index("Newly failing (")
    assert summary < details and "by cause: ref=closest_first" in text
    assert "defaults" in text[details:]  # options on every line
    assert main(["diff", str(old), str(new), "--format", "markdown"]) == 1
    assert "| change | checks | by backend | by cause | by family |" in capsys.readouterr().out
    assert main(["diff", str(old), str(new), "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["worse"] and document["newly_failing"][0]["cause"] == "ref=closest_first"


def test_identify_merges_identical_results_and_shows_options(capsys):
    data = CORPUS / "data" / "wmt15-enru-100"
    assert main(["identify", str(data / "google.ru"), str(data / "ref.ru"), "--score",
                 "23.17"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines if line.startswith("  ")]
    groups = [tuple(line.split()[:2]) for line in rows]
    assert len(groups) == len(set(groups))  # one line per convention and score
    assert len(groups) > len({convention for convention, _ in groups})  # Marian's two
    nltk = next(line for line in rows if line.split()[0] == "nltk")
    # the defaults are one of the values ("| default"), never a setting of their own read
    # as part of the next one ("defaults; script: wmt06")
    assert "smoothing: default |" in nltk and "|" not in nltk.split()[1]
    assert not any(re.search(r"defaults; (?!or )", line) for line in rows), rows
    assert any("the library's defaults; or " in line for line in rows)  # named as one of them
    assert not any("ref:closest_shorter" in line for line in lines)  # no signatures


def test_explain_counts_the_tokens_of_the_tokenizer_given(capsys):
    assert main(["explain", "--hyp", "Hello, world!", "--ref", "Hello world !",
                 "--tokenizer", "13a", "-c", "sacrebleu"]) == 0
    out = capsys.readouterr().out
    assert "13a tokens: hypothesis length 4, reference length 3" in out


def test_explain_says_why_an_implementation_differs_on_one_case(capsys):
    """The implementation's answer and verdict come first, the detail after (they were the
    last 4 of 286 lines of ``explain --implementation``)."""
    assert main(["explain", "tie-two-refs-longer-first", "--implementation",
                 "miniatures:first_reference_wins_ties", "--claims", "nltk"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("The implementation under test (miniatures:first_reference_wins_ties, "
                        "claims nltk): differs from nltk")
    assert "0.9200444146293233 where nltk gives 1.0" in lines[1]
    assert "the first-listed on a tie" in lines[1]
    assert lines[2] == "" and lines[3].startswith("case tie-two-refs-longer-first")
    assert main(["explain", "tie-two-refs-longer-first", "-c", "nltk", "--implementation",
                 "miniatures:faithful", "--claims", "nltk"]) == 0
    assert capsys.readouterr().out.startswith(
        "The implementation under test (miniatures:faithful, claims nltk): agrees with nltk\n")


def test_fingerprint_says_the_one_knob_and_no_inconsistency(capsys):
    assert main(["fingerprint", "--implementation", "miniatures:first_reference_wins_ties",
                 "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["explanation"]["group"] == "ref=closest_first"
    assert document["closest_overall"] == ["nltk"] and not document["inconsistent"]


def test_pytest_failure_shows_exactly_the_cases_own_lines(tmp_path):
    text = (CORPUS / "families" / "ref-length.yaml").read_text(encoding="utf-8")
    (tmp_path / "cases.yaml").write_text(
        text.replace('value: "0.7788007830714049"', 'value: "0.7"'), encoding="utf-8")
    done = inner_pytest("-p", "no:cacheprovider", "-o", "addopts=", "--bleu-backend", "nltk",
                        "cases.yaml", cwd=tmp_path)
    out = done.stdout
    shown = [line for line in out.splitlines() if " | " in line and line.strip()[0].isdigit()]
    assert shown[0].endswith("- id: closest-vs-shortest-tf-nmt-450")
    assert not any("- id: tie-" in line for line in shown)  # not the next case
    assert "expected 0.7   actual 0.7788007830714049" in out


# --- the session's tie-bug run (last: another worker may be building it) -------------

@pytest.fixture(scope="module")
def tie_bug(tie_bug_run):
    return tie_bug_run["run"]


def test_every_failure_of_the_tie_bug_names_the_reference_length(tie_bug):
    """The families of an input (zero-overlap, case, ...) are not the cause; the knob is:
    the tie bug's failures on the tie family and on Perl oracle inputs of many families
    (runs.TIE_CORPUS) all name the reference length."""
    failing = [r for r in tie_bug.checks if r.verdict == "fail"]
    assert len(failing) > 10
    assert {"zero-overlap@2", "case", "tokenization"} <= {t for r in failing for t in r.tags}
    for record in failing:
        assert record.cause["group"] == "ref=closest_first", (record.case, record.cause)
        assert "the first-listed on a tie" in record.cause["sentence"]


def test_markdown_rows_carry_difference_and_reason_grouped_by_cause(tie_bug):
    text = render_markdown(tie_bug)
    assert "### New: ref=closest_first" in text
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert rows and all("the first-listed on a tie" in row for row in rows)
    # an expectation has a difference; a differential row names the library it differs from
    assert all(row.split("|")[-3].strip().startswith(("-", "+"))
               or row.split("|")[5].strip().endswith(("(nltk)", "(fast-bleu)")) for row in rows)
    assert "Divergence map" not in text  # the session's tie-bug run has --no-map


def test_markdown_folds_the_divergence_map_of_a_run_that_has_one(tie_corpus_run):
    assert "<details><summary>Divergence map" in render_markdown(tie_corpus_run["run"])


def test_junit_names_are_unique_classnames_relative_and_messages_complete(tie_bug):
    document = ElementTree.fromstring(render_junit(tie_bug, False).encode("utf-8"))
    cases = document.findall("testcase")
    names = [(c.get("classname"), c.get("name")) for c in cases]
    assert len(names) == len(set(names))
    assert not any(c.get("classname").startswith("/") for c in cases)
    failures = [c.find("failure") for c in cases if c.find("failure") is not None]
    assert failures
    for failure in failures:
        message = failure.get("message")
        assert "expected" in message and "actual" in message and "cause:" in message
