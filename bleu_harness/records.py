"""The harness's vocabulary: outcomes, verdicts and check records, used by every part.

A :class:`BackendRequest` is one question for one backend; a :data:`BackendOutcome` is what
the backend made of it, as a typed union so that no comparison can confuse its kinds (after
Bowtie's ``_core``: skipped with a reason, errored with context, caught or not):

* :class:`Value` -- a number (NaN and tiny values included), or the list of numbers NLTK
  returns for a list of weight vectors, plus any other figures the backend reports;
* :class:`Raised` -- the implementation's *own* exception (a library's ``ZeroDivisionError``);
* :class:`Unsupported` -- it cannot do this, and says why;
* :class:`Timeout` -- no answer in time;
* :class:`HarnessError` -- a crash, a protocol violation or garbage: never a match for
  anything, not even for an expected exception.

Verdicts come from one vocabulary (the constants below) and one definition of failing
(:data:`FAILING`), which every view and gate use.
"""

from __future__ import annotations

import json
import math
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Union

from bleu_harness.text import clean_text

# --- verdicts -------------------------------------------------------------------------------

PASS, FAIL, ERROR, DRIFT = "pass", "fail", "error", "drift"
UNSUPPORTED, SKIPPED, DIVERGENCE = "unsupported", "skipped", "divergence"
#: The implementation under test is wrong (fail) or broken (error): exit code 1.
FAILING = frozenset({FAIL, ERROR})
#: What a reviewer must look at: failures and reference-library drift.
ATTENTION = FAILING | {DRIFT}
#: A check that compared something (as opposed to skipped, unsupported, informational).
RAN = frozenset({PASS, FAIL, ERROR, DRIFT})

#: The four kinds of check (bleu_harness/judge.py).
EXPECTATION, DRIFT_CHECK, DIFFERENTIAL, DIVERGENCE_CHECK = (
    "expectation", "drift", "differential", "divergence")
#: Checks whose failure is a failure of the implementation under test.
UNDER_TEST_CHECKS = (EXPECTATION, DIFFERENTIAL)

# --- requests -------------------------------------------------------------------------------

@dataclass(frozen=True)
class BackendRequest:
    """One question for one backend: score this input under this convention and options.

    Requests are values: the plan makes each distinct request once, however many checks
    need its answer. ``options_json`` is the canonical JSON of the effective options (what is
    sent); ``version`` asks the engine to follow one release of the library (empty: the
    release it follows by default)."""

    backend: str
    convention: str
    level: str
    hypotheses: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    options_json: str = "{}"
    version: str = ""

    @classmethod
    def make(cls, backend: str, convention: str, level: str, hypotheses, references,
             options: Mapping[str, Any], version: str = "") -> BackendRequest:
        return cls(backend, convention, level, tuple(hypotheses),
                   tuple(tuple(r) for r in references), canonical_json(options), version)

    @property
    def options(self) -> dict[str, Any]:
        return json.loads(self.options_json)


def canonical_json(value: Any) -> str:
    return json.dumps(json_ready(value), sort_keys=True, ensure_ascii=False)


# --- outcomes -------------------------------------------------------------------------------

def _frozen(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True)
class Value:
    """A numeric answer. ``scores`` holds every score when the implementation returned a list
    (NLTK's list of weight vectors); ``score`` is the first. ``figures`` are further numbers
    the backend reports (the engine: ``precision.N``, ``bp``, ``hyp_len``, ...)."""

    score: float
    scores: tuple[float, ...] = ()
    is_list: bool = False
    figures: Mapping[str, float] = field(default_factory=dict)
    kind = "value"

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", tuple(self.scores) or (self.score,))
        object.__setattr__(self, "figures", _frozen(self.figures))

    def figure(self, name: str) -> float | None:
        """The score (of a number answer), ``scores.N`` (of a list answer), or a reported
        figure; ``None`` if this answer does not hold it."""
        if name == "score":  # a list, even of one, is not the number the library returns
            return None if self.is_list else self.score
        family, _, order = name.partition(".")
        if family == "scores" and order.isdigit():
            index = int(order) - 1
            if 0 <= index < len(self.scores) and (self.is_list or index == 0):
                return self.scores[index]
            return None
        return self.figures.get(name)


