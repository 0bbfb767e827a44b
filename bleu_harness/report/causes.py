"""Which cause a group of failures is given: one that gives every answer in the group and
that no other failure of the run contradicts, or "no single cause".

Each failing answer's diagnosis (``bleu_harness.divergence.diagnose``) lists its *fits* (every
smallest change within two knobs, and scale, that gives the answer on its input) and the
single changes that *move* the convention's score on that input. One answer is weak
evidence: 0.5 is what many settings give on some small input. A change is a cause of the
implementation only if it holds across its failures, so over the failures of one claimed
convention in one run:

* a change *holds* on a failure where it is one of its fits;
* it is *contradicted* by a failure where it moves the score but gives another answer (no
  fit of that failure contains it or is contained in it: a change that is part of a bigger
  fit, a second bug beside it, is not contradicted);
* it may name a group only if no failure contradicts it; the groups are formed greedily,
  the change that holds on most of the remaining failures first, so a group's cause holds
  on every failure in it. The failures no such change holds on are one group,
  "no single cause", which says which change came closest and what contradicts it.

This is a function of the run's records alone (every view is rendered from the stream).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bleu_harness.divergence.diagnose import MAX_KNOBS
from bleu_harness.records import FAIL, CheckRecord

Change = frozenset[str]


@dataclass(frozen=True)
class Evidence:
    """One failing answer's fits and the parts that move its convention's score."""

    fits: tuple[Change, ...]
    moved: frozenset[str]

    def holds(self, change: Change) -> bool:
        return change in self.fits

    def contradicts(self, change: Change) -> bool:
        if self.holds(change) or not change & self.moved:
            return False
        return not any(fit <= change or change <= fit for fit in self.fits)


def evidence_of(record: CheckRecord) -> Evidence | None:
    """The evidence a failure holds, if its answer was weighed (``fits``/``moved``)."""
    cause = record.cause or {}
    fits, moved = cause.get("fits"), cause.get("moved")
    if record.verdict != FAIL or not _strings(moved) or not isinstance(fits, (list, tuple)) \
            or not all(_strings(fit) for fit in fits):
        return None  # not weighed, or a stored stream edited into something else
    return Evidence(tuple(frozenset(fit) for fit in fits), frozenset(moved))


def _strings(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)


def reconciled(records: Iterable[CheckRecord]) -> list[CheckRecord]:
    """The records with the cause of each weighed failure replaced by its group's cause
    (the others as they are), in the same order."""
    records = list(records)
    weighed = {i: e for i, r in enumerate(records) if (e := evidence_of(r)) is not None}
    by_convention: dict[str, list[int]] = {}
    for i in weighed:
        by_convention.setdefault(records[i].convention, []).append(i)
    causes: dict[int, dict[str, Any]] = {}
    for convention, members in by_convention.items():
        everyone = [weighed[i] for i in members]
        for known in (False, True):  # new and known failures are shown apart
            pool = [i for i in members if records[i].known == known]
            causes.update(_grouped(convention, pool, weighed, everyone, records))
    return [replace(r, cause=causes[i]) if i in causes else r for i, r in enumerate(records)]


def _grouped(convention: str, pool: Sequence[int], weighed: Mapping[int, Evidence],
             everyone: Sequence[Evidence], records: Sequence[CheckRecord]
             ) -> dict[int, dict[str, Any]]:
    """Each failure of ``pool`` -> its group's cause."""
    remaining = list(pool)
    contradicted: dict[Change, int] = {}

    def contradictions(change: Change) -> int:
        if change not in contradicted:
            contradicted[change] = sum(e.contradicts(change) for e in everyone)
        return contradicted[change]

    causes: dict[int, dict[str, Any]] = {}
    while remaining:
        counts = _holding(remaining, weighed)
        sound = [c for c in counts if contradictions(c) == 0]
        if not sound:
            break
        best = min(sound, key=lambda c: (-counts[c], len(c), -_first(c, remaining, weighed),
                                         sorted(c)))
        group = [i for i in remaining if weighed[i].holds(best)]
        remaining = [i for i in remaining if i not in set(group)]
        cause = _named(convention, best, group, records, len(everyone))
        causes.update({i: {**dict(records[i].cause or {}), **cause} for i in group})
    if remaining:
        counts = _holding(remaining, weighed)
        closest = min(counts, key=lambda c: (-counts[c], len(c), sorted(c)), default=None)
        cause = _unexplained(convention, len(remaining), closest,
                             counts.get(closest, 0), contradictions(closest) if closest else 0)
        causes.update({i: {**dict(records[i].cause or {}), **cause} for i in remaining})
    return causes


