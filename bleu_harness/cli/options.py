"""Flags several subcommands share, and building what they name: the output format, the
implementation under test, timeouts, progress on long runs."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from bleu_harness.bleu.tokenizers import tokenizer_name, tokens_problem
from bleu_harness.errors import UsageError
from bleu_harness.records import json_ready, non_finite_place
from bleu_harness.text import one_line

DEFAULT_TIMEOUT = 10.0


def add_format(parser: argparse.ArgumentParser, *formats: str) -> None:
    choices = ("terminal", *formats)
    parser.add_argument("--format", choices=choices, default="terminal",
                        help=f"how to print the result: {', '.join(choices)} (default terminal)")


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    try:
        from bleu_harness.execute import check_timeout  # the executor: not for score's start

        return check_timeout(value, "")
    except UsageError:
        raise argparse.ArgumentTypeError(f"give a number of seconds > 0, not {text}") from None


#: ``--jobs`` at most: worker processes per backend (``run``) or counting processes
#: (``score``); more only costs memory on any machine this runs on.
MAX_JOBS = 64


def jobs(text: str) -> int:
    """An argparse type: a number of worker processes, 1 to :data:`MAX_JOBS`."""
    value = whole_number(text, 1, f"1 to {MAX_JOBS} workers")
    if value > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"give 1 to {MAX_JOBS} workers, not {text}")
    return value


def whole_number(text: str, least: int, what: str) -> int:
    """An argparse value: a whole number of at least ``least`` (``what``: how the error
    names what is allowed)."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if number < least:
        raise argparse.ArgumentTypeError(f"give {what}, not {text}")
    return number


def count_of_failures(text: str) -> int:
    """``--maxfail N``: 1 or more."""
    return whole_number(text, 1, "1 or more failures")


def checks_per_cause(text: str) -> int | None:
    """``--checks-per-cause N``: 0 or more; 0 means every check (``None``)."""
    return whole_number(text, 0, "0 (every check) or more") or None


#: An option value given on the command line: its length and nesting at most.
MAX_OPTION_CHARACTERS = 10_000
MAX_OPTION_DEPTH = 8


def option_value(raw: str) -> Any:
    """``VALUE`` of ``--option KEY=VALUE`` read as YAML (``[0.5,0.5]``, ``true``, ``5``), kept
    to plain data: strings, numbers, booleans, null, lists and mappings, nested at most
    :data:`MAX_OPTION_DEPTH` deep (a set or a date is no option value; a thousand ``[``
    would exhaust the parser). Text that is not YAML is the string itself."""
    if not raw:
        return ""
    if len(raw) > MAX_OPTION_CHARACTERS:
        raise UsageError(f"an option value longer than {MAX_OPTION_CHARACTERS:,} characters")
    depth = deepest = 0
    for character in raw:
        depth += (character in "[{") - (character in "]}")
        deepest = max(deepest, depth)
    if deepest > MAX_OPTION_DEPTH:
        raise UsageError(f"{raw[:40]}...: nested more than {MAX_OPTION_DEPTH} levels deep")
    # Here: the command line starts without YAML. The case files' safe reader, so that an
    # option value meets the limits a case file's does: JSON data only, no alias that
    # contains itself (``&a [*a, *a]``), bounded depth and size, aliases expanded.
    from bleu_harness.cases.yamlsafe import YamlProblem, compose_safely, construct

    try:
        root = compose_safely(raw)
        value = construct(root) if root is not None else None
    except YamlProblem as problem:
        if str(problem).startswith("YAML syntax error"):
            return raw
        raise UsageError(f"{one_line(raw[:60])}: not a plain value ({problem}; give a "
                         "number, a string, true/false or a [list])") from None
    if not _plain_data(value):
        raise UsageError(f"{one_line(raw[:60])}: not a plain value (give a number, a string, "
                         "true/false or a [list])")
    if non_finite_place(value, "value") is not None:
        raise UsageError(f"{one_line(raw[:60])}: NaN and infinities are no option values "
                         "(options reach every implementation as JSON, which has neither)")
    return value


