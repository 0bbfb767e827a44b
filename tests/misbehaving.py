"""Hostile implementations under test for the fuzz test (``tests/test_fuzz_workers.py``):
callables ``fn(hypotheses, references, level, **options)`` that import nothing heavy, so
that a worker starts in a blink. Like ``miniatures``, each answers the harness's startup
request (hypothesis "a b c d" against itself) with 1.0 and misbehaves on every other
request; the ``*_always`` ones misbehave from the start.

A process they start is marked on its command line with ``$FUZZ_MARKER``, so that the test
can tell whether it outlived the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def _startup(hypotheses) -> bool:
    return list(hypotheses) == ["a b c d"]


def _sleeper() -> list[str]:
    return [sys.executable, "-c", "import time; time.sleep(300)",
            os.environ.get("FUZZ_MARKER", "fuzz-marker")]


class Unprintable:
    """Neither ``float()`` nor ``repr()`` nor ``str()`` of it works."""

    def __float__(self):
        raise KeyError("no float")

    def __repr__(self):
        raise KeyError("no repr")

    __str__ = __repr__


class Unspeakable(Exception):
    """An exception whose ``str()`` raises."""

    def __str__(self):
        raise KeyError("no str")


class Interrupt(BaseException):
    """Not an ``Exception``: what pyo3's PanicException is."""


def unprintable(hypotheses, references, level, **options):
    return 1.0 if _startup(hypotheses) else Unprintable()


def unprintable_always(hypotheses, references, level, **options):
    return Unprintable()


def deeply_nested(hypotheses, references, level, **options):
    if _startup(hypotheses):
        return 1.0
    nested: list = [1.0]
    for _ in range(5000):
        nested = [nested]
    return nested


def huge_list(hypotheses, references, level, **options):
    """A million scores of 19 characters each (over the harness's 16 MiB answer limit)."""
    return 1.0 if _startup(hypotheses) else [0.12345678901234567] * 1_000_000


def nan(hypotheses, references, level, **options):
    return 1.0 if _startup(hypotheses) else float("nan")


def raises_unspeakable(hypotheses, references, level, **options):
    if _startup(hypotheses):
        return 1.0
    raise Unspeakable()


def raises_base_exception(hypotheses, references, level, **options):
    if _startup(hypotheses):
        return 1.0
    raise Interrupt("a BaseException")


def exits(hypotheses, references, level, **options):
    if _startup(hypotheses):
        return 1.0
    raise SystemExit(4)


def prints_and_closes_stdout(hypotheses, references, level, **options):
    """Writes to the real file descriptor 1 and closes it (the protocol must survive)."""
    os.write(1, b"not an answer\n")
    os.close(1)
    return 1.0


def spawns_a_setsid_child(hypotheses, references, level, **options):
    """Starts a process in a session of its own, then answers 1.0."""
    subprocess.Popen(_sleeper(), start_new_session=True, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
    return 1.0


def spawns_an_escapee(hypotheses, references, level, **options):
    """Starts a process that leaves its session, drops its environment (the harness's mark)
    and is orphaned at once (its parent exits), then answers 1.0."""
    launcher = ("import subprocess, sys; subprocess.Popen(sys.argv[1:], start_new_session=True,"
                " env={}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)")
    subprocess.run([sys.executable, "-c", launcher, *_sleeper()], env={}, check=False)
    return 1.0


def spawns_and_hangs(hypotheses, references, level, **options):
    """Starts a process in a session of its own, then hangs (after the startup answer)."""
    subprocess.Popen(_sleeper(), start_new_session=True, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL)
    if not _startup(hypotheses):
        time.sleep(60)
    return 1.0
