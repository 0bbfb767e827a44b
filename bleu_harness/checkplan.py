"""Planning: cases in, the checks to make and the distinct requests they need out.

Per case, four kinds of check (README, "`bleu-harness run`: the conformance gate";
docs/architecture.md, "Data flow"):

1. ``expectation`` -- the implementation under test against each expectation of a
   convention it claims (the engine claims them all);
2. ``drift`` -- each live reference library against the expectations of its convention
   whose version range admits the installed release;
3. ``differential`` -- the implementation under test against the live library of the same
   convention, with each distinct option set of the case's expectations;
4. ``divergence`` -- the engine's conventions against each other (the divergence map).

A check names the requests whose answers it compares. Requests are values: an expectation
check and a differential check that ask the same backend the same question share one
request, and the executor answers each distinct request once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from bleu_harness.backends.base import ENGINE, LIBRARY, READY, BackendInfo
from bleu_harness.backends.own import EMULATED_VERSIONS
from bleu_harness.backends.registry import EXTRA_LIBRARIES
from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.history import HISTORIES
from bleu_harness.cases.model import Case, Expectation
from bleu_harness.records import (
    DIFFERENTIAL,
    DRIFT_CHECK,
    EXPECTATION,
    BackendRequest,
    canonical_json,
)


@dataclass(frozen=True)
class Roles:
    """Who plays what in a run."""

    under_test: BackendInfo
    claims: tuple[str, ...]  # the conventions the implementation under test is checked on
    is_engine_under_test: bool = True
    #: convention -> the primary live library (drift and differential checks)
    libraries: Mapping[str, BackendInfo] = field(default_factory=dict)
    #: convention -> further libraries, checked differentially only
    extra_libraries: Mapping[str, tuple[BackendInfo, ...]] = field(default_factory=dict)
    engine: BackendInfo | None = None  # for the divergence map
    #: convention -> the library release the engine follows (version ranges are read
    #: against it when the engine is under test)
    engine_follows: Mapping[str, str] = field(default_factory=dict)

    def claimed_version(self, convention: str) -> str:
        """The release of ``convention``'s library the implementation under test is held to:
        the one the engine follows; for another implementation, the installed library's."""
        if self.is_engine_under_test:
            return self.engine_follows.get(convention, "")
        library = self.libraries.get(convention)
        return (library.version if library else "") or self.engine_follows.get(convention, "")


def roles_of(infos: Sequence[BackendInfo], under_test: BackendInfo,
             claims: tuple[str, ...], is_engine: bool, divergence_map: bool) -> Roles:
    """Who plays what, from the backends a run started: the ready libraries (the primary one
    of each convention, and the extra ones), and the engine for the divergence map."""
    libraries: dict[str, BackendInfo] = {}
    extras: dict[str, tuple[BackendInfo, ...]] = {}
    engine = None
    for info in infos:
        if info.status != READY:
            continue
        if info.role == ENGINE:
            engine = info if divergence_map else None
        elif info.name in EXTRA_LIBRARIES:  # beside each convention's primary library,
            for convention in info.conventions:  # and the primary of its own (fast-bleu)
                if convention == info.name:
                    libraries[convention] = info
                else:
                    extras[convention] = extras.get(convention, ()) + (info,)
        elif info.role == LIBRARY:  # each convention it implements (torchmetrics: two)
            for convention in info.conventions:
                libraries.setdefault(convention, info)
    return Roles(under_test=under_test, claims=claims, is_engine_under_test=is_engine,
                 libraries=libraries, extra_libraries=extras, engine=engine,
                 engine_follows=EMULATED_VERSIONS)


@dataclass(frozen=True)
class PlannedCheck:
    """One check: whose answer (``subject``) is compared with what (the expectation, or the
    ``reference`` request's answer). ``skip`` says why it is not made (a version range)."""

    check: str
    backend: str
    convention: str
    options: Mapping[str, Any]
    expectation: Expectation | None = None
    subject: BackendRequest | None = None
    reference: BackendRequest | None = None
    other: str = ""
    tolerance: float = 0.0
    skip: str = ""
    #: Why a difference from the library would be the library's release, not a failure.
    drift_note: str = ""


@dataclass(frozen=True)
class CasePlan:
    case: Case
    checks: tuple[PlannedCheck, ...]
    #: (convention, the engine's request at its default options) for the divergence map
    divergence: tuple[tuple[str, BackendRequest], ...] = ()

    @property
    def requests(self) -> tuple[BackendRequest, ...]:
        wanted: dict[BackendRequest, None] = {}
        for check in self.checks:
            for request in (check.subject, check.reference):
                if request is not None:
                    wanted[request] = None
        for _, request in self.divergence:
            wanted[request] = None
        return tuple(wanted)


def distinct_requests(plans: Iterable[CasePlan]) -> tuple[BackendRequest, ...]:
    """Every request of every case, once, in the order the cases need them."""
    return tuple(dict.fromkeys(r for plan in plans for r in plan.requests))


def effective_options(case: Case, convention: str,
                      options: Mapping[str, Any]) -> dict[str, Any]:
    """The case's tokenization applied where the convention's ``tokenize`` offers it (a
    pre-tokenized case means ``tokenize="none"``), unless the options choose already."""
    spec = CONVENTIONS.get(convention)
    return spec.with_case_tokenizer(options, case.tokenizer) if spec else dict(options)


def request_for(case: Case, backend: str, convention: str,
                options: Mapping[str, Any], follow: str = "") -> BackendRequest:
    """``follow``: the library release the engine is to follow (its ``version`` option)."""
    options = effective_options(case, convention, options)
    if follow:
        options["version"] = follow
    return BackendRequest.make(backend, convention, case.level, case.hypotheses, case.references,
                        options)


