"""``bleu-harness run``: the conformance gate."""

from __future__ import annotations

import argparse
import io
import os
import sys

from rich.console import Console

from bleu_harness.backends.registry import ON_REQUEST, REFERENCE_BACKENDS
from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.options import closest
from bleu_harness.cli.options import (
    TOKENIZER_CHOICES,
    ProgressReporter,
    add_format,
    add_implementation,
    add_timeouts,
    checks_per_cause,
    count_of_failures,
    jobs,
    library_pythons,
    load_tokenizer,
)
from bleu_harness.errors import UsageError
from bleu_harness.gate import EXIT_CODES, TERMINATED, Known
from bleu_harness.pipeline import RunOptions, execute_run, known_of
from bleu_harness.report import stream
from bleu_harness.report.html import render_html, require_plotly
from bleu_harness.report.junit import render_junit
from bleu_harness.report.markdown import render_markdown
from bleu_harness.report.output import StreamFile, check_outputs, write_report
from bleu_harness.report.summary import counts_line
from bleu_harness.report.terminal import CHECKS_PER_CAUSE, render_terminal

NAME = "run"
DESCRIPTION = (
    "Judge every case: the implementation under test (the engine unless --implementation/"
    "--implementation-cmd) against each recorded expectation and against the live library "
    "of its convention; the live libraries against their recorded values (drift); and the "
    "conventions against each other (the divergence map). Each distinct request runs once, "
    "every backend in its own worker processes, timed.")
EPILOG = "exit codes:\n" + "\n".join(f"  {code:>3}  {what}" for code, what in EXIT_CODES.items())


def add_arguments(parser) -> None:
    parser.add_argument("paths", metavar="PATH", nargs="*",
                        help="case files or directories (default: the bundled corpus)")
    parser.add_argument("--backend", action="append", default=[], metavar="NAME",
                        help=f"reference backends to use: {', '.join(REFERENCE_BACKENDS)} "
                        "(repeatable; default: all but the Perl scripts' "
                        f"{' and '.join(ON_REQUEST)}, the optional ones where installed)")
    parser.add_argument("--library-python", action="append", default=[], metavar="LIB=PYTHON",
                        help="run a library's worker on another interpreter that has that "
                        "release installed, e.g. nltk=/path/to/venv/bin/python (repeatable)")
    under_test = parser.add_argument_group("implementation under test")
    add_implementation(under_test)
    under_test.add_argument("--claims", metavar="CONVENTION",
                            help=f"the convention it claims to follow ({', '.join(CONVENTIONS)})")
    parser.add_argument("--select", metavar="GLOB", help="only cases whose id matches GLOB")
    parser.add_argument("--tag", action="append", default=[], metavar="TAG",
                        help="only cases with this tag (repeatable: any of them)")
    parser.add_argument("--tokenizer", type=load_tokenizer, metavar="MODULE:CALLABLE",
                        help="score every case in your own tokens: each text becomes the "
                        "function's tokens (e.g. nltk:word_tokenize; or a SacreBLEU name: "
                        f"{', '.join(TOKENIZER_CHOICES)}) joined by spaces; the recorded "
                        "values are skipped (they hold for the case's own tokens), the "
                        "libraries and the divergence map run on the new tokens")
    add_format(parser, "json", "markdown")
    parser.add_argument("--output", metavar="FILE",
                        help="write the report there (json: the stream, written as it goes); "
                        "the summary line is still printed")
    parser.add_argument("--junit-xml", metavar="FILE", help="also write JUnit XML there")
    parser.add_argument("--html", metavar="FILE",
                        help="also write the single-file HTML report there")
    parser.add_argument("--baseline", metavar="RUN",
                        help="a stored run (--format json): its failures are known, each "
                        "for the cause it failed for; fail only on what is new, and on what "
                        "it lists that no longer fails")
    parser.add_argument("--known", metavar="FILE",
                        help="a YAML list of known failures ({case, check?, convention?, "
                        "reason}); one that no longer fails fails the gate until removed")
    parser.add_argument("--strict-references", action="store_true",
                        help="a reference library drifting from its recorded value fails (exit 3)")
    stop = parser.add_mutually_exclusive_group()
    stop.add_argument("--maxfail", type=count_of_failures, default=0, metavar="N",
                      help="stop after the case that brings the new failures to N: the "
                      "stream and reports end there, status 'stopped', exit 1")
    stop.add_argument("-x", "--exitfirst", dest="maxfail", action="store_const", const=1,
                      help="stop at the first case with a new failure (--maxfail 1)")
    add_timeouts(parser)
    parser.add_argument("--jobs", "-j", type=jobs, default=1, metavar="N",
                        help="workers per backend (1 to 64; default 1; the backends run in "
                             "parallel)")
    drawn = parser.add_mutually_exclusive_group()
    drawn.add_argument("--map", action="store_true",
                       help="also print the divergence map (conventions against each "
                       "other) in the terminal view; by default it is computed and written to "
                       "the stream and reports, not printed")
    drawn.add_argument("--no-map", dest="divergence_map", action="store_false",
                       help="leave the divergence map out: the engine's conventions are not "
                       "scored against each other (the map is computed once per case and "
                       "kept in $XDG_CACHE_HOME/bleu-harness; BLEU_HARNESS_CACHE=DIR puts "
                       "it elsewhere, =off keeps none)")
    parser.add_argument("--checks-per-cause", type=checks_per_cause,
                        default=CHECKS_PER_CAUSE, metavar="N",
                        help=f"failing checks printed per cause (default {CHECKS_PER_CAUSE}; "
                        "0: every one); the other formats list every check")
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="print only failures and the summary line")


