"""``bleu-harness atlas``: the version atlas of NLTK and SacreBLEU releases."""

from __future__ import annotations

import json
import sys

from rich.console import Console

from bleu_harness.cli.options import add_format
from bleu_harness.report import stream
from bleu_harness.report.atlas import atlas_document, render_html, render_markdown
from bleu_harness.report.output import check_outputs, write_report
from bleu_harness.text import count_of

NAME = "atlas"
DESCRIPTION = (
    "Read the streams of runs with one library release each as the live reference (python "
    "tools/atlas.py run writes them to reports/atlas/) and report which questions of the "
    "corpus each release answers differently, grouped by the releases where the answer "
    "changes, with the reason from the engine's history table; and every recorded "
    "expectation whose version range is not what the releases give (too narrow, too wide), "
    "with the range they support.")
EPILOG = "Example: bleu-harness atlas reports/atlas/*.jsonl --format markdown -o docs/atlas.md"


def add_arguments(parser) -> None:
    parser.add_argument("runs", metavar="RUN", nargs="+", help="streams, one release each")
    add_format(parser, "markdown", "json")
    parser.add_argument("--output", "-o", metavar="FILE", help="write it there (atomically)")
    parser.add_argument("--html", metavar="FILE", help="also write it as an HTML page")


def main(args, console: Console) -> int:
    targets = check_outputs({"--output": args.output, "--html": args.html},
                            inputs=list(args.runs))
    document = atlas_document(stream.read_run(path) for path in args.runs)
    text = (json.dumps(document, indent=2, ensure_ascii=False) + "\n"
            if args.format == "json" else render_markdown(document))
    if "--html" in targets:
        write_report(targets["--html"], render_html(document), "--html")
    if "--output" in targets:
        write_report(targets["--output"], text)
    else:
        sys.stdout.write(text)
    libraries = document["libraries"]
    findings = sum(len(library["ranges"]) for library in libraries.values())
    said = "1 library" if len(libraries) == 1 else f"{len(libraries)} libraries"
    print(f"{said}, {count_of(findings, 'version range')} to fix", file=sys.stderr)
    return 0
