"""The worker protocol: how the harness talks to every backend's worker process -- the
engine, each reference library, the implementation under test. This module and its JSON
Schema, ``bleu_harness/schema/worker-protocol.schema.json``, are the one definition; the
workers (``bleu_harness.worker``, ``bleu_harness/adapters/library_worker.py``), the executor
(``bleu_harness.execute``) and the README refer here.

JSON Lines on the worker's stdin and stdout: one request a line, one answer a line, each
answer carrying its request's ``id`` (an integer), in the order the requests came. What a
worker prints anywhere else goes to its stderr, never to the answers.

Requests (:data:`InfoRequest`, :data:`ScoreRequest`):

* ``{"id": 0, "info": true, "protocol": 1}`` -- the start-up request of the harness's own
  workers: who are you (library, release, Python) -- and which protocol version the
  harness speaks;
* ``{"id": n, "hypotheses": [...], "references": [[...], ...], "level": "sentence" |
  "corpus", "options": {...}}`` -- score this; the harness's own workers also get the
  ``convention`` and, to follow an old release, its ``version``.

Answers (:data:`Answer`), one of:

* ``{"id": n, "score": x}`` -- a number, or the list NLTK returns for a list of weight
  vectors; the engine adds ``"figures": {"bp": ..., "precision.1": ...}`` (pycocoevalcap's
  library worker ``"cumulative.1"`` ..., the list ``Bleu`` returns);
* ``{"id": n, "error": "message", "type": "ExceptionName"}`` -- the code raised;
* ``{"id": n, "unsupported": "why"}`` -- the harness's own workers: this library release
  cannot express the request;
* ``{"id": n, "garbage": "what"}`` -- what the code returned is not a score;
* ``{"id": 0, "info": {"library", "version", "python", ...}}`` or ``{"id": 0, "fatal":
  "why"}`` -- to the info request (fatal: the library does not import).

**Dialects.** Who gets what (:data:`HARNESS`, :data:`CALLABLE`, :data:`USER`): the harness's
own workers get the info request and ``convention`` in every request; a Python callable's
worker (``python -m bleu_harness.worker call``) gets the info request (so that a bad
``MODULE:CALLABLE`` is named at start) and then, like a program (``--implementation-cmd``),
the trivial request (:data:`TRIVIAL_REQUEST`), which must be answered with a finite score.

**Versions.** This is version :data:`VERSION`. The info request says which version the
harness speaks; any answer may say which the worker speaks (``"protocol": 1``). One that
says none speaks version 1, so an implementation written before versions existed keeps
working; one that names a version the harness does not speak stops at start-up
(:func:`unspoken_version`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    import jsonschema

from bleu_harness.records import (
    GARBAGE,
    PROTOCOL,
    BackendOutcome,
    BackendRequest,
    HarnessError,
    Raised,
    Unsupported,
    Value,
    number,
    value_of,
)

#: The protocol version this harness speaks, and every version it can talk to.
VERSION = 1
SPOKEN = frozenset({1})
#: What a worker that names no version speaks (it was written before versions were sent).
UNVERSIONED = 1

#: The dialects: the harness's own workers, a Python callable's worker, any other program.
HARNESS, CALLABLE, USER = "harness", "callable", "user"
#: The dialects asked the info request at start, and those asked the trivial request.
ASKED_INFO = frozenset({HARNESS, CALLABLE})
ASKED_TRIVIAL = frozenset({CALLABLE, USER})

#: The request every implementation under test must answer with a number before a run
#: starts ("a b c d" against itself: BLEU 1, or 100, under every convention).
TRIVIAL_REQUEST = {"hypotheses": ["a b c d"], "references": [["a b c d"]],
                   "level": "sentence", "options": {}}
#: An answer line longer than this is garbage (the worker is ended).
MAX_ANSWER_BYTES = 16 * 2**20

SCHEMA_FILE = "worker-protocol.schema.json"


class InfoRequest(TypedDict):
    id: int
    info: bool
    protocol: int


class _ScoreRequestFields(TypedDict):
    id: int
    hypotheses: list[str]
    references: list[list[str]]
    level: str
    options: dict[str, Any]


class ScoreRequest(_ScoreRequestFields, total=False):
    convention: str  # the harness's own workers only
    version: str  # the library release to follow (the engine)


class Answer(TypedDict, total=False):
    id: int
    protocol: int
    score: float | list[float]
    figures: dict[str, float]
    error: str
    type: str
    unsupported: str
    garbage: str
    info: dict[str, str]
    fatal: str


# --- requests -------------------------------------------------------------------------------

def info_request() -> dict[str, Any]:
    """The start-up question of the harness's own workers (its ``id`` is added on sending)."""
    return {"info": True, "protocol": VERSION}


def score_request(request: BackendRequest, dialect: str) -> dict[str, Any]:
    """``request`` as its worker gets it (its ``id`` is added on sending)."""
    body: dict[str, Any] = {"hypotheses": list(request.hypotheses),
                            "references": [list(r) for r in request.references],
                            "level": request.level, "options": request.options}
    if dialect == HARNESS:
        body["convention"] = request.convention
        if request.version:
            body["version"] = request.version
    return body


