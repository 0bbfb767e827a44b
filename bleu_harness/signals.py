"""SIGINT and SIGTERM for the command line: one interruption, then an orderly end.

Python raises ``KeyboardInterrupt`` wherever the main thread is when SIGINT arrives, and
SIGTERM ends the process without any clean-up. The command line wants neither: a run that is
interrupted must still close its workers and end its stream with a footer that says so, and
a second signal must not cut that clean-up short (a footer missing, a worker orphaned, a
traceback from inside a ``finally``). So, once :func:`install` has run:

* the **first** SIGINT raises ``KeyboardInterrupt`` and the first SIGTERM :class:`Terminated`
  (a ``KeyboardInterrupt``), where the main thread is -- unless it is in a finalizer
  (``__del__``), where the interpreter would print the exception and drop it: there the
  signal is sent again a moment later;
* a later signal is only recorded while the clean-up the first one started unwinds (until
  the code that handles it calls :func:`hold`, or :data:`UNWIND_SECONDS`); after that it is
  raised again, as a first one was lost somewhere;
* after :func:`hold`, no signal raises: a command calls it once its work is done and only
  bounded clean-up is left (closing workers, writing the footer and the reports), so that
  what the stream says and the exit code agree.

The ``signal`` module only, and imported before anything heavy, so that a signal during the
imports of the command line is already handled.
"""

from __future__ import annotations

import signal

#: The exit codes of a command ended by a signal: 128 + the signal's number, as shells say.
INTERRUPTED = 128 + signal.SIGINT  # 130
TERMINATED = 128 + signal.SIGTERM  # 143


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where SIGINT raises ``KeyboardInterrupt``."""


#: After a signal was raised, later ones wait this long for the code it interrupted to
#: acknowledge it (:func:`hold`, in the ``except`` that handles it): they fall while the
#: interruption unwinds through clean-up (workers closing). One that comes later still,
#: unacknowledged, is raised again: the first was swallowed somewhere.
UNWIND_SECONDS = 2.0
#: How deep in the stack a finalizer (``__del__``) is looked for.
FINALIZER_DEPTH = 8


class _State:
    """What the handlers know (a plain class: this module imports nothing but ``signal``)."""

    def __init__(self) -> None:
        self.installed = False
        self.holding = False
        self.raised = False
        self.raised_at = 0.0
        self.received: list[int] = []
        self.previous: dict[int, object] = {}
        self.previous_unraisable = None


_state = _State()


def _handle(signum: int, frame) -> None:
    if _in_finalizer(frame):
        # An exception raised in a __del__ is printed and dropped by the interpreter: the
        # interruption would be lost. The signal is sent again once the finalizer is done.
        _send_again(signum)
        return
    _state.received.append(signum)
    if _state.holding:
        return
    if _state.raised and _monotonic() - _state.raised_at < UNWIND_SECONDS:
        return
    _raise(signum)


def _raise(signum: int) -> None:
    _state.raised = True
    _state.raised_at = _monotonic()
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _in_finalizer(frame) -> bool:
    for _ in range(FINALIZER_DEPTH):
        if frame is None:
            return False
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _send_again(signum: int) -> None:
    import os
    import threading

    timer = threading.Timer(0.05, os.kill, (os.getpid(), signum))
    timer.daemon = True
    timer.start()


def _monotonic() -> float:
    import time

    return time.monotonic()


class critical:  # noqa: N801 -- used as a function: ``with critical():``
    """A step that must not be cut in two (a case's records counted and streamed together):
    a signal inside it is raised when it ends."""

    def __enter__(self) -> None:
        self.nested = _state.holding
        self.before = len(_state.received)
        _state.holding = True

    def __exit__(self, *exc: object) -> None:
        if self.nested:
            return
        _state.holding = False
        if exc[0] is None and len(_state.received) > self.before:
            _raise(_state.received[self.before])


def _unraisable(unraisable) -> None:
    """``sys.unraisablehook``: an interruption raised where the interpreter drops exceptions
    -- a weakref callback such as importlib's module-lock ``cb``, a finalizer not seen by
    :func:`_in_finalizer` -- is not lost: its signal is sent again a moment later (and nothing
    is printed); anything else goes to the previous hook."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt) and _state.installed:
        _state.raised = False  # the resent signal is a first one, not one during unwinding
        _send_again(signal.SIGTERM if isinstance(unraisable.exc_value, Terminated)
                    else signal.SIGINT)
        return
    _state.previous_unraisable(unraisable)


def install() -> None:
    """Handle SIGINT and SIGTERM as the module says (again: starts afresh)."""
    import sys

    if not _state.installed:
        for signum in (signal.SIGINT, signal.SIGTERM):
            _state.previous[signum] = signal.getsignal(signum)
        _state.previous_unraisable = sys.unraisablehook
        sys.unraisablehook = _unraisable
    _state.installed = True
    _state.holding = _state.raised = False
    _state.received.clear()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, _handle)


def installed() -> bool:
    return _state.installed


def hold() -> None:
    """From now on a signal is recorded, never raised (only bounded clean-up is left)."""
    _state.holding = True


def uninstall() -> None:
    """Give SIGINT and SIGTERM back their previous handlers (for callers that embed the CLI)."""
    if not _state.installed:
        return
    _state.holding = True  # a signal between the two calls below must not raise
    for signum, previous in _state.previous.items():
        signal.signal(signum, previous)  # type: ignore[arg-type]
    import sys

    if sys.unraisablehook is _unraisable:
        sys.unraisablehook = _state.previous_unraisable
    _state.installed = False
    _state.previous.clear()


def block() -> None:
    """SIGINT and SIGTERM stay pending from now on (for the last steps of a process)."""
    _state.holding = True
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})


def held_signal() -> int | None:
    """The first signal that arrived and was not raised, if any."""
    if _state.raised or not _state.received:
        return None
    return _state.received[0]


class TimeLimitExceeded(Exception):
    """Raised in the main thread when a :class:`time_limit` runs out."""


class time_limit:  # noqa: N801 -- used as a function: ``with time_limit(10):``
    """At most ``seconds`` for the code inside, in the main thread (SIGALRM interrupts
    Python code and blocking calls; elsewhere, or with ``seconds`` None, no limit). For a
    user's function run in-process, such as ``run --tokenizer MODULE:CALLABLE``."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.armed = False

    def __enter__(self) -> None:
        import threading

        if not self.seconds or threading.current_thread() is not threading.main_thread():
            return
        self.previous = signal.signal(signal.SIGALRM, self._expired)
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        self.armed = True

    def _expired(self, signum: int, frame) -> None:
        raise TimeLimitExceeded(f"took longer than {self.seconds:g} s")

    def __exit__(self, *exc: object) -> None:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)  # type: ignore[arg-type]


def exit_code_of(stop: KeyboardInterrupt) -> int:
    """130 for an interruption by SIGINT, 143 for :class:`Terminated` (SIGTERM)."""
    return TERMINATED if isinstance(stop, Terminated) else INTERRUPTED
