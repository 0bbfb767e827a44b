"""Every failure's cause is true (issue 26, items 2 and 3): the same answer gets the same
cause whichever check asks, and a cause is named for a group of failures only where it
gives every answer in it and no other failure contradicts it."""

from __future__ import annotations

import json

import pytest
from runs import CORPUS, TESTS, checks, run

from harness.adapters.library_worker import sacrebleu_score
from harness.cases.loader import load
from harness.explain.attribution import Scorer
from harness.explain.diagnose import diagnose
from harness.judge import answered_claim, recorded_claim
from harness.plan import effective_options

FAMILIES = CORPUS / "families"
DOCUMENTED = CORPUS / "documented" / "conventions-b-table.yaml"


@pytest.fixture(autouse=True)
def importable_miniatures(monkeypatch):
    monkeypatch.chdir(TESTS)


def _case(path, case_id: str):
    return next(c for c in load([str(path)]).cases if c.id == case_id)


@pytest.mark.parametrize("path, case_id", [
    (FAMILIES / "brevity-penalty.yaml", "bp-r4-c-minus1"),  # recorded to the last digit
    (DOCUMENTED, "b02-john-loves-mary-who-loves-mike"),  # recorded to 3 decimals: 30.214
])
def test_the_same_answer_gets_the_same_cause_whichever_check_asks(path, case_id):
    """An expectation knows the convention's value as recorded, a differential check as the
    live library answers it; the knob model matches neither bit for bit. The diagnosis of
    SacreBLEU's score / 100 is "scale 0-1" either way."""
    case = _case(path, case_id)
    e = next(e for e in case.expectations if e.convention == "sacrebleu" and not e.options)
    options = effective_options(case, "sacrebleu", dict(e.options))
    live = sacrebleu_score({"hypotheses": list(case.hypotheses), "level": case.level,
                            "references": [list(r) for r in case.references],
                            "options": dict(options)})
    answer = live / 100
    causes = [diagnose(case.hypotheses, case.references, case.level, "sacrebleu", options,
                       answer, claimed, Scorer(case.hypotheses, case.references, case.level)
                       ).to_dict()
              for claimed in (recorded_claim(e), answered_claim(live, 0.0), None)]
    assert causes[0]["group"] == "scale 0-1", causes[0]
    assert causes[0] == causes[1] == causes[2]


def test_a_wrapper_returning_score_over_100_has_one_cause_on_every_check():
    """Issue 26 item 2: 254 expectation checks said "cannot be diagnosed" where the
    differential checks on the same answers said "scale 0-1"."""
    result, _ = run(implementation="miniatures:sacrebleu_over_100", claims="sacrebleu",
                    paths=(str(FAMILIES / "brevity-penalty.yaml"), str(DOCUMENTED)),
                    select="b[p0]*")
    failed = checks(result, verdict="fail")
    assert {r.check for r in failed} == {"expectation", "differential"}
    assert {r.cause["group"] for r in failed} == {"scale 0-1"}, sorted(
        {(r.case, r.check, r.cause["group"]) for r in failed if r.cause["group"] != "scale 0-1"})
