"""Where reports go: paths checked before a run, written atomically, readable by others.

* A report path is checked before the run starts (:func:`check_path`) by really trying: a
  temporary file is created and written in the target's directory (a device is opened and
  written nothing), so a directory, a directory that cannot be created, ``/proc``, a
  read-only file system or ``/dev/full`` is a usage error then, not after an hour of work.
* A regular file (or a new one) is replaced atomically: written to a temporary file created
  with ``O_EXCL`` (:func:`tempfile.mkstemp`, so a planted symlink is never followed) in the
  same directory, then renamed, so a reader never sees half a report.
* A character device or a FIFO -- ``/dev/null``, ``/dev/stdout``, a pipe -- is written to as
  it is, never replaced (as root, a rename would have replaced the device node). A block
  device is refused.
* No report is written through a symbolic link (:func:`refuse_link`): a link committed in a
  pull request (``reports/run.jsonl -> ~/.bashrc``) must not make the gate write outside the
  checkout. The path itself may be a link only to a character device or a FIFO (the
  standard streams are links to them); a directory on a relative path may not be a link.
* One run writes each file once and never over what it reads (:func:`check_outputs`): two
  report flags naming one file, or a report naming a case file, a known list or a stored
  run the command reads, is a usage error before anything is written.
* Files are created with mode 0666 minus the umask (0644 usually), like any other output.
* A report that cannot be written is one line and exit code 2 (:class:`OutputError`), never
  exit 1, which says the implementation fails; the previous file stays in place.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import TextIO

from bleu_harness.errors import UsageError
from bleu_harness.signals import critical
from bleu_harness.text import one_line
from bleu_harness.textfiles import within


class OutputError(UsageError):
    """A report file that cannot be written (exit code 2)."""


def check_path(path: str | Path, flag: str = "--output") -> Path:
    """The path a report will be written to, checked now by trying (:func:`refuse_link`)."""
    target = Path(path)
    if str(path) == "" or "\x00" in str(path):
        raise UsageError(f"{flag}: give a file name")
    shown = one_line(str(path))
    try:
        resolved = _target(target, flag)
        if resolved.is_dir():
            raise UsageError(f"{flag} {shown}: is a directory (give a file name)")
        parent = resolved.parent
        if not parent.exists():
            parent.mkdir(parents=True, exist_ok=True)
        elif not parent.is_dir():
            raise UsageError(f"{flag} {shown}: {one_line(str(parent))} is not a directory")
        _try_writing(resolved)
    except OSError as error:
        raise UsageError(f"{flag} {shown}: cannot write there: "
                         f"{error.strerror or error}") from None
    except RuntimeError:  # a symlink loop
        raise UsageError(f"{flag} {shown}: a symbolic link loop") from None
    return resolved


def _try_writing(target: Path) -> None:
    """Write where the report will go, leaving nothing behind: a temporary file in the
    target's directory (one byte), or a device opened and written nothing (``/dev/full``
    refuses even that). A FIFO is not opened: that would wait for its reader."""
    mode = _mode(target)
    if mode is not None and stat.S_ISFIFO(mode):
        return
    if mode is not None and not stat.S_ISREG(mode):
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_NOCTTY)
        try:
            os.write(fd, b"")
        finally:
            os.close(fd)
        return
    with critical():  # a signal while the probe exists is raised once it is gone
        fd, name = _temporary(target, ".tmp")
        try:
            os.write(fd, b"\n")
        finally:
            os.close(fd)
            os.unlink(name)


def _mode(path: Path) -> int | None:
    try:
        return path.stat().st_mode
    except OSError:
        return None


def _is_special(path: Path) -> bool:
    mode = _mode(path)
    return mode is not None and not stat.S_ISREG(mode)


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _temporary(target: Path, suffix: str) -> tuple[int, str]:
    """A new file beside ``target``, created with ``O_EXCL`` (never a planted link's
    target), with the mode an ordinary new file gets."""
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
    try:
        os.fchmod(fd, _umask_mode())
    except BaseException:
        os.close(fd)
        os.unlink(name)
        raise
    return fd, name


def refuse_link(path: Path, flag: str) -> None:
    """:class:`OutputError` where writing ``path`` would go through a symbolic link: the
    path itself a link to anything but a character device or a FIFO, or, on a relative
    path, one of its directories a link (what a checkout holds, a pull request may plant)."""
    shown = one_line(str(path))
    if path.is_symlink():
        mode = _mode(path)
        if mode is None or not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
            raise OutputError(f"{flag} {shown}: a symbolic link (reports are not written "
                              "through links: give the file itself)")
    if not path.is_absolute():
        for directory in list(path.parents)[:-1]:
            if directory.is_symlink():
                raise OutputError(f"{flag} {shown}: {one_line(str(directory))} is a symbolic "
                                  "link (reports are not written through links: give the "
                                  "real directory)")
    mode = _mode(path)
    if mode is not None and stat.S_ISBLK(mode):
        raise OutputError(f"{flag} {shown}: a block device (give a file name)")


def _target(path: str | Path, flag: str = "--output") -> Path:
    """``path``, checked by :func:`refuse_link` (a link left is one to a device or FIFO,
    opened as it is: ``/dev/stdout``'s target may be a pipe, which has no path)."""
    target = Path(path)
    refuse_link(target, flag)
    return target


def _identity(path: str | Path) -> tuple[int, int] | str:
    """What makes two paths one file: device and inode where it exists, else its real path."""
    try:
        info = os.stat(path)
        return (info.st_dev, info.st_ino)
    except (OSError, ValueError):
        return os.path.realpath(path)


def check_outputs(outputs: dict[str, str | None], inputs: list[str] = (),
                  case_folders: list[str] = ()) -> dict[str, Path]:
    """Each report path checked (:func:`check_path`), by flag; :class:`UsageError` where two
    flags name one file, or a report would overwrite what the command reads: one of
    ``inputs`` (files), or a case file (``.yaml``/``.yml``) inside one of ``case_folders``.
    A device or FIFO (``/dev/null`` for two reports) may be shared."""
    checked = {flag: check_path(path, flag) for flag, path in outputs.items()
               if path is not None}  # "" is refused by check_path, not ignored
    read = {_identity(path): path for path in inputs if path and path != "-"}
    seen: dict[object, str] = {}
    for flag, path in checked.items():
        mode = _mode(path)
        if mode is not None and not stat.S_ISREG(mode):
            continue
        identity, shown = _identity(path), one_line(str(outputs[flag]))
        if identity in read:
            raise UsageError(f"{flag} {shown}: the command reads that file "
                             f"({one_line(str(read[identity]))}); give another file to write")
        if identity in seen:
            raise UsageError(f"{flag} {shown}: {seen[identity]} writes that file too; give "
                             "each report its own file")
        seen[identity] = flag
        real = os.path.realpath(path)
        if real.endswith((".yaml", ".yml")):
            for folder in case_folders:
                if os.path.isdir(folder) and within(real, os.path.realpath(folder)):
                    raise UsageError(f"{flag} {shown}: a case file's name inside the case "
                                     f"folder {one_line(folder)}, which the run reads; give "
                                     "another file to write")
    return checked


def write_report(path: str | Path, text: str, flag: str = "--output") -> None:
    """Write ``text`` to ``path``: atomically for a regular or new file, directly for a
    device or FIFO. :class:`OutputError` if it cannot be written."""
    target = _target(path)
    try:
        if _is_special(target):
            with open(target, "w", encoding="utf-8") as stream:
                stream.write(text)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        with critical():  # a signal while the temporary file exists is raised once it is
            fd, temporary = _temporary(target, ".tmp")  # in place or gone
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as stream:
                    stream.write(text)
                os.replace(temporary, target)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
    except OSError as error:
        raise OutputError(f"{flag} {one_line(str(path))}: cannot write: "
                          f"{error.strerror or error}") from None


class StreamFile:
    """A stream written line by line as the run goes, and put in place when it ends.

    For a regular file the lines go to a new ``.FILE.XXXXXXXX.partial`` beside it (flushed
    after each line, so a killed run leaves everything judged so far), which is renamed to
    ``FILE`` at the end -- also after an interruption, once the footer says so. The previous
    ``FILE`` stays until the new stream has at least its header: a run that stops before
    (a usage error, a signal while the cases load) or whose writing fails leaves it alone.
    A device or FIFO is written to directly."""

    def __init__(self, path: str | Path, flag: str = "--output") -> None:
        self.target = _target(path)
        self.flag = flag
        self.direct = _is_special(self.target)
        self.started = False  # a line was written (the header is the first)
        self.failed = False
        try:
            if self.direct:
                self.partial = self.target
                self.stream: TextIO = open(self.target, "w", encoding="utf-8")
            else:
                fd, name = _temporary(self.target, ".partial")
                self.partial = Path(name)
                self.stream = os.fdopen(fd, "w", encoding="utf-8")
        except OSError as error:
            raise self._error(error) from None

    def _error(self, error: OSError) -> OutputError:
        self.failed = True
        return OutputError(f"{self.flag} {one_line(str(self.target))}: cannot write: "
                           f"{error.strerror or error}")

    def write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except OSError as error:
            raise self._error(error) from None
        self.started = True

    def finish(self) -> None:
        """Close, and put the stream in place (if it has a header and nothing failed; else
        the partial file is removed and the previous file stays)."""
        try:
            self.stream.close()
        except OSError as error:
            if not self.failed:
                self._discard()
                raise self._error(error) from None
        if self.direct:
            return
        if self.failed or not self.started:
            self._discard()
            return
        try:
            os.replace(self.partial, self.target)
        except OSError as error:
            self._discard()
            raise self._error(error) from None

    def _discard(self) -> None:
        if not self.direct:
            self.partial.unlink(missing_ok=True)
