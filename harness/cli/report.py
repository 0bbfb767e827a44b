"""``bleu-harness report``: the single-file HTML report of one run, or of two compared."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from harness.cases.loader import load
from harness.cases.model import Case
from harness.report import stream
from harness.report.html import render_html
from harness.report.output import check_path, write_report
from harness.report.summary import counts_line
from harness.text import one_line

NAME = "report"
HELP = "a single-file HTML report of a run (or of two runs compared)"
DESCRIPTION = (
    "Render a run's stream (bleu-harness run --format json) as one self-contained HTML file: "
    "the conformance matrix (cases by backend, coloured by verdict, filterable), the "
    "divergence map as pictures, the header and the exit status. With two runs (OLD NEW), "
    "the cells that changed come first. It opens from disk, with no network.")
EPILOG = "Example: bleu-harness report before.jsonl after.jsonl -o report.html"


def add_arguments(parser) -> None:
    parser.add_argument("runs", metavar="RUN", nargs="+",
                        help="a stream (the run to show), or OLD NEW (show NEW, changes first)")
    parser.add_argument("--output", "-o", metavar="FILE", required=True,
                        help="the HTML file to write (atomically)")


def corpus_cases(run: stream.Run) -> dict[str, Case]:
    """The run's cases, from its corpus roots where they still exist (their inputs)."""
    roots = [root for root in run.header.corpus_roots if Path(root).is_dir()]
    return {case.id: case for case in load(roots).cases} if roots else {}


def main(args, console: Console) -> int:
    from harness.errors import UsageError

    if len(args.runs) > 2:
        raise UsageError("give one run, or two (OLD NEW)")
    output = check_path(args.output)
    runs = [stream.read_run(path, allow_truncated=True) for path in args.runs]
    current, previous = runs[-1], (runs[0] if len(runs) == 2 else None)
    write_report(output, render_html(current, corpus_cases(current), previous))
    print(one_line(f"{output}: {counts_line(current)}"))
    return 0