def _plain_data(value: Any) -> bool:
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, list):
        return all(_plain_data(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain_data(v) for k, v in value.items())
    return False


def add_timeouts(parser: argparse.ArgumentParser) -> None:
    from bleu_harness.execute import DEFAULT_STARTUP_TIMEOUT  # the executor: not for score

    parser.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                        help=f"per request, for every backend (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--startup-timeout", type=seconds, default=DEFAULT_STARTUP_TIMEOUT,
                        metavar="SECONDS", help="for a backend to start and answer its first "
                        f"request, imports included (default {DEFAULT_STARTUP_TIMEOUT:g})")


def add_implementation(group, claims: bool = True) -> None:
    """``--implementation`` / ``--implementation-cmd``: a black-box BLEU implementation
    (``claims``: it names the convention it follows with ``--claims``)."""
    returns = ("what the library it claims returns (a float on its own scale, or a list of "
               "floats for NLTK's list of weight vectors)" if claims else
               "its BLEU score, on whatever scale it uses (fingerprint detects it)")
    group.add_argument("--implementation", metavar="MODULE:CALLABLE",
                       help="a Python callable fn(hypotheses, references, level, **options) "
                       f"returning {returns}; imported from the working directory")
    group.add_argument("--implementation-cmd", metavar="COMMAND",
                       help="a program speaking JSON lines on stdin/stdout: "
                       '{"id", "hypotheses", "references", "level", "options"} -> '
                       '{"id", "score": x} or {"id", "error": "...", "type": "..."}')


def library_pythons(pairs: list[str]) -> dict[str, str]:
    """``--library-python nltk=/path/to/python`` (repeatable)."""
    chosen: dict[str, str] = {}
    for pair in pairs:
        name, sep, python = pair.partition("=")
        if not sep or not name or not python:
            raise UsageError(f"--library-python {pair!r}: expected LIBRARY=PYTHON, e.g. "
                             "nltk=/path/to/venv/bin/python")
        chosen[name] = python
    return chosen


def print_json(document: Mapping[str, Any]) -> None:
    """A document on stdout as JSON (NaN and infinities as strings: JSON has neither)."""
    sys.stdout.write(json.dumps(json_ready(document), indent=2, ensure_ascii=False,
                                allow_nan=False, default=str) + "\n")


def show(args, console: Console, document: Mapping[str, Any], render) -> None:
    """A command's result: the document as JSON (``--format json``) or ``render(document)``."""
    if args.format == "json":
        print_json(document)
    else:
        console.print(render(document), highlight=False, markup=False, soft_wrap=True)


class ProgressReporter:
    """Progress of a long run on stderr: a live bar on a terminal, else a line every few
    seconds (a CI log shows the run is alive)."""

    def __init__(self, every: float = 5.0) -> None:
        self.console = Console(stderr=True)
        self.every = every
        self.started = time.monotonic()
        self.last = self.started
        self.bar = None
        self.task = None

    def __enter__(self) -> ProgressReporter:
        if self.console.is_terminal:
            from rich.progress import Progress

            self.bar = Progress(transient=True, console=self.console)
            self.bar.start()
            self.task = self.bar.add_task("requests", total=None)
        return self

    def __call__(self, done: int, total: int, judged: int, cases: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done, total=total,
                            description=f"{judged}/{cases} cases judged")
            return
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            print(f"bleu-harness: {done}/{total} requests answered, {judged}/{cases} cases "
                  f"judged ({now - self.started:.0f} s)", file=sys.stderr, flush=True)

    def notice(self, text: str) -> None:
        """A line about the run while it goes (above the bar on a terminal)."""
        self.console.print(f"bleu-harness: {text}", highlight=False, markup=False,
                           soft_wrap=True)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


TOKENIZER_CHOICES = ("none", "13a", "intl", "char", "zh")


