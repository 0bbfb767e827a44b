"""The ``run``, ``validate`` and ``diff`` subcommands: arguments in, reports and exit code out."""

from __future__ import annotations

import io
import sys

from rich.console import Console
from rich.progress import Progress

from harness.cases.lint import lint
from harness.cases.loader import load
from harness.diff import diff_runs, render_diff
from harness.report import stream, views
from harness.runner import RunOptions, UsageError, execute
from harness.textfiles import InputError


def run_command(args, console: Console) -> int:
    baseline = _read(args.baseline) if args.baseline else None
    options = RunOptions(
        paths=tuple(args.paths), backends=tuple(args.backend),
        implementation=args.implementation, implementation_cmd=args.implementation_cmd,
        claims=args.claims, select=args.select, tags=tuple(args.tag), timeout=args.timeout,
        strict_references=args.strict_references, baseline=baseline)
    try:
        if console.is_terminal and args.format == "terminal" and not args.output:
            with Progress(transient=True, console=console) as bar:
                task = bar.add_task("judging cases", total=None)
                result = execute(options, lambda done, total: bar.update(
                    task, completed=done, total=total))
        else:
            result = execute(options)
    except UsageError as error:
        raise InputError(str(error)) from None
    run = result.run()
    if not run.checks and not run.problems:
        print("bleu-harness run: error: no check ran (no case matched the paths, --select and "
              "--tag given)", file=sys.stderr)
    if args.junit_xml:
        stream.write_atomic(args.junit_xml, views.render_junit(run, args.strict_references))
    if args.format == "json":
        text = stream.dumps(result.lines)
    elif args.format == "markdown":
        text = views.render_markdown(run, result.exit_code)
    else:
        text = None
    if text is None:
        target = Console(record=True, width=120, file=io.StringIO()) if args.output else console
        views.render_terminal(run, target, result.exit_code)
        if args.output:
            stream.write_atomic(args.output, target.export_text())
    elif args.output:
        stream.write_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return result.exit_code


def validate_command(args, console: Console) -> int:
    loaded = load(args.paths or None)
    problems = list(loaded.problems) + lint(loaded.cases)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) in {len(loaded.files)} file(s)", file=sys.stderr)
        return 2
    print(f"{len(loaded.cases)} cases in {len(loaded.files)} files: valid")
    return 0


def diff_command(args, console: Console) -> int:
    result = diff_runs(_read(args.old), _read(args.new))
    text = render_diff(result, markdown=args.format == "markdown")
    if args.output:
        stream.write_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 1 if result.worse else 0


def _read(path: str) -> stream.Run:
    try:
        return stream.read_run(path)
    except stream.StreamError as error:
        raise InputError(str(error)) from None
