"""Where reports go: paths checked before a run, written atomically, readable by others.

* A report path is checked before the run starts (:func:`check_path`): a directory, or a
  directory that cannot be created, is a usage error then, not after an hour of work.
* A regular file (or a new one) is replaced atomically: written to a temporary file in the
  same directory, then renamed, so a reader never sees half a report. A symbolic link is
  followed: its target is replaced, the link stays.
* Anything else -- ``/dev/null``, ``/dev/stdout``, a FIFO -- is written to as it is, never
  replaced (as root, a rename would have replaced the device node).
* Files are created with mode 0666 minus the umask (0644 usually), like any other output.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TextIO

from harness.errors import UsageError


def check_path(path: str | Path, flag: str = "--output") -> Path:
    """The path a report will be written to, checked now; links followed."""
    target = Path(path)
    if str(path) == "" or "\x00" in str(path):
        raise UsageError(f"{flag}: give a file name")
    resolved = target.resolve() if target.is_symlink() else target
    if resolved.is_dir():
        raise UsageError(f"{flag} {path}: is a directory (give a file name)")
    parent = resolved.parent
    if not parent.exists():
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UsageError(f"{flag} {path}: cannot create its directory: "
                             f"{error.strerror or error}") from None
    elif not parent.is_dir():
        raise UsageError(f"{flag} {path}: {parent} is not a directory")
    if not os.access(parent, os.W_OK) and not _is_special(resolved):
        raise UsageError(f"{flag} {path}: cannot write in {parent}")
    return resolved


def _is_special(path: Path) -> bool:
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode)


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_report(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path``: atomically for a regular or new file, directly for a
    device or FIFO."""
    target = Path(path)
    if target.is_symlink():
        target = target.resolve()
    if _is_special(target):
        with open(target, "w", encoding="utf-8") as stream:
            stream.write(text)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, _umask_mode())
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


class StreamFile:
    """A stream written line by line as the run goes, and put in place when it ends.

    For a regular file the lines go to ``FILE.partial`` (flushed after each line, so a
    killed run leaves everything judged so far), which is renamed to ``FILE`` at the end --
    also after an interruption, once the footer says so. A device or FIFO is written to
    directly."""

    def __init__(self, path: str | Path) -> None:
        target = Path(path)
        self.target = target.resolve() if target.is_symlink() else target
        self.direct = _is_special(self.target)
        self.partial = self.target if self.direct else self.target.with_name(
            self.target.name + ".partial")
        if self.direct:
            self.stream: TextIO = open(self.target, "w", encoding="utf-8")
        else:
            fd = os.open(self.partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, _umask_mode())
            self.stream = os.fdopen(fd, "w", encoding="utf-8")

    def write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()

    def finish(self) -> None:
        """Close, and put the stream in place."""
        self.stream.close()
        if not self.direct:
            os.replace(self.partial, self.target)
