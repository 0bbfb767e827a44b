"""The canonical JSON Lines stream: a header, one line per check (and per case-file problem),
a footer with counts. Every view and every gate reads this, never the runner's objects.

The stream is written as the run goes (each line flushed as it is judged), so an interrupted
run leaves a readable stream whose footer says ``interrupted``; a killed one leaves a stream
without a footer, which :func:`read_run` names as truncated. Lines follow
``bleu_harness/schema/stream.schema.json``; :func:`read_run` validates them and gives typed records.
"""

from __future__ import annotations

import json
import platform
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from bleu_harness import __version__
from bleu_harness.backends.base import BackendInfo
from bleu_harness.cases.model import Problem
from bleu_harness.errors import InputError, StreamError
from bleu_harness.records import (
    CheckRecord,
    clean_text,
    json_ready,
    outcome_from_dict,
    outcome_to_dict,
)
from bleu_harness.report.causes import reconciled
from bleu_harness.schema.validation import Validator
from bleu_harness.textfiles import MAX_STREAM_BYTES, read_text_input

STREAM_FORMAT = 2
COMPLETE, INTERRUPTED, TRUNCATED = "complete", "interrupted", "truncated"
#: The run stopped itself after ``--maxfail`` new failures (pytest's ``--maxfail``, ``-x``).
STOPPED = "stopped"


LINE_TYPES = ("header", "check", "problem", "footer")
#: How deep a stream line may nest (a real one nests 4 levels): deeper is an edited stream,
#: refused before anything recurses into it.
MAX_DEPTH = 32


@lru_cache(maxsize=1)
def stream_schema() -> dict[str, Any]:
    text = resources.files("bleu_harness.schema").joinpath("stream.schema.json").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def line_validators() -> dict[str, Validator]:
    """One validator per line type, so that a message names the field that is wrong."""
    schema = {k: v for k, v in stream_schema().items() if k != "oneOf"}
    return {kind: Validator({**schema, "$ref": f"#/$defs/{kind}"}) for kind in LINE_TYPES}


@dataclass(frozen=True)
class Header:
    harness: str
    python: str
    backends: tuple[BackendInfo, ...]
    under_test: str
    claims: tuple[str, ...]
    case_files: int
    corpus_hash: str
    known: Mapping[str, str] = field(default_factory=dict)  # baseline / known-list paths
    corpus_roots: tuple[str, ...] = ()  # case files' paths are relative to these
    raw: Mapping[str, Any] = field(default_factory=dict)

    def backend(self, name: str) -> BackendInfo | None:
        return next((b for b in self.backends if b.name == name), None)


@dataclass(frozen=True)
class Footer:
    checks: int
    counts: Mapping[str, int]
    problems: int
    exit_code: int
    status: str = COMPLETE
    no_longer_failing: tuple[str, ...] = ()

    @property
    def interrupted(self) -> bool:
        """The run did not finish: interrupted, or killed before its footer (truncated)."""
        return self.status in (INTERRUPTED, TRUNCATED)

    @property
    def finished(self) -> bool:
        """Every selected case ran: not interrupted, truncated or stopped at ``--maxfail``."""
        return self.status == COMPLETE


@dataclass(frozen=True)
class Run:
    """A run read back from its stream."""

    header: Header
    checks: tuple[CheckRecord, ...]
    problems: tuple[Problem, ...]
    footer: Footer
    path: str = ""


# --- writing --------------------------------------------------------------------------------

def header_line(backends: Sequence[BackendInfo], corpus_hash: str, files: int,
                under_test: str, claims: Sequence[str],
                known: Mapping[str, str] | None = None,
                roots: Sequence[str] = ()) -> dict[str, Any]:
    return {"type": "header", "format": STREAM_FORMAT, "harness": __version__,
            "python": platform.python_version(), "backends": [b.to_dict() for b in backends],
            "under_test": under_test, "claims": list(claims), "case_files": files,
            "corpus_hash": corpus_hash, "corpus_roots": list(roots), "known": dict(known or {})}