def engine_release(roles: Roles, convention: str, spec: str | None) -> tuple[str, str]:
    """(the release the engine under test follows for an expectation recorded for ``spec``,
    or why it cannot): its default release when the range admits it, else the newest
    release of the range it models."""
    history = HISTORIES.get(convention)
    default = roles.engine_follows.get(convention, "")
    if not spec or history is None:
        return "", ""
    if applies_version(spec, default):
        return "", ""
    chosen = history.pick(spec)
    if chosen is None:
        return "", f"applies to {convention} {spec}, a range the engine does not model"
    return chosen, ""


def applies_version(spec: str, version: str) -> bool:
    try:
        return not version or Version(version) in SpecifierSet(spec)
    except (InvalidVersion, InvalidSpecifier):
        return True


def applies(expectation: Expectation, library: str, version: str) -> bool:
    """Whether the expectation's version range for ``library`` admits ``version``."""
    spec = expectation.versions.get(library)
    return not spec or applies_version(spec, version)


def plan_case(case: Case, roles: Roles) -> CasePlan:
    checks: list[PlannedCheck] = []
    for expectation in case.expectations:
        checks.extend(_expectation_checks(case, expectation, roles))
    checks.extend(_differential_checks(case, roles))
    divergence = ()
    if roles.engine is not None:
        divergence = tuple((name, request_for(case, roles.engine.name, name, {}))
                           for name in CONVENTIONS)
    return CasePlan(case, tuple(checks), divergence)


def plan_cases(cases: Sequence[Case], roles: Roles) -> tuple[CasePlan, ...]:
    return tuple(plan_case(case, roles) for case in cases)


def _expectation_checks(case: Case, e: Expectation, roles: Roles):
    under_test = roles.under_test.name
    options = effective_options(case, e.convention, e.options)
    retokenized = (f"recorded for the case's own tokens, not for --tokenizer "
                   f"{case.retokenized_by}") if case.retokenized_by else ""
    if e.convention in roles.claims:
        follow = ""
        if roles.is_engine_under_test:
            follow, skip = engine_release(roles, e.convention, e.versions.get(e.convention))
        else:
            version = roles.claimed_version(e.convention)
            skip = "" if applies(e, e.convention, version) else (
                f"applies to {e.convention} {e.versions[e.convention]}, not {version}")
        shown = {**options, "version": follow} if follow else options
        skip = retokenized or skip
        yield PlannedCheck(EXPECTATION, under_test, e.convention, shown, e,
                           subject=None if skip else request_for(case, under_test,
                                                                 e.convention, e.options,
                                                                 follow),
                           skip=skip)
    library = roles.libraries.get(e.convention)
    if library is not None:
        version = library.version
        skip = retokenized or ("" if applies(e, e.convention, version) else (
            f"recorded for {e.convention} {e.versions[e.convention]}, installed {version}"))
        # Outside its range the library is asked all the same: the check is skipped, but its
        # answer is recorded, so that an atlas of releases can tell a range that is too
        # narrow (tools/atlas.py, bleu-harness atlas). Re-tokenized text asks nothing.
        yield PlannedCheck(DRIFT_CHECK, library.name, e.convention, options, e,
                           subject=None if retokenized else request_for(
                               case, library.name, e.convention, e.options),
                           skip=skip)


def _differential_checks(case: Case, roles: Roles):
    under_test = roles.under_test.name
    for convention in roles.claims:
        primary = roles.libraries.get(convention)
        libraries = ((primary,) if primary else ()) + tuple(
            roles.extra_libraries.get(convention, ()))
        if not libraries:
            continue
        option_sets = {canonical_json(e.options): e.options for e in case.expectations
                       if e.convention == convention} or {"{}": {}}
        for options in option_sets.values():
            for library in libraries:
                follow, note = _release_followed(roles, convention, library)
                shown = effective_options(case, convention, options)
                skip = _options_missing(convention, case.level, shown, follow, library)
                yield PlannedCheck(DIFFERENTIAL, under_test, convention,
                                   {**shown, "version": follow} if follow else shown,
                                   subject=None if skip else request_for(
                                       case, under_test, convention, options, follow),
                                   reference=None if skip else request_for(
                                       case, library.name, convention, options),
                                   other=library.name, tolerance=library.tolerance,
                                   drift_note=note, skip=skip)


def _options_missing(convention: str, level: str, options: Mapping[str, Any], follow: str,
                     library: BackendInfo) -> str:
    """Why the library cannot be asked with options recorded for other releases (NLTK
    3.2.4-3.2.5's ``emulate_multibleu`` against NLTK 3.10.4), or ''."""
    spec, history = CONVENTIONS.get(convention), HISTORIES.get(convention)
    if spec is None or history is None or "version" in options:
        return ""
    release = follow or (library.version if history.supports(library.version)
                         else history.latest)
    try:
        spec.resolve(level, {**options, "version": release})
    except ValueError as error:
        return f"{library.name} {library.version} has no such option ({error})"
    return ""


def _release_followed(roles: Roles, convention: str, library: BackendInfo) -> tuple[str, str]:
    """(the release the engine under test follows against this library, or why a difference
    would be the library's): the engine follows the live release where its history models
    it; against a release it does not model, a difference is that release's."""
    follows = roles.engine_follows.get(convention, "")
    if not roles.is_engine_under_test or library.name != convention or (
            not follows or not library.version or library.version == follows):
        return "", ""
    history = HISTORIES.get(convention)
    if history is not None and history.supports(library.version):
        return library.version, ""
    return "", (f"{library.name} {library.version} is not a release the engine models "
                f"(it follows {follows}): the difference is the library's")

