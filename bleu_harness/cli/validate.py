"""``bleu-harness validate``: case files against the schema and the lint rules."""

from __future__ import annotations

import os
import sys

from rich.console import Console

from bleu_harness.cases.lint import lint
from bleu_harness.cases.loader import load
from bleu_harness.cases.markers import HEAD_BYTES, declares_case_format
from bleu_harness.errors import InputError
from bleu_harness.textfiles import read_head
from bleu_harness.cli.options import add_format, print_json
from bleu_harness.text import count_of, clean_text

NAME = "validate"
DESCRIPTION = ("Load and lint case files; print every problem as file:line: case-id: message. "
               "Exit 2 if there is any.")


def add_arguments(parser) -> None:
    parser.add_argument("paths", metavar="PATH", nargs="*",
                        help="case files or directories (default: the bundled corpus)")
    parser.add_argument("--only-case-files", action="store_true",
                        help="leave alone the files named that do not declare the case-file "
                        "format (a top-level 'schema: 1'): a hook given every YAML file of "
                        "a commit checks only the case files among them")
    add_format(parser, "json")


def main(args, console: Console) -> int:
    paths, left_alone = list(args.paths), []
    if args.only_case_files:
        paths = [p for p in args.paths if _may_be_a_case_file(p)]
        left_alone = [p for p in args.paths if p not in paths]
        if not paths:  # none: not the bundled corpus either
            print(f"no case file among the {count_of(len(left_alone), 'file')} named "
                  "(none declares 'schema: 1')")
            return 0
    loaded = load(paths or None)
    problems = list(loaded.problems) + lint(loaded.cases)
    if args.format == "json":
        print_json({"files": len(loaded.files), "cases": len(loaded.cases),
                    "left_alone": left_alone,
                    "problems": [{"file": p.file, "line": p.line, "case": p.case_id,
                                  "message": p.message} for p in problems]})
    else:
        for problem in problems:
            print(clean_text(problem, 2000))
    if problems:
        files = len({p.file for p in problems})  # the files with problems, not all checked
        print(f"{len(problems)} problem(s) in {files} file(s)", file=sys.stderr)
        return 2
    if args.format != "json":
        other = (f" ({count_of(len(left_alone), 'other file')} left alone: not case files)"
                 if left_alone else "")
        print(f"{count_of(len(loaded.cases), 'case')} in {count_of(len(loaded.files), 'file')}: "
              f"valid{other}")
    return 0


def _may_be_a_case_file(path: str) -> bool:
    """A directory (its case files are the user's choice), a file that declares the
    case-file format, or one that cannot be read as a regular file (the loader says why)."""
    if os.path.isdir(path):
        return True
    try:
        return declares_case_format(read_head(path, HEAD_BYTES))
    except InputError:
        return True
