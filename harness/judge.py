"""The judge: per case, four kinds of check, each a :class:`CheckRecord` with a verdict.

1. ``expectation`` — the implementation under test against each expectation of its
   convention (``own`` by default: every convention the engine has);
2. ``drift`` — each live reference library against the expectations of its convention whose
   version range admits the installed version;
3. ``differential`` — the implementation under test against the live library of the same
   convention and options;
4. ``divergence`` — the engine's conventions against each other (the divergence map).

Verdicts: ``pass``; ``fail`` (unexpected value or exception of the implementation under
test); ``error`` (it crashed, hung or answered garbage); ``drift`` (a library moved off its
recorded value); ``unsupported``; ``skipped`` (version range, library missing); ``divergence``
(informational: two conventions differ).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from harness.backends.base import (RAISED, UNSUPPORTED, VALUE, Backend, Outcome,
                                   ScoreRequest)
from harness.backends.own import EMULATED_VERSIONS
from harness.bleu import CONVENTIONS
from harness.cases.model import Case, Expectation, frozen_mapping
from harness.compare import difference, expected_float, matches, same_score
from harness.explain.attribution import Scorer, attribute
from harness.tags import input_tags, option_tags, scale_tag

PASS, FAIL, ERROR, DRIFT = "pass", "fail", "error", "drift"
SKIPPED, UNSUPPORTED_VERDICT, DIVERGENCE = "skipped", "unsupported", "divergence"
FAILING = (FAIL, ERROR)
#: An implementation under test other than the engine agrees with its library within this.
DIFFERENTIAL_RELATIVE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class CheckRecord:
    case: str
    file: str
    line: int
    check: str
    backend: str
    convention: str
    options: Mapping[str, Any]
    expected: str | None
    actual: Outcome
    verdict: str
    compare: str | float | None = None
    difference: float | None = None
    tags: tuple[str, ...] = ()
    provenance: Mapping[str, str] | None = None
    message: str = ""
    other: str = ""  # the other side of a differential or divergence check
    figure: str = "score"  # what of the result was checked (an expectation's figure)

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", frozen_mapping(self.options))


@dataclass(frozen=True)
class Roles:
    """Who plays what in a run."""

    under_test: Backend
    claims: tuple[str, ...]  # the conventions the implementation under test is checked on
    libraries: Mapping[str, Backend] = field(default_factory=dict)  # convention -> library
    engine: Backend | None = None  # for the divergence map
    library_versions: Mapping[str, str] = field(default_factory=dict)
    is_engine_under_test: bool = True
    #: Further implementations of a convention, checked differentially only (no drift).
    extra_libraries: Mapping[str, tuple[Backend, ...]] = field(default_factory=dict)
    absent_libraries: tuple[str, ...] = ()  # optional libraries that are not installed


def effective_options(case: Case, convention: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The case's tokenization applied to conventions whose ``tokenize`` option offers it
    (a pre-tokenized case means ``tokenize="none"``) unless the expectation says otherwise."""
    spec = CONVENTIONS.get(convention)
    return spec.with_case_tokenizer(options, case.tokenizer) if spec else dict(options)


def request_for(case: Case, convention: str, options: Mapping[str, Any],
                figure: str = "score") -> ScoreRequest:
    return ScoreRequest(convention, tuple(case.hypotheses),
                        tuple(tuple(r) for r in case.references), case.level,
                        effective_options(case, convention, options), case.id, figure)


def applies(expectation: Expectation, library: str, version: str) -> bool:
    spec = expectation.versions.get(library)
    if not spec or not version:
        return True
    try:
        return Version(version) in SpecifierSet(spec)
    except InvalidVersion:
        return True


def judge_case(case: Case, roles: Roles) -> list[CheckRecord]:
    records: list[CheckRecord] = []
    stats_tags = _stats_tags(case)
    for expectation in case.expectations:
        records.extend(_expectation_checks(case, expectation, roles, stats_tags))
    records.extend(_differential_checks(case, roles, stats_tags))
    records.extend(_divergence_checks(case, roles, stats_tags))
    return records


def _stats_tags(case: Case) -> list[str]:
    try:
        return input_tags(case.hypotheses, case.references, case.level, case.tokenizer)
    except ValueError:
        return []


