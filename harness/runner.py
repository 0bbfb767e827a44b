"""The runner: load and lint cases, set up the backends, judge every case, stream the lines.

It never aborts for one bad case or backend: a case-file problem becomes a ``problem`` line, a
backend's crash an outcome (the backends guarantee that), and a bug in judging one case an
``error`` line for that case.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.backends.base import Backend, Outcome
from harness.backends.documented import DocumentedBackend
from harness.backends.external import DEFAULT_TIMEOUT, ExternalBackend
from harness.backends.libraries import NltkBackend, SacrebleuBackend
from harness.backends.optional import BleuscoreBackend, FastBleuBackend, TorchmetricsBackend
from harness.backends.own import OwnBackend
from harness.bleu import CONVENTIONS
from harness.cases.lint import lint
from harness.cases.loader import LoadResult, load
from harness.cases.model import Case, Problem
from harness.gate import exit_code, known_problems
from harness.judge import ERROR, CheckRecord, Roles, judge_case, summary_counts
from harness.report import stream

REFERENCE_BACKENDS = ("own", "nltk", "sacrebleu", "documented", "torchmetrics", "fast-bleu",
                      "bleuscore")
#: Used when installed; their absence is reported, never a failure.
OPTIONAL_LIBRARIES = {"torchmetrics": TorchmetricsBackend}
OPTIONAL_EXTRA_LIBRARIES = {"fast-bleu": FastBleuBackend, "bleuscore": BleuscoreBackend}


class UsageError(ValueError):
    """A bad combination of run options (exit code 2)."""


@dataclass(frozen=True)
class RunOptions:
    paths: tuple[str, ...] = ()
    backends: tuple[str, ...] = ()
    implementation: str | None = None
    implementation_cmd: str | None = None
    claims: str | None = None
    select: str | None = None
    tags: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    strict_references: bool = False
    baseline: stream.Run | None = None


@dataclass
class RunResult:
    lines: list[dict[str, Any]] = field(default_factory=list)
    exit_code: int = 0

    def run(self) -> stream.Run:
        return stream.Run(self.lines[0], tuple(l for l in self.lines if l["type"] == "check"),
                          tuple(l for l in self.lines if l["type"] == "problem"), self.lines[-1])


def select_cases(cases: Sequence[Case], pattern: str | None, tags: Sequence[str]) -> list[Case]:
    chosen = [c for c in cases if pattern is None or fnmatch.fnmatchcase(c.id, pattern)]
    if tags:
        wanted = set(tags)
        chosen = [c for c in chosen if wanted & {t.split("@")[0] for t in c.tags} | (
            wanted & set(c.tags))]
    return chosen


def _under_test(options: RunOptions) -> tuple[Backend, tuple[str, ...], bool]:
    if options.implementation and options.implementation_cmd:
        raise UsageError("give --implementation or --implementation-cmd, not both")
    if options.implementation or options.implementation_cmd:
        if not options.claims:
            raise UsageError("--claims CONVENTION is required with an implementation under test")
        if options.claims not in CONVENTIONS:
            raise UsageError(f"--claims {options.claims!r}: unknown convention "
                             f"(known: {', '.join(CONVENTIONS)})")
        if options.implementation:
            backend = ExternalBackend.for_callable(options.implementation, options.claims,
                                                   options.timeout)
        else:
            backend = ExternalBackend(options.implementation_cmd, options.claims,
                                      options.implementation_cmd, options.timeout)
        return backend, (options.claims,), False
    if options.claims:
        raise UsageError("--claims needs --implementation or --implementation-cmd")
    return OwnBackend(), tuple(CONVENTIONS), True


def reference_libraries(wanted) -> tuple[dict[str, Backend], dict[str, tuple[Backend, ...]],
                                         list[str]]:
    """The installed libraries among ``wanted``: one primary library per convention (drift and
    differential checks), further ones checked differentially, and the optional ones that
    are not installed."""
    libraries: dict[str, Backend] = {}
    extras: dict[str, tuple[Backend, ...]] = {}
    absent: list[str] = []
    primary = {"nltk": NltkBackend, "sacrebleu": SacrebleuBackend, **OPTIONAL_LIBRARIES}
    for name, make in {**primary, **OPTIONAL_EXTRA_LIBRARIES}.items():
        if name not in wanted:
            continue
        backend = make()
        info = backend.info()
        if not info.version:
            absent.append(name)
        elif name in primary:
            libraries[info.conventions[0]] = backend
        else:
            extras[info.conventions[0]] = extras.get(info.conventions[0], ()) + (backend,)
    return libraries, extras, absent


def _roles(options: RunOptions, loaded: LoadResult) -> tuple[Roles, list[Backend]]:
    unknown = [b for b in options.backends if b not in REFERENCE_BACKENDS]
    if unknown:
        raise UsageError(f"--backend {unknown[0]!r}: unknown (known: {', '.join(REFERENCE_BACKENDS)})")
    wanted = set(options.backends or REFERENCE_BACKENDS)
    under_test, claims, is_engine = _under_test(options)
    libraries, extras, absent = reference_libraries(wanted)
    engine = OwnBackend() if "own" in wanted else None
    documented = [DocumentedBackend(loaded.cases)] if "documented" in wanted else []
    roles = Roles(under_test=under_test, claims=claims, libraries=libraries,
                  extra_libraries=extras, engine=engine, absent_libraries=tuple(absent),
                  library_versions={k: v.info().version for k, v in libraries.items()},
                  is_engine_under_test=is_engine)
    shown: list[Backend] = [under_test] + ([engine] if engine and not is_engine else [])
    shown += list(libraries.values()) + [b for group in extras.values() for b in group]
    shown += documented
    return roles, shown


def execute(options: RunOptions, progress: Callable[[int, int], None] | None = None) -> RunResult:
    loaded = load(options.paths or None)
    problems: list[Problem] = list(loaded.problems) + lint(loaded.cases)
    cases = select_cases(loaded.cases, options.select, options.tags)
    roles, shown = _roles(options, loaded)
    result = RunResult()
    result.lines.append(stream.header([b.info() for b in shown], loaded.corpus_hash,
                                      len(loaded.files), roles.under_test.info().name,
                                      roles.claims, roles.absent_libraries))
    result.lines.extend(stream.problem_line(p) for p in problems)
    records: list[CheckRecord] = []
    try:
        for index, case in enumerate(cases, start=1):
            try:
                case_records = judge_case(case, roles)
            except Exception as error:  # a harness bug must not cost the other cases
                case_records = [CheckRecord(case.id, case.file, case.line, "expectation",
                                            "harness", "", {}, None, Outcome.of_exception(error),
                                            ERROR, message=f"judging failed: {error!r}")]
            records.extend(case_records)
            result.lines.extend(stream.check_line(r) for r in case_records)
            if progress:
                progress(index, len(cases))
    finally:
        for backend in shown:
            backend.close()
    checks = [line for line in result.lines if line["type"] == "check"]
    result.exit_code = exit_code(checks, len(problems), options.strict_references,
                                 known_problems(options.baseline))
    result.lines.append(stream.footer(summary_counts(records), len(records), len(problems),
                                      result.exit_code))
    return result
