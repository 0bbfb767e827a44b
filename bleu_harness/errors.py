"""The errors that mean exit code 2: the user's input or arguments are wrong, in one place.

Everything that stops a command before it can do its job raises :class:`UsageError` (or a
subclass) with one line that says what is wrong and, where it helps, what to do; the CLI
prints ``bleu-harness COMMAND: error: <line>`` and exits 2. No traceback reaches the user.
"""

from __future__ import annotations

USAGE_EXIT_CODE = 2


class UsageError(Exception):
    """A bad argument, option combination or input file: one line, exit code 2."""


class InputError(UsageError):
    """A problem with the user's input files (unreadable, not UTF-8, misaligned lines)."""


class StartupError(UsageError):
    """An implementation or backend that cannot start or cannot answer a trivial request."""


class StreamError(UsageError):
    """A file that is not a valid bleu-harness result stream (names the line)."""