def _known(args) -> Known:
    return known_of(args.baseline, args.known)


def _check_tags(tags) -> None:
    """``--tag`` names a tag of the vocabulary (``@``-suffixed variants too), or a one-line
    error with the closest: a mistyped tag selected nothing and said nothing."""
    from bleu_harness.cases.loader import tag_vocabulary

    known = tag_vocabulary()
    for tag in tags:
        if tag.split("@")[0] not in known:
            close = closest(tag, sorted(known))
            hint = f" (did you mean {close}?)" if close else ""
            raise UsageError(f"--tag {tag!r} is no tag of the corpus{hint}; the tags are "
                             "listed in bleu_harness/schema/tags.yaml")


def main(args, console: Console) -> int:
    missing = [path for path in args.paths if not os.path.lexists(path)]
    if missing:  # a typo: said before anything starts
        raise UsageError(f"{missing[0]}: no such file or directory (give case files or "
                         "directories; none: the bundled corpus)")
    outputs = check_outputs(
        {"--output": args.output, "--junit-xml": args.junit_xml, "--html": args.html},
        inputs=[*args.paths, args.known, args.baseline],
        case_folders=[path for path in args.paths if os.path.isdir(path)])
    _check_tags(args.tag)
    if "--html" in outputs:
        require_plotly()
    options = RunOptions(
        paths=tuple(args.paths), backends=tuple(args.backend),
        implementation=args.implementation, implementation_cmd=args.implementation_cmd,
        claims=args.claims, select=args.select, tags=tuple(args.tag), timeout=args.timeout,
        startup_timeout=args.startup_timeout, jobs=args.jobs,
        strict_references=args.strict_references, known=_known(args),
        library_python=library_pythons(args.library_python), tokenizer=args.tokenizer,
        maxfail=args.maxfail, divergence_map=args.divergence_map)
    stream_file = StreamFile(outputs["--output"]) if (
        args.format == "json" and "--output" in outputs) else None

    def sink(line) -> None:
        if args.format != "json":
            return
        text = getattr(line, "text", None) or stream.dumps(line)  # a line read back as written
        if stream_file is not None:
            stream_file.write(text)
        else:
            sys.stdout.write(text)
            sys.stdout.flush()

    try:
        with ProgressReporter() as progress:
            result = execute_run(options, sink, progress, progress.notice)
    finally:
        if stream_file is not None:
            stream_file.finish()
    run = result.run()
    if run.footer.interrupted:
        code = run.footer.exit_code
        print(f"bleu-harness run: {'terminated' if code == TERMINATED else 'interrupted'}",
              file=sys.stderr)
    elif not run.footer.finished:
        limit = "-x" if args.maxfail == 1 else f"--maxfail {args.maxfail}"
        print(f"bleu-harness run: stopped at {limit}: the case that reached it was judged "
              "whole, the cases after it did not run", file=sys.stderr)
    elif not run.checks and not run.problems:
        print(f"bleu-harness run: error: no check ran ({no_case_matched(args)})",
              file=sys.stderr)
    if "--junit-xml" in outputs:
        write_report(outputs["--junit-xml"], render_junit(run, args.strict_references),
                     "--junit-xml")
    if "--html" in outputs:
        write_report(outputs["--html"], render_html(run, {c.id: c for c in result.cases}),
                     "--html")
    if args.format == "markdown":
        _emit(render_markdown(run), outputs.get("--output"), run)
    elif args.format == "terminal":
        show_map = args.map or (console.is_terminal and result.exit_code == 0)
        if "--output" in outputs:
            target = Console(record=True, file=io.StringIO(), soft_wrap=True, width=10_000)
            render_terminal(run, target, show_map, args.quiet, args.checks_per_cause)
            write_report(outputs["--output"], target.export_text())
            print(counts_line(run))
        else:
            render_terminal(run, console, show_map, args.quiet, args.checks_per_cause)
    elif "--output" in outputs:
        print(counts_line(run))
    return result.exit_code


def _emit(text: str, path, run) -> None:
    if path is not None:
        write_report(path, text)
        print(counts_line(run))
    else:
        sys.stdout.write(text)


def no_case_matched(args: argparse.Namespace) -> str:
    """Why a run had no check, in terms of what was given: the paths (or the bundled corpus)
    and, where given, ``--select`` and ``--tag``."""
    where = ", ".join(args.paths) if args.paths else "the bundled corpus"
    given = [f"--select {args.select}"] if args.select else []
    given += [f"--tag {tag}" for tag in args.tag]
    if given:
        return f"no case of {where} matched {' and '.join(given)}"
    return f"{where} holds no case"
