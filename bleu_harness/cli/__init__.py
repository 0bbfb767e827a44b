"""The ``bleu-harness`` command line: the parser, the registry of subcommands, and the one
place where errors become exit codes. Each subcommand is a module of this package with
``NAME``, ``HELP``, ``add_arguments(parser)`` and ``main(args, console) -> int``.

* A usage or input error is one line, ``bleu-harness COMMAND: error: ...``, exit 2;
* a mistyped flag or command is answered with what was probably meant;
* SIGINT and SIGTERM end a command without a traceback (130 / 143); ``run`` first closes
  its stream with a footer that says so.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import textwrap
from collections.abc import Sequence

from bleu_harness import __version__, signals
from bleu_harness.errors import USAGE_EXIT_CODE, UsageError
from bleu_harness.text import one_line

#: Each subcommand's one-line help, in the order ``--help`` lists them. A subcommand's module
#: (``bleu_harness.cli.NAME``) is imported only when that command runs or its help is asked
#: for: ``bleu-harness score`` does not load what ``run`` or ``atlas`` need.
SUBCOMMANDS = {
    "run": "run the case corpus as a conformance gate (the main job)",
    "score": "score text files under every convention, side by side",
    "validate": "check case files against the schema and the lint rules",
    "diff": "compare two runs (JSON Lines) case by case",
    "report": "a single-file HTML report of a run (or of two runs compared)",
    "atlas": "which releases of NLTK and SacreBLEU change which values, and why",
    "explain": "why conventions disagree on an input, knob by knob",
    "identify": "which conventions and options produce a published score",
    "fingerprint": "which convention a black-box implementation follows, per family",
}


class Parser(argparse.ArgumentParser):
    """argparse, with a suggestion for a mistyped flag or subcommand."""

    def error(self, message: str):  # type: ignore[override]
        hint = _suggestion(self, message)
        self.print_usage(sys.stderr)
        self.exit(USAGE_EXIT_CODE, f"{self.prog}: error: {message}{hint}\n")


def _suggestion(parser: argparse.ArgumentParser, message: str) -> str:
    words: list[str] = []
    known: list[str] = []
    if message.startswith("unrecognized arguments:"):
        words = [w for w in message.split(":", 1)[1].split() if w.startswith("-")]
        known = [o for action in parser._actions for o in action.option_strings]
    elif "invalid choice:" in message:
        words = [message.split("invalid choice:", 1)[1].split("'")[1]]
        known = [c for action in parser._actions for c in (action.choices or ())]
    from bleu_harness.bleu.options import closest  # here: only a mistake needs the engine

    for word in words:
        close = closest(word.split("=")[0], known)
        if close:
            return f" (did you mean {close}?)"
    return ""


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser; the chosen subcommand (the first word of ``argv`` that names one) with
    all its arguments, the others by name and help only."""
    parser = Parser(
        prog="bleu-harness",
        description="Reference-conformance harness for BLEU: one engine that reproduces the "
        "BLEU of NLTK, SacreBLEU, the Moses and NIST scripts, TF-NMT / Hugging Face, "
        "torchmetrics, Tensor2Tensor, pycocoevalcap, fairseq, ignite, torchtext, allennlp, "
        "MultEval, compare-mt, MATLAB and more (bleu-harness score --help lists them all), and shows where and why "
        "they disagree.",
        epilog="Run 'bleu-harness COMMAND --help' for a command's options.")
    parser.add_argument("--version", action="version", version=f"bleu-harness {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    parser.set_defaults(subparsers=commands.choices)
    chosen = next((word for word in argv if not word.startswith("-")), None)
    for name, summary in SUBCOMMANDS.items():
        if name != chosen:
            commands.add_parser(name, help=summary)
            continue
        module = importlib.import_module(f"bleu_harness.cli.{name}")
        sub = commands.add_parser(name, help=summary,
                                  description=textwrap.fill(module.DESCRIPTION, 88),
                                  epilog=getattr(module, "EPILOG", None),
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(sub)
        sub.set_defaults(handler=module.main)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    owned = not signals.installed()  # the console script installs them before any import
    if owned:
        signals.install()
    stdout = sys.stdout
    sys.stdout = ReaderMayLeave(stdout)
    try:
        return _main(argv)
    finally:
        sys.stdout = stdout
        if owned:
            signals.uninstall()


class ReaderMayLeave:
    """Standard output whose reader may leave (``bleu-harness run | head``): what is written
    after that is discarded and the command goes on, so it exits with its own code (a gate
    whose output was cut still fails when the implementation fails)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._reader_left()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._reader_left()

    def _reader_left(self) -> None:
        try:  # the interpreter's own last flush at exit must not fail either
            os.dup2(os.open(os.devnull, os.O_WRONLY), self._stream.fileno())
        except (OSError, ValueError):
            pass
        self._stream = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _main(argv: Sequence[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    # the subcommand named, for a signal that comes before the arguments are parsed
    command = next((word for word in words if word in SUBCOMMANDS), "run")
    try:
        args, extra = build_parser(words).parse_known_args(words)
        command = args.command
        if extra:  # reported by the subcommand, which knows its flags (and can suggest one)
            args.subparsers[command].error(f"unrecognized arguments: {' '.join(extra)}")
        # Off a terminal (a file, a CI log) nothing is wrapped: lines are read whole.
        from rich.console import Console  # rich loads in 40 ms: not for --help or a typo

        console = Console() if sys.stdout.isatty() else Console(soft_wrap=True, width=10_000)
        code = args.handler(args, console)
    except UsageError as error:
        print(f"bleu-harness {command}: error: {one_line(error)}", file=sys.stderr)
        return USAGE_EXIT_CODE
    except KeyboardInterrupt as stop:  # SIGINT; SIGTERM raises Terminated (bleu_harness.signals)
        signals.hold()
        code = signals.exit_code_of(stop)
        print(f"bleu-harness {command}: "
              f"{'terminated' if code == signals.TERMINATED else 'interrupted'}", file=sys.stderr)
        return code
    held = signals.held_signal()
    if held is not None:
        print(f"bleu-harness {command}: a signal ({signal.Signals(held).name}) arrived "
              "after the work was done; its outputs were completed", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
