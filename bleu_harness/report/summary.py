"""What every view says the same way: the run's title, the counts, how options are shown,
the cause of a failure, and failures grouped by cause (new ones first). The expected side of
a check in words is ``bleu_harness.report.presentation``'s."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bleu_harness.backends.base import NOT_INSTALLED, BackendInfo, not_installed
from bleu_harness.records import (
    ATTENTION,
    DIVERGENCE,
    DRIFT,
    ERROR,
    FAIL,
    PASS,
    SKIPPED,
    UNSUPPORTED,
    CheckRecord,
    clean_text,
    outcome_message,
    shown,
)
from bleu_harness.report.causes import reconciled
from bleu_harness.report.stream import Run
from bleu_harness.text import count_of


def options_shown(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) or "defaults"


def cause_of(record: CheckRecord) -> str:
    """Why a check failed, in words: the knob attribution where there is one, else what the
    judge said, else the input's families."""
    if record.cause:
        sentence = record.cause.get("sentence") or record.cause.get("summary")
        if sentence:
            return str(sentence)
    if record.message:
        return record.message
    if record.tags:
        return "input families: " + ", ".join(record.tags)
    return "no cause found"


def cause_group(record: CheckRecord) -> str:
    """The short cause that failures are grouped by."""
    if record.cause and record.cause.get("group"):
        return str(record.cause["group"])
    if record.actual.kind in ("timeout", "harness-error"):
        return shown(record.actual)
    if record.verdict == DRIFT:
        return "reference library drift"
    tags = [t.split("@")[0] for t in record.tags if t != "bp-boundary"]
    return ", ".join(dict.fromkeys(tags)) or "other"


def failure_groups(records: Iterable[CheckRecord]) -> list[tuple[str, list[CheckRecord]]]:
    """Failing and drifting checks grouped by cause: new failures first, then known ones,
    then drift; the biggest group first within each. A group's cause holds on every
    failure in it and no failure contradicts it, else it is "no single cause"
    (``bleu_harness.report.causes``)."""
    def rank(record: CheckRecord) -> int:
        if record.verdict == DRIFT:
            return 2
        return 1 if record.known else 0

    groups: dict[tuple[int, str], list[CheckRecord]] = {}
    for record in reconciled(records):
        if record.verdict in ATTENTION:
            groups.setdefault((rank(record), cause_group(record)), []).append(record)
    ordered = sorted(groups.items(), key=lambda item: (item[0][0], -len(item[1]), item[0][1]))
    return [(cause, members) for (_, cause), members in ordered]


def skip_reason(record: CheckRecord) -> str:
    """Why a check was skipped: the judge's message, else the outcome's."""
    return (record.message or outcome_message(record.actual) or "no reason given").strip()


def skip_groups(records: Iterable[CheckRecord]) -> list[tuple[str, list[CheckRecord]]]:
    """The checks that did not run -- skipped, or unsupported by what was asked -- grouped
    by their reason, the biggest group first (ties by reason): each is named once, under its
    reason (the summary line counts them)."""
    groups: dict[str, list[CheckRecord]] = {}
    for record in records:
        if record.verdict in (SKIPPED, UNSUPPORTED):
            reason = skip_reason(record)
            if record.verdict == UNSUPPORTED:
                reason = f"unsupported: {reason}"
            groups.setdefault(reason, []).append(record)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))


def some_cases(records: Sequence[CheckRecord], named: int = 3) -> str:
    """The first few distinct case ids of ``records``, and how many more."""
    ids = list(dict.fromkeys(r.case for r in records))
    more = f" and {len(ids) - named} more" if len(ids) > named else ""
    return ", ".join(ids[:named]) + more


def ready_libraries(backends: Sequence[BackendInfo]) -> list[str]:
    """``name version`` of each reference library that answered the start-up handshake."""
    return [f"{b.name} {b.version}" for b in backends if b.role == "library" and b.ready]


def title(run: Run) -> str:
    header = run.header
    libraries = ready_libraries(header.backends)
    parts = [f"bleu-harness {header.harness}", f"{header.case_files} case files",
             f"under test: {header.under_test} ({', '.join(header.claims)})"]
    if libraries:
        parts.append("references: " + ", ".join(libraries))
    for what, path in header.known.items():
        parts.append(f"{what}: {path}")
    return " · ".join(parts)


def unready_notes(backends: Sequence[BackendInfo]) -> list[str]:
    """The backends that are not used, and why (said once, in the header): the ones simply
    not installed on one line, every other one on its own with its reason (a backend not
    installed for a reason of its own, the Perl scripts' missing folder, says it)."""
    def plainly_absent(b: BackendInfo) -> bool:
        return b.status == NOT_INSTALLED and b.note in ("", not_installed(b.name))

    absent = [b.name for b in backends if plainly_absent(b)]
    notes = [f"{', '.join(absent)}: not installed"] if absent else []
    return notes + [f"{b.name}: {b.status}" + (f" ({b.note})" if b.note else "")
                    for b in backends if not b.ready and not plainly_absent(b)]


