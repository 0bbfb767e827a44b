"""``bleu-harness report``: the single-file HTML report of one run, or of two compared."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console

from bleu_harness.cases.loader import ROOT_MARKER, bundled_corpus, load
from bleu_harness.cases.model import Case
from bleu_harness.report import stream
from bleu_harness.report.html import render_html
from bleu_harness.report.output import check_outputs, write_report
from bleu_harness.report.summary import counts_line
from bleu_harness.text import clean_text, one_line

NAME = "report"
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
    parser.add_argument("--cases", metavar="PATH", action="append", default=[],
                        help="case files or directories to show the cases' inputs from "
                             "(repeatable; default: the run's corpus roots that are the "
                             "bundled corpus or hold a CORPUS_ROOT file)")


def corpus_cases(run: stream.Run, named: list[str] | None = None) -> dict[str, Case]:
    """The run's cases (their inputs), from the paths the user named and the run's corpus
    roots that :func:`readable_roots` allows."""
    roots = [*(named or []), *readable_roots(run)[0]]
    return {case.id: case for case in load(roots).cases} if roots else {}


def readable_roots(run: stream.Run) -> tuple[list[str], list[str]]:
    """(corpus roots of the stream to re-read, those left alone). A stream is data, perhaps
    edited: its ``corpus_roots`` are walked only where they are the bundled corpus, or a
    directory that declares itself a corpus (:data:`ROOT_MARKER`) and is not ``/`` or a home
    directory -- never ``/`` because a header says so."""
    used, left = [], []
    for root in run.header.corpus_roots:
        (used if _is_corpus(Path(root)) else left).append(root)
    return used, left


def _is_corpus(root: Path) -> bool:
    try:
        resolved = root.resolve(strict=True)
        if resolved == bundled_corpus().resolve():
            return True
        broad = {Path(resolved.anchor), Path.home().resolve()}
        return (resolved not in broad and resolved.parent != Path("/home")
                and resolved.is_dir() and (resolved / ROOT_MARKER).is_file())
    except (OSError, RuntimeError, ValueError):
        return False


def main(args, console: Console) -> int:
    from bleu_harness.errors import UsageError

    if len(args.runs) > 2:
        raise UsageError("give one run, or two (OLD NEW)")
    output = check_outputs({"--output": args.output}, inputs=[*args.runs, *args.cases],
                           case_folders=list(args.cases))["--output"]
    runs = [stream.read_run(path, allow_truncated=True) for path in args.runs]
    current, previous = runs[-1], (runs[0] if len(runs) == 2 else None)
    write_report(output, render_html(current, corpus_cases(current, args.cases), previous))
    print(one_line(f"{output}: {counts_line(current)}"))
    left = [root for root in readable_roots(current)[1] if root not in args.cases]
    if left:
        print(f"inputs not re-read from {clean_text(', '.join(left), 300)} (not a case corpus; "
              "name it with --cases to show its cases' inputs)", file=sys.stderr)
    return 0
