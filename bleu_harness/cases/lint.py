"""Lint rules over loaded cases, one function per rule, each with a stable ID.

BH001 ids unique · BH002 tags known · BH003 provenance complete · BH004 value precision
consistent with its comparison · BH005 a case has an expectation · BH006 sentence level has one
segment · BH007 options valid for the engine's convention · BH008 version specifiers parse ·
BH009 a value is a finite number as printed (or NaN) · BH010 a tolerance is a finite number
· BH011 a figure the convention reports · BH012 a convention the engine has.

A case with a problem is not run: its expectations cannot be trusted as written.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence

from packaging.specifiers import InvalidSpecifier, SpecifierSet

from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.conventions import unknown_convention
from bleu_harness.bleu.history import HISTORIES
from bleu_harness.cases.loader import tag_vocabulary
from bleu_harness.cases.model import Case, Problem
from bleu_harness.compare import expected_float, is_full_repr
from bleu_harness.records import non_finite_place
from bleu_harness.text import clean_text

Rule = Callable[[Sequence[Case]], Iterator[Problem]]


def _problem(case: Case, line: int, rule: str, message: str) -> Problem:
    return Problem(case.file, line or case.line, case.id, f"{rule} {clean_text(message, 300)}",
                   case.line)


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
        unknown = [tag for tag in case.tags if tag.split("@")[0] not in vocabulary]
        if unknown:  # one problem a case, however many tags it gives
            more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
            yield _problem(case, case.line, "BH002",
                           f"unknown tag {', '.join(repr(t) for t in unknown[:3])}{more} "
                           "(see bleu_harness/schema/tags.yaml)")


def provenance_complete(cases: Sequence[Case]) -> Iterator[Problem]:
    for case in cases:
        for e in case.expectations:
            p = e.provenance
            if p.kind in ("computed", "recorded") and not (p.library and p.version):
                yield _problem(case, e.line, "BH003",
                               f"a {p.kind} value names the library (or tool) and version "
                               f"that {p.kind} it")
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
    """The options as the engine resolves them for the expectation: at the newest modelled
    release of its ``versions`` range where its default release is outside it (an option
    that only some releases have, NLTK 3.2.4-3.2.5's ``emulate_multibleu``)."""
    for case in cases:
        for e in case.expectations:
            convention = CONVENTIONS.get(e.convention)
            if convention is None:
                continue  # BH012 says so
            options = dict(e.options)
            place = next(filter(None, (non_finite_place(value, f"options.{key}")
                                       for key, value in options.items())), None)
            if place is not None:
                yield _problem(case, e.line, "BH007", f"{place}: NaN and infinities are no "
                               "option values (options reach every implementation as JSON, "
                               "which has neither)")
                continue
            history, spec = HISTORIES.get(e.convention), e.versions.get(e.convention)
            if history is not None and spec and "version" not in options:
                try:
                    outside = history.latest not in SpecifierSet(spec)
                except InvalidSpecifier:
                    outside = False  # BH008 says so
                picked = history.pick(spec) if outside else None
                if picked:
                    options["version"] = picked
            try:
                convention.resolve(case.level, options)
            except (ValueError, TypeError, OverflowError) as error:
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


def values_finite(cases: Sequence[Case]) -> Iterator[Problem]:
    for case in cases:
        for e in case.expectations:
            if e.value is None or e.value == "NaN":
                continue
            try:
                finite = math.isfinite(expected_float(e.value))
            except ValueError:
                finite = False
            if not finite:
                yield _problem(case, e.line, "BH009", f"value {e.value!r} is not a finite "
                               "number (write NaN for NaN)")


def tolerances_finite(cases: Sequence[Case]) -> Iterator[Problem]:
    for case in cases:
        for e in case.expectations:
            if isinstance(e.compare, float) and not (0 < e.compare < math.inf):
                yield _problem(case, e.line, "BH010", f"tolerance {e.compare!r} is not a "
                               "finite number > 0")


_ORDERED_FIGURE = re.compile(r"^(precision|scores|cumulative|individual)\.(\d+)$")
#: Which figures each convention reports beside the score (``bleu_harness/worker.py`` figures).
FIGURES_OF = {"scores": ("nltk",), "cumulative": ("mteval-v13a", "pycocoevalcap"),
              "individual": ("mteval-v13a",)}


def figures_reported(cases: Sequence[Case]) -> Iterator[Problem]:
    for case in cases:
        for e in case.expectations:
            match = _ORDERED_FIGURE.match(e.figure)
            family = match.group(1) if match else e.figure
            owners = FIGURES_OF.get(family)
            if owners and e.convention not in owners:
                yield _problem(case, e.line, "BH011", f"{e.convention} reports no figure "
                               f"{e.figure!r} ({family}.N: {', '.join(owners)} only)")


def conventions_known(cases: Sequence[Case]) -> Iterator[Problem]:
    for case in cases:
        for e in case.expectations:
            if e.convention not in CONVENTIONS:
                yield _problem(case, e.line, "BH012", unknown_convention(e.convention))


RULES: tuple[Rule, ...] = (unique_ids, known_tags, provenance_complete, precision_consistent,
                           has_expectation, sentence_has_one_segment, options_valid,
                           versions_parse, values_finite, tolerances_finite, figures_reported,
                           conventions_known)


def lint(cases: Sequence[Case]) -> list[Problem]:
    return [problem for rule in RULES for problem in rule(cases)]
