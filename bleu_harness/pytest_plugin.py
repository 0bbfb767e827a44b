"""pytest plugin: ``pytest cases/`` collects each case of a case file as a test item.

Registered through the ``pytest11`` entry point (pytest's "Working with non-python tests"
pattern), so it is active wherever bleu-harness is installed -- and collects nothing it was not
asked for. A YAML file is a case file only when

* it lies in a case corpus: a directory with the marker file ``CORPUS_ROOT`` above it (a
  file no other project's YAML comes with);
* or it lies in a path named by the ini option ``bleu_harness_cases`` (paths relative to the
  rootdir) or the command-line option ``--bleu-harness-cases PATH``;
* or it is named on the command line itself and has a top-level ``schema:`` or ``cases:``.

Any other YAML (a ``db.yaml`` with ``schema: public``, a ``fixtures.yaml`` with ``cases:``)
is never read. A case file is checked and
read by the loader ``bleu-harness run`` uses (``bleu_harness.cases.loader.load_found``: a regular
file inside its corpus, at most 8 MiB, read once), so a file that ``run`` reports -- one that
fails the schema or the lint rules, a link out of the corpus, a FIFO, socket or directory
named ``*.yaml`` -- is reported as failing items (file, line, case), never silently skipped
or waited on, and never stops the session. A case id used twice across files fails.

An item runs the same plan -> execute -> judge path as ``bleu-harness run``, with the engine
under test and the backends started once per session, each in its own worker process. It
fails when the engine diverges from an expectation or from the live library of its
convention; the failure shows the case's own YAML lines with their numbers, expected vs
actual, the difference and the tags, not a traceback. Expected, actual and provenance go
into ``--junitxml`` as properties.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from bleu_harness import __version__
from bleu_harness.backends.base import BackendInfo
from bleu_harness.backends.registry import check_backend_names, reference_backends
from bleu_harness.cases.lint import lint
from bleu_harness.cases.loader import CASE_SUFFIXES, ROOT_MARKER, load_found
from bleu_harness.cases.model import Case, Problem
from bleu_harness.checkplan import plan_case, roles_of
from bleu_harness.errors import InputError, UsageError
from bleu_harness.text import one_line
from bleu_harness.execute import Executor
from bleu_harness.judge import judge_case
from bleu_harness.records import DRIFT, FAILING, CheckRecord, shown
from bleu_harness.report.presentation import comparison, expected_shown, origin_text
from bleu_harness.report.summary import ready_libraries, unready_notes
from bleu_harness.text import clean_text, visible
from bleu_harness.textfiles import read_head

_CASE_FILE = re.compile(r"^(schema|cases)\s*:", re.MULTILINE)
_STASH_IDS = pytest.StashKey[dict]()
_STASH_RUNNER = pytest.StashKey[object]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("bleu-harness")
    group.addoption("--bleu-strict-references", action="store_true",
                    help="a reference library drifting from a recorded value fails the case")
    group.addoption("--bleu-harness-cases", action="append", default=[], metavar="PATH",
                    help="collect the YAML files under PATH as bleu-harness case files "
                    "(besides case corpora, marked by a CORPUS_ROOT file)")
    group.addoption("--bleu-backend", action="append", default=[], metavar="NAME",
                    help="a reference backend to check the cases against (repeatable; "
                    "the engine always runs; default: every installed library, as "
                    "'bleu-harness run' without --backend)")
    parser.addini("bleu_harness_cases", type="paths", default=[],
                  help="paths whose YAML files are bleu-harness case files")
    parser.addini("bleu_harness_backends", type="linelist", default=[],
                  help="the reference backends --bleu-backend names, for every session")


def _opted_in(config: pytest.Config, path: Path) -> bool:
    """Whether ``path`` lies under a path the user named as holding case files."""
    named = [Path(p) for p in config.getini("bleu_harness_cases")]
    named += [Path(os.path.abspath(p)) for p in config.getoption("bleu_harness_cases")]
    here = Path(os.path.abspath(path))
    return any(here == root or root in here.parents for root in named)


def _corpus_of(path: Path) -> Path | None:
    """The corpus the file lies in where pytest found it (links not followed: a link from a
    corpus to a file outside is still found in the corpus, and refused)."""
    for directory in Path(os.path.abspath(path)).parents:
        if (directory / ROOT_MARKER).is_file():
            return directory
    return None


def _looks_like_case_file(path: Path) -> bool:
    """A top-level ``schema:`` or ``cases:`` in its first 64 KiB; a file that cannot be read
    as a regular file is collected too, so that the loader says why."""
    try:
        head = read_head(path, 65536)
    except InputError:
        return True
    return bool(_CASE_FILE.search(head.decode("utf-8", "replace")))


def _is_case_file(parent: pytest.Collector, path: Path) -> bool:
    if path.suffix not in CASE_SUFFIXES:
        return False
    if _corpus_of(path) is not None or _opted_in(parent.config, path):
        return True
    return parent.session.isinitpath(path) and _looks_like_case_file(path)


def pytest_collect_file(parent: pytest.Collector, file_path: Path):
    if _is_case_file(parent, file_path):
        return CaseFile.collected(parent, file_path)
    return None


if hasattr(pytest, "Dir"):  # pytest 8+: the hooks below exist
    def pytest_collect_directory(path: Path, parent: pytest.Collector):
        """A directory named ``*.yaml`` where case files are is a case file ``run`` reports:
        so is it here."""
        if _is_case_file(parent, path):
            return CaseFile.collected(parent, path)
        return None

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(collector: pytest.Collector):
        """pytest offers only regular files and directories to the hooks: the other
        ``*.yaml`` of a directory (FIFOs, sockets, dangling links) are added here, as ``run``
        reports them -- and so is any such file named on the command line, whatever its
        name (``pytest ok.yaml /dev/null``: pytest alone would stop the session, exit 4,
        and ``ok.yaml`` would never run; ``run`` reports the bad path and runs the rest)."""
        report = yield
        if isinstance(collector, pytest.Directory) and report.passed:
            report.result.extend(CaseFile.collected(collector, path)
                                 for path in _special_files(collector.path)
                                 if _is_case_file(collector, path)
                                 or _named_on_the_command_line(collector, path))
        return report


def _named_on_the_command_line(collector: pytest.Collector, path: Path) -> bool:
    try:
        return collector.session.isinitpath(path)
    except (OSError, RuntimeError):  # a link loop cannot be resolved: not named as such
        return False


def _special_files(directory: Path) -> list[Path]:
    """The entries of ``directory`` that are neither a directory nor a regular file."""
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError:
        return []
    return [Path(entry.path) for entry in entries if _special(entry)]


def _special(entry: os.DirEntry) -> bool:
    try:
        return not entry.is_dir() and not entry.is_file()
    except OSError:  # a link loop: no regular file, no directory
        return True


def chosen_backends(config: pytest.Config) -> tuple[str, ...]:
    """The backends ``--bleu-backend`` (or the ini option ``bleu_harness_backends``) names,
    the engine's first; empty for all of them. An unknown name stops the session with a
    usage error that names the one probably meant and the known ones."""
    named = config.getoption("bleu_backend") or config.getini("bleu_harness_backends")
    try:
        check_backend_names(named, "--bleu-backend")
    except UsageError as error:
        raise pytest.UsageError(str(error)) from None
    return tuple(dict.fromkeys(("own", *named))) if named else ()


def pytest_configure(config: pytest.Config) -> None:
    chosen_backends(config)  # a typo is said before anything is collected


class SessionRunner:
    """The backends of a pytest session, started on first use and ended with the session."""

    def __init__(self, backends: tuple[str, ...] = ()) -> None:
        self.executor = Executor()
        infos = self.executor.start_all(reference_backends(backends, {}))
        self.infos = tuple(infos)
        engine = next(i for i in infos if i.role == "engine")
        if not engine.ready:
            raise RuntimeError(f"the engine's worker did not start: {engine.note}")
        from bleu_harness.bleu import CONVENTIONS

        self.roles = roles_of(infos, engine, tuple(CONVENTIONS), True, divergence_map=False)

    def judge(self, case: Case) -> list[CheckRecord]:
        plan = plan_case(case, self.roles)
        outcomes = dict(self.executor.run(plan.requests))
        return judge_case(plan, outcomes, True)

    def close(self) -> None:
        self.executor.close()


def _runner(config: pytest.Config) -> SessionRunner:
    runner = config.stash.get(_STASH_RUNNER, None)
    if runner is None:
        runner = SessionRunner(chosen_backends(config))
        config.stash[_STASH_RUNNER] = runner
    return runner


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    """One line naming what the session's cases were checked with: the engine and each
    library's exact version, and the libraries that were not available, with why."""
    runner = config.stash.get(_STASH_RUNNER, None)
    if runner is not None:
        terminalreporter.write_line(backends_line(runner.infos))


