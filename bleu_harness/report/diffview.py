"""How a run diff reads: a summary first (what changed, by backend, by cause, by family),
then the details, each line with its options so that no two lines look alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from bleu_harness.records import CheckRecord, json_ready, outcome_to_dict, shown
from bleu_harness.report.diff import RunDiff
from bleu_harness.report.presentation import expected_shown, versus
from bleu_harness.report.stream import Run
from bleu_harness.report.summary import cause_group, options_shown, ranked
from bleu_harness.text import one_line


def _describe(record: CheckRecord) -> str:
    figure = f" {record.figure}" if record.figure != "score" else ""
    return (f"{record.case} · {record.check} · {record.backend} as {record.convention}{figure}"
            f"{versus(record)} · {options_shown(record.options)}")


def _describe_change(before: CheckRecord, after: CheckRecord) -> str:
    """A check of both runs, each run's backend named where they differ (the implementation
    under test of each: the value moved from one to the other)."""
    if before.backend == after.backend:
        return _describe(after)
    return _describe(replace(after, backend=f"{before.backend} → {after.backend}"))


def _families(records: Iterable[CheckRecord]) -> Counter:
    return Counter(t.split("@")[0] for r in records for t in set(r.tags) if t != "bp-boundary")


def _by(records: Iterable[CheckRecord], key) -> Counter:
    return Counter(key(r) for r in records)


def _counter_text(counter: Counter) -> str:
    return ", ".join(f"{k} {n}" for k, n in ranked(counter)) or "-"


def summary_rows(result: RunDiff) -> list[tuple[str, int, str, str, str]]:
    """(what, how many, by backend, by cause, by family) per kind of change."""
    moved = [b for _, b in result.value_drift]
    rows = []
    for what, records in (("newly failing", result.new_failures), ("fixed", result.fixed),
                          ("value drift", moved)):
        rows.append((what, len(records), _counter_text(_by(records, lambda r: r.backend)),
                     _counter_text(_by(records, cause_group)),
                     _counter_text(_families(records))))
    return rows


def render_diff(result: RunDiff, old: Run, new: Run, markdown: bool) -> str:
    bullet = "- " if markdown else "  "

    def code(text: str) -> str:
        return f"`{text}`" if markdown else text

    verdict = "Regression: something got worse" if result.worse else "No new failure"
    out = []
    if result.setup_changes:
        out += [("## " if markdown else "") + "Setup changed: the runs did not run the same "
                "thing, so a check's change may come from the setup, not the code", ""]
        out += [f"{bullet}{what}: {a} → {b}" for what, a, b in result.setup_changes]
        out.append("")
    out += [("## " if markdown else "") + verdict, ""]
    out.append(f"{old.path or 'OLD'} ({len(old.checks)} checks) → {new.path or 'NEW'} "
               f"({len(new.checks)} checks)")
    out.append("")
    if markdown:
        out += ["| change | checks | by backend | by cause | by family |",
                "|---|---:|---|---|---|"]
        out += [f"| {w} | {n} | {b} | {c} | {f} |" for w, n, b, c, f in summary_rows(result)]
    else:
        out += [f"  {w:<14} {n:>5}   by backend: {b}; by cause: {c}; by family: {f}"
                for w, n, b, c, f in summary_rows(result)]
    out += [f"{bullet}added cases: {len(result.added_cases)}, removed cases: "
            f"{len(result.removed_cases)}, backend versions changed: "
            f"{len(result.versions_changed)}"]
    sections = (
        ("Newly failing", [f"{code(_describe(c))}: expected {expected_shown(c)}, actual "
                           f"{shown(c.actual)} ({c.verdict}; {cause_group(c)})"
                           for c in result.new_failures]),
        ("Fixed", [code(_describe(c)) for c in result.fixed]),
        ("Value drift", [f"{code(_describe_change(a, b))}: {shown(a.actual)} → "
                         f"{shown(b.actual)}" for a, b in result.value_drift]),
        ("Added cases", [code(c) for c in result.added_cases]),
        ("Removed cases", [code(c) for c in result.removed_cases]),
        ("Backend versions changed", [f"{name}: {a} → {b}" for name, a, b in
                                      result.versions_changed]),
    )
    for heading, items in sections:
        if not items:
            continue
        out += ["", ("### " if markdown else "") + f"{heading} ({len(items)})"]
        if markdown and len(items) > 20:
            out += ["<details><summary>show all</summary>", ""]
            out += [bullet + item for item in items]
            out += ["", "</details>"]
        else:
            out += [bullet + item for item in items]
    return "\n".join(one_line(line) for line in out) + "\n"


def _record(record: CheckRecord) -> dict[str, Any]:
    return {"case": record.case, "check": record.check, "backend": record.backend,
            "convention": record.convention, "options": json_ready(record.options),
            "figure": record.figure, "other": record.other, "expected": record.expected,
            "actual": outcome_to_dict(record.actual), "verdict": record.verdict,
            "cause": cause_group(record)}


def diff_document(result: RunDiff, old: Run, new: Run) -> dict[str, Any]:
    return {
        "worse": result.worse,
        "old": {"path": old.path, "corpus_hash": old.header.corpus_hash},
        "new": {"path": new.path, "corpus_hash": new.header.corpus_hash},
        "corpus_changed": result.corpus_changed,
        "setup_changed": [{"what": w, "old": a, "new": b} for w, a, b in result.setup_changes],
        "summary": [{"change": w, "checks": n, "by_backend": b, "by_cause": c, "by_family": f}
                    for w, n, b, c, f in summary_rows(result)],
        "newly_failing": [_record(r) for r in result.new_failures],
        "fixed": [_record(r) for r in result.fixed],
        "value_drift": [{"before": _record(a), "after": _record(b)}
                        for a, b in result.value_drift],
        "added_cases": list(result.added_cases),
        "removed_cases": list(result.removed_cases),
        "versions_changed": [{"backend": n, "old": a, "new": b}
                             for n, a, b in result.versions_changed],
    }
