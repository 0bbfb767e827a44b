"""The gate: exit codes from the checks, new vs known failures, listed divergences that no
longer happen (README, "`bleu-harness run`: the conformance gate", exit codes and known
failures; toml-test's ``-skip-must-err``).

Exit codes -- the README's contract, one test each in tests/test_gate.py:

* 0 clean;
* 1 the implementation under test fails or crashes on a check that is not known, or a known
  failure (``--known FILE`` or ``--baseline RUN``) no longer happens: remove it from the list;
* 2 a usage or case-file error, an implementation that does not start, or no check ran;
* 3 only reference libraries drifted from their recorded values, and ``--strict-references``
  was given (without it drift is reported and the exit code is 0);
* 130 / 143 the run was interrupted (SIGINT / SIGTERM); its stream ends with a footer saying so.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from bleu_harness.errors import InputError, UsageError
from bleu_harness.records import DRIFT, FAILING, RAN, UNDER_TEST_CHECKS, CheckRecord
from bleu_harness.signals import INTERRUPTED, TERMINATED
from bleu_harness.textfiles import MAX_LIST_BYTES, read_text_input

CLEAN, DIVERGED, USAGE, DRIFTED = 0, 1, 2, 3
EXIT_CODES = {CLEAN: "clean", DIVERGED: "the implementation under test fails",
              USAGE: "usage or case-file error, or no check ran",
              DRIFTED: "a reference library drifted (--strict-references)",
              INTERRUPTED: "interrupted (SIGINT)", TERMINATED: "terminated (SIGTERM)"}


@dataclass(frozen=True)
class KnownEntry:
    """One known failure of the implementation under test, from a ``--known`` file: a case
    id (or glob), optionally narrowed to a check, convention or figure, with the reason."""

    case: str
    check: str = ""
    convention: str = ""
    figure: str = ""
    reason: str = ""
    where: str = ""  # file:line

    def matches(self, record: CheckRecord) -> bool:
        return (record.check in UNDER_TEST_CHECKS
                and fnmatch.fnmatchcase(record.case, self.case)
                and self.check in ("", record.check)
                and self.convention in ("", record.convention)
                and self.figure in ("", record.figure))

    def describe(self) -> str:
        narrowed = ", ".join(f"{k}={getattr(self, k)}" for k in ("check", "convention", "figure")
                             if getattr(self, k))
        return f"{self.case}" + (f" ({narrowed})" if narrowed else "") + (
            f" listed at {self.where}" if self.where else "")


@dataclass(frozen=True)
class Known:
    """What a run already knows to fail: the failing checks of a baseline run, and the
    entries of a known list."""

    baseline_keys: frozenset[tuple] = frozenset()
    baseline_drift: frozenset[tuple] = frozenset()
    entries: tuple[KnownEntry, ...] = ()
    baseline: str = ""  # the path, for the header
    known_file: str = ""
    #: the cause each failing check of the baseline failed for (:func:`cause_of`)
    baseline_causes: Mapping[tuple, frozenset] = field(
        default_factory=lambda: MappingProxyType({}))

    def is_known(self, record: CheckRecord) -> bool:
        """A drift the baseline has; a failure the known list names, or one of a check that
        fails in the baseline for the same cause (another bug failing the same check is
        new)."""
        key = record.key()
        if record.verdict == DRIFT:
            return key in self.baseline_drift
        if key in self.baseline_keys and same_cause(self.baseline_causes.get(key, frozenset()),
                                                    cause_of(record)):
            return True
        return any(e.matches(record) for e in self.entries)

    def describe(self) -> dict[str, str]:
        return {k: v for k, v in (("baseline", self.baseline), ("known", self.known_file)) if v}


NOTHING_KNOWN = Known()


def from_baseline(records: Iterable[CheckRecord], path: str
                  ) -> tuple[frozenset, frozenset, Mapping[tuple, frozenset]]:
    """The failing keys and the drift keys of a stored run, and the cause each failing
    check failed for."""
    records = list(records)
    failing = {r.key(): cause_of(r) for r in records if r.verdict in FAILING}
    drift = frozenset(r.key() for r in records if r.verdict == DRIFT)
    return frozenset(failing), drift, MappingProxyType(failing)


def cause_of(record: CheckRecord) -> frozenset:
    """What a failure is put down to, as the judge's diagnosis records it: every knob
    setting that explains it alone (its ``fits``), or else its cause group; empty where the
    record says nothing of a cause."""
    cause: Mapping[str, Any] = record.cause or {}
    fits = cause.get("fits")
    if isinstance(fits, (list, tuple)) and fits:
        return frozenset(tuple(map(str, fit)) if isinstance(fit, (list, tuple)) else (str(fit),)
                         for fit in fits)
    group = cause.get("group")
    return frozenset({(str(group),)}) if group else frozenset()


def same_cause(before: frozenset, now: frozenset) -> bool:
    """Whether two failures of one check are put down to the same cause: a fit in common,
    or either said nothing of a cause (a baseline written before causes were kept)."""
    return not before or not now or bool(before & now)


def read_known_file(path: str) -> tuple[KnownEntry, ...]:
    """A YAML list of ``{case, check?, convention?, figure?, reason?}`` mappings."""
    from bleu_harness.cases.yamlsafe import YamlProblem, compose_safely, construct

    try:
        text = read_text_input(path, MAX_LIST_BYTES)
    except InputError as error:
        raise UsageError(f"--known {error}") from None
    try:
        root = compose_safely(text)
        document = construct(root) if root is not None else []
    except YamlProblem as problem:
        raise UsageError(f"--known {path}:{problem.line}: {problem}") from None
    if not isinstance(document, list):
        raise UsageError(f"--known {path}: expected a YAML list of entries like "
                         "'- {case: tie-*, reason: ...}'")
    entries = []
    for index, item in enumerate(document):
        line = root.value[index].start_mark.line + 1
        if not isinstance(item, dict) or not isinstance(item.get("case"), str):
            raise UsageError(f"--known {path}:{line}: each entry is a mapping with a 'case' "
                             "(an id or a glob)")
        unknown = set(item) - {"case", "check", "convention", "figure", "reason"}
        if unknown:
            raise UsageError(f"--known {path}:{line}: unknown key {sorted(unknown)[0]!r} "
                             "(known: case, check, convention, figure, reason)")
        if item.get("check", "") not in ("", *UNDER_TEST_CHECKS):
            raise UsageError(f"--known {path}:{line}: check is one of "
                             f"{', '.join(UNDER_TEST_CHECKS)}")
        entries.append(KnownEntry(item["case"], str(item.get("check", "")),
                                  str(item.get("convention", "")),
                                  str(item.get("figure", "")), str(item.get("reason", "")),
                                  f"{path}:{line}"))
    return tuple(entries)


def mark(records: Iterable[CheckRecord], known: Known) -> list[CheckRecord]:
    """Each failing or drifting check marked known (``True``) or new (``False``)."""
    return [r.with_known(known.is_known(r)) if r.verdict in FAILING | {DRIFT} else r
            for r in records]


@dataclass
class Tally:
    """What the gate needs from a run, kept as the records stream past."""

    ran: int = 0
    new_failures: int = 0
    new_drift: int = 0
    #: under-test check keys that ran, and whether each failed (for stale known entries)
    outcomes: dict[tuple, bool] = field(default_factory=dict)
    entry_hits: dict[int, list[bool]] = field(default_factory=dict)

    def add(self, records: Sequence[CheckRecord], known: Known) -> None:
        for record in records:
            if record.verdict in RAN:
                self.ran += 1
            if record.verdict in FAILING and not record.known:
                self.new_failures += 1
            if record.verdict == DRIFT and not record.known:
                self.new_drift += 1
            if record.check in UNDER_TEST_CHECKS and record.verdict in RAN:
                key = record.key()
                self.outcomes[key] = self.outcomes.get(key, False) or record.verdict in FAILING
                for index, entry in enumerate(known.entries):
                    if entry.matches(record):
                        self.entry_hits.setdefault(index, []).append(record.verdict in FAILING)

    def no_longer_failing(self, known: Known) -> list[str]:
        """Known failures that ran and passed: the list is out of date. Each named once,
        with what tells it from its neighbours (options, figure, the other side)."""
        stale = []
        for key in sorted(known.baseline_keys, key=_sortable):
            if self.outcomes.get(key) is False:
                stale.append(f"{describe_key(key)} (failing in the baseline "
                             f"{known.baseline}, passes now)")
        for index, entry in enumerate(known.entries):
            hits = self.entry_hits.get(index)
            if hits and not any(hits):
                stale.append(f"{entry.describe()}: no longer fails")
        return list(dict.fromkeys(stale))


def _sortable(key: tuple) -> tuple:
    """A check key that sorts whatever a stored stream held (``expected`` may be null)."""
    return tuple("" if part is None else str(part) for part in key)


def describe_key(key: tuple) -> str:
    """A check key (:meth:`CheckRecord.key`) in words: case · check · convention, then the
    figure, the options and the other side where they tell it apart."""
    case, check, _, convention, options, side, figure = key
    words = f"{case} · {check} · {convention}"
    if figure != "score":
        words += f" {figure}"
    if options not in ("{}", ""):
        words += f" · {options}"
    if check == "differential" and side:
        words += f" vs {side}"
    return words


def unmatched_entries(entries: Sequence[KnownEntry], case_ids: Iterable[str]) -> None:
    """A usage error naming the first ``--known`` entry whose ``case`` matches no case of
    the corpus being run: a typo would otherwise silently match nothing, for ever."""
    ids = list(case_ids)
    for entry in entries:
        if not any(fnmatch.fnmatchcase(case_id, entry.case) for case_id in ids):
            raise UsageError(f"--known {entry.where or entry.case}: case {entry.case!r} "
                             "matches no case of the corpus being run")


def exit_code(tally: Tally, problems: int, strict_references: bool,
              stale: Sequence[str]) -> int:
    if problems or not tally.ran:
        return USAGE
    if tally.new_failures or stale:
        return DIVERGED
    if strict_references and tally.new_drift:
        return DRIFTED
    return CLEAN