def backends_line(infos: Sequence[BackendInfo]) -> str:
    """In the words of ``bleu-harness run``'s header (``report.summary``)."""
    ready = ready_libraries(infos)
    line = (f"bleu-harness {__version__}: the cases were checked against "
            f"{', '.join(ready) if ready else 'no library'}")
    missing = unready_notes(infos)
    return line + (f"; not available: {'; '.join(missing)}" if missing else "")


def pytest_unconfigure(config: pytest.Config) -> None:
    runner = config.stash.get(_STASH_RUNNER, None)
    if runner is not None:
        runner.close()


class CaseFile(pytest.File):
    @classmethod
    def collected(cls, parent: pytest.Collector, path: Path) -> CaseFile:
        """The case file at ``path``, its node id one line whatever its name holds (a line
        break would start a line of pytest's summary of its own: a forged ``::error``
        workflow command in a CI log)."""
        node = cls.from_parent(parent, path=path)
        if one_line(node.nodeid) == node.nodeid:
            return node
        return cls.from_parent(parent, path=path, name=one_line(node.name),
                               nodeid=one_line(node.nodeid))

    def collect(self):
        loaded = load_found(self.path, _corpus_of(self.path) or self.path.parent)
        cases = list(loaded.cases)
        problems = list(loaded.problems) + lint(cases)
        held_back = {p.case_line for p in problems}
        seen = self.config.stash.setdefault(_STASH_IDS, {})
        lines = loaded.text.splitlines()
        for case in cases:
            first = seen.setdefault(case.id, f"{self.path}:{case.line}")
            if first != f"{self.path}:{case.line}" and not first.startswith(f"{self.path}:"):
                problems.append(Problem(str(self.path), case.line, case.id,
                                        f"BH001 duplicate id (first used at {first})",
                                        case.line))
                held_back.add(case.line)
        for number, problem in enumerate(problems, start=1):
            yield ProblemItem.from_parent(
                self, name=one_line(f"line {problem.line}: {problem.case_id or '-'} #{number}"),
                problem=problem)
        for case in cases:
            if case.line in held_back:
                continue
            yield CaseItem.from_parent(self, name=case.id, case=case,
                                       source=_own_lines(lines, case))


