"""No process a worker starts outlives the run, whatever it does to escape.

Killing a worker's process group misses what leaves the group: a child started with
``setsid`` or ``start_new_session=True``, and one whose parent exited (an orphan). Three
things find them all (issue 26.1e):

* every worker carries a mark in its environment (``BLEU_HARNESS_WORKER=<token>``), which
  its descendants inherit, so a process is found by its mark wherever it ended up;
* the harness makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``, Linux),
  so an orphan of a worker is re-parented to the harness, not to init, and is found among
  the harness's own children (even one that cleared its environment);
* the tree under a worker (``/proc/*/stat`` parent links) is taken before it is killed.

Where ``/proc`` or ``prctl`` is missing (not Linux), each of these finds nothing and the
process-group kill is all there is.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

#: The environment variable that marks a worker and everything it starts.
MARK = "BLEU_HARNESS_WORKER"
PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37
PROC = Path("/proc")


def _prctl():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl
    except (OSError, AttributeError):
        return None


def set_subreaper(on: bool) -> bool:
    """Make this process a child subreaper (or stop being one); returns whether it was one
    before (``False`` where ``prctl`` is missing)."""
    prctl = _prctl()
    if prctl is None:
        return False
    before = ctypes.c_int(0)
    if prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(before), 0, 0, 0) != 0:
        return False
    prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)
    return bool(before.value)


def _processes() -> Iterator[tuple[int, bytes, int]]:
    """Every process as (pid, state, parent pid), from ``/proc/PID/stat`` (nothing without
    ``/proc``)."""
    try:
        entries = list(PROC.iterdir())
    except OSError:
        return
    for entry in entries:
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
            yield int(entry.name), fields[0], int(fields[1])
        except (OSError, IndexError, ValueError):
            continue


def parents() -> dict[int, int]:
    """Every running process's parent (a zombie is already gone)."""
    return {pid: parent for pid, state, parent in _processes() if state != b"Z"}


def descendants(roots: Iterable[int], table: dict[int, int]) -> set[int]:
    """Every process below ``roots`` in the parent links of ``table``."""
    children: dict[int, list[int]] = {}
    for pid, parent in table.items():
        children.setdefault(parent, []).append(pid)
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


def sweep(mark: str | None, extra: Iterable[int] = (), spare: Iterable[int] = ()) -> set[int]:
    """Kill ``extra``, every orphan the harness adopted (a child of this process not in
    ``spare``) and, unless ``mark`` is ``None``, every process that carries ``mark``; a few
    rounds, so that what they start while being killed is caught too; then collect the exit
    of the adopted ones. Returns the processes killed."""
    me, spare = os.getpid(), set(spare) | {os.getpid()}
    targets, killed = set(extra), set()
    for _ in range(5):
        table = parents()
        targets |= {pid for pid, parent in table.items() if parent == me}
        if mark is not None:
            targets |= carrying(mark, table)
        targets = (targets & set(table)) - spare - killed
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


def adopted_zombies(spare: Iterable[int]) -> None:
    """Collect the exit of this process's children that ended on their own and are not in
    ``spare`` (orphans of workers, adopted as subreaper): no zombie is left behind."""
    me, spare = os.getpid(), set(spare)
    _reap([pid for pid, state, parent in _processes()
           if state == b"Z" and parent == me and pid not in spare], seconds=0.0)


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
