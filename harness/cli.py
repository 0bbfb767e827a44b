"""The ``bleu-harness`` command line: argument parsing and dispatch, nothing else."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console

from harness import __version__
from harness.bleu import CONVENTIONS
from harness.cli_arguments import add_implementation_arguments
from harness.textfiles import InputError

USAGE_ERROR = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bleu-harness",
        description="Reference-conformance harness for BLEU: one engine that reproduces NLTK, "
        "SacreBLEU, multi-bleu.perl, mteval-v13a, TF-NMT, torchmetrics, Tensor2Tensor and "
        "MATLAB's documented rules, and shows where and why they disagree.",
    )
    parser.add_argument("--version", action="version", version=f"bleu-harness {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    _add_run(commands)
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
    _add_validate(commands)
    _add_diff(commands)
    from harness.explain.commands import add_commands

    add_commands(commands)
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


def _add_run(commands) -> None:
    run = commands.add_parser(
        "run", help="run the case corpus as a conformance gate (the main job)",
        description="Judge every case: the implementation under test (the engine unless "
        "--implementation/--implementation-cmd) against each recorded expectation and against "
        "the live library of its convention; the live libraries against their recorded values "
        "(drift); and the conventions against each other (the divergence map).",
        epilog="exit codes: 0 clean; 1 the implementation under test diverges or crashes; "
        "2 usage or case-file error, or no check ran; 3 only a reference library drifted "
        "(with --strict-references; otherwise drift is reported and the exit code is 0).")
    run.add_argument("paths", metavar="PATH", nargs="*",
                     help="case files or directories (default: the bundled corpus)")
    run.add_argument("--backend", action="append", default=[], metavar="NAME",
                     help="reference backends to use: own, nltk, sacrebleu, documented, and "
                     "where installed torchmetrics, fast-bleu, bleuscore (repeatable; default: "
                     "all)")
    under_test = run.add_argument_group("implementation under test")
    add_implementation_arguments(under_test)
    under_test.add_argument("--claims", metavar="CONVENTION",
                            help=f"the convention it claims to follow ({', '.join(CONVENTIONS)})")
    run.add_argument("--select", metavar="GLOB", help="only cases whose id matches GLOB")
    run.add_argument("--tag", action="append", default=[], metavar="TAG",
                     help="only cases with this tag (repeatable: any of them)")
    run.add_argument("--format", choices=("terminal", "json", "markdown"), default="terminal",
                     help="terminal (default), json (the canonical JSON Lines stream) or markdown")
    run.add_argument("--output", metavar="FILE", help="write the report there (atomically)")
    run.add_argument("--junit-xml", metavar="FILE", help="also write JUnit XML there")
    run.add_argument("--baseline", metavar="FILE",
                     help="a stored JSON Lines run: fail only on what is new against it")
    run.add_argument("--strict-references", action="store_true",
                     help="a reference library drifting from its recorded value fails (exit 3)")
    run.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                     help="per-request timeout for the implementation under test (default 10)")


def _add_validate(commands) -> None:
    validate = commands.add_parser(
        "validate", help="check case files against the schema and the lint rules",
        description="Load and lint case files; print every problem as file:line: case-id: "
        "message. Exit 2 if there is any.")
    validate.add_argument("paths", metavar="PATH", nargs="*",
                          help="case files or directories (default: the bundled corpus)")


def _add_diff(commands) -> None:
    diff = commands.add_parser(
        "diff", help="compare two runs (JSON Lines) case by case",
        description="Align two runs by case id and check: new divergences, fixed ones, value "
        "drift, added and removed cases, changed backend versions. Exit 1 when something got "
        "worse.")
    diff.add_argument("old", metavar="OLD", help="the earlier run (bleu-harness run --format json)")
    diff.add_argument("new", metavar="NEW", help="the later run")
    diff.add_argument("--format", choices=("terminal", "markdown"), default="terminal")
    diff.add_argument("--output", metavar="FILE", help="write the report there (atomically)")


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
        if args.command == "run":
            from harness.run_command import run_command

            return run_command(args, console)
        if args.command == "validate":
            from harness.run_command import validate_command

            return validate_command(args, console)
        if args.command == "diff":
            from harness.run_command import diff_command

            return diff_command(args, console)
        if args.command in ("explain", "identify", "fingerprint"):
            from harness.explain.commands import COMMANDS

            return COMMANDS[args.command](args, console)
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
