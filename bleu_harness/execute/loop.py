"""The event loop: every worker of every backend driven at once by one ``selectors`` loop,
with non-blocking reads and writes and a deadline on every request, so that nothing a
worker does can hang a run:

* no answer in time, or a request the worker never reads (``Timeout``);
* a worker that exits (``crash``, with its exit code and the tail of its stderr), closes its
  stdout and keeps running, answers bytes that are not UTF-8 or lines that are not JSON
  (``garbage``), or answers another request's id (``protocol``): the messages are
  :mod:`bleu_harness.protocol`'s.

A worker that misbehaves is killed with its whole process group -- children that inherited
its stdout included -- and what it had in hand goes back to its backend's queue; at the end
every group is ended, and what left a group (``setsid``, an orphan) is found and ended too
(:mod:`bleu_harness.reaper`). Every wait has a deadline, checked whatever state the worker
is in: a request sent to a worker that has already ended fails at once, with the reason it
ended.
"""

from __future__ import annotations

import os
import secrets
import selectors
import subprocess
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bleu_harness.backends.base import Backend
from bleu_harness.execute.worker_process import (
    STDERR_TAIL,
    Sent,
    Worker,
    end_group,
    spawn,
)
from bleu_harness.protocol import (
    MAX_ANSWER_BYTES,
    decoded,
    encoded,
    score_request,
    wrong_id,
)
from bleu_harness.reaper import (
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
    Timeout,
)

#: A backend that times out on this many requests in a row gets no more: each of its other
#: requests is a timeout at once (a hanging implementation would otherwise cost --timeout
#: per request, one after another: ten minutes for a few dozen requests).
TIMEOUTS_IN_A_ROW = 3

#: What a request to a worker ended without a recorded reason fails with.
_GONE = HarnessError(CRASH, "the worker had already ended")


@dataclass
class Completion:
    """A request sent to a worker that is done with: its answer, or why it failed."""

    ident: int
    request: BackendRequest | None  # None: a start-up request
    backend: Backend
    answer: dict[str, Any] | None = None
    failure: BackendOutcome | None = None


