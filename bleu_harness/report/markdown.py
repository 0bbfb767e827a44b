"""The Markdown view: a pull-request comment or a CI step summary.

Status and summary first; then the failures by cause in one table, and grouped by cause (new
ones, then known ones, then reference drift), each row with expected, actual, difference and
the reason; the divergence map and case-file problems in collapsible sections.

It fits where it is posted: GitHub refuses a comment body over 65,536 characters (its API
answers "Body is too long (maximum is 65536 characters)"), and the view keeps to half of
that. The failures go first: the divergence map is shown whole, or its pairs of the most
cases, only where every failure row fits beside it; then the view shows fewer rows per
cause, each group saying how many more the full reports hold; then it ends at the last
whole line that fits, saying so.
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
    status_word,
    title,
    unready_notes,
)
from bleu_harness.text import one_line


def cell(text: object) -> str:
    """Text safe inside a Markdown table cell (one line, no pipes, no HTML)."""
    return (one_line(text).replace("\\", "\\\\").replace("|", "\\|")
            .replace("<", "&lt;").replace(">", "&gt;"))


#: The most characters a view may have: half of GitHub's limit on a comment body (65,536),
#: room for what a bot posting it adds, and a view a reviewer reads at a glance.
MARKDOWN_LIMIT = 32_768
#: Rows shown per cause, tried in turn until the view fits (``None``: every row).
ROWS_PER_CAUSE = (None, 50, 20, 10, 5, 3, 1, 0)
#: Convention pairs of the divergence map shown, tried in turn (``None``: every pair).
MAP_PAIRS = (None, 100, 50, 20, 10)
FULL_REPORTS = "the JSON stream (--format json), --junit-xml and --html list every check"


def render_markdown(run: Run, limit: int = MARKDOWN_LIMIT) -> str:
    """The view, at most ``limit`` characters: the divergence map only where every failure
    row fits beside it (its pairs that disagree on the most cases first; it goes before any
    failure row does), then fewer rows per cause until the view fits."""
    attempts = [(ROWS_PER_CAUSE[0], pairs) for pairs in MAP_PAIRS] + [
        (rows, 0) for rows in ROWS_PER_CAUSE]
    for rows, map_pairs in attempts:
        text = _render(run, rows, map_pairs)
        if len(text) <= limit:
            return text
    ending = f"\n\n**Cut at {limit:,} characters:** {FULL_REPORTS}.\n"
    kept = text[:limit - len(ending)]
    return kept[:kept.rfind("\n")] + ending


def _render(run: Run, rows_per_cause: int | None, map_pairs: int | None) -> str:
    out = [f"## bleu-harness run: {status_word(run)}", "", cell(title(run)), "", counts_line(run), ""]
    notes = unready_notes(run.header.backends)
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
    groups = failure_groups(run.checks)
    if groups:
        out += ["### Failures by cause", "", "| | cause | checks |", "|---|---|---:|"]
        out += [f"| {_kind(records[0])} | {cell(cause)} | {len(records)} |"
                for cause, records in groups]
        out.append("")
    for cause, records in groups:
        out += [f"### {_kind(records[0])}: {cell(cause)} ({len(records)})", "",
                "| case | check | implementation | options | expected | actual | difference "
                "| reason |", "|---|---|---|---|---|---|---:|---|"]
        shown_rows = records if rows_per_cause is None else records[:rows_per_cause]
        out += [_row(r) for r in shown_rows]
        if len(shown_rows) < len(records):
            out += ["", f"… and {len(records) - len(shown_rows)} more checks of this cause: "
                    f"{FULL_REPORTS}."]
        out.append("")
    out += _skips(run)
    pairs = divergence_map(run) if map_pairs != 0 else {}
    if pairs:
        causes = divergence_causes(run)
        shown = sorted(pairs) if map_pairs is None else sorted(sorted(
            pairs, key=lambda pair: (-sum(causes[pair].values()), pair))[:map_pairs])
        out += ["<details><summary>Divergence map: where conventions disagree (expected, "
                "documented)</summary>", "",
                ("| conventions | why: knobs whose switch makes them agree (cases) "
                 "| where: input families (cases) |"), "|---|---|---|"]
        for a, b in shown:
            out.append(f"| {cell(a)} ≠ {cell(b)} | "
                       + ", ".join(f"{t} ({n})" for t, n in ranked(causes[(a, b)]))
                       + " | " + ", ".join(f"{t} ({n})" for t, n in ranked(pairs[(a, b)]))
                       + " |")
        if len(shown) < len(pairs):
            out += ["", f"… and {len(pairs) - len(shown)} more pairs, of fewer cases: "
                    "--html and --format terminal --map show every pair."]
        out += ["", "</details>", ""]
    return "\n".join(one_line(line) for line in out)


def _kind(head: CheckRecord) -> str:
    return "Reference drift" if head.verdict == DRIFT else ("Known" if head.known else "New")


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