def _first(change: Change, pool: Sequence[int], weighed: Mapping[int, Evidence]) -> int:
    """On how many failures ``change`` is the diagnosis's own (first) fit: between changes
    that hold as often, the one the failures are already named by."""
    return sum(1 for i in pool if weighed[i].fits and weighed[i].fits[0] == change)


def _holding(pool: Sequence[int], weighed: Mapping[int, Evidence]) -> dict[Change, int]:
    """Each change that is a fit somewhere in ``pool`` -> on how many failures it holds."""
    counts: dict[Change, int] = {}
    for i in pool:
        for fit in dict.fromkeys(weighed[i].fits):
            counts[fit] = counts.get(fit, 0) + 1
    return counts


def change_name(change: Change) -> str:
    """The group name of a change: its knobs in the knob model's order, then the scale (as
    ``Diagnosis.group`` names it)."""
    scale = sorted(p for p in change if p.startswith("scale "))
    knobs = sorted(p for p in change if not p.startswith("scale "))
    return ", ".join(knobs + scale) or "same as the convention"


#: How the sentence of a cause's support begins (a cause read back from a stream has it).
SUPPORT_START = "It holds on"


def _named(convention: str, change: Change, group: Sequence[int],
           records: Sequence[CheckRecord], failures: int) -> dict[str, Any]:
    """The cause of a group ``change`` holds on (every failure in it)."""
    name = next((str(records[i].cause["group"]) for i in group
                 if frozenset(records[i].cause["fits"][0]) == change), change_name(change))
    said = next((str(records[i].cause.get("sentence", "")) for i in group
                 if records[i].cause.get("group") == name), "")
    said = said.split(f" {SUPPORT_START}")[0]  # a record reconciled before carries one
    said = said or f"the answers are what {convention} gives with {name}."
    others = failures - len(group)
    inputs = len({records[i].case for i in group})
    support = f"{SUPPORT_START} {len(group)} of {_failures(len(group))} in this group"
    if others:
        support += (f"; none of the other {_failures(others)} of {convention} "
                    "contradicts it")
    if inputs == 1:
        support += " (all on one input: too little to rule out a coincidence)"
    support += "."
    return {"group": name, "sentence": f"{said} {support}", "explained": True,
            "change": sorted(change), "holds": len(group), "failures": len(group),
            "contradicted": 0}


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def _failures(count: int) -> str:
    return f"{count} failure{_s(count)}"


def _unexplained(convention: str, count: int, closest: Change | None, holds: int,
                 against: int) -> dict[str, Any]:
    """The cause of the failures no uncontradicted change holds on."""
    these = "this failure" if count == 1 else f"these {count} failures"
    sentence = (f"no single cause explains {these}: the answers do not follow any setting "
                f"within {MAX_KNOBS} knob changes of {convention}")
    if closest is not None and against:
        sentence += (f" (the closest, {change_name(closest)}, gives {holds} of them and "
                     f"is contradicted by {against} other failure{_s(against)})")
    return {"group": f"no single cause ({convention})", "sentence": sentence + ".",
            "explained": False, "holds": 0, "failures": count, "knobs": [],
            "contradicted": against}