def counts_line(run: Run) -> str:
    """The summary: what each count counts, failures split into new and known."""
    counts = Counter(c.verdict for c in run.checks)
    cases = len({c.case for c in run.checks})
    failing = [c for c in run.checks if c.verdict in (FAIL, ERROR)]
    new = sum(1 for c in failing if not c.known)
    parts = [count_of(cases, "case"), f"{counts[PASS]} checks passed"]
    if counts[FAIL]:
        parts.append(f"{counts[FAIL]} failed")
    if counts[ERROR]:
        parts.append(f"{counts[ERROR]} errors (crash, timeout or garbage)")
    if failing and new != len(failing):
        parts.append(f"{new} new, {len(failing) - new} known")
    if counts[DRIFT]:
        parts.append(f"{counts[DRIFT]} reference drift")
    if counts[UNSUPPORTED]:
        parts.append(f"{counts[UNSUPPORTED]} unsupported")
    if counts[SKIPPED]:
        parts.append(f"{counts[SKIPPED]} skipped")
    if counts[DIVERGENCE]:
        parts.append(divergences_phrase(run))
    if run.problems:
        parts.append(count_of(len(run.problems), "case-file problem"))
    line = " · ".join(parts)
    if run.footer.interrupted:
        line += " · INTERRUPTED: the run did not finish"
    elif not run.footer.finished:
        line += " · STOPPED at --maxfail: the cases after it did not run"
    reason = stale_reason(run)
    return f"{line} → exit {run.footer.exit_code}" + (f": {reason}" if reason else "")


def status_word(run: Run) -> str:
    """The run's outcome in a word or two, for a view's heading."""
    if run.footer.exit_code == 0:
        return "passed"
    if run.footer.interrupted:
        return "interrupted"
    if not run.footer.finished:
        return "stopped at --maxfail"
    return f"exit {run.footer.exit_code}"


def stale_reason(run: Run, named: int = 3) -> str:
    """Why a run exits 1 when the counts do not say it: known failures (``--known``,
    ``--baseline``) that no longer fail, the first few named."""
    stale = run.footer.no_longer_failing
    if not stale:
        return ""
    shown_ = "; ".join(s.split(" (failing in the baseline")[0] for s in stale[:named])
    more = f"; and {len(stale) - named} more" if len(stale) > named else ""
    verb = "no longer fails" if len(stale) == 1 else "no longer fail"
    return (f"{len(stale)} known failure{'s' if len(stale) != 1 else ''} {verb} (remove "
            f"them from the known list / refresh the baseline): {shown_}{more}")


def divergences_phrase(run: Run) -> str:
    """How many conventions disagree, and how many of those the knob model explains (a
    divergence is explained when switching some of the two conventions' knobs makes them
    agree: ``bleu_harness.divergence.attribution``)."""
    divergences = [c for c in run.checks if c.verdict == DIVERGENCE]
    unexplained = sum(1 for c in divergences if not (c.cause or {}).get("explained"))
    said = ("all explained by the knob model" if not unexplained
            else f"{unexplained} not explained by the knob model")
    return f"{len(divergences)} divergences between conventions ({said})"


def divergence_map(run: Run) -> dict[tuple[str, str], Counter]:
    """(convention, other convention) -> the input families of the cases they disagree on."""
    pairs: dict[tuple[str, str], Counter] = {}
    for record in run.checks:
        if record.verdict == DIVERGENCE:
            tags = {t.split("@")[0] for t in record.tags} or {"(untagged)"}
            pairs.setdefault((record.convention, record.other), Counter()).update(
                {t: 1 for t in tags})
    return pairs


def divergence_causes(run: Run) -> dict[tuple[str, str], Counter]:
    """(convention, other convention) -> the knobs whose switch makes them agree, counted
    over the cases they disagree on (``not explained`` where no switch does)."""
    pairs: dict[tuple[str, str], Counter] = {}
    for record in run.checks:
        if record.verdict == DIVERGENCE:
            pairs.setdefault((record.convention, record.other), Counter()).update(
                {k: 1 for k in cause_knobs(record)})
    return pairs


def cause_knobs(record: CheckRecord) -> list[str]:
    """The knobs that explain a divergence, or ``["not explained"]``."""
    cause = record.cause or {}
    knobs = cause.get("knobs") if cause.get("explained") else None
    if not isinstance(knobs, (list, tuple)):  # a stored stream may hold anything here
        knobs = []
    return [str(k) for k in knobs] or ["not explained"]


def divergence_cases(run: Run) -> Counter:
    return Counter((c.convention, c.other) for c in run.checks if c.verdict == DIVERGENCE)


def ranked(counter: Mapping[str, int]) -> list[tuple[str, int]]:
    """A counter's items, the most frequent first and ties by name: the same order whatever
    the order they were counted in (a set's order changes with ``PYTHONHASHSEED``)."""
    return sorted(counter.items(), key=lambda item: (-item[1], str(item[0])))


def short(text: Any, limit: int = 160) -> str:
    return clean_text(text, limit)