def check_line(record: CheckRecord) -> dict[str, Any]:
    line: dict[str, Any] = {
        "type": "check", "case": record.case, "file": record.file, "line": record.line,
        "check": record.check, "backend": record.backend, "convention": record.convention,
        "options": json_ready(record.options), "expected": record.expected,
        "compare": json_ready(record.compare), "actual": outcome_to_dict(record.actual),
        "difference": json_ready(record.difference), "verdict": record.verdict,
        "tags": list(record.tags),
        "provenance": dict(record.provenance) if record.provenance else None,
        "message": record.message, "other": record.other, "figure": record.figure,
    }
    if record.cause is not None:
        line["cause"] = json_ready(record.cause)
    if record.known is not None:
        line["known"] = record.known
    if record.versions:
        line["versions"] = dict(record.versions)
    return line


def problem_line(problem: Problem) -> dict[str, Any]:
    return {"type": "problem", "file": problem.file, "line": problem.line,
            "case": problem.case_id, "message": clean_text(problem.message, 2000)}


def footer_line(counts: Mapping[str, int], checks: int, problems: int, exit_code: int,
                status: str = COMPLETE, no_longer_failing: Sequence[str] = ()) -> dict:
    return {"type": "footer", "checks": checks, "counts": dict(sorted(counts.items())),
            "problems": problems, "exit_code": exit_code, "status": status,
            "no_longer_failing": list(no_longer_failing)}


#: Characters that some readers take for a line break (``str.splitlines``, JavaScript):
#: written as JSON escapes, so that every stream line is one line to every reader.
LINE_BREAKERS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def dumps(line: Mapping[str, Any]) -> str:
    """One stream line: JSON, UTF-8 safe (no lone surrogates), newline-terminated, with no
    character a reader could take for a line break (they only occur inside JSON strings,
    where their escapes mean the same)."""
    text = json.dumps(line, ensure_ascii=False, allow_nan=False)
    for char, escaped in LINE_BREAKERS.items():
        text = text.replace(char, escaped)
    return text.encode("utf-8", "backslashreplace").decode("utf-8") + "\n"


# --- reading --------------------------------------------------------------------------------

def read_run(path: str | Path, allow_truncated: bool = False) -> Run:
    """Read and validate a stream: a header first, a footer last, every line of a known type
    and valid against the stream schema, no check twice. A stream without a footer (a run
    that was killed) is an error unless ``allow_truncated``."""
    try:
        text = read_text_input(path, MAX_STREAM_BYTES)
    except InputError as error:
        raise StreamError(str(error)) from None
    # Lines end at "\n" only: str.splitlines() also splits at U+2028, U+0085, ... which a
    # JSON string may hold raw.
    return parse_run(text.split("\n"), str(path), allow_truncated)


def parse_run(lines: Iterable[str], name: str = "<stream>",
              allow_truncated: bool = False) -> Run:
    validators = line_validators()
    header: Header | None = None
    footer: Footer | None = None
    checks: list[CheckRecord] = []
    problems: list[Problem] = []
    seen: dict[tuple, int] = {}
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        where = f"{name}:{number}"
        line = _json_line(raw, where)
        kind = line.get("type") if isinstance(line, dict) else None
        if kind not in validators:
            raise StreamError(f"{where}: not a valid stream line (unknown type {kind!r}; "
                              f"known: {', '.join(LINE_TYPES)})")
        error = next(iter(validators[kind].iter_errors(line)), None)
        if error is not None:
            field_path = "/".join(str(p) for p in error.absolute_path) or "line"
            raise StreamError(f"{where}: not a valid stream line ({field_path}: "
                              f"{clean_text(error.message, 160)})")
        if footer is not None:
            raise StreamError(f"{where}: a line after the footer")
        if kind == "header":
            if header is not None or checks or problems:
                raise StreamError(f"{where}: a second header, or a header that is not first")
            header = _typed(header_from_line, line, where)
        elif header is None:
            raise StreamError(f"{where}: the stream does not start with a header")
        elif kind == "check":
            record = _typed(record_from_line, line, where)
            key = record.key()
            if key in seen:
                raise StreamError(f"{where}: the same check as line {seen[key]} (case "
                                  f"{record.case}, {record.check})")
            seen[key] = number
            checks.append(record)
        elif kind == "problem":
            problems.append(Problem(line["file"], line["line"], line["case"] or "",
                                    line["message"]))
        else:
            footer = _typed(footer_from_line, line, where)
    if header is None:
        raise StreamError(f"{name}: empty: not a bleu-harness stream")
    if footer is None:
        if not allow_truncated:
            raise StreamError(f"{name}: truncated: no footer (the run was killed before it "
                              "finished)")
        footer = Footer(len(checks), {}, len(problems), -1, TRUNCATED)
    # every view names one cause per failure: its group's (bleu_harness.report.causes)
    return Run(header, tuple(reconciled(checks)), tuple(problems), footer, name)


