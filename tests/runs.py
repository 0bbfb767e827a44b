"""Running the gate from tests: the pipeline with its stream lines captured."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bleu_harness.pipeline import RunOptions, RunResult, execute_run
from bleu_harness.records import CheckRecord

TESTS = Path(__file__).parent
CORPUS = TESTS.parent / "cases"
FAKE = f"{sys.executable} {TESTS / 'fake_command.py'}"
#: The reference backends an implementation that claims NLTK is checked against: live NLTK
#: and fast-bleu (NLTK's sentence BLEU). The other libraries' drift checks and the engine's
#: divergence map do not involve it (its records are the same without them, checked on the
#: whole corpus for ``miniatures:faithful``) and cost most of a run.
NLTK_CHECKS = ("nltk", "fast-bleu")
#: The backends (and ``run``'s flags) for the engine (its divergence map included) and one
#: reference library (live NLTK) in place of every installed one: for the tests of a run's
#: mechanics (streams, reports, exit codes, signals), which read none of the other
#: libraries' records. Each
#: library's worker costs 0.1-0.7 s of start-up a run; the bundled corpus's run
#: (tests/test_corpus_run.py) starts them all.
ONE_LIBRARY_BACKENDS = ("own", "nltk")
ONE_LIBRARY = tuple(flag for name in ONE_LIBRARY_BACKENDS for flag in ("--backend", name))
#: The small corpus of the report tests (the session's ``tie_bug_run``, tests/conftest.py):
#: the tie family, where the tie bug fails by its tie rule alone, and the Perl oracle
#: cases, where it fails on inputs of many families at once (zero overlap, case, empty
#: references, tokenization) -- each failure names the reference length either way.
TIE_CORPUS = (str(CORPUS / "families" / "ref-length-ties.yaml"),
              str(CORPUS / "oracles" / "multi-bleu.yaml"))


def children_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pids) -> set[int]:
    """Those of ``pids`` that still run (zombies count as gone)."""
    running = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            running.add(pid)
    return running


def marked(marker: str) -> set[int]:
    """The running processes (zombies count as gone) with ``marker`` on their command line."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in command.split(b"\0"):
                found.add(int(entry.name))
    return alive(found)


def end(pids) -> None:
    """Kill what a failed test left behind (by pid: only the processes it made)."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def run(notice=None, **options) -> tuple[RunResult, list[dict]]:
    lines: list[dict] = []
    result = execute_run(RunOptions(**options), lines.append, notice=notice)
    return result, lines


def checks(result: RunResult, check: str | None = None,
           verdict: str | None = None) -> list[CheckRecord]:
    return [r for r in result.records if (check is None or r.check == check)
            and (verdict is None or r.verdict == verdict)]


def case_file(directory: Path, name: str, cases: str) -> Path:
    """A case file of the given cases (YAML text of the list items)."""
    path = directory / name
    path.write_text("schema: 1\ncases:\n" + cases, encoding="utf-8")
    return path


def one_case(case_id: str = "c", expect: str = "", hyp: str = "a b c d",
             refs: str = "[a b c d]", extra: str = "") -> str:
    expect = expect or ("{convention: nltk, value: '1.0', provenance: {kind: documented, "
                        "source: s, where: w}}")
    return (f"  - id: {case_id}\n    description: d\n    tags: []\n    level: sentence\n"
            f"{extra}    segments: [{{hyp: {hyp}, refs: {refs}}}]\n    expect: [{expect}]\n")


def inner_pytest(*arguments: str, cwd: Path, env: dict[str, str] | None = None,
                 timeout: float = 120.0) -> subprocess.CompletedProcess:
    """``python -m pytest ARGUMENTS`` in its own process, printing the same whatever runs
    this test: in a session of its own with stdin from /dev/null (no terminal, as under CI),
    80 columns (``COLUMNS``: pytest cuts its summary lines at the width), and none of the
    outer run's ``PYTEST_*`` variables (``PYTEST_ADDOPTS`` reaches every pytest: ``--tb=no``
    left only the cut summary lines, ``-qq`` the counts out, ``-x`` the failures after the
    first). ``env`` is added to the environment. Hypothesis's pytest plugin, which no inner
    run uses, is left out: loading it is two thirds of an inner pytest's start (0.7 s)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    environment.update({"COLUMNS": "80", **(env or {})})
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:hypothesispytest",
                           *arguments], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL, start_new_session=True, env=environment)


@dataclass(frozen=True)
class Cli:
    """``python -m bleu_harness`` run in a subprocess: exit code, output, and how long it took."""

    code: int
    out: str
    err: str
    seconds: float


def cli(*arguments: str, cwd: Path = TESTS, timeout: float = 60.0,
        env: dict[str, str] | None = None) -> Cli:
    """The command line in its own process, from ``cwd`` (so that ``miniatures`` and the
    fake programs are importable), with ``env`` added to the environment, killed after
    ``timeout`` seconds (a hang fails the test instead of hanging it)."""
    started = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "bleu_harness", *arguments], cwd=cwd,
                              capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    except subprocess.TimeoutExpired as hung:
        raise AssertionError(f"bleu-harness {' '.join(arguments)} still ran after "
                             f"{timeout:g} s: {hung.stderr!r}") from None
    return Cli(done.returncode, done.stdout, done.stderr, time.monotonic() - started)


def corpus_size(paths=None) -> int:
    """The number of cases in the corpus of ``paths`` (default: the bundled one), as the
    loader counts them (one row each in the HTML report's matrix)."""
    from bleu_harness.cases.loader import load

    return len(load(paths).cases)


def embedded(path: Path) -> dict:
    """The data an HTML report embeds (its ``<script id="data">`` JSON)."""
    text = path.read_text(encoding="utf-8")
    match = re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S)
    return json.loads(match.group(1))


def assert_recorded_by_the_tool(family: Path, convention: str, where: str) -> None:
    """Every expectation of ``convention`` in the case file ``family`` was computed by the
    tool itself (its provenance names the tool as library and ``where`` it came from, a commit
    or a release), never by the engine; the file loads without problems."""
    from bleu_harness.cases.loader import load_file

    cases, problems = load_file(family)
    assert not problems and len(cases) >= 8
    for case in cases:
        for e in case.expectations:
            if e.convention == convention:
                assert (e.provenance.library, e.provenance.kind) == (convention, "computed")
                assert where in e.provenance.source, case.id
