"""One worker process of one backend: starting it in a session of its own, what it has been
sent and has not answered yet, and ending its whole process group."""

from __future__ import annotations

import os
import signal
import subprocess
from collections import deque
from dataclasses import dataclass, field

from bleu_harness.backends.base import Backend
from bleu_harness.reaper import MARK
from bleu_harness.records import BackendOutcome, BackendRequest

#: How much of a worker's stderr is kept: its last lines say why it crashed.
STDERR_TAIL = 2000


@dataclass
class Sent:
    """A request written (or being written) to a worker, not yet answered."""

    ident: int
    request: BackendRequest | None  # None: a start-up request (info, or the trivial request)
    timeout: float
    end: int  # where its bytes end in everything written to this worker


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
    #: Why it could not be started ('' once it runs).
    start_error: str = ""

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


def spawn(backend: Backend, mark: str) -> Worker:
    """A new worker of ``backend``: its command in a session of its own, ``mark`` in its
    environment, its pipes non-blocking -- or, if it cannot start, a worker that is not
    alive and says why (``start_error``)."""
    worker = Worker(backend, mark=mark)
    environment = dict(backend.env if backend.env is not None else os.environ)
    environment[MARK] = mark
    try:
        worker.process = subprocess.Popen(
            backend.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True, cwd=backend.cwd,
            env=environment)
    except (OSError, ValueError) as error:
        worker.start_error = (f"cannot start {' '.join(backend.command)}: "
                              f"{getattr(error, 'strerror', None) or error}")
        return worker
    for stream in (worker.process.stdout, worker.process.stderr, worker.process.stdin):
        os.set_blocking(stream.fileno(), False)
    return worker


def end_group(process: subprocess.Popen) -> None:
    """Kill the worker's whole process group (its session) and wait for the worker."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
