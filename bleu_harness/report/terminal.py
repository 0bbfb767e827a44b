"""The terminal view, for a person and for a CI log that is read from the bottom.

One line of header, the case-file problems, the divergence map only when asked (``--map``)
or on a terminal when nothing fails, then the failing checks -- new ones first, grouped by
cause, at most :data:`CHECKS_PER_CAUSE` of each (a CI log stays readable: a badly broken
implementation fails thousands of checks for a handful of causes) -- and the summary line
last. Plain text off a terminal (no colour, no wrapping); ``NO_COLOR`` is honoured by
``rich``.
"""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bleu_harness.records import DRIFT, CheckRecord
from bleu_harness.report.presentation import comparison
from bleu_harness.report.stream import Run
from bleu_harness.report.summary import (
    counts_line,
    divergence_cases,
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

#: Failing checks printed per cause unless asked for more (``run --checks-per-cause``).
CHECKS_PER_CAUSE = 20


def render_terminal(run: Run, console: Console, show_map: bool = False,
                    quiet: bool = False, per_cause: int | None = CHECKS_PER_CAUSE) -> None:
    """The view on ``console``; ``per_cause``: the failing checks printed for each cause
    (``None``: every one)."""
    def say(text: str, style: str = "") -> None:
        text = escape(one_line(text))
        console.print(f"[{style}]{text}[/]" if style else text, highlight=False,
                      soft_wrap=True)

    if not quiet:
        say(title(run), "bold")
        for note in unready_notes(run.header.backends):
            say(f"  not used: {note}", "dim")
    for problem in run.problems:
        say(f"CASE FILE {problem}", "bold red")
    if show_map and not quiet:
        _print_map(run, console, say)
    groups = failure_groups(run.checks)
    for cause, records in groups:
        head = records[0]
        kind = _kind(head)
        say(f"── {kind}: {cause} ({len(records)} check{'s' if len(records) != 1 else ''})",
            "bold yellow" if kind != "new" else "bold red")
        sentence = (head.cause or {}).get("sentence")
        if sentence and sentence != cause:
            say(f"   {sentence}", "bold")
        shown = records if per_cause is None else records[:per_cause]
        for record in shown:
            _print_check(record, say)
        if len(shown) < len(records):
            say(f"   … and {len(records) - len(shown)} more of this cause (--checks-per-cause 0 "
                "prints every one; --junit-xml, --html and --format json list them)", "bold")
    if not quiet:
        _print_skips(run, say)
    for stale in run.footer.no_longer_failing:
        say(f"NO LONGER FAILS {stale} (remove it from the known list / refresh the baseline)",
            "bold red")
    if len(groups) > 0:  # read from the bottom: the causes again, beside the count (and,
        # where some are known or drift, which are new: a cause may be both)
        kinds = [_kind(records[0]) for _, records in groups]
        labelled = any(kind != "new" for kind in kinds)
        say("causes: " + " · ".join(
            f"{cause} ({len(records)}{f' {kind}' if labelled else ''})"
            for (cause, records), kind in zip(groups, kinds)), "bold")
    style = "green" if run.footer.exit_code == 0 else "red"
    say(counts_line(run), f"bold {style}")


def _kind(record: CheckRecord) -> str:
    """A failure group's kind, read off its first record: new, known or drift."""
    return "drift" if record.verdict == DRIFT else "known" if record.known else "new"


def _print_skips(run: Run, say) -> None:
    """Every skipped check once, under its reason: how many, and a few of their cases."""
    groups = skip_groups(run.checks)
    if not groups:
        return
    total = sum(len(records) for _, records in groups)
    say(f"── not run (skipped or unsupported): {total} check{'s' if total != 1 else ''} "
        f"({len(groups)} reason{'s' if len(groups) != 1 else ''})", "bold")
    for reason, records in groups:
        say(f"   {len(records)} · {reason}: {some_cases(records)}", "dim")


def _print_check(record: CheckRecord, say) -> None:
    figure = f" {record.figure}" if record.figure != "score" else ""
    say(f"{record.verdict.upper()} {record.case} ({record.file}:{record.line}) {record.check}"
        f" · {record.backend} as {record.convention}{figure} · {options_shown(record.options)}",
        "red" if record.verdict != DRIFT else "yellow")
    say(f"    {comparison(record)}")
    if record.message:
        say(f"    {record.message}")
    if record.tags:
        say(f"    input: {', '.join(record.tags)}", "dim")


def _print_map(run: Run, console: Console, say) -> None:
    pairs = divergence_map(run)
    if not pairs:
        return
    cases = divergence_cases(run)
    causes = divergence_causes(run)

    def counted(counter: Counter) -> str:
        return ", ".join(f"{t} {n}" for t, n in ranked(counter))

    if console.is_terminal:
        table = Table(title="Divergence map (cases; why: the knobs whose switch makes them agree; "
                            "where: the input families)", title_justify="left")
        for column, justify in (("conventions", "left"), ("cases", "right"), ("why", "left"),
                                ("where", "left")):
            table.add_column(column, justify=justify)
        for (a, b), tags in sorted(pairs.items()):
            table.add_row(one_line(f"{a} ≠ {b}"), str(cases[(a, b)]),
                          one_line(counted(causes[(a, b)])), one_line(counted(tags)))
        console.print(table)
        return
    say("Divergence map (conventions that disagree: cases; why: the knobs whose switch makes "
        "them agree; where: the input families)")
    for (a, b), tags in sorted(pairs.items()):
        say(f"  {a} ≠ {b}: {cases[(a, b)]} cases; why: {counted(causes[(a, b)])}; "
            f"where: {counted(tags)}")