@dataclass(frozen=True)
class Raised:
    """The implementation raised its own exception ``error_type``."""

    error_type: str
    message: str = ""
    kind = "raised"

    def __post_init__(self) -> None:
        object.__setattr__(self, "error_type", clean_text(self.error_type, 120))
        object.__setattr__(self, "message", clean_text(self.message))


@dataclass(frozen=True)
class Unsupported:
    """The backend cannot do this; ``reason`` says why."""

    reason: str
    kind = "unsupported"

    def __post_init__(self) -> None:
        object.__setattr__(self, "reason", clean_text(self.reason))


@dataclass(frozen=True)
class Timeout:
    """No answer within ``seconds``."""

    seconds: float
    message: str = ""
    kind = "timeout"


#: HarnessError kinds.
CRASH, PROTOCOL, GARBAGE, INTERNAL = "crash", "protocol", "garbage", "internal"


@dataclass(frozen=True)
class HarnessError:
    """The implementation crashed (``crash``), broke the protocol (``protocol``), answered
    something that is not an answer (``garbage``), or the harness failed (``internal``)."""

    error: str
    message: str = ""
    kind = "harness-error"

    def __post_init__(self) -> None:
        object.__setattr__(self, "message", clean_text(self.message))


BackendOutcome = Union[Value, Raised, Unsupported, Timeout, HarnessError]


