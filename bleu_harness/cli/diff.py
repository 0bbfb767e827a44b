"""``bleu-harness diff OLD NEW``: a regression report between two runs."""

from __future__ import annotations

import sys

from rich.console import Console

from bleu_harness.cli.options import add_format, print_json
from bleu_harness.report import stream
from bleu_harness.report.diff import diff_runs, refuse_incomplete
from bleu_harness.report.diffview import diff_document, render_diff
from bleu_harness.report.output import check_outputs, write_report

NAME = "diff"
DESCRIPTION = ("Align two runs by check and report: newly failing, fixed, value drift, added "
               "and removed cases, changed backend versions. A changed setup (implementation "
               "under test, backend versions or statuses, corpus) heads the report. Exit 1 "
               "when something got worse; 2 when either run is not whole (interrupted).")


def add_arguments(parser) -> None:
    parser.add_argument("old", metavar="OLD", help="the earlier run (bleu-harness run --format json)")
    parser.add_argument("new", metavar="NEW", help="the later run")
    add_format(parser, "json", "markdown")
    parser.add_argument("--output", metavar="FILE", help="write the report there (atomically)")


def main(args, console: Console) -> int:
    output = check_outputs({"--output": args.output},
                           inputs=[args.old, args.new]).get("--output")
    old, new = stream.read_run(args.old), stream.read_run(args.new)
    refuse_incomplete(old, "OLD")
    refuse_incomplete(new, "NEW")
    result = diff_runs(old, new)
    if args.format == "json":
        if output is not None:
            import json
            write_report(output, json.dumps(diff_document(result, old, new), indent=2) + "\n")
        else:
            print_json(diff_document(result, old, new))
    else:
        text = render_diff(result, old, new, markdown=args.format == "markdown")
        if output is not None:
            write_report(output, text)
        else:
            sys.stdout.write(text)
    return 1 if result.worse else 0
