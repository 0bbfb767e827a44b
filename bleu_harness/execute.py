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
new one. At the end every group is ended, so no process outlives the run; what left a group
(``setsid``, an orphan) is found and ended too (``bleu_harness.reaper``).

Every wait has a deadline, checked whatever state the worker is in: a request sent to a
worker that has already ended fails at once, with the reason it ended.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import secrets
import selectors
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bleu_harness.backends.base import (
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
from bleu_harness.backends.external import CALLABLE_PROTOCOL
from bleu_harness.errors import UsageError
from bleu_harness.reaper import (
    MARK,
    Sweep,
    descendants,
    hold_subreaper,
    processes,
    reap_adopted,
    release_subreaper,
    running,
    sweep,
)
from bleu_harness.records import (
    CRASH,
    GARBAGE,
    PROTOCOL,
    BackendOutcome,
    BackendRequest,
    HarnessError,
    Raised,
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


#: A backend that times out on this many requests in a row gets no more: each of its other
#: requests is a timeout at once (a hanging implementation would otherwise cost --timeout
#: per request, one after another: ten minutes for a few dozen requests).
TIMEOUTS_IN_A_ROW = 3

#: Requests in flight per worker: the next ones wait in its stdin, so a worker never idles
#: while the harness judges or reads; a failure is charged to the request at the head only.
PIPELINE = 4


@dataclass
class Sent:
    """A request written (or being written) to a worker, not yet answered."""

    ident: int
    request: BackendRequest | None  # None: a startup request (info, or the trivial request)
    timeout: float
    end: int  # where its bytes end in everything written to this worker


@dataclass
class Finished:
    ident: int
    request: BackendRequest | None
    backend: Backend
    answer: dict[str, Any] | None = None
    failure: BackendOutcome | None = None


@dataclass
class Worker:
    """One worker process of one backend, and the requests it has in hand (in order)."""

    backend: Backend
    mark: str = ""  # in its environment and its descendants' (bleu_harness.reaper)
    process: subprocess.Popen | None = None
    buffer: bytearray = field(default_factory=bytearray)
    stderr: bytearray = field(default_factory=bytearray)
    pending: bytes = b""
    queued: int = 0  # bytes handed to it so far
    written: int = 0  # bytes it has taken
    inflight: deque[Sent] = field(default_factory=deque)
    deadline: float = 0.0  # of the request at the head
    #: Why it was ended, once it is: what a request sent to it afterwards fails with.
    death: BackendOutcome | None = None

    @property
    def alive(self) -> bool:
        return self.process is not None

    def stderr_tail(self) -> str:
        """Its last three lines on stderr, without the frames of a Python traceback (the
        exception's own line says what went wrong)."""
        text = self.stderr.decode("utf-8", "replace").strip()
        lines = [line for line in text.splitlines() if line.strip()
                 and not line.startswith((" ", "\t", "Traceback (most recent call last)"))]
        return " | ".join(lines[-3:])


class Executor:
    """Starts backends, runs requests on them, and ends every worker it started."""

    def __init__(self, timeout: float = 10.0, jobs: int = 1,
                 startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
                 progress: Callable[[int, int], None] | None = None,
                 notice: Callable[[str], None] | None = None) -> None:
        self.timeout = check_timeout(timeout)
        self.startup_timeout = check_timeout(startup_timeout, "--startup-timeout")
        if jobs < 1:
            raise UsageError(f"--jobs {jobs}: give a number of workers >= 1")
        self.jobs = jobs
        self.progress = progress
        self.notice = notice
        #: Timeouts in a row per backend, and the backends given up on (with why).
        self.timeouts: dict[str, int] = {}
        self.given_up: dict[str, str] = {}
        self.selector = selectors.DefaultSelector()
        self.backends: dict[str, Backend] = {}
        self.infos: dict[str, BackendInfo] = {}
        self.workers: dict[str, list[Worker]] = {}
        self.queues: dict[str, deque[BackendRequest]] = {}
        self.finished: dict[int, Finished] = {}
        self._next_ident = 1
        self._closed = False
        #: Every worker and what it starts carries MARK=<this>.<n>. (bleu_harness.reaper).
        self._mark = f"{os.getpid()}-{secrets.token_hex(4)}."
        self._started: set[int] = set()  # the pids of every worker started
        hold_subreaper()

    # --- starting -------------------------------------------------------------------------

    def start(self, backend: Backend) -> BackendInfo:
        return self.start_all([backend])[0]

    def start_all(self, backends: Sequence[Backend]) -> list[BackendInfo]:
        """Start one worker of each backend, all at once, and check that each answers: the
        ``info`` request for the harness's workers (library version, or not installed),
        then, for an implementation under test, the trivial request, which must give a
        number."""
        results: dict[str, BackendInfo] = {}
        workers: dict[str, Worker] = {}
        for backend in backends:
            self.backends[backend.name] = backend
            if (backend.module and backend.python == sys.executable
                    and importlib.util.find_spec(backend.module) is None):
                results[backend.name] = _status(backend, NOT_INSTALLED,
                                                f"{backend.name} is not installed")
                continue
            worker = self._new_worker(backend)
            if not worker.alive:
                results[backend.name] = _status(backend, FAILED, self._spawn_error)
                continue
            workers[backend.name] = worker
        infos = self._ask({name: {"info": True} for name, worker in workers.items()
                           if self.backends[name].protocol in (HARNESS_PROTOCOL,
                                                               CALLABLE_PROTOCOL)}, workers)
        described: dict[str, tuple[str, str]] = {}
        for name in list(workers):
            backend = self.backends[name]
            version = "under test" if backend.role == UNDER_TEST else ""
            python = ""
            if name in infos:
                answer = infos[name]
                if isinstance(answer, dict) and isinstance(answer.get("info"), dict):
                    version = str(answer["info"].get("version") or version)
                    python = str(answer["info"].get("python") or "")
                    reason = backend.unsupported_version(version)
                    if reason:
                        results[name] = _status(backend, UNSUPPORTED_VERSION, reason, version,
                                                python)
                        del workers[name]
                        continue
                elif isinstance(answer, dict) and "fatal" in answer:
                    state = NOT_INSTALLED if backend.role == LIBRARY else FAILED
                    results[name] = _status(backend, state, str(answer["fatal"]))
                    del workers[name]
                    continue
                else:
                    results[name] = _status(backend, FAILED, _startup_failure(answer))
                    del workers[name]
                    continue
            described[name] = (version, python)
        trivial = self._ask({name: dict(TRIVIAL_REQUEST) for name in workers
                             if self.backends[name].protocol in (USER_PROTOCOL,
                                                                 CALLABLE_PROTOCOL)}, workers)
        for name in workers:
            backend = self.backends[name]
            if name in trivial:
                answer = trivial[name]
                outcome = answer if not isinstance(answer, dict) else outcome_of(answer, backend)
                if not isinstance(outcome, Value):
                    results[name] = _status(
                        backend, FAILED, "it did not answer a trivial request (hypothesis "
                        f"'a b c d' against itself) with a score: {_described(outcome)}")
                    continue
                if not all(math.isfinite(score) for score in outcome.scores):
                    results[name] = _status(
                        backend, FAILED, "it answered a trivial request (hypothesis 'a b c d' "
                        f"against itself) with {shown(outcome)}, not a finite score (1, or "
                        "100 on a 0-100 scale)")
                    continue
            results[name] = _status(backend, READY, "", *described[name])
        self.infos.update(results)
        return [results[b.name] for b in backends]

    def _ask(self, bodies: Mapping[str, dict[str, Any]],
             workers: Mapping[str, Worker]) -> dict[str, dict[str, Any] | BackendOutcome]:
        """Send each named worker one startup request; wait for every answer or failure."""
        idents = {name: self._send(workers[name], None, body, self.startup_timeout)
                  for name, body in bodies.items()}
        # Each request has its own deadline (checked by _pump); this one bounds the loop
        # itself, whatever state the workers are in.
        deadline = time.monotonic() + self.startup_timeout + 1.0
        while (any(ident not in self.finished for ident in idents.values())
               and time.monotonic() < deadline):
            self._pump(self._wait_time())
        answers: dict[str, dict[str, Any] | BackendOutcome] = {}
        for name, ident in idents.items():
            done = self.finished.pop(ident, None)
            if done is None:
                self._fail(workers[name], Timeout(self.startup_timeout, "did not answer "
                                                  f"within {self.startup_timeout:g} s"))
                done = self.finished.pop(ident)
            answers[name] = done.answer if done.answer is not None else done.failure
        return answers

    def _new_worker(self, backend: Backend) -> Worker:
        worker = Worker(backend, mark=f"{self._mark}{len(self._started)}.")
        self._spawn_error = ""
        environment = dict(backend.env if backend.env is not None else os.environ)
        environment[MARK] = worker.mark
        try:
            worker.process = subprocess.Popen(
                backend.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True, cwd=backend.cwd,
                env=environment)
        except (OSError, ValueError) as error:
            self._spawn_error = (f"cannot start {' '.join(backend.command)}: "
                                 f"{getattr(error, 'strerror', None) or error}")
            return worker
        self._started.add(worker.process.pid)
        for stream, name in ((worker.process.stdout, "out"), (worker.process.stderr, "err")):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream.fileno(), selectors.EVENT_READ, (worker, name))
        os.set_blocking(worker.process.stdin.fileno(), False)
        self.workers.setdefault(backend.name, []).append(worker)
        return worker

    # --- running --------------------------------------------------------------------------

    def run(self, requests: Iterable[BackendRequest]) -> Iterator[tuple[BackendRequest, BackendOutcome]]:
        """Each request's outcome, as soon as it is known (not in request order)."""
        total = done = 0
        for request in requests:
            total += 1
            immediate = self._answer_without_worker(request)
            if immediate is not None:
                done += 1
                yield request, immediate
            else:
                self.queues.setdefault(request.backend, deque()).append(request)
        self._report(done, total)
        while any(self.queues.values()) or self._in_hand():
            for name in list(self.queues):
                self._dispatch(name)
            self._pump(0 if self.finished else self._wait_time())
            for ident in sorted(self.finished):
                finished = self.finished.pop(ident)
                if finished.request is None:
                    continue
                done += 1
                self._report(done, total)
                yield finished.request, self._outcome(finished)

    def _outcome(self, finished: Finished) -> BackendOutcome:
        outcome = finished.failure if finished.failure is not None else outcome_of(
            finished.answer or {}, finished.backend)
        return finished.backend.settle(finished.request, outcome)

    def _answer_without_worker(self, request: BackendRequest) -> BackendOutcome | None:
        backend, info = self.backends.get(request.backend), self.infos.get(request.backend)
        if backend is None or info is None:
            return Unsupported(f"backend {request.backend!r} is not part of this run")
        if not info.ready:
            return Unsupported(info.note or f"{request.backend}: {info.status}")
        return backend.declined(request)

    def _dispatch(self, name: str) -> None:
        queue = self.queues[name]
        backend = self.backends[name]
        workers = self.workers.setdefault(name, [])
        while queue and name in self.given_up:
            ident = self._take_ident()
            self.finished[ident] = Finished(ident, queue.popleft(), backend,
                                            failure=Timeout(self.timeout, self.given_up[name]))
        while queue:
            live = [w for w in workers if w.alive]
            if len(live) < self.jobs and all(w.inflight for w in live):
                worker = self._new_worker(backend)
                if not worker.alive:  # cannot even start: this request fails
                    request = queue.popleft()
                    ident = self._take_ident()
                    self.finished[ident] = Finished(ident, request, backend, failure=HarnessError(
                        CRASH, self._spawn_error))
                    continue
                live.append(worker)
            worker = min(live, key=lambda w: len(w.inflight))
            if len(worker.inflight) >= PIPELINE:
                return
            self._send(worker, queue.popleft(), None, self.timeout)

    def _report(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(done, total)

    def _in_hand(self) -> bool:
        return bool(self.finished) or any(w.inflight for ws in self.workers.values()
                                          for w in ws)

    # --- the event loop -------------------------------------------------------------------

    def _take_ident(self) -> int:
        ident = self._next_ident
        self._next_ident += 1
        return ident

    def _send(self, worker: Worker, request: BackendRequest | None, body: dict[str, Any] | None,
              timeout: float) -> int:
        ident = self._take_ident()
        if not worker.alive:  # it died before this request: it fails at once, and says why
            self.finished[ident] = Finished(ident, request, worker.backend,
                                            failure=worker.death or _GONE)
            return ident
        if body is None:
            body = request_body(request, worker.backend)
        body["id"] = ident
        data = (json.dumps(body) + "\n").encode("utf-8", "backslashreplace")
        worker.queued += len(data)
        if not worker.inflight:
            worker.deadline = time.monotonic() + timeout
        worker.inflight.append(Sent(ident, request, timeout, worker.queued))
        worker.pending += data
        self._write(worker)
        return ident

    def _write(self, worker: Worker) -> None:
        if not worker.alive:
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
        worker.written += written
        worker.pending = worker.pending[written:]
        if worker.pending:
            try:
                self.selector.register(fd, selectors.EVENT_WRITE, (worker, "in"))
            except KeyError:
                pass
        else:
            self._unwatch_stdin(worker)

    def _unwatch_stdin(self, worker: Worker) -> None:
        try:
            self.selector.unregister(worker.process.stdin.fileno())
        except (KeyError, ValueError, OSError):
            pass

    def _wait_time(self) -> float:
        deadlines = [w.deadline if w.alive else 0.0
                     for ws in self.workers.values() for w in ws if w.inflight]
        if not deadlines:
            return 0.5
        return max(0.0, min(min(deadlines) - time.monotonic(), 0.5))

    def _pump(self, timeout: float) -> None:
        """Handle what is ready: answers, stderr, writes, and deadlines that passed."""
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
                if worker.inflight and not worker.alive:  # nothing will answer them
                    self._fail(worker, worker.death or _GONE)
                elif worker.inflight and now > worker.deadline:
                    head = worker.inflight[0]
                    what = "read its request" if worker.written < head.end else "answer"
                    self._count_timeout(worker.backend.name, head)
                    self._fail(worker, Timeout(head.timeout,
                                               f"did not {what} within {head.timeout:g} s"))
                if not worker.alive and not worker.inflight:
                    workers.remove(worker)

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
        if not worker.alive:
            return
        try:
            data = os.read(worker.process.stdout.fileno(), 1 << 20)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._closed_stdout(worker)
            return
        worker.buffer += data
        while worker.alive and b"\n" in worker.buffer:
            end = worker.buffer.index(b"\n")
            raw = bytes(worker.buffer[:end])
            del worker.buffer[:end + 1]
            self._line(worker, raw)
        if worker.alive and len(worker.buffer) > MAX_ANSWER_BYTES:
            self._fail(worker, HarnessError(GARBAGE, f"an answer longer than "
                                                     f"{MAX_ANSWER_BYTES // 2**20} MiB"))

    def _line(self, worker: Worker, raw: bytes) -> None:
        if not raw.strip():
            return
        if not worker.inflight:  # output nobody asked for: the worker is out of step
            when = "before any request" if not worker.queued else "that no request asked for"
            text = raw[:80].decode("utf-8", "replace")
            self._kill(worker, HarnessError(PROTOCOL, f"printed output {when}: {text!r}"))
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
        except RecursionError:
            return self._fail(worker, HarnessError(GARBAGE, f"an answer nested too deep "
                                                            f"for JSON: {text[:80]!r}"))
        if not isinstance(answer, dict):
            return self._fail(worker, HarnessError(GARBAGE, f"an answer that is not a JSON "
                                                            f"object: {text[:80]!r}"))
        head = worker.inflight[0]
        if type(answer.get("id")) is not int or answer["id"] != head.ident:  # 7.0, true: no
            return self._fail(worker, HarnessError(
                PROTOCOL, f"answered with id {answer.get('id')!r} to request {head.ident} "
                          "(every answer carries the id of its request)"))
        self._finish_head(worker, answer=answer)

    def _count_timeout(self, name: str, head: Sent) -> None:
        if head.request is None:
            return
        self.timeouts[name] = self.timeouts.get(name, 0) + 1
        if self.timeouts[name] == TIMEOUTS_IN_A_ROW and name not in self.given_up:
            self.given_up[name] = (
                f"not sent: {name} timed out on {TIMEOUTS_IN_A_ROW} requests in a row "
                f"(--timeout {head.timeout:g} s each)")
            if self.notice is not None:
                self.notice(f"{name} timed out on {TIMEOUTS_IN_A_ROW} requests in a row: its "
                            "other requests are not sent and count as timeouts (a slow but "
                            "working implementation needs a longer --timeout)")

    def _finish_head(self, worker: Worker, answer: dict[str, Any] | None = None,
                     failure: BackendOutcome | None = None) -> None:
        if answer is not None:
            self.timeouts[worker.backend.name] = 0
        sent = worker.inflight.popleft()
        self.finished[sent.ident] = Finished(sent.ident, sent.request, worker.backend, answer,
                                             failure)
        if worker.inflight:
            worker.deadline = time.monotonic() + worker.inflight[0].timeout

    def _closed_stdout(self, worker: Worker) -> None:
        """End of its stdout: it exited (the failure says with which code and what it said
        on stderr), or closed its stdout and runs on. Either way it is ended; the request at
        its head, or the next one sent to it, fails with that reason."""
        try:
            worker.process.wait(timeout=0.25)
        except subprocess.TimeoutExpired:
            reason: BackendOutcome = HarnessError(PROTOCOL, "closed its standard output"
                                           + (" without answering" if worker.inflight else ""))
        else:
            reason = self._exit_failure(worker)
        if worker.inflight:
            return self._fail(worker, reason)
        self._kill(worker, reason)

    def _exit_failure(self, worker: Worker) -> BackendOutcome:
        try:
            self.selector.get_key(worker.process.stderr.fileno())
            self._read_stderr(worker, worker.process.stderr.fileno())
        except (KeyError, ValueError, OSError):
            pass
        code = worker.process.poll()
        tail = worker.stderr_tail()
        return HarnessError(CRASH, f"exited with code {code} before answering"
                                   + (f": {tail}" if tail else ""))

    def _fail(self, worker: Worker, failure: BackendOutcome) -> None:
        """The request at the head fails; the ones behind it go back to their queue (another
        worker answers them); the worker is ended."""
        if worker.inflight:
            self._finish_head(worker, failure=failure)
        queue = self.queues.setdefault(worker.backend.name, deque())
        for sent in reversed(worker.inflight):
            if sent.request is not None:
                queue.appendleft(sent.request)
            else:
                self.finished[sent.ident] = Finished(sent.ident, None, worker.backend,
                                                     failure=failure)
        worker.inflight.clear()
        self._kill(worker, failure)

    def _kill(self, worker: Worker, reason: BackendOutcome | None = None) -> None:
        """End the worker (its whole process group); ``reason`` is what any request sent to
        it from now on fails with."""
        if worker.death is None:
            worker.death = reason
        process = worker.process
        if process is None:
            return
        for stream in (process.stdout, process.stderr, process.stdin):
            try:
                self.selector.unregister(stream.fileno())
            except (KeyError, ValueError, OSError):
                pass
        below = descendants([process.pid], running(processes()))  # before they are orphaned
        _end_group(process)
        sweep(self._sweep(), below)
        for stream in (process.stdout, process.stderr, process.stdin):
            try:
                stream.close()
            except OSError:
                pass
        worker.process = None
        worker.buffer = bytearray()
        worker.pending = b""

    def close(self) -> None:
        """End every worker: stdin closed first (a polite end), then each process group
        killed, so children that inherited a worker's stdout do not outlive the run."""
        if self._closed:
            return
        self._closed = True
        alive = [w for ws in self.workers.values() for w in ws if w.alive]
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
        sweep(self._sweep(), everywhere=True)
        reap_adopted(self._sweep())
        release_subreaper()
        self.selector.close()

    def _sweep(self) -> Sweep:
        """What is this executor's to end: what its workers started (bleu_harness.reaper)."""
        started = frozenset(self._started)
        return Sweep(self._mark, started, started)

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


#: What a request to a worker ended without a recorded reason fails with.
_GONE = HarnessError(CRASH, "the worker had already ended")


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


def request_body(request: BackendRequest, backend: Backend) -> dict[str, Any]:
    body: dict[str, Any] = {"hypotheses": list(request.hypotheses),
                            "references": [list(r) for r in request.references],
                            "level": request.level, "options": request.options}
    if backend.protocol == HARNESS_PROTOCOL:
        body["convention"] = request.convention
        if request.version:
            body["version"] = request.version
    return body


def outcome_of(answer: Mapping[str, Any], backend: Backend) -> BackendOutcome:
    """A protocol answer as an BackendOutcome: the score (a number or a list of numbers), the
    exception the implementation raised, ``garbage`` (what it returned is not a score), or --
    from the harness's own workers -- ``unsupported`` and the figures beside the score."""
    if "garbage" in answer:
        return HarnessError(GARBAGE, str(answer["garbage"]))
    if "error" in answer:
        return raised_of(answer)
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


def _described(outcome: BackendOutcome) -> str:
    message = getattr(outcome, "message", "") or getattr(outcome, "reason", "")
    return f"{shown(outcome)}" + (f" ({message})" if message else "")


def _startup_failure(answer: dict[str, Any] | BackendOutcome) -> str:
    if isinstance(answer, dict):
        return f"an unexpected first answer: {json.dumps(answer)[:120]}"
    return _described(answer)
