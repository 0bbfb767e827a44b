"""No process a worker starts outlives the run, whatever it does to escape.

Killing a worker's process group misses what leaves the group: a child started with
``setsid`` or ``start_new_session=True``, and one whose parent exited (an orphan). What
finds them (issue 26.1e):

* the tree under a worker (``/proc/*/stat`` parent links), taken before it is killed;
* the harness makes itself a *child subreaper* while an executor runs
  (``prctl(PR_SET_CHILD_SUBREAPER)``, Linux), so an orphan of a worker is re-parented to the
  harness, not to init; an adopted child is the harness's to end when it is in the session of
  one of its workers or carries the executor's mark;
* every worker carries a mark in its environment (``BLEU_HARNESS_WORKER=<mark>``), which
  its descendants inherit, so that at the end a process is found by its mark wherever it
  ended up.

Only a process that leaves its session, clears its environment and is orphaned at once
escapes all three -- except in the ``bleu-harness`` command itself, which starts no process
but its workers: there (:func:`adopt_every_orphan`) every orphan it adopted is a worker's. Where ``/proc`` or ``prctl`` is missing (not Linux), each finds nothing
and the process-group kill is all there is.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

#: The environment variable that marks a worker and everything it starts.
MARK = "BLEU_HARNESS_WORKER"
PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37
PROC = Path("/proc")


def _prctl():
    import ctypes.util  # here, not at import: every command imports this module (40 ms)

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl
    except (OSError, AttributeError):
        return None


def _set_subreaper(on: bool) -> bool:
    """Make this process a child subreaper (or stop being one); returns whether it was one
    before (``False`` where ``prctl`` is missing)."""
    import ctypes

    prctl = _prctl()
    if prctl is None:
        return False
    before = ctypes.c_int(0)
    if prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(before), 0, 0, 0) != 0:
        return False
    prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)
    return bool(before.value)


_every_orphan = [False]  # set by the command line: each adopted orphan came from a worker


def adopt_every_orphan() -> None:
    """This process starts no process but the workers (the ``bleu-harness`` command): every
    orphan it adopts as a subreaper is theirs to end."""
    _every_orphan[0] = True


_holders: list[bool] = []  # one entry per executor open; the first holds the state before


def hold_subreaper() -> None:
    """An executor starts: this process adopts the orphans of its workers."""
    _holders.append(_set_subreaper(True) if not _holders else True)


def release_subreaper() -> None:
    """An executor ended: once the last one has, this process is what it was before."""
    if _holders:
        before = _holders.pop()
        if not _holders:
            _set_subreaper(before)


@dataclass(frozen=True)
class Process:
    pid: int
    state: bytes
    parent: int
    session: int


def processes() -> dict[int, Process]:
    """Every process, from ``/proc/PID/stat`` (none without ``/proc``)."""
    table: dict[int, Process] = {}
    try:
        entries = list(PROC.iterdir())
    except OSError:
        return table
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
            table[int(entry.name)] = Process(int(entry.name), fields[0], int(fields[1]),
                                             int(fields[3]))
        except (OSError, IndexError, ValueError):
            continue
    return table


def running(table: dict[int, Process]) -> dict[int, Process]:
    """Those that run (a zombie is already gone)."""
    return {pid: p for pid, p in table.items() if p.state != b"Z"}


def descendants(roots: Iterable[int], table: dict[int, Process]) -> set[int]:
    """Every process below ``roots`` in the parent links of ``table``."""
    children: dict[int, list[int]] = {}
    for process in table.values():
        children.setdefault(process.parent, []).append(process.pid)
    found: set[int] = set()
    todo = list(roots)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def carrying(mark: str, pids: Iterable[int]) -> set[int]:
    """Those of ``pids`` whose environment has ``BLEU_HARNESS_WORKER=`` starting with
    ``mark`` (the processes of other users cannot be read, and are not ours)."""
    needle = f"\0{MARK}={mark}".encode()
    found = set()
    for pid in pids:
        try:
            environment = b"\0" + (PROC / str(pid) / "environ").read_bytes()
        except OSError:
            continue
        if needle in environment:
            found.add(pid)
    return found


@dataclass(frozen=True)
class Sweep:
    """What one executor's sweeps look for: its ``mark``, the ``sessions`` of its workers
    (each worker leads its own), and what they leave alone (``spare``: the workers
    themselves, whose ``Popen`` waits for them)."""

    mark: str
    sessions: frozenset[int]
    spare: frozenset[int]

    def ours(self, process: Process) -> bool:
        """An adopted child of this process that came from a worker."""
        return (process.parent == os.getpid() and process.pid not in self.spare
                and (_every_orphan[0] or process.session in self.sessions
                     or bool(carrying(self.mark, [process.pid]))))


def sweep(scope: Sweep, extra: Iterable[int] = (), everywhere: bool = False) -> set[int]:
    """Kill ``extra``, every orphan of a worker the harness adopted and, ``everywhere``,
    every process that carries the mark (reading every process's environment: done once,
    at the end); a few rounds, so that what they start while being killed is caught too;
    then collect the exit of the adopted ones. Returns the processes killed."""
    targets, killed = set(extra), set()
    for _ in range(5):
        table = running(processes())
        targets |= {pid for pid, process in table.items() if scope.ours(process)}
        if everywhere:
            targets |= carrying(scope.mark, table)
        targets = (targets & set(table)) - scope.spare - {os.getpid()} - killed
        if not targets:
            break
        for pid in targets:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        killed |= targets
        targets = set()
    _reap(killed)
    return killed


def reap_adopted(scope: Sweep) -> None:
    """Collect the exit of adopted orphans of workers that ended on their own: no zombie of
    theirs is left behind."""
    _reap([pid for pid, process in processes().items() if process.state == b"Z"
           and process.parent == os.getpid() and process.pid not in scope.spare
           and process.session in scope.sessions], seconds=0.0)


def _reap(pids: Iterable[int], seconds: float = 1.0) -> None:
    """Collect the exit of those of ``pids`` that are this process's children (adopted
    orphans), so that none is left a zombie; others are not ours to wait for."""
    waiting = set(pids)
    deadline = time.monotonic() + seconds
    while waiting:
        for pid in list(waiting):
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                waiting.discard(pid)
                continue
            if done:
                waiting.discard(pid)
        if not waiting or time.monotonic() >= deadline:
            return
        time.sleep(0.01)