def _record(case: Case, check: str, backend: str, expectation: Expectation | None,
            convention: str, options, actual: Outcome, verdict: str, tags=(), message="",
            expected: str | None = None, other: str = "") -> CheckRecord:
    diff = None
    if expectation is not None and expectation.value is not None and actual.kind == VALUE:
        diff = difference(actual.value, expectation.value)
    return CheckRecord(
        case=case.id, file=case.file, line=expectation.line if expectation else case.line,
        check=check, backend=backend, convention=convention, options=options,
        expected=expectation.shown if expectation else expected, actual=actual,
        verdict=verdict, compare=expectation.compare if expectation else None,
        difference=diff, tags=tuple(dict.fromkeys(tags)),
        provenance=expectation.provenance.to_dict() if expectation else None,
        message=message, other=other, figure=expectation.figure if expectation else "score")


def _expectation_checks(case: Case, e: Expectation, roles: Roles, stats_tags):
    under_test = roles.under_test.info().name
    if e.convention in roles.claims:
        version = EMULATED_VERSIONS.get(e.convention, "") if roles.is_engine_under_test else (
            roles.library_versions.get(e.convention) or EMULATED_VERSIONS.get(e.convention, ""))
        if not applies(e, e.convention, version):
            yield _record(case, "expectation", under_test, e, e.convention, e.options,
                          Outcome(UNSUPPORTED), SKIPPED,
                          message=f"applies to {e.convention} {e.versions[e.convention]}, "
                                  f"not {version}")
        else:
            outcome = roles.under_test.score(request_for(case, e.convention, e.options,
                                                         e.figure))
            verdict, message = _verdict(outcome, e, strict_raise=roles.is_engine_under_test)
            yield _record(case, "expectation", under_test, e, e.convention, e.options, outcome,
                          verdict, _failure_tags(verdict, outcome, e, stats_tags), message)
    elif roles.is_engine_under_test:
        yield _record(case, "expectation", under_test, e, e.convention, e.options,
                      Outcome(UNSUPPORTED), UNSUPPORTED_VERDICT,
                      message=f"the engine has no convention {e.convention!r} yet")
    library = roles.libraries.get(e.convention)
    if library is not None:
        name, version = library.info().name, roles.library_versions.get(e.convention, "")
        if not applies(e, e.convention, version):
            yield _record(case, "drift", name, e, e.convention, e.options, Outcome(UNSUPPORTED),
                          SKIPPED, message=f"recorded for {e.convention} "
                                           f"{e.versions[e.convention]}, installed {version}")
            return
        outcome = library.score(request_for(case, e.convention, e.options, e.figure))
        if outcome.kind == UNSUPPORTED:
            return  # a figure the library does not report: nothing to drift
        verdict, message = _verdict(outcome, e, strict_raise=True)
        if verdict in FAILING:
            verdict = DRIFT
        yield _record(case, "drift", name, e, e.convention, e.options, outcome, verdict,
                      _failure_tags(verdict, outcome, e, stats_tags), message)


def _verdict(outcome: Outcome, e: Expectation, strict_raise: bool) -> tuple[str, str]:
    if outcome.kind == UNSUPPORTED:
        return UNSUPPORTED_VERDICT, outcome.message
    if e.raises is not None:
        if outcome.kind == RAISED and (outcome.error_type == e.raises or not strict_raise):
            return PASS, ""
        if outcome.kind == RAISED:
            return FAIL, f"raised {outcome.error_type}, expected {e.raises}: {outcome.message}"
        if outcome.kind == VALUE:
            return FAIL, f"returned {outcome.shown()}, expected it to raise {e.raises}"
        return ERROR, outcome.message
    if outcome.kind == VALUE:
        if matches(outcome.value, e.value, e.compare):
            return PASS, ""
        return FAIL, ""
    if outcome.kind == RAISED and strict_raise:
        return FAIL, f"raised {outcome.error_type}: {outcome.message}"
    return ERROR, f"{outcome.kind}: {outcome.error_type} {outcome.message}".strip()


def _failure_tags(verdict: str, outcome: Outcome, e: Expectation, stats_tags) -> list[str]:
    if verdict in (PASS, SKIPPED, UNSUPPORTED_VERDICT):
        return []
    tags = list(stats_tags) + [t for t in option_tags(e.options, {}) if t not in stats_tags]
    if outcome.kind == VALUE and e.value not in (None, "NaN"):
        tags += scale_tag(outcome.value, expected_float(e.value))
    return tags