class WorkerLoop:
    """The workers of a run, the requests they have in hand, and the loop that feeds them
    and reads their answers; ends every worker it started (:meth:`close`)."""

    def __init__(self, notice: Callable[[str], None] | None = None) -> None:
        self.notice = notice
        #: Timeouts in a row per backend, and the backends given up on (with why).
        self.timeouts: dict[str, int] = {}
        self.given_up: dict[str, str] = {}
        self.selector = selectors.DefaultSelector()
        self.workers: dict[str, list[Worker]] = {}
        #: Requests waiting for a worker, per backend (a failed worker's go back here).
        self.queues: dict[str, deque[BackendRequest]] = {}
        self.completed: dict[int, Completion] = {}
        self._next_ident = 1
        self._closed = False
        #: Every worker and what it starts carries MARK=<this>.<n>. (bleu_harness.reaper).
        self._mark = f"{os.getpid()}-{secrets.token_hex(4)}."
        self._started: set[int] = set()  # the pids of every worker started
        hold_subreaper()

    def new_worker(self, backend: Backend) -> Worker:
        """A new worker of ``backend`` in the loop (not alive, with its ``start_error``, if
        it cannot start)."""
        worker = spawn(backend, f"{self._mark}{len(self._started)}.")
        if not worker.alive:
            return worker
        self._started.add(worker.process.pid)
        for stream, name in ((worker.process.stdout, "out"), (worker.process.stderr, "err")):
            self.selector.register(stream.fileno(), selectors.EVENT_READ, (worker, name))
        self.workers.setdefault(backend.name, []).append(worker)
        return worker

    def take_ident(self) -> int:
        ident = self._next_ident
        self._next_ident += 1
        return ident

    def send(self, worker: Worker, request: BackendRequest | None,
             body: dict[str, Any] | None, timeout: float) -> int:
        """Hand a request to ``worker`` (``body``, or ``request`` as its dialect has it);
        its :class:`Completion` comes under the returned id."""
        ident = self.take_ident()
        if not worker.alive:  # it died before this request: it fails at once, and says why
            self.completed[ident] = Completion(ident, request, worker.backend,
                                               failure=worker.death or _GONE)
            return ident
        if body is None:
            body = score_request(request, worker.backend.protocol)
        data = encoded(body, ident)
        worker.queued += len(data)
        if not worker.inflight:
            worker.deadline = time.monotonic() + timeout
        worker.inflight.append(Sent(ident, request, timeout, worker.queued))
        worker.pending += data
        self._write(worker)
        return ident

    def away(self, seconds: float) -> None:
        """The harness was busy elsewhere for ``seconds`` (its consumer judging what it was
        handed): every deadline moves on by that much. A worker starved of the processor by
        the harness itself is not a worker that hangs -- on two cores a 20-second judging
        step left the workers one core between them, and answers that came late for it were
        reported as timeouts, a gate that failed at random. A hang still times out: only the
        harness's own time is given back."""
        if seconds <= 0:
            return
        for workers in self.workers.values():
            for worker in workers:
                if worker.inflight:
                    worker.deadline += seconds

    def wait_time(self) -> float:
        """How long the loop may wait for something to happen: until the nearest deadline,
        half a second at most."""
        deadlines = [w.deadline if w.alive else 0.0
                     for ws in self.workers.values() for w in ws if w.inflight]
        if not deadlines:
            return 0.5
        return max(0.0, min(min(deadlines) - time.monotonic(), 0.5))

    def pump(self, timeout: float) -> None:
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
                    self.fail(worker, worker.death or _GONE)
                elif worker.inflight and now > worker.deadline:
                    head = worker.inflight[0]
                    what = "read its request" if worker.written < head.end else "answer"
                    self._count_timeout(worker.backend.name, head)
                    self.fail(worker, Timeout(head.timeout,
                                              f"did not {what} within {head.timeout:g} s"))
                if not worker.alive and not worker.inflight:
                    workers.remove(worker)

    def in_hand(self) -> bool:
        """Whether any request is with a worker or done and not yet collected."""
        return bool(self.completed) or any(w.inflight for ws in self.workers.values()
                                           for w in ws)

    # --- writing and reading ------------------------------------------------------------

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
                return self.fail(worker, self._exit_failure(worker))
            return self.fail(worker, HarnessError(
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
            self.fail(worker, HarnessError(GARBAGE, f"an answer longer than "
                                                    f"{MAX_ANSWER_BYTES // 2**20} MiB"))

    def _line(self, worker: Worker, raw: bytes) -> None:
        if not raw.strip():
            return
        if not worker.inflight:  # output nobody asked for: the worker is out of step
            when = "before any request" if not worker.queued else "that no request asked for"
            text = raw[:80].decode("utf-8", "replace")
            self.kill(worker, HarnessError(PROTOCOL, f"printed output {when}: {text!r}"))
            return
        answer = decoded(raw)
        if isinstance(answer, HarnessError):
            return self.fail(worker, answer)
        mismatch = wrong_id(answer, worker.inflight[0].ident)
        if mismatch is not None:
            return self.fail(worker, mismatch)
        self._finish_head(worker, answer=answer)

    # --- ending requests and workers ----------------------------------------------------

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
        self.completed[sent.ident] = Completion(sent.ident, sent.request, worker.backend,
                                                answer, failure)
        if worker.inflight:
            worker.deadline = time.monotonic() + worker.inflight[0].timeout

    def _closed_stdout(self, worker: Worker) -> None:
        """End of its stdout: it exited (the failure says with which code and what it said
        on stderr), or closed its stdout and runs on. Either way it is ended; the request at
        its head, or the next one sent to it, fails with that reason."""
        try:
            worker.process.wait(timeout=0.25)
        except subprocess.TimeoutExpired:
            reason: BackendOutcome = HarnessError(
                PROTOCOL, "closed its standard output"
                + (" without answering" if worker.inflight else ""))
        else:
            reason = self._exit_failure(worker)
        if worker.inflight:
            return self.fail(worker, reason)
        self.kill(worker, reason)

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

    def fail(self, worker: Worker, failure: BackendOutcome) -> None:
        """The request at the head fails; the ones behind it go back to their queue (another
        worker answers them); the worker is ended."""
        if worker.inflight:
            self._finish_head(worker, failure=failure)
        queue = self.queues.setdefault(worker.backend.name, deque())
        for sent in reversed(worker.inflight):
            if sent.request is not None:
                queue.appendleft(sent.request)
            else:
                self.completed[sent.ident] = Completion(sent.ident, None, worker.backend,
                                                        failure=failure)
        worker.inflight.clear()
        self.kill(worker, failure)

    def kill(self, worker: Worker, reason: BackendOutcome | None = None) -> None:
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
        end_group(process)
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
            self.kill(worker)
        sweep(self._sweep(), everywhere=True)
        reap_adopted(self._sweep())
        release_subreaper()
        self.selector.close()

    def _sweep(self) -> Sweep:
        """What this loop's to end: what its workers started (bleu_harness.reaper)."""
        started = frozenset(self._started)
        return Sweep(self._mark, started, started)

    def __enter__(self) -> WorkerLoop:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
