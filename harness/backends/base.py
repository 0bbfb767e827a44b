"""The backend protocol: ``info()`` and ``score(request) -> Outcome``.

A backend never sees expected values (except ``documented``, whose answers *are* recorded
values), and never raises: whatever happens inside becomes an :class:`Outcome`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from harness.cases.model import frozen_mapping

VALUE, RAISED, UNSUPPORTED, TIMEOUT, INVALID = "value", "raised", "unsupported", "timeout", "invalid"


@dataclass(frozen=True)
class ScoreRequest:
    convention: str
    hypotheses: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    level: str
    options: Mapping[str, Any] = field(default_factory=dict)
    case_id: str = ""
    #: "score", or a figure the convention reports beside it ("cumulative.9", "hyp_len", ...);
    #: a backend that does not report it declines (``declined``).
    figure: str = "score"

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", frozen_mapping(self.options))


@dataclass(frozen=True)
class Outcome:
    """What one backend made of one request.

    ``value``: a float (NaN and tiny values included); ``raised``: the implementation raised
    ``error_type``; ``unsupported``: it cannot do this, ``message`` says why; ``timeout``: no
    answer in time; ``invalid``: an answer that is not a number (wrong type, garbage).
    """

    kind: str
    value: float | None = None
    error_type: str = ""
    message: str = ""

    @classmethod
    def of_value(cls, value: Any) -> Outcome:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return cls(INVALID, message=f"not a number: {type(value).__name__} {value!r:.80}")
        return cls(VALUE, float(value))

    @classmethod
    def of_exception(cls, error: BaseException) -> Outcome:
        error_type = getattr(error, "library_exception", None) or type(error).__name__
        return cls(RAISED, error_type=error_type, message=str(error)[:500])

    def shown(self) -> str:
        if self.kind == VALUE:
            return "NaN" if math.isnan(self.value) else repr(self.value)
        if self.kind == RAISED:
            return f"raises {self.error_type}"
        return self.kind

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.kind == VALUE:
            data["value"] = "NaN" if math.isnan(self.value) else (
                repr(self.value) if math.isinf(self.value) else self.value)
        if self.error_type:
            data["error_type"] = self.error_type
        if self.message:
            data["message"] = self.message
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        value = data.get("value")
        if isinstance(value, str):
            value = float(value.replace("NaN", "nan"))
        return cls(data["kind"], value, data.get("error_type", ""), data.get("message", ""))


@dataclass(frozen=True)
class BackendInfo:
    name: str
    version: str
    conventions: tuple[str, ...]
    role: str  # "engine", "library", "documented", "under-test"
    #: Relative difference within which this backend agrees with the convention it claims
    #: (0: bit for bit; a float32 library: its precision).
    tolerance: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        data = {"name": self.name, "version": self.version,
                "conventions": list(self.conventions), "role": self.role}
        if self.tolerance:
            data["tolerance"] = self.tolerance
        return data


class Backend(Protocol):
    def info(self) -> BackendInfo: ...

    def score(self, request: ScoreRequest) -> Outcome: ...

    def close(self) -> None: ...


def declined(request: ScoreRequest, name: str, convention: str | None,
             figures: tuple[str, ...] = ("score",)) -> Outcome | None:
    """Why a backend does not answer ``request`` (as an ``unsupported`` outcome), or ``None``.

    ``convention``: the one convention the backend implements (``None``: whatever it is asked).
    ``figures``: what it reports; ``"scores"`` covers ``scores.1``, ``scores.2``, ...
    Only the engine reports the other figures of a result (``cumulative.9``, ``hyp_len``, ...).
    """
    if convention is not None and request.convention != convention:
        return Outcome(UNSUPPORTED, message=f"{name} implements only the {convention} convention")
    family = request.figure.partition(".")[0] if "." in request.figure else request.figure
    if request.figure not in figures and family not in figures:
        return Outcome(UNSUPPORTED, message=f"{name} reports the score, not {request.figure}")
    return None


def guarded(call) -> Outcome:
    """Run ``call`` (returning a number) and turn anything it does into an Outcome."""
    try:
        return Outcome.of_value(call())
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # a library crash is a result, not a harness crash (a
        return Outcome.of_exception(error)  # Rust panic is a BaseException: pyo3's PanicException)
