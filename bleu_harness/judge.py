"""The judge: a pure function of a case's plan and the outcomes of its requests -> one
:class:`~bleu_harness.records.CheckRecord` per check. It calls no backend.

Verdicts (``bleu_harness.records``): ``pass``; ``fail`` (the implementation under test answered
something else than expected, or raised where it should not); ``error`` (it crashed, timed
out, broke the protocol or answered garbage -- never a match for anything, not even for an
expected exception); ``drift`` (a live library moved off its recorded value, or the engine
and a library differ only because the library is another release); ``unsupported``;
``skipped`` (version range, no answer from the library); ``divergence`` (informational: two
conventions differ).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bleu_harness.bleu.agreement import RELATIVE_TOLERANCE, agree
from bleu_harness.cases.model import Case, Expectation
from bleu_harness.checkplan import CasePlan, PlannedCheck
from bleu_harness.compare import difference, expected_float, matches
from bleu_harness.divergence.agreement import attribute_disagreement, disagreements
from bleu_harness.divergence.detectors import check_tags, input_tags, pair_tags
from bleu_harness.divergence.diagnose import MATCH, diagnose
from bleu_harness.divergence.scorer import Scorer
from bleu_harness.records import (
    DIFFERENTIAL,
    DIVERGENCE,
    DIVERGENCE_CHECK,
    DRIFT,
    DRIFT_CHECK,
    ERROR,
    EXPECTATION,
    FAIL,
    PASS,
    SKIPPED,
    UNSUPPORTED,
    BackendOutcome,
    BackendRequest,
    CheckRecord,
    HarnessError,
    Raised,
    Timeout,
    Unsupported,
    Value,
    outcome_message,
    shown,
)

NO_ANSWER = Unsupported("no answer")


def judge_case(plan: CasePlan, outcomes: Mapping[BackendRequest, BackendOutcome],
               is_engine_under_test: bool = True) -> list[CheckRecord]:
    case = plan.case
    scorer = Scorer(case.hypotheses, case.references, case.level)
    stats_tags = statistics_tags(case, scorer)
    records: list[CheckRecord] = []
    for planned in plan.checks:
        if planned.check in (EXPECTATION, DRIFT_CHECK):
            record = _expectation_record(case, planned, outcomes, stats_tags, diagnoser=scorer)
            if record is not None:
                records.append(record)
    for planned in plan.checks:
        if planned.check == DIFFERENTIAL:
            records.append(_differential_record(case, planned, outcomes, stats_tags, records,
                                                exact=is_engine_under_test, diagnoser=scorer))
    records.extend(_divergence_records(plan, outcomes, stats_tags, scorer))
    return records


def divergence_map(plan: CasePlan, outcomes: Mapping[BackendRequest, BackendOutcome]
                   ) -> list[CheckRecord]:
    """The records of the case's divergence map alone: what :func:`judge_case` gives after
    the case's other checks, the same records (a worker process computes a map this way,
    ``bleu_harness.map_pool``)."""
    case = plan.case
    scorer = Scorer(case.hypotheses, case.references, case.level)
    return _divergence_records(plan, outcomes, statistics_tags(case, scorer), scorer)


def statistics_tags(case: Case, scorer: Scorer) -> list[str]:
    """The tags of the case's input, read off the statistics ``scorer`` keeps for it (the
    ones its attribution and diagnosis read); none where the input cannot be counted."""
    try:
        return input_tags(scorer, case.tokenizer)
    except ValueError:
        return []


def _record(case: Case, planned: PlannedCheck, actual: BackendOutcome, verdict: str,
            tags=(), message: str = "", expected: str | None = None) -> CheckRecord:
    e = planned.expectation
    diff = None
    if e is not None and e.value is not None and isinstance(actual, Value):
        value = actual.figure(e.figure)
        diff = difference(value, e.value) if value is not None else None
    return CheckRecord(
        case=case.id, file=case.relative_file, line=e.line if e else case.line,
        check=planned.check,
        backend=planned.backend, convention=planned.convention, options=planned.options,
        expected=e.shown if e else expected, actual=actual, verdict=verdict,
        compare=e.compare if e else None, difference=diff, tags=tuple(dict.fromkeys(tags)),
        provenance=e.provenance.to_dict() if e else None, message=message,
        other=planned.other, figure=e.figure if e else "score",
        versions=dict(e.versions) if e else None)


# --- expectation and drift ------------------------------------------------------------------

def _expectation_record(case: Case, planned: PlannedCheck, outcomes, stats_tags,
                        diagnoser: Scorer) -> CheckRecord | None:
    e = planned.expectation
    if planned.skip:
        answer = outcomes.get(planned.subject) if planned.subject else None
        return _record(case, planned, answer or Unsupported(planned.skip), SKIPPED,
                       message=planned.skip)
    outcome = outcomes.get(planned.subject, NO_ANSWER)
    if planned.check == DRIFT_CHECK:
        if isinstance(outcome, Value) and outcome.figure(e.figure) is None and (
                e.figure != "score" and not e.figure.startswith("scores.")):
            return None  # a figure the library does not report: nothing to drift
        if isinstance(outcome, Unsupported):
            return _record(case, planned, outcome, UNSUPPORTED, message=outcome.reason)
    verdict, message = expectation_verdict(outcome, e)
    if planned.check == DRIFT_CHECK and verdict in (FAIL, ERROR):
        verdict = DRIFT
    record = _record(case, planned, outcome, verdict,
                     failure_tags(verdict, outcome, e, stats_tags), message)
    if verdict == FAIL and planned.check == EXPECTATION:
        claimed = recorded_claim(e) if e.value is not None and e.figure == "score" else None
        return replace(record, cause=failure_cause(case, planned, outcome, claimed,
                                                   e.raises, diagnoser))
    return record


def same_exception(raised: str, expected: str) -> bool:
    """The one rule for an exception a check expects (``raises:`` of a case, or the
    library's raise in a differential check), for every subject alike -- the engine, a
    library, the implementation under test: the type it names is the one expected. An
    implementation that claims a convention raises what that tool raises; another exception
    is a divergence like another score (its cause says which it raised)."""
    return raised == expected


def expectation_verdict(outcome: BackendOutcome, e: Expectation) -> tuple[str, str]:
    """The verdict of one answer against one expectation, and why (for anything but pass)."""
    if isinstance(outcome, Unsupported):
        return UNSUPPORTED, outcome.reason
    if isinstance(outcome, (Timeout, HarnessError)):
        return ERROR, _no_answer(outcome)
    if e.raises is not None:
        if isinstance(outcome, Raised):
            if same_exception(outcome.error_type, e.raises):
                return PASS, ""
            return FAIL, f"raised {outcome.error_type}, expected {e.raises}: {outcome.message}"
        return FAIL, f"returned {shown(outcome)}, expected it to raise {e.raises}"
    if isinstance(outcome, Raised):
        return FAIL, f"raised {outcome.error_type}: {outcome.message}"
    value = outcome.figure(e.figure)
    if value is None:
        if e.figure.startswith("scores."):
            return FAIL, (f"answered {shown(outcome)} where {e.convention} returns a list of "
                          "scores, one per weight vector")
        if e.figure == "score":
            return FAIL, (f"answered a list, {shown(outcome)}, where {e.convention} returns "
                          "one number")
        return UNSUPPORTED, f"it reports the score, not {e.figure}"
    return (PASS, "") if matches(value, e.value, e.compare) else (FAIL, "")


def _no_answer(outcome: BackendOutcome) -> str:
    detail = outcome_message(outcome)
    return f"{shown(outcome)}: {detail}" if detail else shown(outcome)


def failure_tags(verdict: str, outcome: BackendOutcome, e: Expectation, stats_tags) -> list[str]:
    if verdict in (PASS, SKIPPED, UNSUPPORTED):
        return []
    value = expected = None
    if isinstance(outcome, Value) and e.value not in (None, "NaN"):
        value = outcome.figure(e.figure)
        if value is not None:
            expected = expected_float(e.value)
    return check_tags(stats_tags, e.options, value, expected)


# --- differential ---------------------------------------------------------------------------

def _differential_record(case: Case, planned: PlannedCheck, outcomes, stats_tags,
                         judged: Sequence[CheckRecord], exact: bool,
                         diagnoser: Scorer) -> CheckRecord:
    ours = outcomes.get(planned.subject, NO_ANSWER)
    theirs = outcomes.get(planned.reference, NO_ANSWER)
    allowed = max(planned.tolerance, 0.0 if exact else RELATIVE_TOLERANCE)
    verdict, message = differential_verdict(ours, theirs, allowed)
    tags: list[str] = []
    if verdict in (FAIL, ERROR):
        both = isinstance(ours, Value) and isinstance(theirs, Value)
        tags = check_tags(stats_tags, planned.options, ours.score if both else None,
                          theirs.score if both else None)
    if verdict == FAIL:
        drift = _drift_explains(planned, judged)
        if drift:
            verdict, message = DRIFT, drift
    record = _record(case, planned, ours, verdict, tags, message, expected=shown(theirs))
    if verdict == FAIL:
        claimed = None
        if isinstance(theirs, Value) and not theirs.is_list:
            claimed = answered_claim(theirs.score, allowed)
        raises = theirs.error_type if isinstance(theirs, Raised) else None
        return replace(record, cause=failure_cause(case, planned, ours, claimed, raises,
                                                   diagnoser))
    return record


def recorded_claim(e: Expectation) -> Callable[[float], bool]:
    """What the convention gives here as an expectation knows it: its recorded value, by
    the expectation's own comparison or within the diagnosis's ``MATCH`` (a value recorded
    to the last digit and the knob model may differ in the last bit)."""
    value = expected_float(e.value)
    return lambda score: matches(score, e.value, e.compare) or agree(score, value, MATCH)


def answered_claim(theirs: float, allowed: float) -> Callable[[float], bool]:
    """What the convention gives here as a differential check knows it: the live library's
    answer, within the check's tolerance or ``MATCH``."""
    return lambda score: agree(score, theirs, max(allowed, MATCH))


def failure_cause(case: Case, planned: PlannedCheck, outcome: BackendOutcome, claimed,
                  raises: str | None, scorer: Scorer) -> dict[str, Any]:
    """Why the implementation under test failed this check, for every view: a knob
    diagnosis of its answer, or the difference in kind (an exception against a value).

    The same for every kind of check: ``claimed`` (what the convention gives here, the
    recorded value or the live library's answer: ``recorded_claim``, ``answered_claim``)
    only confirms that the knob model reproduces the convention
    (``bleu_harness.divergence.diagnose``)."""
    convention = planned.convention
    if isinstance(outcome, Raised):
        group = f"raises {outcome.error_type}" + (f" where {convention} raises {raises}"
                                                  if raises else f" where {convention} "
                                                  "gives a score")
        return {"group": group, "sentence": f"the implementation {group}.", "explained": True}
    if raises:
        group = f"gives a score where {convention} raises {raises}"
        return {"group": group, "sentence": f"the implementation {group}.", "explained": True}
    if not isinstance(outcome, Value) or outcome.is_list or (
            planned.expectation is not None and planned.expectation.figure != "score"):
        return {"group": "a list of scores or another figure (not diagnosed)",
                "sentence": "the knob diagnosis covers a single score; this answer or "
                            "expectation is a list of scores or another figure.",
                "explained": False}
    return diagnose(case.hypotheses, case.references, case.level, convention,
                    planned.options, outcome.score, claimed, scorer).to_dict()


def differential_verdict(ours: BackendOutcome, theirs: BackendOutcome,
                         rel_tol: float) -> tuple[str, str]:
    if not isinstance(theirs, (Value, Raised)):
        return SKIPPED, f"the library gave no answer: {_no_answer(theirs)}"
    if isinstance(ours, Unsupported):
        return UNSUPPORTED, ours.reason
    if isinstance(ours, (Timeout, HarnessError)):
        return ERROR, _no_answer(ours)
    if isinstance(ours, Raised) and isinstance(theirs, Raised):
        if same_exception(ours.error_type, theirs.error_type):
            return PASS, ""
        return FAIL, f"raised {ours.error_type}, the library {theirs.error_type}"
    if not isinstance(ours, Value) or not isinstance(theirs, Value):
        return FAIL, f"{shown(ours)} where the library gives {shown(theirs)}"
    if ours.is_list or theirs.is_list:
        if len(ours.scores) != len(theirs.scores) or ours.is_list != theirs.is_list:
            return FAIL, (f"answered {shown(ours)} where the library answers {shown(theirs)} "
                          "(a list of weight vectors gives a list of scores)")
        same = all(agree(a, b, rel_tol) for a, b in zip(ours.scores, theirs.scores))
    else:
        same = agree(ours.score, theirs.score, rel_tol)
    return (PASS, "") if same else (FAIL, "")


def _drift_explains(planned: PlannedCheck, judged: Sequence[CheckRecord]) -> str:
    """Why a difference between the implementation under test and its library is the
    library's drift, not a failure: the library is another release than the one followed,
    or it drifted from the recorded values here while the implementation keeps them."""
    if planned.drift_note:
        return planned.drift_note
    asked = _without_release(planned.options)
    same = [r for r in judged if r.convention == planned.convention
            and _without_release(r.options) == asked]
    drifted = [r for r in same if r.check == DRIFT_CHECK and r.verdict == DRIFT]
    kept = [r for r in same if r.check == EXPECTATION]
    if drifted and kept and all(r.verdict == PASS for r in kept):
        return (f"{planned.other} drifted from the recorded value(s), which the "
                "implementation under test keeps")
    return ""


def _without_release(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options as the case gives them: without the release the engine was told to follow."""
    return {k: v for k, v in options.items() if k != "version"}


# --- divergence map -------------------------------------------------------------------------

def _divergence_records(plan: CasePlan, outcomes, stats_tags,
                        scorer: Scorer) -> list[CheckRecord]:
    """The engine's conventions (default options, the case's tokenization) side by side."""
    case = plan.case
    if not plan.divergence:
        return []
    values = {name: outcomes.get(request, NO_ANSWER) for name, request in plan.divergence}
    options = {name: request.options for name, request in plan.divergence}
    answers = {name: _native(value) for name, value in values.items()}
    records = []
    for a, b in disagreements(answers):
        attribution = attribute_disagreement(scorer, a, options[a], answers[a],
                                             b, options[b], answers[b])
        x, y = attribution.score_a, attribution.score_b
        message = f"{a} {_short(x)} vs {b} {_short(y)} (0-1 scale); " + attribution.short()
        records.append(CheckRecord(
            case=case.id, file=case.relative_file, line=case.line, check=DIVERGENCE_CHECK,
            backend="own", convention=a, options=options[a], expected=shown(values[b]),
            actual=values[a], verdict=DIVERGENCE,
            tags=tuple(dict.fromkeys(pair_tags(stats_tags, options[a], options[b]))),
            other=b, message=message, cause=attribution.to_dict()))
    return records


def _native(outcome: BackendOutcome) -> float | str | None:
    """A convention's answer for the divergence map: its score (native scale), ``raises X``,
    or ``None`` where it has none to compare (an input it cannot express, or no answer)."""
    if isinstance(outcome, Value):
        return outcome.score
    return shown(outcome) if isinstance(outcome, Raised) else None


def _short(value: float | str) -> str:
    return value if isinstance(value, str) else f"{value:.6g}"


def summary_counts(records: Sequence[CheckRecord]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for record in records:
        counts[record.verdict] = counts.get(record.verdict, 0) + 1
    return counts
