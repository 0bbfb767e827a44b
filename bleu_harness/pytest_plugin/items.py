"""The pytest plugin's collectors and items: a case file, its cases, its problems, and the
backends of a session (:mod:`bleu_harness.pytest_plugin` imports this module when a case file
is seen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from bleu_harness import __version__
from bleu_harness.backends.base import BackendInfo
from bleu_harness.backends.registry import implementation_under_test, reference_backends
from bleu_harness.cases.lint import lint
from bleu_harness.cases.loader import bundled_corpus, load_found
from bleu_harness.cases.model import Case, Problem
from bleu_harness.checkplan import plan_case, roles_of
from bleu_harness.errors import StartupError, UsageError
from bleu_harness.execute import Executor
from bleu_harness.gate import mark
from bleu_harness.judge import judge_case
from bleu_harness.pipeline import known_of, started_backends, who_is_under_test
from bleu_harness.pytest_plugin import (
    _STASH_IDS,
    _STASH_RUNNER,
    _corpus_of,
    chosen_backends,
    under_test,
)
from bleu_harness.records import DRIFT, FAILING, CheckRecord, shown
from bleu_harness.report.presentation import comparison, expected_shown, origin_text
from bleu_harness.report.summary import cause_group, ready_libraries, unready_notes
from bleu_harness.text import clean_text, one_line, visible


class SessionRunner:
    """The backends of a pytest session, started on first use and ended with the session:
    the engine under test, or the project's implementation (``given``: the session's
    ``under_test``) with what is known of it, as ``bleu-harness run`` starts them."""

    def __init__(self, backends: tuple[str, ...] = (),
                 given: Mapping[str, str] | None = None) -> None:
        given = given or {}
        subject = implementation_under_test(given.get("implementation"),
                                            given.get("implementation_cmd"), given.get("claims"))
        try:
            self.known = known_of(given.get("baseline"), given.get("known"),
                                  "bleu_harness_baseline")
        except UsageError as error:
            raise pytest.UsageError(f"bleu-harness: {error}") from None
        self.executor = Executor()
        infos = self.executor.start_all(started_backends(subject,
                                                         reference_backends(backends, {})))
        self.infos = tuple(infos[1:] if subject else infos)
        try:
            self.under_test, claims, self.is_engine = who_is_under_test(
                infos, subject, given.get("claims"))
        except StartupError as error:  # said once: the session stops (exit 4)
            self.executor.close()
            pytest.exit(f"bleu-harness: the implementation under test did not start: {error}",
                        returncode=pytest.ExitCode.USAGE_ERROR)
        if not self.under_test.ready:
            raise RuntimeError(f"the engine's worker did not start: {self.under_test.note}")
        self.roles = roles_of(infos, self.under_test, claims, self.is_engine,
                              divergence_map=False)

    def judge(self, case: Case) -> list[CheckRecord]:
        plan = plan_case(case, self.roles)
        outcomes = dict(self.executor.run(plan.requests))
        return mark(judge_case(plan, outcomes, self.is_engine), self.known)

    def close(self) -> None:
        self.executor.close()


def _runner(config: pytest.Config) -> SessionRunner:
    runner = config.stash.get(_STASH_RUNNER, None)
    if runner is None:
        runner = SessionRunner(chosen_backends(config), under_test(config))
        config.stash[_STASH_RUNNER] = runner
    return runner


def bundled_items(session: pytest.Session) -> list[pytest.Item]:
    """The items of the bundled corpus's case files, for a session whose project names no
    case file of its own (its implementation under test is checked on the whole corpus)."""
    items, corpus = [], bundled_corpus()
    for path in sorted(corpus.rglob("*.yaml")):
        node = CaseFile.collected(session, path,
                                  f"bleu-harness-corpus/{path.relative_to(corpus).as_posix()}")
        collected = list(node.collect())
        # as pytest reports what it collects: its count of collected items holds them too
        session.config.hook.pytest_collectreport(
            report=pytest.CollectReport(node.nodeid, "passed", None, collected))
        items.extend(collected)
    return items


def backends_line(infos: Sequence[BackendInfo]) -> str:
    """In the words of ``bleu-harness run``'s header (``report.summary``)."""
    ready = ready_libraries(infos)
    line = (f"bleu-harness {__version__}: the cases were checked against "
            f"{', '.join(ready) if ready else 'no library'}")
    missing = unready_notes(infos)
    return line + (f"; not available: {'; '.join(missing)}" if missing else "")


class CaseFile(pytest.File):
    @classmethod
    def collected(cls, parent: pytest.Collector, path: Path,
                  nodeid: str | None = None) -> CaseFile:
        """The case file at ``path``, its node id one line whatever its name holds (a line
        break would start a line of pytest's summary of its own: a forged ``::error``
        workflow command in a CI log). ``nodeid``: another than pytest's (a file outside
        the rootdir)."""
        node = (cls.from_parent(parent, path=path) if nodeid is None
                else cls.from_parent(parent, path=path, nodeid=nodeid))
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
        new = [r for r in bad if not r.known]
        if new:
            raise CaseFailure(new)
        if bad:  # every failure known (the known list, the baseline): pytest's xfail
            pytest.xfail(f"known: {'; '.join(dict.fromkeys(cause_group(r) for r in bad))}")

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
            sentence = (r.cause or {}).get("sentence")
            if sentence:
                out.append(f"    cause: {visible(str(sentence))}")
            elif r.message:
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
