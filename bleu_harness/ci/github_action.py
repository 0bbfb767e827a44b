"""The gate step of the GitHub Action (``action.yml`` at the repository's root).

``python -m bleu_harness.ci.github_action`` reads the action's inputs from the environment
(``action.yml`` maps each to an ``INPUT_*`` variable: GitHub hands a composite action's
inputs to its steps only as ``${{ inputs.NAME }}`` expressions, and an expression inside a
``run:`` script would be pasted into the shell text), runs ``bleu-harness run`` with
``--junit-xml``, ``--html`` and the Markdown view into the report directory, and then, as
GitHub's documentation of workflow commands describes (docs.github.com, "Workflow commands
for GitHub Actions": "Adding a job summary", "Setting an output parameter"):

* appends the Markdown view to the file ``$GITHUB_STEP_SUMMARY`` names (the view keeps to
  half a comment, 32,768 characters, well inside the summary's 1 MiB a step);
* writes the outputs ``exit-code``, ``report-dir`` and, for each report written, ``junit-xml``,
  ``html`` and ``markdown`` to the file ``$GITHUB_OUTPUT`` names;
* exits with the gate's own exit code (0 clean, 1 failures, 2 usage, 3 drift, 130/143), so
  the step fails exactly when the gate does.

Relative paths are taken from ``$GITHUB_WORKSPACE`` (the checkout, where steps run), and
the gate runs there, so ``--implementation mypkg.bleu:score`` imports the checkout's code.
Outside GitHub (the variables unset) it runs the same and skips what has nowhere to go.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: The file names the reports get inside the report directory.
JUNIT_XML = "junit.xml"
HTML = "report.html"
MARKDOWN = "summary.md"
#: The gate's exit code for a usage error (``bleu_harness.errors.USAGE_EXIT_CODE``).
USAGE = 2


class InputProblem(ValueError):
    """An input the step cannot use: one line, exit code 2."""


@dataclass(frozen=True)
class ActionInputs:
    """The action's inputs, as ``action.yml`` names them."""

    paths: tuple[str, ...] = ()
    implementation: str = ""
    implementation_cmd: str = ""
    claims: str = ""
    args: tuple[str, ...] = ()
    report_dir: str = "bleu-harness-report"

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> ActionInputs:
        """``INPUT_PATHS`` and ``INPUT_ARGS`` are split as a shell splits words (quotes
        keep a path with spaces whole; newlines separate too); the others are taken as they
        are, stripped."""
        def text(name: str) -> str:
            return environ.get(f"INPUT_{name}", "").strip()

        return cls(paths=_words(text("PATHS"), "paths"),
                   implementation=text("IMPLEMENTATION"),
                   implementation_cmd=text("IMPLEMENTATION_CMD"),
                   claims=text("CLAIMS"),
                   args=_words(text("ARGS"), "args"),
                   report_dir=text("REPORT_DIR") or cls.report_dir)


def _words(text: str, name: str) -> tuple[str, ...]:
    try:
        return tuple(shlex.split(text))
    except ValueError as error:  # an unclosed quote
        raise InputProblem(f"input {name}: {error} in {text!r}") from None


@dataclass(frozen=True)
class ReportFiles:
    """Where the gate writes its reports."""

    directory: Path

    @property
    def junit_xml(self) -> Path:
        return self.directory / JUNIT_XML

    @property
    def html(self) -> Path:
        return self.directory / HTML

    @property
    def markdown(self) -> Path:
        return self.directory / MARKDOWN


def gate_arguments(inputs: ActionInputs, files: ReportFiles) -> list[str]:
    """The ``bleu-harness`` command line for these inputs."""
    arguments = ["run", *inputs.paths]
    if inputs.implementation:
        arguments += ["--implementation", inputs.implementation]
    if inputs.implementation_cmd:
        arguments += ["--implementation-cmd", inputs.implementation_cmd]
    if inputs.claims:
        arguments += ["--claims", inputs.claims]
    return [*arguments, *inputs.args, "--junit-xml", str(files.junit_xml),
            "--html", str(files.html), "--format", "markdown", "--output", str(files.markdown)]


def run_gate(arguments: list[str], workspace: Path) -> int:
    """``bleu-harness`` on this interpreter, in ``workspace``: its exit code. A SIGINT or
    SIGTERM this step gets (a cancelled job) is passed on, so that the gate ends its run in
    order and exits 130 / 143 itself."""
    gate = subprocess.Popen([sys.executable, "-m", "bleu_harness", *arguments], cwd=workspace)

    def forward(signum, frame) -> None:
        gate.send_signal(signum)

    previous = {signum: signal.signal(signum, forward) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        return gate.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def summary_text(files: ReportFiles, exit_code: int) -> str:
    """The Markdown view the run wrote; where it wrote none (it stopped before: a usage error,
    an implementation that did not start), one line that says so."""
    if files.markdown.is_file():
        return files.markdown.read_text(encoding="utf-8")
    return (f"**bleu-harness run** stopped with exit code {exit_code} before writing its "
            "report: the step's log says why.\n")


def append_summary(path: str, text: str) -> None:
    with open(path, "a", encoding="utf-8") as summary:
        summary.write(text if text.endswith("\n") else text + "\n")


def append_outputs(path: str, outputs: Mapping[str, str]) -> None:
    """``name=value`` lines; a value with a line break in GitHub's multi-line form
    (``name<<DELIMITER``, the value, the delimiter), with a delimiter the value lacks."""
    with open(path, "a", encoding="utf-8") as output:
        for name, value in outputs.items():
            if "\n" in value or "\r" in value:
                delimiter = f"ghadelimiter_{uuid.uuid4()}"
                output.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
            else:
                output.write(f"{name}={value}\n")


def main(environ: Mapping[str, str] = os.environ) -> int:
    """The step: the gate's exit code (2 and one line for an input it cannot use)."""
    try:
        inputs = ActionInputs.from_environment(environ)
    except InputProblem as problem:
        print(f"bleu-harness action: error: {problem}", file=sys.stderr)
        return USAGE
    workspace = Path(environ.get("GITHUB_WORKSPACE") or os.getcwd())
    files = ReportFiles(workspace / inputs.report_dir)
    try:
        files.directory.mkdir(parents=True, exist_ok=True)
        for stale in (files.junit_xml, files.html, files.markdown):  # from an earlier run
            stale.unlink(missing_ok=True)
    except OSError as error:
        print(f"bleu-harness action: error: report-dir {inputs.report_dir}: "
              f"{error.strerror or error}", file=sys.stderr)
        return USAGE
    arguments = gate_arguments(inputs, files)
    print("bleu-harness " + shlex.join(arguments), flush=True)
    exit_code = run_gate(arguments, workspace)
    written = [path for path in (files.markdown, files.junit_xml, files.html) if path.is_file()]
    print(f"bleu-harness action: exit code {exit_code}; reports in {files.directory}: "
          f"{', '.join(path.name for path in written) or 'none'}", flush=True)
    if environ.get("GITHUB_STEP_SUMMARY"):
        append_summary(environ["GITHUB_STEP_SUMMARY"], summary_text(files, exit_code))
    if environ.get("GITHUB_OUTPUT"):  # a report's path only where it was written
        reports = {"junit-xml": files.junit_xml, "html": files.html, "markdown": files.markdown}
        append_outputs(environ["GITHUB_OUTPUT"], {
            "exit-code": str(exit_code), "report-dir": str(files.directory),
            **{name: str(path) for name, path in reports.items() if path in written}})
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
