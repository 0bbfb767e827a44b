"""Execution: distinct requests in, outcomes out -- every backend in worker processes, every
request timed.

One event loop (``selectors``) drives all workers of all backends at once, so the engine, the
libraries and the implementation under test compute in parallel (``jobs`` workers each).
Reads and writes are non-blocking, so none of these can hang a run:

* no answer in time, or a request the worker never reads (``Timeout``);
* a worker that exits (``crash``, with its exit code and the tail of its stderr), closes its
  stdout and keeps running, answers bytes that are not UTF-8 or lines that are not JSON
  (``garbage``), or answers another request's id (``protocol``).

Each worker runs in its own session (process group); a worker that misbehaves is killed with
its whole group -- children that inherited its stdout included -- and the next request gets a
new one. At the end every group is ended, so no process outlives the run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import selectors
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness.backends.base import (
    FAILED,
    HARNESS_PROTOCOL,
    LIBRARY,
    NOT_INSTALLED,
    READY,
    UNDER_TEST,
    UNSUPPORTED_VERSION,
    USER_PROTOCOL,
    Backend,
    BackendInfo,
)
from harness.backends.external import CALLABLE_PROTOCOL
from harness.errors import UsageError
from harness.records import (
    CRASH,
    GARBAGE,
    PROTOCOL,
    HarnessError,
    Outcome,
    Raised,
    Request,
    Timeout,
    Unsupported,
    Value,
    clean_text,
    number,
    shown,
    value_of,
)

#: The request every implementation under test must answer with a number before a run
#: starts ("a b c d" against itself: BLEU 1, or 100, under every convention).
TRIVIAL_REQUEST = {"hypotheses": ["a b c d"], "references": [["a b c d"]],
                   "level": "sentence", "options": {}}
MAX_ANSWER_BYTES = 16 * 2**20
STDERR_TAIL = 2000
#: How long a worker may take to start and answer its first request (imports included).
DEFAULT_STARTUP_TIMEOUT = 60.0


def check_timeout(value: float, flag: str = "--timeout") -> float:
    """A timeout is a finite number of seconds > 0 (``nan``, ``inf``, ``0``, ``-1`` are not)."""
    if not (value > 0 and value < float("inf")):
        raise UsageError(f"{flag} {value!r}: give a number of seconds > 0, e.g. {flag} 10")
    return value


@dataclass
class Worker:
    """One worker process of one backend, and the request it is answering."""

    backend: Backend
    process: subprocess.Popen | None = None
    buffer: bytearray = field(default_factory=bytearray)
    stderr: bytearray = field(default_factory=bytearray)
    pending: bytes = b""
    request: Request | None = None  # None while idle
    ident: int = 0
    deadline: float = 0.0
    timeout: float = 0.0
    answer: dict[str, Any] | None = None
    failure: Outcome | None = None

    @property
    def busy(self) -> bool:
        return self.process is not None and self.ident != 0 and not self.done

    @property
    def done(self) -> bool:
        return self.answer is not None or self.failure is not None

    def stderr_tail(self) -> str:
        text = self.stderr.decode("utf-8", "replace").strip()
        return " | ".join(line for line in text.splitlines()[-3:] if line.strip())


class Executor:
    """Starts backends, runs requests on them, and ends every worker it started."""

    def __init__(self, timeout: float = 10.0, jobs: int = 1,
                 startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
                 progress: Callable[[int, int], None] | None = None) -> None:
        self.timeout = check_timeout(timeout)
        self.startup_timeout = check_timeout(startup_timeout, "--startup-timeout")
        if jobs < 1:
            raise UsageError(f"--jobs {jobs}: give a number of workers >= 1")
        self.jobs = jobs
        self.progress = progress
        self.selector = selectors.DefaultSelector()
        self.backends: dict[str, Backend] = {}
        self.infos: dict[str, BackendInfo] = {}
        self.workers: dict[str, list[Worker]] = {}
        self._next_ident = 1
        self._closed = False

    # --- starting -------------------------------------------------------------------------

    def start(self, backend: Backend) -> BackendInfo:
        return self.start_all([backend])[0]

    def start_all(self, backends: Sequence[Backend]) -> list[BackendInfo]:
        """Start one worker of each backend, all at once, and check that each answers: the
        ``info`` request for the harness's workers (library version, or not installed),
        then, for an implementation under test, the trivial request, which must give a
        number."""
        results: dict[str, BackendInfo] = {}
        asked: dict[str, Worker] = {}
        for backend in backends:
            self.backends[backend.name] = backend
            if (backend.module and backend.python == sys.executable
                    and importlib.util.find_spec(backend.module) is None):
                results[backend.name] = _status(backend, NOT_INSTALLED,
                                                f"{backend.name} is not installed")
                continue
            worker = self._new_worker(backend)
            if worker.failure is not None:
                results[backend.name] = _status(backend, FAILED, worker.failure.message)
                continue
            asked[backend.name] = worker
            if backend.protocol in (HARNESS_PROTOCOL, CALLABLE_PROTOCOL):
                self._send(worker, None, {"info": True}, self.startup_timeout)
        self._wait_for(w for name, w in asked.items()
                       if self.backends[name].protocol in (HARNESS_PROTOCOL, CALLABLE_PROTOCOL))
        described: dict[str, tuple[str, str]] = {}
        for name, worker in list(asked.items()):
            backend = self.backends[name]
            version = "under test" if backend.role == UNDER_TEST else ""
            python = ""
            if backend.protocol in (HARNESS_PROTOCOL, CALLABLE_PROTOCOL):
                answer = worker.answer if worker.answer is not None else worker.failure
                if isinstance(answer, dict) and isinstance(answer.get("info"), dict):
                    version = str(answer["info"].get("version") or version)
                    python = str(answer["info"].get("python") or "")
                elif isinstance(answer, dict) and "fatal" in answer:
                    state = NOT_INSTALLED if backend.role == LIBRARY else FAILED
                    results[name] = _status(backend, state, str(answer["fatal"]))
                    del asked[name]
                    continue
                else:
                    results[name] = _status(backend, FAILED, _startup_failure(answer))
                    del asked[name]
                    continue
                reason = backend.unsupported_version(version)
                if reason:
                    results[name] = _status(backend, UNSUPPORTED_VERSION, reason, version,
                                            python)
                    del asked[name]
                    continue
            described[name] = (version, python)
            if backend.protocol in (USER_PROTOCOL, CALLABLE_PROTOCOL):
                self._send(worker, None, dict(TRIVIAL_REQUEST), self.startup_timeout)
        self._wait_for(w for name, w in asked.items()
                       if self.backends[name].protocol in (USER_PROTOCOL, CALLABLE_PROTOCOL))
        for name, worker in asked.items():
            backend = self.backends[name]
            version, python = described[name]
            if backend.protocol in (USER_PROTOCOL, CALLABLE_PROTOCOL):
                answer = worker.answer if worker.answer is not None else worker.failure
                outcome = answer if not isinstance(answer, dict) else outcome_of(answer, backend)
                if not isinstance(outcome, Value):
                    results[name] = _status(
                        backend, FAILED, "it did not answer a trivial request (hypothesis "
                        f"'a b c d' against itself) with a score: {_described(outcome)}")
                    continue
            results[name] = _status(backend, READY, "", version, python)
        self.infos.update(results)
        return [results[b.name] for b in backends]

    def _wait_for(self, workers: Iterable[Worker]) -> None:
        waiting = list(workers)
        while any(not w.done for w in waiting):
            self._pump(self._wait_time())

    def _new_worker(self, backend: Backend) -> Worker:
        worker = Worker(backend)
        try:
            worker.process = subprocess.Popen(
                backend.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, cwd=backend.cwd,
                env=dict(backend.env) if backend.env is not None else None)
        except (OSError, ValueError) as error:
            worker.failure = HarnessError(CRASH, f"cannot start {' '.join(backend.command)}: "
                                                 f"{getattr(error, 'strerror', None) or error}")
            return worker
        for stream, name, events in ((worker.process.stdout, "out", selectors.EVENT_READ),
                                     (worker.process.stderr, "err", selectors.EVENT_READ)):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream.fileno(), events, (worker, name))
        os.set_blocking(worker.process.stdin.fileno(), False)
        self.workers.setdefault(backend.name, []).append(worker)
        return worker

    # --- running --------------------------------------------------------------------------

    def run(self, requests: Iterable[Request]) -> Iterator[tuple[Request, Outcome]]:
        """Each request's outcome, as soon as it is known (not in request order)."""
        queues: dict[str, deque[Request]] = {}
        total = done = 0
        for request in requests:
            total += 1
            immediate = self._answer_without_worker(request)
            if immediate is not None:
                done += 1
                yield request, immediate
            else:
                queues.setdefault(request.backend, deque()).append(request)
        self._report(done, total)
        while any(queues.values()) or self._any_busy():
            for name, queue in queues.items():
                self._dispatch(name, queue)
            finished = self._pump(self._wait_time())
            for worker in finished:
                request, outcome = self._collect(worker)
                done += 1
                self._report(done, total)
                yield request, outcome

    def _answer_without_worker(self, request: Request) -> Outcome | None:
        backend, info = self.backends.get(request.backend), self.infos.get(request.backend)
        if backend is None or info is None:
            return Unsupported(f"backend {request.backend!r} is not part of this run")
        if not info.ready:
            return Unsupported(info.note or f"{request.backend}: {info.status}")
        return backend.declined(request)

    def _dispatch(self, name: str, queue: deque[Request]) -> None:
        backend = self.backends[name]
        workers = self.workers.setdefault(name, [])
        while queue:
            idle = next((w for w in workers if w.process is not None and not w.busy), None)
            if idle is None:
                if len([w for w in workers if w.process is not None]) >= self.jobs:
                    return
                idle = self._new_worker(backend)
                if idle.process is None:  # cannot even start: this request fails
                    workers.append(idle)
                    idle.request, idle.ident = queue.popleft(), -1
                    continue
            self._send(idle, queue.popleft(), None, self.timeout)

    def _collect(self, worker: Worker) -> tuple[Request, Outcome]:
        request = worker.request
        if worker.failure is not None:
            outcome = worker.failure
        else:
            outcome = outcome_of(worker.answer or {}, worker.backend)
        worker.request, worker.ident, worker.answer, worker.failure = None, 0, None, None
        if worker.process is None:
            self.workers[worker.backend.name].remove(worker)
        return request, worker.backend.settle(request, outcome)

    def _report(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(done, total)

    def _any_busy(self) -> bool:
        return any(w.busy or (w.request is not None and w.done)
                   for ws in self.workers.values() for w in ws)

    # --- the event loop -------------------------------------------------------------------

    def _send(self, worker: Worker, request: Request | None, body: dict[str, Any] | None,
              timeout: float) -> None:
        ident = self._next_ident
        self._next_ident += 1
        if body is None:
            body = request_body(request, worker.backend)
        body["id"] = ident
        worker.request, worker.ident, worker.answer, worker.failure = request, ident, None, None
        worker.timeout, worker.deadline = timeout, time.monotonic() + timeout
        worker.pending = (json.dumps(body) + "\n").encode("utf-8", "backslashreplace")
        self._write(worker)

    def _write(self, worker: Worker) -> None:
        if worker.process is None:
            return
        fd = worker.process.stdin.fileno()
        try:
            written = os.write(fd, worker.pending) if worker.pending else 0
        except BlockingIOError:
            written = 0
        except OSError:  # it closed its stdin or exited: what it says on exit tells why
            worker.pending = b""
            self._unwatch_stdin(worker)
            if worker.process.poll() is None:
                time.sleep(0.05)
            if worker.process.poll() is not None:
                return self._fail(worker, self._exit_failure(worker))
            return self._fail(worker, HarnessError(
                PROTOCOL, "closed its standard input before reading the request"))
        worker.pending = worker.pending[written:]
        if worker.pending:
            self._watch(fd, selectors.EVENT_WRITE, (worker, "in"))
        else:
            self._unwatch_stdin(worker)

    def _watch(self, fd: int, events: int, data) -> None:
        try:
            self.selector.register(fd, events, data)
        except KeyError:
            pass

    def _unwatch_stdin(self, worker: Worker) -> None:
        try:
            self.selector.unregister(worker.process.stdin.fileno())
        except (KeyError, ValueError, OSError):
            pass

    def _wait_time(self) -> float:
        deadlines = [w.deadline for ws in self.workers.values() for w in ws if w.busy]
        if not deadlines:
            return 0.5
        return max(0.0, min(min(deadlines) - time.monotonic(), 0.5))

    def _pump(self, timeout: float) -> list[Worker]:
        """Handle what is ready; return the workers whose request is now finished."""
        finished: list[Worker] = []
        for key, _ in self.selector.select(timeout):
            worker, stream = key.data
            if stream == "out":
                self._read_answer(worker)
            elif stream == "err":
                self._read_stderr(worker, key.fd)
            else:
                self._write(worker)
        now = time.monotonic()
        for workers in list(self.workers.values()):
            for worker in list(workers):
                if worker.busy and now > worker.deadline:
                    what = "read its request" if worker.pending else "answer"
                    self._fail(worker, Timeout(worker.timeout,
                                               f"did not {what} within {worker.timeout:g} s"))
                if worker.request is not None and worker.done:
                    finished.append(worker)
        return finished

    def _read_stderr(self, worker: Worker, fd: int) -> None:
        try:
            data = os.read(fd, 65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            try:
                self.selector.unregister(fd)
            except (KeyError, ValueError):
                pass
            return
        worker.stderr += data
        del worker.stderr[:-STDERR_TAIL]

    def _read_answer(self, worker: Worker) -> None:
        if worker.process is None:
            return
        try:
            data = os.read(worker.process.stdout.fileno(), 65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._closed_stdout(worker)
            return
        worker.buffer += data
        while worker.process is not None and b"\n" in worker.buffer:
            raw, _, rest = bytes(worker.buffer).partition(b"\n")
            worker.buffer = bytearray(rest)
            self._line(worker, raw)
        if worker.process is not None and len(worker.buffer) > MAX_ANSWER_BYTES:
            self._fail(worker, HarnessError(GARBAGE, f"an answer longer than "
                                                     f"{MAX_ANSWER_BYTES // 2**20} MiB"))

    def _line(self, worker: Worker, raw: bytes) -> None:
        if not raw.strip():
            return
        if not worker.busy:  # output nobody asked for: the worker is out of step
            self._kill(worker)
            return
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return self._fail(worker, HarnessError(GARBAGE, f"an answer that is not UTF-8 "
                                                            f"text: {raw[:80]!r}"))
        try:
            answer = json.loads(text)
        except ValueError as error:
            return self._fail(worker, HarnessError(GARBAGE, f"an answer that is not JSON "
                                                            f"({error}): {text[:80]!r}"))
        if not isinstance(answer, dict):
            return self._fail(worker, HarnessError(GARBAGE, f"an answer that is not a JSON "
                                                            f"object: {text[:80]!r}"))
        if answer.get("id") != worker.ident:
            return self._fail(worker, HarnessError(
                PROTOCOL, f"answered with id {answer.get('id')!r} to request {worker.ident} "
                          "(every answer carries the id of its request)"))
        worker.answer = answer

    def _closed_stdout(self, worker: Worker) -> None:
        if worker.busy:
            try:
                worker.process.wait(timeout=0.25)
            except subprocess.TimeoutExpired:
                return self._fail(worker, HarnessError(
                    PROTOCOL, "closed its standard output without answering"))
            return self._fail(worker, self._exit_failure(worker))
        self._kill(worker)

    def _exit_failure(self, worker: Worker) -> Outcome:
        try:
            self.selector.get_key(worker.process.stderr.fileno())
            self._read_stderr(worker, worker.process.stderr.fileno())
        except (KeyError, ValueError, OSError):
            pass
        code = worker.process.poll()
        tail = worker.stderr_tail()
        return HarnessError(CRASH, f"exited with code {code} before answering"
                                   + (f": {tail}" if tail else ""))

    def _fail(self, worker: Worker, failure: Outcome) -> None:
        worker.failure = failure
        self._kill(worker)

    def _kill(self, worker: Worker) -> None:
        process = worker.process
        if process is None:
            return
        for stream in (process.stdout, process.stderr, process.stdin):
            try:
                self.selector.unregister(stream.fileno())
            except (KeyError, ValueError, OSError):
                pass
        _end_group(process)
        for stream in (process.stdout, process.stderr, process.stdin):
            try:
                stream.close()
            except OSError:
                pass
        worker.process = None
        worker.buffer = bytearray()

    def close(self) -> None:
        """End every worker: stdin closed first (a polite end), then each process group
        killed, so children that inherited a worker's stdout do not outlive the run."""
        if self._closed:
            return
        self._closed = True
        alive = [w for ws in self.workers.values() for w in ws if w.process is not None]
        for worker in alive:
            try:
                worker.process.stdin.close()
            except OSError:
                pass
        deadline = time.monotonic() + 0.5
        for worker in alive:
            try:
                worker.process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            self._kill(worker)
        self.selector.close()

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _end_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def _status(backend: Backend, state: str, note: str = "", version: str = "",
            python: str = "") -> BackendInfo:
    return BackendInfo(backend.name, version, backend.conventions, backend.role,
                       backend.tolerance, python, state, clean_text(note))


def request_body(request: Request, backend: Backend) -> dict[str, Any]:
    body: dict[str, Any] = {"hypotheses": list(request.hypotheses),
                            "references": [list(r) for r in request.references],
                            "level": request.level, "options": request.options}
    if backend.protocol == HARNESS_PROTOCOL:
        body["convention"] = request.convention
        if request.version:
            body["version"] = request.version
    return body


def outcome_of(answer: Mapping[str, Any], backend: Backend) -> Outcome:
    """A protocol answer as an Outcome: the score (a number or a list of numbers), the
    exception the implementation raised, or -- from the harness's own workers --
    ``unsupported`` and the figures beside the score."""
    if "error" in answer:
        return Raised(str(answer.get("type") or "error"), str(answer["error"]))
    if backend.protocol == HARNESS_PROTOCOL and "unsupported" in answer:
        return Unsupported(str(answer["unsupported"]))
    if "score" in answer:
        outcome = value_of(answer["score"])
        extra = answer.get("figures")
        if isinstance(outcome, Value) and backend.reports_figures and isinstance(extra, dict):
            figures = {k: number(v) for k, v in extra.items()}
            outcome = Value(outcome.score, outcome.scores, outcome.is_list,
                            {k: v for k, v in figures.items() if v is not None})
        return outcome
    if "fatal" in answer:
        return HarnessError(PROTOCOL, str(answer["fatal"]))
    return HarnessError(GARBAGE, f"neither 'score' nor 'error' in the answer: "
                                 f"{json.dumps(answer)[:80]}")


def _described(outcome: Outcome) -> str:
    message = getattr(outcome, "message", "") or getattr(outcome, "reason", "")
    return f"{shown(outcome)}" + (f" ({message})" if message else "")


def _startup_failure(answer: dict[str, Any] | Outcome) -> str:
    if isinstance(answer, dict):
        return f"an unexpected first answer: {json.dumps(answer)[:120]}"
    return _described(answer)
