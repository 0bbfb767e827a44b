"""The executor: start backends, run requests on them (``jobs`` workers a backend, a few
requests in flight each), and yield each request's outcome as soon as it is known."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence

from bleu_harness.backends.base import Backend, BackendInfo
from bleu_harness.errors import UsageError
from bleu_harness.execute.loop import Completion, WorkerLoop
from bleu_harness.execute.startup import DEFAULT_STARTUP_TIMEOUT, start_backends
from bleu_harness.protocol import outcome_of
from bleu_harness.records import (
    CRASH,
    BackendOutcome,
    BackendRequest,
    HarnessError,
    Timeout,
    Unsupported,
)

#: Requests in flight per worker: the next ones wait in its stdin, so a worker never idles
#: while the harness judges or reads; a failure is charged to the request at the head only.
PIPELINE = 4


def check_timeout(value: float, flag: str = "--timeout") -> float:
    """A timeout is a finite number of seconds > 0 (``nan``, ``inf``, ``0``, ``-1`` are not)."""
    if not (value > 0 and value < float("inf")):
        raise UsageError(f"{flag} {value!r}: give a number of seconds > 0, e.g. {flag} 10")
    return value


class Executor(WorkerLoop):
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
        self.backends: dict[str, Backend] = {}
        self.infos: dict[str, BackendInfo] = {}
        super().__init__(notice)

    def start(self, backend: Backend) -> BackendInfo:
        return self.start_all([backend])[0]

    def start_all(self, backends: Sequence[Backend]) -> list[BackendInfo]:
        """Start one worker of each backend, all at once, through the start-up handshake
        (:mod:`bleu_harness.execute.startup`); each backend's status, in order."""
        for backend in backends:
            self.backends[backend.name] = backend
        results = start_backends(self, backends, self.startup_timeout)
        self.infos.update(results)
        return [results[b.name] for b in backends]

    def run(self, requests: Iterable[BackendRequest]
            ) -> Iterator[tuple[BackendRequest, BackendOutcome]]:
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
        while any(self.queues.values()) or self.in_hand():
            for name in list(self.queues):
                self._dispatch(name)
            self.pump(0 if self.completed else self.wait_time())
            for ident in sorted(self.completed):
                completion = self.completed.pop(ident)
                if completion.request is None:
                    continue
                done += 1
                self._report(done, total)
                handed = time.monotonic()
                yield completion.request, self._outcome(completion)
                self.away(time.monotonic() - handed)

    def _outcome(self, completion: Completion) -> BackendOutcome:
        backend = completion.backend
        outcome = completion.failure if completion.failure is not None else outcome_of(
            completion.answer or {}, backend.protocol, backend.reports_figures)
        return backend.settle(completion.request, outcome)

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
            ident = self.take_ident()
            self.completed[ident] = Completion(
                ident, queue.popleft(), backend,
                failure=Timeout(self.timeout, self.given_up[name]))
        while queue:
            live = [w for w in workers if w.alive]
            if len(live) < self.jobs and all(w.inflight for w in live):
                worker = self.new_worker(backend)
                if not worker.alive:  # cannot even start: this request fails
                    request = queue.popleft()
                    ident = self.take_ident()
                    self.completed[ident] = Completion(
                        ident, request, backend, failure=HarnessError(CRASH, worker.start_error))
                    continue
                live.append(worker)
            worker = min(live, key=lambda w: len(w.inflight))
            if len(worker.inflight) >= PIPELINE:
                return
            self.send(worker, queue.popleft(), None, self.timeout)

    def _report(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress(done, total)

    def __enter__(self) -> Executor:
        return self
