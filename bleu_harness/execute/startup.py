"""The start-up handshake: one worker of each backend started at once, and each asked what
its dialect is asked (:mod:`bleu_harness.protocol`) before any case runs -- the info request
(library release, Python, protocol version; or why it cannot work), then, for an
implementation under test, the trivial request, which must give a finite score. Each backend
comes out with its status: ready, not installed, an unsupported release, or failed to start
(with why).
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from bleu_harness.backends.base import (
    FAILED,
    LIBRARY,
    NOT_INSTALLED,
    READY,
    UNDER_TEST,
    UNSUPPORTED_VERSION,
    Backend,
    BackendInfo,
    not_installed,
)
from bleu_harness.execute.loop import WorkerLoop
from bleu_harness.execute.worker_process import Worker
from bleu_harness.protocol import (
    ASKED_INFO,
    ASKED_TRIVIAL,
    TRIVIAL_REQUEST,
    info_request,
    outcome_of,
    unspoken_version,
)
from bleu_harness.records import BackendOutcome, Timeout, Value, clean_text, shown

#: How long a worker may take to start and answer its first request (imports included).
DEFAULT_STARTUP_TIMEOUT = 60.0

Answer = dict[str, Any] | BackendOutcome


def start_backends(loop: WorkerLoop, backends: Sequence[Backend],
                   timeout: float) -> dict[str, BackendInfo]:
    """Start one worker of each backend in ``loop``, all at once, and hand each through the
    handshake (each answer within ``timeout`` seconds); every backend's status, by name.
    The workers of the backends that are ready stay in the loop."""
    results: dict[str, BackendInfo] = {}
    workers: dict[str, Worker] = {}
    for backend in backends:
        if (backend.module and backend.python == sys.executable
                and importlib.util.find_spec(backend.module) is None):
            results[backend.name] = status(backend, NOT_INSTALLED,
                                           not_installed(backend.name))
            continue
        worker = loop.new_worker(backend)
        if not worker.alive:
            results[backend.name] = status(backend, FAILED, worker.start_error)
            continue
        workers[backend.name] = worker
    infos = ask(loop, {name: info_request() for name, worker in workers.items()
                       if worker.backend.protocol in ASKED_INFO}, workers, timeout)
    described: dict[str, tuple[str, str]] = {}  # (version, python) of the ready ones
    for name in list(workers):
        backend = workers[name].backend
        described[name] = ("under test" if backend.role == UNDER_TEST else "", "")
        if name in infos:
            found = _after_info(backend, infos[name], described[name][0])
            if isinstance(found, BackendInfo):  # it cannot run
                results[name] = found
                del workers[name]
            else:
                described[name] = found
    trivial = ask(loop, {name: TRIVIAL_REQUEST for name, worker in workers.items()
                         if worker.backend.protocol in ASKED_TRIVIAL}, workers, timeout)
    for name, worker in workers.items():
        problem = _trivial_problem(worker.backend, trivial[name]) if name in trivial else ""
        results[name] = (status(worker.backend, FAILED, problem) if problem
                         else status(worker.backend, READY, "", *described[name]))
    return results


def _after_info(backend: Backend, answer: Answer,
                default: str) -> BackendInfo | tuple[str, str]:
    """What the answer to the info request says of a backend: the status of one that cannot
    run (another protocol version, a library release it cannot drive, a library that does
    not import, no answer), or the (version, python) of one that can (``default``: the
    version where it names none)."""
    if isinstance(answer, dict) and isinstance(answer.get("info"), dict):
        unspoken = unspoken_version(answer)
        if unspoken:
            return status(backend, FAILED, unspoken)
        version = str(answer["info"].get("version") or default)
        python = str(answer["info"].get("python") or "")
        reason = backend.unsupported_version(version)
        if reason:
            return status(backend, UNSUPPORTED_VERSION, reason, version, python)
        return version, python
    if isinstance(answer, dict) and "fatal" in answer:
        state = NOT_INSTALLED if backend.role == LIBRARY else FAILED
        return status(backend, state, str(answer["fatal"]))
    return status(backend, FAILED, _startup_failure(answer))


def _trivial_problem(backend: Backend, answer: Answer) -> str:
    """Why the answer to the trivial request does not let the implementation run ('' if it
    does: a finite score, in a protocol version the harness speaks)."""
    if isinstance(answer, dict):
        unspoken = unspoken_version(answer)
        if unspoken:
            return unspoken
        outcome = outcome_of(answer, backend.protocol, backend.reports_figures)
    else:
        outcome = answer
    if not isinstance(outcome, Value):
        return ("it did not answer a trivial request (hypothesis 'a b c d' against itself) "
                f"with a score: {_described(outcome)}")
    if not all(math.isfinite(score) for score in outcome.scores):
        return ("it answered a trivial request (hypothesis 'a b c d' against itself) with "
                f"{shown(outcome)}, not a finite score (1, or 100 on a 0-100 scale)")
    return ""


def ask(loop: WorkerLoop, bodies: Mapping[str, dict[str, Any]],
        workers: Mapping[str, Worker], timeout: float) -> dict[str, Answer]:
    """Send each named worker one start-up request; wait for every answer or failure."""
    idents = {name: loop.send(workers[name], None, body, timeout)
              for name, body in bodies.items()}
    # Each request has its own deadline (checked by pump); this one bounds the loop
    # itself, whatever state the workers are in.
    deadline = time.monotonic() + timeout + 1.0
    while (any(ident not in loop.completed for ident in idents.values())
           and time.monotonic() < deadline):
        loop.pump(loop.wait_time())
    answers: dict[str, Answer] = {}
    for name, ident in idents.items():
        done = loop.completed.pop(ident, None)
        if done is None:
            loop.fail(workers[name], Timeout(timeout, f"did not answer within {timeout:g} s"))
            done = loop.completed.pop(ident)
        answers[name] = done.answer if done.answer is not None else done.failure
    return answers


def status(backend: Backend, state: str, note: str = "", version: str = "",
           python: str = "") -> BackendInfo:
    """``backend`` as a run knows it after the handshake."""
    return BackendInfo(backend.name, version, backend.conventions, backend.role,
                       backend.tolerance, python, state, clean_text(note))


def _described(outcome: BackendOutcome) -> str:
    message = getattr(outcome, "message", "") or getattr(outcome, "reason", "")
    return f"{shown(outcome)}" + (f" ({message})" if message else "")


def _startup_failure(answer: Answer) -> str:
    if isinstance(answer, dict):
        return f"an unexpected first answer: {json.dumps(answer)[:120]}"
    return _described(answer)
