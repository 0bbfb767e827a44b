"""The expected side of a check in words (issue 27, item 10): every view -- terminal,
Markdown, JUnit, HTML, the run diff -- says the same words for the same record, from
``bleu_harness.report.presentation``. Before, two rules were written five times: the
terminal, Markdown and JUnit messages named the other implementation for differential
checks only, the HTML report, the diff and JUnit test names for every check but an
expectation."""

from __future__ import annotations

import io
from dataclasses import replace
from xml.etree import ElementTree

from rich.console import Console

from bleu_harness.records import (
    DIFFERENTIAL,
    DIVERGENCE_CHECK,
    EXPECTATION,
    CheckRecord,
    Value,
)
from bleu_harness.report.diff import diff_runs
from bleu_harness.report.diffview import render_diff
from bleu_harness.report.html import matrix_data
from bleu_harness.report.junit import render_junit
from bleu_harness.report.markdown import render_markdown
from bleu_harness.report.presentation import expected_shown, origin_text, versus
from bleu_harness.report.stream import Footer, Header, Run
from bleu_harness.report.terminal import render_terminal

PROVENANCE = {"kind": "documented", "source": "the manual", "where": "p. 3",
              "library": "nltk", "version": "3.9", "url": "https://example.org/manual"}
RECORDED = CheckRecord(
    case="recorded", file="c.yaml", line=3, check=EXPECTATION, backend="impl",
    convention="nltk", options={}, expected="0.5", actual=Value(0.25), verdict="fail",
    difference=-0.25, provenance=PROVENANCE)
ANSWERED = CheckRecord(
    case="answered", file="c.yaml", line=9, check=DIFFERENTIAL, backend="impl",
    convention="nltk", options={}, expected="0.5", actual=Value(0.25), verdict="fail",
    other="sacrebleu")
#: What each record's expected side reads, by the rule (not by the module under test).
WORDS = {"recorded": "expected 0.5   actual 0.25   difference -0.25",
         "answered": "expected 0.5 (sacrebleu)   actual 0.25"}


def _run(*checks: CheckRecord) -> Run:
    header = Header("0", "3", (), "impl", ("nltk",), 1, "hash")
    return Run(header, checks, (), Footer(len(checks), {}, 0, 1))


RUN = _run(RECORDED, ANSWERED)


def test_the_rule():
    assert expected_shown(RECORDED) == "0.5" and versus(RECORDED) == ""
    assert expected_shown(ANSWERED) == "0.5 (sacrebleu)" and versus(ANSWERED) == " vs sacrebleu"
    divergence = replace(ANSWERED, check=DIVERGENCE_CHECK, other="torchmetrics")
    assert expected_shown(divergence) == "0.5 (torchmetrics)"
    assert expected_shown(replace(RECORDED, other="stray")) == "0.5"  # an expectation's is recorded
    assert origin_text(PROVENANCE) == "the manual · p. 3 · nltk 3.9 · https://example.org/manual"


def test_the_terminal_and_html_say_the_same_comparison():
    out = io.StringIO()
    render_terminal(RUN, Console(file=out, width=400, no_color=True))
    lines = [line.strip() for line in out.getvalue().splitlines()]
    details = matrix_data(RUN, {}, None)["details"]
    for case, words in WORDS.items():
        assert words in lines
        [check] = details[case]["checks"]
        assert check["comparison"] == words
    assert details["recorded"]["checks"][0]["origin"] == "the manual · p. 3 · nltk 3.9"
    assert details["recorded"]["checks"][0]["url"] == "https://example.org/manual"


def test_markdown_junit_and_the_diff_name_the_same_expected_side():
    markdown = render_markdown(RUN)
    assert "| 0.5 (sacrebleu) | 0.25 |" in markdown and "| 0.5 | 0.25 | -0.25 |" in markdown
    cases = {c.get("name").split(" · ")[0]: c for c in
             ElementTree.fromstring(render_junit(RUN, False).encode()).findall("testcase")}
    for case, words in WORDS.items():
        message = cases[case].find("failure").get("message")
        assert message.startswith(words.replace("   ", ", ") + "; cause:")
    assert cases["answered"].get("name").endswith(" vs sacrebleu")
    properties = {c: {p.get("name"): p.get("value") for p in cases[c].iter("property")}
                  for c in cases}
    assert properties["answered"]["expected"] == "0.5 (sacrebleu)"
    assert properties["recorded"]["provenance"] == (
        "the manual · p. 3 · nltk 3.9 · https://example.org/manual")
    passed = _run(*(replace(r, verdict="pass", actual=Value(0.5), difference=None)
                    for r in (RECORDED, ANSWERED)))
    text = render_diff(diff_runs(passed, RUN), passed, RUN, markdown=False)
    assert "vs sacrebleu · defaults: expected 0.5 (sacrebleu), actual 0.25" in text
    assert "as nltk · defaults: expected 0.5, actual 0.25" in text