def load_tokenizer(target: str):
    """``MODULE:CALLABLE`` imported (the current directory first on the path, as
    ``--implementation``), or a :data:`TOKENIZER_CHOICES` name; a clear error otherwise."""
    import importlib
    import os

    if target in TOKENIZER_CHOICES:
        return target
    module_name, sep, attribute = target.partition(":")
    if not sep or not module_name or not attribute:
        raise argparse.ArgumentTypeError(
            f"expected one of {', '.join(TOKENIZER_CHOICES)} or MODULE:CALLABLE (e.g. "
            f"nltk:word_tokenize), got {target!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        found: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
    except Exception as error:  # an import error, a missing attribute, a crashing module
        raise argparse.ArgumentTypeError(
            f"cannot load {target!r}: {type(error).__name__}: {error}") from None
    if not callable(found):
        raise argparse.ArgumentTypeError(f"{target!r} is not callable")
    from bleu_harness.signals import TimeLimitExceeded, time_limit

    try:
        with time_limit(PROBE_SECONDS):
            problem = tokens_problem(found(TOKENIZER_PROBE))
    except TimeLimitExceeded:
        raise argparse.ArgumentTypeError(
            f"{target!r} did not tokenize {TOKENIZER_PROBE!r} within {PROBE_SECONDS} s"
        ) from None
    except Exception as error:  # noqa: BLE001 - the user's code: one line, before any work
        raise argparse.ArgumentTypeError(
            f"{target!r} fails on {TOKENIZER_PROBE!r}: {type(error).__name__}: "
            f"{first_words(error)}") from None
    if problem:
        raise argparse.ArgumentTypeError(f"{target!r} {problem}, tried on the text "
                                         f"{TOKENIZER_PROBE!r}")
    return found


#: What a tokenizer given with ``--tokenizer`` is tried on before anything runs (NLTK's
#: ``word_tokenize`` without its ``punkt_tab`` data raises LookupError here), and how long
#: it may take.
TOKENIZER_PROBE = "A tokenizer, tried once."
PROBE_SECONDS = 10


def first_words(error: BaseException, limit: int = 200) -> str:
    """An exception's message in one line: its first line with words (NLTK's LookupError
    is a banner of asterisks around the words), cut at ``limit`` characters."""
    lines = [line.strip() for line in str(error).splitlines()]
    words = next((line for line in lines if line.strip("*= -")), "")
    return words if len(words) <= limit else words[:limit - 1] + "…"


#: Marks of text split into subword pieces: subword-nmt's joiner ("Republic@@ an") and
#: SentencePiece's word-start piece ("▁Republic an").
SUBWORD_MARKS = ("@@ ", "\u2581")
#: How many lines are looked at for those marks.
SUBWORD_SAMPLE = 1000


def looks_split(text: str) -> bool:
    """Whether a line carries a mark of subword pieces (:data:`SUBWORD_MARKS`)."""
    return any(mark in text for mark in SUBWORD_MARKS) or text.endswith("@@")


def warn_of_subwords(command: str, path: str, marked: int, seen: int,
                     hypotheses: bool) -> None:
    """The warning, on stderr, that ``path`` looks split into subword pieces (``marked`` of
    its first ``seen`` lines): BLEU over pieces is not BLEU over words."""
    if not marked:
        return
    hint = ("remove them first (e.g. sed -r 's/(@@ )|(@@ ?$)//g')" if hypotheses
            else "--remove-from-references '@@ ' removes subword-nmt's joiners")
    print(f"bleu-harness {command}: warning: {path} looks split into subword pieces "
          f"('@@ ' or '\u2581' in {marked} of its first {seen} lines): BLEU over subword "
          f"pieces is not BLEU over words; {hint}", file=sys.stderr)


def user_tokenizer(args):
    """``--tokenizer`` as a command uses it: a name as it is, the user's callable
    :func:`guarded` (its failure on some text is one line)."""
    tokenizer = getattr(args, "tokenizer", None)
    return guarded(tokenizer) if callable(tokenizer) else tokenizer


@dataclass(frozen=True)
class guarded:  # noqa: N801 -- used as a function: ``guarded(tokenize)``
    """``tokenize`` whose failure on some text, or answer that is no list of tokens
    (:func:`~bleu_harness.bleu.tokenizers.tokens_problem`), is one line (a
    :class:`UsageError`) where a command does not report it itself. Named as the user's
    callable (``describe``), so signatures name it; an object, not a closure, so that it
    pickles by reference to the user's function for ``score --jobs`` workers."""

    tokenize: Callable[[str], Any]

    def __call__(self, text: str) -> Any:
        try:
            answer = self.tokenize(text)
        except Exception as error:  # noqa: BLE001 - the user's code
            raise UsageError(f"--tokenizer {self.describe()} fails on {text[:60]!r}: "
                             f"{type(error).__name__}: {first_words(error)}") from None
        problem = tokens_problem(answer)
        if problem:
            raise UsageError(f"--tokenizer {self.describe()} {problem} for {text[:60]!r}")
        return answer

    def describe(self) -> str:
        return tokenizer_name(self.tokenize)


def add_input(parser: argparse.ArgumentParser, files: bool, tokenizer_note: str = "") -> None:
    """What explain and identify score: files, or a hypothesis and references typed inline;
    ``tokenizer_note`` ends ``--tokenizer``'s help (what it does for this command)."""
    if files:
        parser.add_argument("hyp_file", metavar="HYP_FILE", nargs="?",
                            help="hypotheses, one per line (or an mteval .sgm file)")
        parser.add_argument("ref_files", metavar="REF_FILE", nargs="*",
                            help="references, one per line, aligned with HYP_FILE")
        parser.add_argument("--remove-from-references", default="", metavar="TEXT",
                            help="remove TEXT from every reference line first, e.g. '@@ ' "
                            "(BPE joiners), as score does")
    parser.add_argument("--hyp", action="append", default=[], metavar="TEXT",
                        help="a hypothesis typed inline (sentence level)")
    parser.add_argument("--ref", action="append", default=[], metavar="TEXT",
                        help="a reference of the inline hypothesis (repeatable)")
    parser.add_argument("--tokenizer", type=load_tokenizer, metavar="NAME|MODULE:CALLABLE",
                        help="raw text: the tokenizer conventions that tokenize use, one of "
                        f"{', '.join(TOKENIZER_CHOICES)}, or your own function from text to a "
                        "token list, e.g. nltk:word_tokenize (then only the conventions that "
                        "take a tokenizer are searched; default: the text is already "
                        "tokenized, split on whitespace)" + tokenizer_note)


def input_of(args, case_id: str | None = None):
    from bleu_harness.explain.inputs import find_case, from_case, from_files, from_text

    if case_id:
        if args.hyp or args.ref:
            raise UsageError("give a CASE_ID or --hyp/--ref, not both")
        if getattr(args, "tokenizer", None) is not None:
            raise UsageError("--tokenizer is for files or --hyp/--ref: a case is scored in "
                             "its own tokenization (its file says which)")
        return from_case(find_case(case_id))
    hyp_file = getattr(args, "hyp_file", None)
    if args.hyp or args.ref:
        if hyp_file:
            raise UsageError("give HYP_FILE REF_FILE... or --hyp/--ref, not both")
        remove = getattr(args, "remove_from_references", "")
        references = [r.replace(remove, "") for r in args.ref] if remove else args.ref
        return from_text(args.hyp, references, user_tokenizer(args))
    if hyp_file:
        if not args.ref_files:
            raise UsageError("give at least one REF_FILE after HYP_FILE")
        return from_files(hyp_file, args.ref_files, user_tokenizer(args),
                          args.remove_from_references)
    forms = [form for form, taken in (("a CASE_ID", hasattr(args, "case_id")),
                                       ("HYP_FILE REF_FILE...", hasattr(args, "hyp_file")))
             if taken]
    raise UsageError(f"give an input: {', '.join([*forms, ''])}or --hyp TEXT --ref TEXT")
