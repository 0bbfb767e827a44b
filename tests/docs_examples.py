"""The examples of the documentation, read out of its Markdown so that the tests run them.

A page's fenced blocks are of three kinds (everything else is prose to the tests):

* a ``python`` or ``yaml`` block whose first line is ``# file: NAME`` is a file the reader
  is asked to save: it is written into the page's working directory before its commands run;
* a ``console`` block holds commands, each a line starting with ``$ `` (a line ending in
  ``\\`` goes on on the next), each followed by the standard output it prints. They run in
  order, with ``bash``, in one scratch directory per page that holds the files above and
  links to the checkout's ``cases/`` and ``.atlas/`` (so ``cases/seeds/blog.yaml`` reads as
  in a checkout), with this interpreter's ``bin`` first on ``PATH`` (its ``bleu-harness``).
  The output shown must be what the command printed: a line ``...`` stands for any number
  of lines, ``...`` within a line for any text, trailing spaces do not count;
* a ``pycon`` or ``python`` block with ``>>>`` prompts is a doctest, run with the page's
  other Python blocks in one namespace (ELLIPSIS on).

An HTML comment ``<!-- requires: PATH -->`` (relative to the checkout) before a ``console``
block skips that block and the page's later ones when ``PATH`` is missing, saying so.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: What a page's scratch directory links to in the checkout.
LINKED = ("cases", ".atlas")
#: Longest a documented command may take.
COMMAND_TIMEOUT = 180
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)(?P<info>[^`\n]*)$")
REQUIRES = re.compile(r"<!--\s*requires:\s*(?P<path>\S+)\s*(?P<why>.*?)\s*-->")
FILE_LINE = re.compile(r"^# file: (?P<name>[\w.-]+)$")


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, its text and the line of the page it starts at."""

    language: str
    text: str
    line: int
    requires: str = ""
    requires_why: str = ""


@dataclass(frozen=True)
class Command:
    command: str
    expected: str
    line: int


@dataclass
class Outcome:
    """What running a page's console blocks gave: one message per mismatch, or the skip."""

    problems: list[str] = field(default_factory=list)
    skipped: str = ""
    commands: int = 0


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, in order."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    requires = why = ""
    i = 0
    while i < len(lines):
        needed = REQUIRES.search(lines[i])
        if needed:
            requires, why = needed.group("path"), needed.group("why")
        opening = FENCE.match(lines[i])
        if not opening or not opening.group("info").strip():
            i += 1
            continue
        indent, fence = len(opening.group("indent")), opening.group("fence")
        language = opening.group("info").strip().split()[0]
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        found.append(Block(language, "\n".join(body) + "\n", i + 2, requires, why))
        if language == "console":
            requires = why = ""
        i = j + 1
    return found


def saved_files(page: list[Block]) -> dict[str, str]:
    """``# file: NAME`` blocks: name -> text."""
    files = {}
    for block in page:
        first = block.text.split("\n", 1)[0]
        named = FILE_LINE.match(first)
        if block.language in ("python", "yaml") and named:
            files[named.group("name")] = block.text
    return files


def commands(block: Block) -> list[Command]:
    """The ``$ `` commands of a console block with the output shown after each."""
    found: list[Command] = []
    lines = block.text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"line {block.line + i}: output before any command: {lines[i]!r}")
        command, start = lines[i][2:], i
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + " " + lines[i].strip()
        i += 1
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        found.append(Command(command, "\n".join(output), block.line + start))
    return found


def matches(expected: str, actual: str) -> bool:
    """Whether ``actual`` is what ``expected`` shows (``...`` elides, trailing spaces and
    blank lines at the end do not count)."""
    pattern = []
    for line in _lines(expected):
        if line.strip() == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append(r"[^\n]*".join(re.escape(part) for part in line.split("...")) + r"\n")
    return re.fullmatch("".join(pattern), "".join(f"{line}\n" for line in _lines(actual)),
                        re.DOTALL) is not None


def _lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def scratch_directory(folder: Path, page: list[Block]) -> Path:
    """``folder`` made ready for a page's commands: its saved files and the links."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        if (ROOT / name).exists() and not (folder / name).exists():
            (folder / name).symlink_to(ROOT / name)
    for name, text in saved_files(page).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.pop("COLUMNS", None)
    return env


#: A run's progress on stderr (a line every few seconds when it is not a terminal): what a
#: console example shows depends on how long it took, so it is not held to the page.
PROGRESS = re.compile(r"^bleu-harness: \d+/\d+ requests answered")


def run_console(path: Path, folder: Path) -> Outcome:
    """Every console block of a page, in order, in ``folder``: what did not match what a
    terminal shows, stdout then stderr (a console example once left out the stderr line
    its command prints)."""
    page = blocks(path)
    outcome = Outcome()
    scratch_directory(folder, page)
    env = environment()
    name = path.relative_to(ROOT)
    for block in page:
        if block.language != "console":
            continue
        if block.requires and not (ROOT / block.requires).exists():
            outcome.skipped = (f"{name}:{block.line}: {block.requires} is missing"
                               + (f" ({block.requires_why})" if block.requires_why else ""))
            return outcome
        for command in commands(block):
            outcome.commands += 1
            try:
                done = subprocess.run(["bash", "-c", command.command], cwd=folder, env=env,
                                      capture_output=True, text=True, timeout=COMMAND_TIMEOUT,
                                      stdin=subprocess.DEVNULL)
                # what a terminal shows: stdout, then the lines of stderr (but the progress)
                actual = done.stdout + "".join(
                    f"{line}\n" for line in done.stderr.splitlines()
                    if line.strip() and not PROGRESS.match(line))
            except subprocess.TimeoutExpired:
                outcome.problems.append(f"{name}:{command.line}: $ {command.command}: still "
                                        f"running after {COMMAND_TIMEOUT} s")
                continue
            if not matches(command.expected, actual):
                outcome.problems.append(
                    f"{name}:{command.line}: $ {command.command} (exit {done.returncode})\n"
                    f"--- shown\n{command.expected}\n--- printed (stdout, then stderr)\n"
                    f"{actual}")
    return outcome


def run_doctests(path: Path) -> tuple[int, int, str]:
    """The page's ``>>>`` examples in one namespace: (failed, attempted, report)."""
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict = {"__name__": "__docs__"}
    report: list[str] = []
    name = str(path.relative_to(ROOT))
    for block in blocks(path):
        if block.language not in ("python", "pycon") or ">>>" not in block.text:
            continue
        test = parser.get_doctest(block.text, globs, f"{name}:{block.line}", name,
                                  block.line - 1)
        runner.run(test, out=report.append, clear_globs=False)
        globs.update(test.globs)  # a DocTest runs in a copy: the next block sees its names
    return runner.failures, runner.tries, "".join(report)
