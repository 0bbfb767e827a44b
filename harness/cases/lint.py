"""Lint rules over loaded cases, one function per rule, each with a stable ID.

BH001 ids unique · BH002 tags known · BH003 provenance complete · BH004 value precision
consistent with its comparison · BH005 a case has an expectation · BH006 sentence level has one
segment · BH007 options valid for the engine's convention · BH008 version specifiers parse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from harness.bleu import CONVENTIONS
from harness.cases.loader import tag_vocabulary
from harness.cases.model import Case, Problem
from harness.compare import is_full_repr

Rule = Callable[[Sequence[Case]], Iterator[Problem]]


def _problem(case: Case, line: int, rule: str, message: str) -> Problem:
    return Problem(case.file, line or case.line, case.id, f"{rule} {message}")


def unique_ids(cases: Sequence[Case]) -> Iterator[Problem]:
    seen: dict[str, Case] = {}
    for case in cases:
        if case.id in seen:
            first = seen[case.id]
            yield _problem(case, case.line, "BH001",
                           f"duplicate id (first used at {first.location})")
        else:
            seen[case.id] = case


def known_tags(cases: Sequence[Case]) -> Iterator[Problem]:
    vocabulary = tag_vocabulary()
    for case in cases:
        for tag in case.tags:
            if tag.split("@")[0] not in vocabulary:
                yield _problem(case, case.line, "BH002",
                               f"unknown tag {tag!r} (see harness/schema/tags.yaml)")


def provenance_complete(cases: Sequence[Case]) -> Iterator[Problem]:
    for case in cases:
        for e in case.expectations:
            p = e.provenance
            if p.kind == "computed" and not (p.library and p.version):
                yield _problem(case, e.line, "BH003",
                               "a computed value names the library and version that computed it")
            if p.kind == "documented" and not (p.where or p.url or p.issue):
                yield _problem(case, e.line, "BH003",
                               "a documented value names where it is written (where, url or issue)")


def precision_consistent(cases: Sequence[Case]) -> Iterator[Problem]:
    for case in cases:
        for e in case.expectations:
            if e.value is None or e.value == "NaN":
                continue
            if e.compare == "exact" and not is_full_repr(e.value):
                yield _problem(case, e.line, "BH004",
                               f"'exact' needs the full float repr, {e.value!r} is rounded; "
                               "use 'printed'")
            if e.value.endswith("...") and e.compare != "printed":
                yield _problem(case, e.line, "BH004", "a value with '...' compares as 'printed'")


def has_expectation(cases: Sequence[Case]) -> Iterator[Problem]:
    for case in cases:
        if not case.expectations:
            yield _problem(case, case.line, "BH005", "a case needs at least one expectation")


def sentence_has_one_segment(cases: Sequence[Case]) -> Iterator[Problem]:
    for case in cases:
        if case.level == "sentence" and len(case.segments) != 1:
            yield _problem(case, case.line, "BH006",
                           f"level 'sentence' needs exactly one segment, got {len(case.segments)}")


def options_valid(cases: Sequence[Case]) -> Iterator[Problem]:
    for case in cases:
        for e in case.expectations:
            convention = CONVENTIONS.get(e.convention)
            if convention is None:
                continue  # a convention the engine does not have yet: documented only
            try:
                convention.resolve(case.level, dict(e.options))
            except ValueError as error:
                yield _problem(case, e.line, "BH007", str(error))


def versions_parse(cases: Sequence[Case]) -> Iterator[Problem]:
    for case in cases:
        for e in case.expectations:
            for library, spec in e.versions.items():
                try:
                    SpecifierSet(spec)
                except InvalidSpecifier:
                    yield _problem(case, e.line, "BH008",
                                   f"versions.{library}: {spec!r} is not a PEP 440 specifier")


RULES: tuple[Rule, ...] = (unique_ids, known_tags, provenance_complete, precision_consistent,
                           has_expectation, sentence_has_one_segment, options_valid,
                           versions_parse)


def lint(cases: Sequence[Case]) -> list[Problem]:
    return [problem for rule in RULES for problem in rule(cases)]