def _differential_checks(case: Case, roles: Roles, stats_tags):
    under_test = roles.under_test.info().name
    for convention in roles.claims:
        primary = roles.libraries.get(convention)
        libraries = ((primary,) if primary else ()) + tuple(
            roles.extra_libraries.get(convention, ()))
        if not libraries:
            continue
        option_sets = {repr(sorted(e.options.items())): e.options for e in case.expectations
                       if e.convention == convention} or {"{}": {}}
        for options in option_sets.values():
            request = request_for(case, convention, options)
            ours = roles.under_test.score(request)
            for library in libraries:
                theirs, info = library.score(request), library.info()
                verdict, message = _agreement(ours, theirs, exact=roles.is_engine_under_test,
                                              tolerance=info.tolerance)
                tags = [] if verdict == PASS else list(stats_tags) + option_tags(options, {})
                if verdict != PASS and ours.kind == VALUE and theirs.kind == VALUE:
                    tags += scale_tag(ours.value, theirs.value)
                yield _record(case, "differential", under_test, None, convention, options,
                              ours, verdict, tags, message, expected=theirs.shown(),
                              other=info.name)


def _agreement(ours: Outcome, theirs: Outcome, exact: bool,
               tolerance: float = 0.0) -> tuple[str, str]:
    if theirs.kind not in (VALUE, RAISED):
        return SKIPPED, f"the library gave no answer: {theirs.kind} {theirs.message}"
    if ours.kind == UNSUPPORTED:
        return UNSUPPORTED_VERDICT, ours.message
    if ours.kind not in (VALUE, RAISED):
        return ERROR, f"{ours.kind}: {ours.message}"
    if ours.kind == RAISED and theirs.kind == RAISED:
        same = ours.error_type == theirs.error_type or not exact
        return (PASS, "") if same else (FAIL, f"raised {ours.error_type}, the library "
                                              f"{theirs.error_type}")
    if ours.kind != theirs.kind:
        return FAIL, f"{ours.shown()} where the library gives {theirs.shown()}"
    a, b = ours.value, theirs.value
    if math.isnan(a) or math.isnan(b):
        return (PASS, "") if math.isnan(a) and math.isnan(b) else (FAIL, "")
    allowed = max(tolerance, 0.0 if exact else DIFFERENTIAL_RELATIVE_TOLERANCE)
    if a == b or math.isclose(a, b, rel_tol=allowed, abs_tol=0.0):
        return PASS, ""
    return FAIL, ""


def _divergence_checks(case: Case, roles: Roles, stats_tags):
    """The engine's conventions (default options, the case's tokenization) side by side."""
    if roles.engine is None:
        return
    values: dict[str, Outcome] = {}
    for name in CONVENTIONS:
        values[name] = roles.engine.score(request_for(case, name, {}))
    names = list(values)
    scorer = Scorer(case.hypotheses, case.references)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if UNSUPPORTED in (values[a].kind, values[b].kind):
                continue  # an input one convention cannot express
            x, y = _normalised(a, values[a]), _normalised(b, values[b])
            if same_score(x, y, max(CONVENTIONS[a].precision, CONVENTIONS[b].precision)):
                continue
            options_a = effective_options(case, a, {})
            options_b = effective_options(case, b, {})
            # Every convention gives BP = 1 at c == r, so the boundary explains no divergence.
            tags = [t for t in stats_tags if t != "bp-boundary"]
            tags += option_tags(options_a, options_b)
            if (options_a.get("tokenize") or "none") != (options_b.get("tokenize") or "none"):
                tags.append("tokenization")
            message = f"{a} {_shown(x)} vs {b} {_shown(y)} (0-1 scale)"
            if not isinstance(x, str) and not isinstance(y, str):
                message += "; " + attribute(
                    scorer, a, _resolved(a, case, options_a), x,
                    b, _resolved(b, case, options_b), y).short()
            yield CheckRecord(
                case=case.id, file=case.file, line=case.line, check="divergence",
                backend="own", convention=a, options=options_a, expected=values[b].shown(),
                actual=values[a], verdict=DIVERGENCE, tags=tuple(dict.fromkeys(tags)),
                other=b, message=message)


def _resolved(convention: str, case: Case, options) -> dict[str, Any]:
    return CONVENTIONS[convention].resolve(case.level, dict(options))


def _normalised(convention: str, outcome: Outcome) -> float | str:
    if outcome.kind == VALUE:
        return outcome.value / CONVENTIONS[convention].scale
    return outcome.shown()


def _shown(value) -> str:
    return value if isinstance(value, str) else f"{value:.6g}"


def summary_counts(records: Sequence[CheckRecord]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for record in records:
        counts[record.verdict] = counts.get(record.verdict, 0) + 1
    return counts
