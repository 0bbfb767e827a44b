"""The canonical JSON Lines stream: a header, one line per check (and per case-file problem),
a footer with counts. Every view and every gate reads this, never the runner's objects."""

from __future__ import annotations

import json
import math
import os
import platform
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import __version__
from harness.backends.base import BackendInfo
from harness.cases.model import Problem
from harness.judge import CheckRecord

STREAM_FORMAT = 1


def _clean(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value) if not math.isnan(value) else "NaN"
    if isinstance(value, Mapping):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def header(backends: Sequence[BackendInfo], corpus_hash: str, files: int,
           under_test: str, claims: Sequence[str],
           absent: Sequence[str] = ()) -> dict[str, Any]:
    return {"type": "header", "format": STREAM_FORMAT, "harness": __version__,
            "python": platform.python_version(), "backends": [b.to_dict() for b in backends],
            "not_installed": list(absent), "under_test": under_test, "claims": list(claims),
            "case_files": files, "corpus_hash": corpus_hash}


def check_line(record: CheckRecord) -> dict[str, Any]:
    return _clean({
        "type": "check", "case": record.case, "file": record.file, "line": record.line,
        "check": record.check, "backend": record.backend, "convention": record.convention,
        "options": dict(record.options), "expected": record.expected,
        "compare": record.compare, "actual": record.actual.to_dict(),
        "difference": record.difference, "verdict": record.verdict, "tags": list(record.tags),
        "provenance": dict(record.provenance) if record.provenance else None,
        "message": record.message, "other": record.other,
        **({"figure": record.figure} if record.figure != "score" else {}),
    })


def problem_line(problem: Problem) -> dict[str, Any]:
    return {"type": "problem", "file": problem.file, "line": problem.line,
            "case": problem.case_id, "message": problem.message}


def footer(counts: Mapping[str, int], checks: int, problems: int, exit_code: int) -> dict:
    return {"type": "footer", "checks": checks, "counts": dict(counts),
            "problems": problems, "exit_code": exit_code}


@dataclass(frozen=True)
class Run:
    """A run read back from its stream."""

    header: dict[str, Any]
    checks: tuple[dict[str, Any], ...]
    problems: tuple[dict[str, Any], ...]
    footer: dict[str, Any]


def record_key(line: Mapping[str, Any]) -> tuple:
    """The identity of a check across runs: case, check, backend, convention, options and
    the expected side (``other`` for checks between two implementations)."""
    options = json.dumps(line.get("options") or {}, sort_keys=True)
    side = line["expected"] if line["check"] in ("expectation", "drift") else line.get("other")
    backend = "under-test" if line["check"] in ("expectation", "differential") else line["backend"]
    return (line["case"], line["check"], backend, line["convention"], options, side,
            line.get("figure") or "score")


def dumps(lines: Iterable[Mapping[str, Any]]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n" for line in lines)


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory and a rename,
    so a reader never sees half a report."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class StreamError(ValueError):
    pass


def read_run(path: str | Path) -> Run:
    """Read a stream back; a file that is not one is a :class:`StreamError` naming the line."""
    header_line: dict[str, Any] | None = None
    footer_line: dict[str, Any] = {}
    checks, problems = [], []
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise StreamError(f"{path}: cannot read: {error}") from None
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
            kind = line["type"]
        except (json.JSONDecodeError, KeyError, TypeError):
            raise StreamError(f"{path}:{number}: not a bleu-harness JSON Lines record") from None
        if kind == "header":
            header_line = line
        elif kind == "check":
            checks.append(line)
        elif kind == "problem":
            problems.append(line)
        elif kind == "footer":
            footer_line = line
    if header_line is None:
        raise StreamError(f"{path}: no header line: not a bleu-harness run (use --format json)")
    return Run(header_line, tuple(checks), tuple(problems), footer_line)