def _own_lines(lines: list[str], case: Case) -> list[str]:
    """The case's YAML lines, without the blank and comment lines that follow it."""
    own = lines[case.line - 1:case.end_line or len(lines)]
    while own and (not own[-1].strip() or own[-1].lstrip().startswith("#")):
        own.pop()
    return own


class CaseFailure(Exception):
    def __init__(self, records: list[CheckRecord]) -> None:
        super().__init__(f"{len(records)} divergence(s)")
        self.records = records


class CaseItem(pytest.Item):
    def __init__(self, *, case: Case, source: list[str], **kwargs) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.source = source

    def runtest(self) -> None:
        strict = self.config.getoption("--bleu-strict-references", default=False)
        records = _runner(self.config).judge(self.case)
        bad = [r for r in records if r.verdict in FAILING or (strict and r.verdict == DRIFT)]
        for record in bad or records[:1]:
            self.user_properties.append(("expected", expected_shown(record)))
            self.user_properties.append(("actual", shown(record.actual)))
            if record.provenance:
                self.user_properties.append(("provenance", origin_text(record.provenance)))
        if bad:
            raise CaseFailure(bad)

    def repr_failure(self, excinfo, style=None):
        if not isinstance(excinfo.value, CaseFailure):
            return super().repr_failure(excinfo)
        width = len(str(self.case.line + len(self.source)))
        out = [f"case {self.case.id} ({self.case.location}):"]
        out += [f"  {self.case.line + i:>{width}} | {visible(text)}"
                for i, text in enumerate(self.source)]
        for r in excinfo.value.records:
            figure = f" {r.figure}" if r.figure != "score" else ""
            out.append(f"{r.verdict.upper()} {r.check} · {r.backend} as {r.convention}{figure} "
                       f"{dict(r.options) or ''} (line {r.line})")
            out.append(f"    {comparison(r)}")
            if r.tags:
                out.append(f"    tags: {', '.join(r.tags)}")
            if r.message:
                out.append(f"    {r.message}")
        return "\n".join(out)

    def reportinfo(self):
        return self.path, self.case.line - 1, f"case {self.case.id}"


class ProblemItem(pytest.Item):
    def __init__(self, *, problem: Problem, **kwargs) -> None:
        super().__init__(**kwargs)
        self.problem = problem

    def runtest(self) -> None:
        raise CaseFailure([])

    def repr_failure(self, excinfo, style=None):
        return f"case file problem: {clean_text(self.problem, 2000)}"

    def reportinfo(self):
        return self.path, max(self.problem.line - 1, 0), clean_text(self.problem, 300)
