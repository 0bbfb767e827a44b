"""Every failure's cause is true (issue 26, items 2 and 3): the same answer gets the same
cause whichever check asks, and a cause is named for a group of failures only where it
gives every answer in it and no other failure contradicts it."""

from __future__ import annotations

import ast
from dataclasses import replace

import pytest
from runs import CORPUS, TESTS, checks, run

from bleu_harness.adapters.library_worker import sacrebleu_score
from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.agreement import same_score
from bleu_harness.cases.loader import load
from bleu_harness.checkplan import effective_options
from bleu_harness.cli import main
from bleu_harness.divergence.diagnose import MATCH, SMOOTHING_VALUES, diagnose
from bleu_harness.divergence.scorer import Scorer
from bleu_harness.judge import answered_claim, recorded_claim
from bleu_harness.records import CheckRecord, Value
from bleu_harness.report.stream import dumps, read_run
from bleu_harness.report.summary import failure_groups

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
                    select="b[p0]*", backends=("sacrebleu",))
    failed = checks(result, verdict="fail")
    assert {r.check for r in failed} == {"expectation", "differential"}
    assert {r.cause["group"] for r in failed} == {"scale 0-1"}, sorted(
        {(r.case, r.check, r.cause["group"]) for r in failed if r.cause["group"] != "scale 0-1"})


# --- item 3: a group's cause holds on every failure in it and nothing contradicts it --------

def _change(parts):
    """A group's change (``knob=value`` parts, ``scale 0-x``) as knob settings and a factor."""
    knobs, factor = {}, 1.0
    for part in parts:
        if part.startswith("scale "):
            factor = 100.0 if part == "scale 0-100" else 0.01
            continue
        knob, _, text = part.partition("=")
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            value = text
        knobs[knob] = tuple(value) if isinstance(value, list) else value
    return knobs, factor


def assert_named_causes_hold(result):
    """Every group named by a change: the knob model with that change gives every answer in
    the group (checked here from the case's inputs, not from the group's own evidence)."""
    cases = {c.id: c for c in result.cases}
    named = 0
    for name, members in failure_groups(result.records):
        cause = members[0].cause or {}
        if "change" not in cause:
            continue
        named += 1
        knobs, factor = _change(cause["change"])
        if "smoothing" in knobs:
            knobs["smoothing_value"] = SMOOTHING_VALUES.get(knobs["smoothing"])
        for record in members:
            case, spec = cases[record.case], CONVENTIONS[record.convention]
            start = spec.knobs(spec.resolve(case.level, dict(record.options)), case.level)
            score = Scorer(case.hypotheses, case.references, case.level)(replace(start, **knobs))
            assert same_score(score, record.actual.score / spec.scale / factor, MATCH), (
                name, record.case, record.check, score, record.actual)
    return named


def test_a_constant_gets_no_knob_cause_and_few_groups():
    """Issue 26 item 3: 0.5 everywhere was scattered over 34 groups, each named by a change
    that gives 0.5 on a few inputs and something else on the rest."""
    result, _ = run(implementation="miniatures:constant_half", claims="nltk",
                    paths=(str(DOCUMENTED),), select="b0*", backends=("nltk",))
    groups = failure_groups(result.records)
    assert assert_named_causes_hold(result) == 0
    names = [name for name, _ in groups]
    assert len(groups) <= 4, names
    assert "no single cause (nltk)" in names
    kinds = ("no single cause", "gives a score where", "raises ", "a list of scores",
             "cannot be diagnosed")
    assert all(name.startswith(kinds) for name in names), names
    unexplained = dict(groups)["no single cause (nltk)"]
    assert "no single cause explains these" in unexplained[0].cause["sentence"]
    assert "contradicted by" in unexplained[0].cause["sentence"]


def test_no_clipping_is_not_put_down_to_case_folding(capsys):
    """Without clipping, "It is ... the" matches like a lowercased hypothesis on one input
    (smoothing-insure): "case=lower" held on its 17 checks and was printed as the cause. The
    clipping family contradicts it; the knob model has no clipping knob, so no single cause."""
    code = main(["run", str(FAMILIES / "smoothing.yaml"), str(FAMILIES / "clipping.yaml"),
                 "--implementation", "miniatures:nltk_without_clipping", "--claims", "nltk",
                 "--backend", "nltk"])
    out = capsys.readouterr().out
    assert code == 1
    heads = [line for line in out.splitlines() if line.startswith("── ")]
    assert heads == [line for line in heads if "no single cause (nltk)" in line], heads
    assert "case=" not in "\n".join(heads)
    assert "no single cause explains these" in out


