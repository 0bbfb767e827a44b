"""pytest plugin: ``pytest cases/`` collects each case of a case file as a test item.

Registered through the ``pytest11`` entry point. A file is a case file when it is YAML and
declares ``schema: 1``. An item fails when the engine diverges from an expectation or from
the live library of its convention; the failure shows the case's YAML lines with their line
numbers, expected vs actual, the difference and the divergence tags, not a traceback.
Expected, actual and provenance go into ``--junitxml`` as properties.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest


from harness.backends.own import OwnBackend
from harness.bleu import CONVENTIONS
from harness.cases.lint import lint
from harness.cases.loader import load_file
from harness.cases.model import Case, Problem
from harness.judge import DRIFT, ERROR, FAIL, CheckRecord, Roles, judge_case
from harness.runner import REFERENCE_BACKENDS, reference_libraries

_CASE_FILE = re.compile(r"^schema:\s*1\s*$", re.MULTILINE)
_INVISIBLE = {"\t": "⇥", "\u00a0": "⍽", "\u200b": "<U+200B>", "\ufeff": "<U+FEFF>",
              "\u2028": "<U+2028>", "\r": "␍"}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("bleu-harness")
    group.addoption("--bleu-strict-references", action="store_true",
                    help="a reference library drifting from a recorded value fails the case")


def pytest_collect_file(parent: pytest.Collector, file_path: Path):
    if file_path.suffix in (".yaml", ".yml"):
        try:
            head = file_path.read_text(encoding="utf-8", errors="replace")[:4096]
        except OSError:
            return None
        if _CASE_FILE.search(head):
            return CaseFile.from_parent(parent, path=file_path)
    return None


_ROLES: Roles | None = None


def _roles() -> Roles:
    global _ROLES
    if _ROLES is None:
        libraries, extras, absent = reference_libraries(REFERENCE_BACKENDS)
        _ROLES = Roles(under_test=OwnBackend(), claims=tuple(CONVENTIONS), libraries=libraries,
                       library_versions={k: v.info().version for k, v in libraries.items()},
                       extra_libraries=extras, absent_libraries=tuple(absent))
    return _ROLES


class CaseFile(pytest.File):
    def collect(self):
        cases, problems = load_file(self.path)
        problems += lint(cases)
        lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        starts = sorted(c.line for c in cases)
        for problem in problems:
            yield ProblemItem.from_parent(self, name=f"line {problem.line}: {problem.case_id or '-'}",
                                          problem=problem)
        for case in cases:
            following = [s for s in starts if s > case.line]
            end = following[0] - 1 if following else len(lines)
            yield CaseItem.from_parent(self, name=case.id, case=case,
                                       source=lines[case.line - 1:end])


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
        records = judge_case(self.case, _roles())
        bad = [r for r in records if r.verdict in (FAIL, ERROR) or (strict and r.verdict == DRIFT)]
        for record in bad or records[:1]:
            self.user_properties.append(("expected", str(record.expected)))
            self.user_properties.append(("actual", record.actual.shown()))
            if record.provenance:
                self.user_properties.append(("provenance", str(dict(record.provenance))))
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
            expected = r.expected if r.check != "differential" else f"{r.expected} ({r.other})"
            out.append(f"{r.verdict.upper()} {r.check} · {r.backend} as {r.convention} "
                       f"{dict(r.options) or ''} (line {r.line})")
            line = f"    expected {expected}   actual {r.actual.shown()}"
            if r.difference is not None:
                line += f"   difference {r.difference:+.3g}"
            out.append(line)
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
        return f"case file problem: {self.problem}"

    def reportinfo(self):
        return self.path, max(self.problem.line - 1, 0), str(self.problem)


def visible(text: str) -> str:
    """Show invisible characters (tabs, no-break and zero-width spaces, trailing spaces)."""
    for char, shown in _INVISIBLE.items():
        text = text.replace(char, shown)
    stripped = text.rstrip(" ")
    return stripped + "·" * (len(text) - len(stripped))
