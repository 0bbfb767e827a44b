"""Exit codes, from the stream's lines (DESIGN.md "Gates").

0 clean · 1 the implementation under test diverges from an expectation or from its live
library, or crashes · 2 a case-file problem, or no check ran · 3 only a reference library
drifted from its recorded value, and ``--strict-references`` was given (without it, drift is
reported and the run exits 0). With a baseline, only what is new against it counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from harness.judge import DRIFT, ERROR, FAIL, PASS
from harness.report.stream import Run, record_key

CLEAN, DIVERGED, USAGE, DRIFTED = 0, 1, 2, 3
RAN = (PASS, FAIL, ERROR, DRIFT)


def known_problems(baseline: Run | None) -> set[tuple]:
    if baseline is None:
        return set()
    return {record_key(c) for c in baseline.checks if c["verdict"] in (FAIL, ERROR, DRIFT)}


def is_new(line: Mapping[str, Any], known: set[tuple]) -> bool:
    return record_key(line) not in known


def exit_code(checks: Sequence[Mapping[str, Any]], problems: int, strict_references: bool,
              known: Iterable[tuple] = ()) -> int:
    known = set(known)
    if problems or not any(c["verdict"] in RAN for c in checks):
        return USAGE
    new = [c for c in checks if is_new(c, known)]
    if any(c["verdict"] in (FAIL, ERROR) for c in new):
        return DIVERGED
    if strict_references and any(c["verdict"] == DRIFT for c in new):
        return DRIFTED
    return CLEAN