def test_a_real_cause_is_named_with_its_support():
    """The tie-break bug and a wrong scale keep their cause, which holds on every failure of
    its group, said with the count."""
    for implementation, path, group in (
            ("first_reference_wins_ties", FAMILIES / "ref-length.yaml", "ref=closest_first"),
            ("sacrebleu_over_100", FAMILIES / "brevity-penalty.yaml", "scale 0-1")):
        result, _ = run(implementation=f"miniatures:{implementation}",
                        claims="sacrebleu" if "sacrebleu" in implementation else "nltk",
                        paths=(str(path),), backends=("nltk", "sacrebleu"))
        groups = failure_groups(result.records)
        assert [name for name, _ in groups] == [group]
        members = groups[0][1]
        assert f"It holds on {len(members)} of {len(members)} failures in this group" in (
            members[0].cause["sentence"])
        assert assert_named_causes_hold(result) == 1
        # read back (a stream's records carry their sentence): said once, not twice
        again = failure_groups([replace(r, cause=dict(r.cause)) for r in members])
        assert again[0][1][0].cause["sentence"].count("It holds on") == 1


def _failure(case: str, fits, moved, known: bool = False):
    first = ", ".join(fits[0]) if fits else "matches no setting within 2 knob changes of nltk"
    return CheckRecord(case, "f.yaml", 1, "expectation", "impl", "nltk", {}, "0.1",
                       Value(0.2), "fail", known=known,
                       cause={"group": first, "sentence": f"diagnosed {first}.",
                              "explained": bool(fits), "fits": [list(f) for f in fits],
                              "moved": list(moved)})


def test_two_real_bugs_are_both_named_and_a_coincidence_is_not():
    """Bug A alone, bug B alone, and both on one input ({A, B} fits there): each is a named
    group, A is not contradicted where it is part of the bigger fit. A change that gives one
    answer and moves another without giving it is no cause."""
    records = [
        _failure("a1", [["ref=first"]], ["ref=first", "case=lower"]),
        _failure("a2", [["ref=first"], ["case=lower"]], ["ref=first", "case=lower"]),
        _failure("b1", [["bp=off"]], ["bp=off"]),
        _failure("ab", [["bp=off", "ref=first"]], ["bp=off", "ref=first"]),
        _failure("c1", [["case=lower"]], ["case=lower"]),
    ]
    groups = {name: sorted(r.case for r in members) for name, members in
              failure_groups(records)}
    assert groups == {"ref=first": ["a1", "a2"], "bp=off": ["b1"],
                      "bp=off, ref=first": ["ab"], "no single cause (nltk)": ["c1"]}
    sentences = {r.case: r.cause["sentence"] for _, members in failure_groups(records)
                 for r in members}
    assert sentences["a1"] == ("diagnosed ref=first. It holds on 2 of 2 failures in this "
                               "group; none of the other 3 failures of nltk contradicts it.")
    assert sentences["c1"].startswith("no single cause explains this failure: ")
    assert "case=lower, gives 1 of them and is contradicted by 1 other failure)" in (
        sentences["c1"])


def test_an_edited_stream_keeps_the_causes_it_has():
    """A stored stream whose evidence is not lists of strings is grouped as it reads."""
    odd = replace(_failure("x", [["bp=off"]], ["bp=off"]),
                  cause={"group": "bp=off", "fits": 7, "moved": [["deep"]]})
    assert [name for name, _ in failure_groups([odd])] == ["bp=off"]


def test_every_view_names_the_same_cause_for_a_failure(tmp_path):
    """A new user's no-BP wrapper: the terminal, Markdown and JUnit grouped its failures
    under bp=off while the stream's per-check cause, and so diff and the HTML report, said
    ref=shortest for 33 of them. A stream read back now carries its group's cause, as the
    views of the run itself do."""
    output = tmp_path / "run.jsonl"
    result, lines = run(implementation="miniatures:constant_half", claims="nltk",
                        paths=(str(DOCUMENTED),), select="b0*", backends=("nltk",))
    with output.open("w", encoding="utf-8") as stream:
        for line in lines:
            stream.write(dumps(line))
    shown_now = {r.key(): r.cause for r in result.run().checks if r.cause}
    read_back = {r.key(): r.cause for r in read_run(output).checks if r.cause}
    assert shown_now and shown_now == read_back
    raw = {r.key(): r.cause for r in result.records if r.cause}
    assert raw != shown_now  # the per-check diagnoses differ: reconciling is what aligns them
