"""The Markdown view: a pull-request comment or a CI step summary.

Status and summary first; then the failures grouped by cause (new ones, then known ones,
then reference drift), each row with expected, actual, difference and the reason; the
divergence map and case-file problems in collapsible sections.
"""

from __future__ import annotations

from bleu_harness.records import DRIFT, CheckRecord, shown
from bleu_harness.report.presentation import difference_shown, expected_shown
from bleu_harness.report.stream import Run
from bleu_harness.report.summary import (
    cause_of,
    counts_line,
    divergence_causes,
    divergence_map,
    failure_groups,
    options_shown,
    ranked,
    skip_groups,
    some_cases,
    title,
    unready_notes,
)
from bleu_harness.text import one_line


def cell(text: object) -> str:
    """Text safe inside a Markdown table cell (one line, no pipes, no HTML)."""
    return (one_line(text).replace("\\", "\\\\").replace("|", "\\|")
            .replace("<", "&lt;").replace(">", "&gt;"))


def render_markdown(run: Run) -> str:
    code = run.footer.exit_code
    status = "passed" if code == 0 else ("interrupted" if run.footer.interrupted
                                         else f"exit {code}")
    out = [f"## bleu-harness run: {status}", "", cell(title(run)), "", counts_line(run), ""]
    notes = unready_notes(run)
    if notes:
        out += ["Not used: " + "; ".join(cell(n) for n in notes), ""]
    if run.problems:
        out += ["### Case-file problems", ""]
        out += [f"- `{cell(p.file)}:{p.line}` {cell(p.case_id or '-')}: {cell(p.message)}"
                for p in run.problems]
        out.append("")
    for stale in run.footer.no_longer_failing:
        out.append(f"- **No longer fails:** {cell(stale)} (remove it from the known list or "
                   "refresh the baseline)")
    if run.footer.no_longer_failing:
        out.append("")
    for cause, records in failure_groups(run.checks):
        head = records[0]
        kind = "Reference drift" if head.verdict == DRIFT else (
            "Known" if head.known else "New")
        out += [f"### {kind}: {cell(cause)} ({len(records)})", "",
                "| case | check | implementation | options | expected | actual | difference "
                "| reason |", "|---|---|---|---|---|---|---:|---|"]
        out += [_row(r) for r in records]
        out.append("")
    out += _skips(run)
    pairs = divergence_map(run)
    if pairs:
        causes = divergence_causes(run)
        out += ["<details><summary>Divergence map: where conventions disagree (expected, "
                "documented)</summary>", "",
                ("| conventions | why: knobs whose switch makes them agree (cases) "
                 "| where: input families (cases) |"), "|---|---|---|"]
        for (a, b), tags in sorted(pairs.items()):
            out.append(f"| {cell(a)} ≠ {cell(b)} | "
                       + ", ".join(f"{t} ({n})" for t, n in ranked(causes[(a, b)]))
                       + " | " + ", ".join(f"{t} ({n})" for t, n in ranked(tags)) + " |")
        out += ["", "</details>", ""]
    return "\n".join(one_line(line) for line in out)


def _skips(run: Run) -> list[str]:
    """Every skipped check once, under its reason, in a collapsible table."""
    groups = skip_groups(run.checks)
    if not groups:
        return []
    total = sum(len(records) for _, records in groups)
    out = [f"<details><summary>Not run (skipped or unsupported): {total} checks "
           f"({len(groups)} reasons)</summary>", "",
           "| reason | checks | cases |", "|---|---:|---|"]
    out += [f"| {cell(reason)} | {len(records)} | {cell(some_cases(records))} |"
            for reason, records in groups]
    return out + ["", "</details>", ""]


def _row(r: CheckRecord) -> str:
    figure = f" {r.figure}" if r.figure != "score" else ""
    return (f"| `{cell(r.case)}` ({cell(r.file)}:{r.line}) | {cell(r.check)} | "
            f"{cell(r.backend)} as {cell(r.convention)}{cell(figure)} | {cell(options_shown(r.options))} | "
            f"{cell(expected_shown(r))} | {cell(shown(r.actual))} | {difference_shown(r)} | "
            f"{cell(cause_of(r))} |")