def number(value: Any) -> float | None:
    """``value`` as a float if it is a real number that fits one, else ``None`` (``bool``,
    strings, a 5,000-digit integer, ...)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return float(value)
    except OverflowError:
        return None


def value_of(answer: Any) -> BackendOutcome:
    """A score as an implementation returned it (a number, or a list of numbers) as an
    BackendOutcome; anything else is :class:`HarnessError` ``garbage``."""
    if isinstance(answer, (list, tuple)):
        scores = [number(v) for v in answer]
        if not scores or any(s is None for s in scores):
            return HarnessError(GARBAGE, f"not a number or a list of numbers: "
                                         f"{_SHORT.repr(answer)}")
        return Value(scores[0], tuple(scores), is_list=True)
    score = number(answer)
    if score is None:
        return HarnessError(GARBAGE, f"not a number: {type(answer).__name__} "
                                     f"{_SHORT.repr(answer)}")
    return Value(score)


#: ``repr`` bounded in depth and length: an answer may be nested 900 deep or 16 MiB long.
_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlist = 3, 120, 120, 8


def shown(outcome: BackendOutcome) -> str:
    """One short phrase for a report: ``0.5``, ``[0.8, 0.7]``, ``raises ZeroDivisionError``,
    ``unsupported``, ``timeout``, ``crash``."""
    if isinstance(outcome, Value):
        if outcome.is_list:
            return "[" + ", ".join(float_text(s) for s in outcome.scores) + "]"
        return float_text(outcome.score)
    if isinstance(outcome, Raised):
        return f"raises {outcome.error_type}"
    if isinstance(outcome, HarnessError):
        return outcome.error
    return outcome.kind


def float_text(value: float) -> str:
    """A float as Python prints it, NaN as ``NaN``."""
    return "NaN" if math.isnan(value) else repr(value)


def _json_float(value: float) -> float | str:
    return value if math.isfinite(value) else float_text(value)


def _from_json_float(value: Any) -> float:
    if isinstance(value, str):
        return float(value.replace("NaN", "nan"))
    return float(value)


def outcome_to_dict(outcome: BackendOutcome) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": outcome.kind}
    if isinstance(outcome, Value):
        data["value"] = _json_float(outcome.score)
        if outcome.is_list:
            data["values"] = [_json_float(v) for v in outcome.scores]
        if outcome.figures:
            data["figures"] = {k: _json_float(v) for k, v in sorted(outcome.figures.items())}
    elif isinstance(outcome, Raised):
        data["error_type"] = outcome.error_type
        if outcome.message:
            data["message"] = outcome.message
    elif isinstance(outcome, Unsupported):
        data["message"] = outcome.reason
    elif isinstance(outcome, Timeout):
        data["seconds"] = outcome.seconds
        if outcome.message:
            data["message"] = outcome.message
    else:
        data["error"] = outcome.error
        if outcome.message:
            data["message"] = outcome.message
    return data


def outcome_from_dict(data: Mapping[str, Any]) -> BackendOutcome:
    """The inverse of :func:`outcome_to_dict`; a ``KeyError``/``ValueError`` on bad data."""
    kind = data["kind"]
    if kind == "value":
        values = data.get("values")
        figures = {k: _from_json_float(v) for k, v in (data.get("figures") or {}).items()}
        if values is not None:
            scores = tuple(_from_json_float(v) for v in values)
            return Value(scores[0], scores, True, figures)
        return Value(_from_json_float(data["value"]), figures=figures)
    if kind == "raised":
        return Raised(data["error_type"], data.get("message", ""))
    if kind == "unsupported":
        return Unsupported(data.get("message", ""))
    if kind == "timeout":
        return Timeout(float(data["seconds"]), data.get("message", ""))
    if kind == "harness-error":
        return HarnessError(data["error"], data.get("message", ""))
    raise ValueError(f"unknown outcome kind {kind!r}")


def outcome_message(outcome: BackendOutcome) -> str:
    return getattr(outcome, "message", "") or getattr(outcome, "reason", "")


# --- check records --------------------------------------------------------------------------

@dataclass(frozen=True)
class CheckRecord:
    """One check of one case: what was compared, the outcome, the verdict and why.

    ``known`` is set by the gate for a failing check: ``True`` when a baseline or a known
    list already has it, ``False`` when it is new, ``None`` for a check that does not fail.
    """

    case: str
    file: str
    line: int
    check: str
    backend: str
    convention: str
    options: Mapping[str, Any]
    expected: str | None
    actual: BackendOutcome
    verdict: str
    compare: str | float | None = None
    difference: float | None = None
    tags: tuple[str, ...] = ()
    provenance: Mapping[str, str] | None = None
    message: str = ""
    other: str = ""  # the other side of a differential or divergence check
    figure: str = "score"  # what of the result was checked
    cause: Mapping[str, Any] | None = None  # knob attribution of a failure or divergence
    known: bool | None = None
    versions: Mapping[str, str] | None = None  # the expectation's release ranges

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", _frozen(self.options))
        object.__setattr__(self, "message", clean_text(self.message, 2000))
        if self.cause is not None:
            object.__setattr__(self, "cause", _frozen(self.cause))

    @property
    def failing(self) -> bool:
        return self.verdict in FAILING

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"

    def with_known(self, known: bool | None) -> CheckRecord:
        return replace(self, known=known)

    def key(self) -> tuple:
        """The identity of this check across runs (baseline, known list, diff): case, check,
        who was checked, convention, options, figure, and the other side of a comparison."""
        options = json.dumps(json_ready(self.options), sort_keys=True)
        side = self.expected if self.check in (EXPECTATION, DRIFT_CHECK) else self.other
        who = "under-test" if self.check in UNDER_TEST_CHECKS else self.backend
        return (self.case, self.check, who, self.convention, options, side, self.figure)


def non_finite_place(value: Any, place: str) -> str | None:
    """Where ``value`` (at ``place``) holds a number JSON has no form for -- NaN or an
    infinity -- as ``place[1]``, ``place.key``; ``None`` where it holds none. An option
    reaches every implementation as JSON (the worker protocol, the stream), so such a
    number is no option value: it would arrive as the string ``"NaN"``."""
    if isinstance(value, float) and not math.isfinite(value):
        return place
    if isinstance(value, Mapping):
        items = ((f"{place}.{key}", item) for key, item in value.items())
    elif isinstance(value, (list, tuple)):
        items = ((f"{place}[{index}]", item) for index, item in enumerate(value))
    else:
        return None
    return next(filter(None, (non_finite_place(item, where) for where, item in items)), None)


def json_ready(value: Any) -> Any:
    """A value as JSON holds it: tuples become lists, mappings dicts."""
    if isinstance(value, Mapping):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return float_text(value)
    return value