def encoded(body: Mapping[str, Any], ident: int) -> bytes:
    """One request line, ``id`` last."""
    return (json.dumps({**body, "id": ident}) + "\n").encode("utf-8", "backslashreplace")


# --- answers --------------------------------------------------------------------------------

def decoded(raw: bytes) -> dict[str, Any] | HarnessError:
    """One answer line as a JSON object, or why it is garbage."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return HarnessError(GARBAGE, f"an answer that is not UTF-8 text: {raw[:80]!r}")
    try:
        answer = json.loads(text)
    except ValueError as error:
        return HarnessError(GARBAGE, f"an answer that is not JSON ({error}): {text[:80]!r}")
    except RecursionError:
        return HarnessError(GARBAGE, f"an answer nested too deep for JSON: {text[:80]!r}")
    if not isinstance(answer, dict):
        return HarnessError(GARBAGE, f"an answer that is not a JSON object: {text[:80]!r}")
    return answer


def wrong_id(answer: Mapping[str, Any], ident: int) -> HarnessError | None:
    """A protocol error if ``answer`` does not carry the id ``ident`` (``7.0``, ``true``: no)."""
    if type(answer.get("id")) is not int or answer["id"] != ident:
        return HarnessError(PROTOCOL, f"answered with id {answer.get('id')!r} to request "
                                      f"{ident} (every answer carries the id of its request)")
    return None


def unspoken_version(answer: Mapping[str, Any]) -> str:
    """Why the harness cannot talk to a worker that gave this start-up answer ('' if it
    can: it names a version the harness speaks, or none, which is version 1)."""
    version = answer.get("protocol", UNVERSIONED)
    if type(version) is int and version in SPOKEN:
        return ""
    return (f"it speaks worker protocol version {json.dumps(version)[:40]}; this harness "
            f"speaks {', '.join(map(str, sorted(SPOKEN)))} (bleu_harness/schema/{SCHEMA_FILE})")


def outcome_of(answer: Mapping[str, Any], dialect: str,
               reports_figures: bool = False) -> BackendOutcome:
    """An answer as a :data:`~bleu_harness.records.BackendOutcome`: the score (a number or a
    list of numbers), the exception the implementation raised, ``garbage`` (what it returned
    is not a score), or -- from the harness's own workers -- ``unsupported`` and the figures
    beside the score (``reports_figures``: the engine's)."""
    if "garbage" in answer:
        return HarnessError(GARBAGE, str(answer["garbage"]))
    if "error" in answer:
        return raised_of(answer)
    if dialect == HARNESS and "unsupported" in answer:
        return Unsupported(str(answer["unsupported"]))
    if "score" in answer:
        outcome = value_of(answer["score"])
        extra = answer.get("figures")
        if isinstance(outcome, Value) and reports_figures and isinstance(extra, dict):
            figures = {k: number(v) for k, v in extra.items()}
            outcome = Value(outcome.score, outcome.scores, outcome.is_list,
                            {k: v for k, v in figures.items() if v is not None})
        return outcome
    if "fatal" in answer:
        return HarnessError(PROTOCOL, str(answer["fatal"]))
    return HarnessError(GARBAGE, f"neither 'score' nor 'error' in the answer: "
                                 f"{json.dumps(answer)[:80]}")


def raised_of(answer: Mapping[str, Any]) -> BackendOutcome:
    """``{"error": "message", "type": "ExceptionName"}`` as the exception the implementation
    raised; an error answer whose message is not a string, or whose type is not one line
    naming the exception (a list, a number, empty), is garbage: it must not satisfy a
    ``raises:`` expectation."""
    message, error_type = answer["error"], answer.get("type")
    if (not isinstance(error_type, str) or not error_type.strip()
            or not error_type.isprintable() or not isinstance(message, str)):
        return HarnessError(GARBAGE, "an error answer must give the exception's type and "
                                     "message as strings, e.g. {\"error\": \"division by zero\""
                                     ", \"type\": \"ZeroDivisionError\"}; got "
                                     + _brief(json.dumps(dict(answer))))
    return Raised(error_type, message)


def _brief(text: str) -> str:
    return text if len(text) <= 120 else text[:117] + "..."


# --- the schema -----------------------------------------------------------------------------

@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (``bleu_harness/schema/worker-protocol.schema.json``)."""
    text = resources.files("bleu_harness.schema").joinpath(SCHEMA_FILE).read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=2)
def validator(direction: str) -> jsonschema.Draft202012Validator:
    """A validator of the messages one way: ``request`` (harness to worker) or ``answer``."""
    whole = schema()
    if direction not in ("request", "answer"):
        raise ValueError(f"a message is a 'request' or an 'answer', not {direction!r}")
    body = {k: v for k, v in whole.items() if k != "oneOf"}
    import jsonschema  # here: a run never needs it, and it is a third of a run's imports

    return jsonschema.Draft202012Validator({**body, "$ref": f"#/$defs/{direction}"})
