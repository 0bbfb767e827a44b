"""``bleu-harness validate``: case files against the schema and the lint rules."""

from __future__ import annotations

import sys

from rich.console import Console

from bleu_harness.cases.lint import lint
from bleu_harness.cases.loader import load
from bleu_harness.cli.options import add_format, print_json
from bleu_harness.text import count_of, clean_text

NAME = "validate"
DESCRIPTION = ("Load and lint case files; print every problem as file:line: case-id: message. "
               "Exit 2 if there is any.")


def add_arguments(parser) -> None:
    parser.add_argument("paths", metavar="PATH", nargs="*",
                        help="case files or directories (default: the bundled corpus)")
    add_format(parser, "json")


def main(args, console: Console) -> int:
    loaded = load(args.paths or None)
    problems = list(loaded.problems) + lint(loaded.cases)
    if args.format == "json":
        print_json({"files": len(loaded.files), "cases": len(loaded.cases),
                    "problems": [{"file": p.file, "line": p.line, "case": p.case_id,
                                  "message": p.message} for p in problems]})
    else:
        for problem in problems:
            print(clean_text(problem, 2000))
    if problems:
        print(f"{len(problems)} problem(s) in {len(loaded.files)} file(s)", file=sys.stderr)
        return 2
    if args.format != "json":
        print(f"{count_of(len(loaded.cases), 'case')} in {count_of(len(loaded.files), 'file')}: "
              "valid")
    return 0
