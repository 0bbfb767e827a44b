"""The ``bleu-harness`` command line: argument parsing and dispatch, nothing else."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console

from harness import __version__
from harness.bleu import CONVENTIONS
from harness.textfiles import InputError

USAGE_ERROR = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bleu-harness",
        description="Reference-conformance harness for BLEU: one engine that reproduces NLTK, "
        "SacreBLEU and MATLAB's documented rules bit for bit, and shows where they disagree.",
    )
    parser.add_argument("--version", action="version", version=f"bleu-harness {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    conventions = ", ".join(CONVENTIONS)
    score = commands.add_parser(
        "score",
        help="score text files under every convention, side by side",
        description="Score a hypothesis file against one or more reference files (UTF-8, one "
        "segment a line; several reference files give several references per segment) under "
        "each convention, and mark where the conventions disagree.",
        epilog=f"conventions: {conventions}. Examples: --option smoothing=method1 (every "
        "convention that has 'smoothing'), --option sacrebleu.tokenize=none (one convention), "
        "--option weights=[0.5,0.5].",
    )
    score.add_argument("hyp_file", metavar="HYP_FILE", help="hypotheses, one per line")
    score.add_argument("ref_files", metavar="REF_FILE", nargs="+",
                       help="references, one per line, aligned with HYP_FILE")
    score.add_argument("--convention", "-c", action="append", metavar="NAME",
                       help="a convention to score with (repeatable) or 'all' (default: all)")
    score.add_argument("--sentence", action="store_true",
                       help="score every line on its own (sentence level) instead of the corpus")
    score.add_argument("--json", action="store_true", help="print machine-readable JSON")
    score.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                       help="a convention option in its library's vocabulary; VALUE is YAML; "
                       "prefix KEY with 'NAME.' to set it for one convention only (repeatable)")
    return parser


def _selected_conventions(names: Sequence[str] | None) -> tuple[str, ...]:
    if not names or "all" in names:
        return tuple(CONVENTIONS)
    unknown = [n for n in names if n not in CONVENTIONS]
    if unknown:
        raise InputError(f"unknown convention {unknown[0]!r} (known: {', '.join(CONVENTIONS)}, all)")
    return tuple(dict.fromkeys(names))


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # Piped output is read in files and CI logs, not on an 80-column screen.
    console = Console() if sys.stdout.isatty() else Console(width=200)
    try:
        if args.command == "score":
            from harness.score_command import ScoreArgs, run_score

            return run_score(
                ScoreArgs(args.hyp_file, tuple(args.ref_files),
                          _selected_conventions(args.convention), tuple(args.option),
                          args.sentence, args.json),
                console)
    except InputError as error:
        print(f"bleu-harness {args.command}: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