def _json_line(raw: str, where: str) -> Any:
    """One line parsed, not nested deeper than :data:`MAX_DEPTH`."""
    try:
        line = json.loads(raw)
    except RecursionError:
        raise StreamError(f"{where}: nested too deep: not a bleu-harness stream") from None
    except ValueError:
        raise StreamError(f"{where}: not JSON: not a bleu-harness stream (write one with "
                          "bleu-harness run --format json)") from None
    # A line cannot nest deeper than it has brackets: counting them (in C) spares the walk
    # for every line a run writes (a fifth of reading a stream)
    if raw.count("[") + raw.count("{") > MAX_DEPTH and _depth(line) > MAX_DEPTH:
        raise StreamError(f"{where}: nested more than {MAX_DEPTH} levels deep: not a "
                          "bleu-harness stream")
    return line


def _depth(value: Any) -> int:
    """How deep ``value`` nests (a scalar: 0), without recursion."""
    deepest, pending = 0, [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, (dict, list)):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
            pending.extend((v, depth) for v in (item.values() if isinstance(item, dict)
                                                else item))
    return deepest


def _typed(build, line: Mapping[str, Any], where: str):
    """``build(line)``: a valid line as a typed record; what the schema cannot say (a number
    written as a string that is none) is one line naming the line, never a traceback."""
    try:
        return build(line)
    except (KeyError, ValueError, TypeError, OverflowError) as error:
        raise StreamError(f"{where}: not a valid stream line "
                          f"({clean_text(error, 160)})") from None


def header_from_line(line: Mapping[str, Any]) -> Header:
    return Header(line["harness"], line["python"],
                  tuple(BackendInfo.from_dict(b) for b in line["backends"]),
                  line["under_test"], tuple(line["claims"]), line["case_files"],
                  line["corpus_hash"], dict(line.get("known") or {}),
                  tuple(line.get("corpus_roots") or ()), dict(line))


def record_from_line(line: Mapping[str, Any]) -> CheckRecord:
    """A check line of a stream (as :func:`check_line` writes it) as its record."""
    compare = line.get("compare")
    return CheckRecord(
        case=line["case"], file=line["file"], line=line["line"], check=line["check"],
        backend=line["backend"], convention=line["convention"], options=line["options"],
        expected=line["expected"], actual=outcome_from_dict(line["actual"]),
        verdict=line["verdict"], compare=compare, difference=line.get("difference"),
        tags=tuple(line["tags"]), provenance=line.get("provenance"),
        message=line.get("message", ""), other=line.get("other", ""),
        figure=line.get("figure") or "score", cause=line.get("cause"),
        known=line.get("known"), versions=line.get("versions"))


def footer_from_line(line: Mapping[str, Any]) -> Footer:
    return Footer(line["checks"], dict(line["counts"]), line["problems"], line["exit_code"],
                  line.get("status", COMPLETE), tuple(line.get("no_longer_failing", ())))
