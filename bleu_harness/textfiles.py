"""Reading segment files: UTF-8, one segment a line."""

from __future__ import annotations

import io
import os
import re
import stat
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from bleu_harness.bleu.tokenizers.perl import PERL_SPACE_CHARS
from bleu_harness.errors import InputError

# mteval-v13a.pl ``extract_sgml_tag_and_span`` (``<NAME\s*([^>]*)>(.*?)</NAME\s*>``, read by
# :func:`_elements`) / ``extract_sgml_tag_attribute``, and ``s/[\s\n\r]+/ /g`` on a document.
# ``\s`` is Perl's on the UTF-8 characters the script reads, not Python's: U+001C-U+001F
# are no whitespace to Perl (mteval-v13a.pl:342-365, moses-smt/mosesdecoder@34452895).
_S = f"[{PERL_SPACE_CHARS}]"
_OPEN = {name: re.compile(f"<{name}", re.IGNORECASE) for name in ("doc", "seg")}
_CLOSE = {name: re.compile(f"</{name}{_S}*>", re.IGNORECASE) for name in ("doc", "seg")}
_TAG_ATTRIBUTES = re.compile(f"{_S}*([^>]*)", re.DOTALL)
_DOCID = re.compile(f'docid{_S}*={_S}*"?([^"]*)"?', re.IGNORECASE | re.DOTALL)
_SEGID = re.compile(f'id{_S}*={_S}*"?([^"]*)"?', re.IGNORECASE | re.DOTALL)
_WHITESPACE_RUN = re.compile(f"{_S}+")
SGML_SUFFIXES = (".sgm", ".sgml")


#: A file that a case file names (``files:``) is read only if it is a regular file of at
#: most this size: a case file from a pull request must not make the harness read a device,
#: wait on a FIFO or fill the memory.
CASE_DATA_LIMIT = 64 * 2**20


def read_regular_file(path: str | Path, limit: int, inside: Path | None = None) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes. Opened
    non-blocking, so that a FIFO cannot make the open wait for a writer.

    With ``inside`` (a case's corpus root), the file must also lie inside that directory:
    the path is resolved and checked, the resolved path opened (no link followed), and the
    file actually opened checked again -- a link swapped in between cannot lead out."""
    fd = _open_regular(path, inside)
    try:
        info = os.fstat(fd)
        if info.st_size > limit:
            raise InputError(f"{path}: larger than {size_text(limit)}")
        data = _read_at_most(fd, limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputError(f"{path}: larger than {size_text(limit)}")
    return data


def read_head(path: str | Path, size: int) -> bytes:
    """The first ``size`` bytes of ``path`` if it is a regular file (opened non-blocking)."""
    fd = _open_regular(path, None)
    try:
        return _read_at_most(fd, size)
    finally:
        os.close(fd)


def check_regular_file(path: str | Path, inside: Path) -> str:
    """The resolved path of ``path`` if it is a regular file inside ``inside`` (checked as
    :func:`read_regular_file` checks it, without reading it)."""
    os.close(_open_regular(path, inside))
    return os.path.realpath(path)


def outside_message(path: str | Path, root: Path) -> str:
    """The same words whether or not ``path`` exists (no oracle for files outside)."""
    return (f"{path}: outside the corpus root {root} (case files may only read files of "
            "their own corpus)")


def within(path: str, directory: str) -> bool:
    """Whether the resolved ``path`` is ``directory`` or below it."""
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _open_regular(path: str | Path, inside: Path | None) -> int:
    target = str(path)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if inside is not None:
        root = os.path.realpath(inside)
        target = os.path.realpath(path)
        if not within(target, root):
            raise InputError(outside_message(path, inside))
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(target, flags)
    except (OSError, ValueError) as error:
        raise InputError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(f"{path}: not a regular file")
        if inside is not None and not within(_opened_path(fd, target), root):
            raise InputError(outside_message(path, inside))
    except BaseException:
        os.close(fd)
        raise
    return fd


def _opened_path(fd: int, opened: str) -> str:
    """Where the open file ``fd`` really is (Linux's ``/proc/self/fd``; elsewhere the path
    it was opened by, already resolved)."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return opened


def _read_at_most(fd: int, size: int) -> bytes:
    chunks, left = [], size
    while left > 0:
        chunk = os.read(fd, min(left, 2**20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def size_text(limit: int) -> str:
    """A file-size limit as its messages say it: ``8 MiB``, ``1 GiB``."""
    return f"{limit // 2**30} GiB" if limit >= 2**30 else f"{limit // 2**20} MiB"


def decode_utf8(data: bytes, path: str | Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 ({error.reason} at byte {error.start})") from None


#: The longest line of a segment file a command reads: a line is one segment, and scoring a
#: line costs a few hundred times its size in memory (``/dev/zero`` is one endless line).
MAX_LINE_BYTES = 2**20
#: The largest file read whole (an SGML file, whose segments are matched by id).
MAX_WHOLE_FILE_BYTES = 2**30


#: How long a FIFO given as a file may go without a writer before it is an error.
FIFO_WRITER_WAIT = 30.0


def open_input(path: str | Path) -> BinaryIO:
    """``path`` opened for reading, in binary (``-``: the standard input, as Unix tools take
    it). The open never blocks: a FIFO waits for its writer at most :data:`FIFO_WRITER_WAIT`
    seconds (a plain ``open`` would wait forever), then reads as a pipe does. A directory is
    an :class:`InputError`."""
    try:
        fd = os.open("/dev/stdin" if str(path) == "-" else path,
                     os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as error:
        raise InputError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(f"{path}: is a directory (give a file, one segment a line)")
        first = _first_byte_of_fifo(fd, path) if stat.S_ISFIFO(mode) else b""
    except BaseException:
        os.close(fd)
        raise
    os.set_blocking(fd, True)
    if first:
        return io.BufferedReader(_Prefixed(first, fd))
    return os.fdopen(fd, "rb")


def _first_byte_of_fifo(fd: int, path: str | Path) -> bytes:
    """What a FIFO holds first: one byte, ``b""`` once a writer is there but has not written
    (or has written nothing and left), waiting for a writer up to :data:`FIFO_WRITER_WAIT`."""
    deadline = time.monotonic() + FIFO_WRITER_WAIT
    while True:
        try:
            first = os.read(fd, 1)
        except BlockingIOError:  # a writer holds it open: read as a pipe from now on
            return b""
        if first or time.monotonic() > deadline:
            break
        time.sleep(0.05)  # no writer yet (a FIFO without one reads as its end)
    if not first:
        raise InputError(f"{path}: a FIFO that no program wrote to within "
                         f"{FIFO_WRITER_WAIT:g} s")
    return first


#: The largest stored run (``--baseline``, ``diff``, ``report``, ``atlas``) a command reads.
MAX_STREAM_BYTES = MAX_WHOLE_FILE_BYTES
#: The largest list of known failures (``--known``): a case file's own limit.
MAX_LIST_BYTES = 8 * 2**20
_CHUNK = 2**20


def read_text_input(path: str | Path, limit: int) -> str:
    """The text of a file a command is given (``-``: the standard input), for every such
    file that is read whole -- a stored run, a known list: opened as :func:`open_input`
    opens it (a FIFO waits for its writer at most :data:`FIFO_WRITER_WAIT` s, a directory
    is refused), read a MiB at a time and decoded as it comes, so that what is no such text
    file ends at its first MiB, not at the end of the memory: a NUL byte (``/dev/zero``, a
    binary file: neither JSON Lines nor YAML holds one), bytes that are not UTF-8, more than
    ``limit`` bytes (an endless pipe). :class:`InputError` names the path and the reason."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    read = 0
    with open_input(path) as handle:
        while True:
            try:
                chunk = handle.read(_CHUNK)
            except OSError as error:
                raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
            nul = chunk.find(b"\x00")
            if nul >= 0:
                raise InputError(f"{path}: a NUL byte at byte {read + nul} (not a text file)")
            read += len(chunk)
            if read > limit:
                raise InputError(f"{path}: larger than {size_text(limit)}")
            try:
                parts.append(decoder.decode(chunk, final=not chunk))
            except UnicodeDecodeError as error:
                raise InputError(f"{path}: not UTF-8 ({error.reason} at byte "
                                 f"{read - len(chunk) + error.start})") from None
            if not chunk:
                return "".join(parts)


class _Prefixed(io.RawIOBase):
    """A file descriptor with bytes already read from it put back in front."""

    def __init__(self, prefix: bytes, fd: int) -> None:
        self.prefix, self.fd = prefix, fd

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.prefix:
            size = min(len(buffer), len(self.prefix))
            buffer[:size] = self.prefix[:size]
            self.prefix = self.prefix[size:]
            return size
        data = os.read(self.fd, len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            os.close(self.fd)
        super().close()


def next_line(handle: BinaryIO, path: str | Path, number: int) -> bytes:
    """Line ``number`` of ``handle``, at most :data:`MAX_LINE_BYTES` long; ``b""`` at the end."""
    try:
        line = handle.readline(MAX_LINE_BYTES + 1)
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
        raise InputError(f"{path}:{number}: a line longer than {MAX_LINE_BYTES // 2**20} MiB "
                         "(one line is one segment: is this a text file of segments?)")
    return line


#: Reads a data file's text (``bleu_harness.cases.loader`` reads each once, inside its corpus).
TextReader = Callable[[str], str]


def _read_text(path: str | Path, limit: int | None = None, read: TextReader | None = None) -> str:
    if read is not None:
        return read(str(path))
    if limit is not None:
        return decode_utf8(read_regular_file(path, limit), path)
    with open_input(path) as handle:  # bytes, then decode: a lone \r stays in its segment
        try:
            data = handle.read(MAX_WHOLE_FILE_BYTES + 1)
        except OSError as error:
            raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    if len(data) > MAX_WHOLE_FILE_BYTES:
        raise InputError(f"{path}: larger than {size_text(MAX_WHOLE_FILE_BYTES)}")
    return decode_utf8(data, path)


def read_segments(path: str | Path, limit: int | None = None,
                  read: TextReader | None = None) -> list[str]:
    """The lines of ``path`` without their line endings (``\\n`` or ``\\r\\n``).

    Only ``\\n`` ends a line: Unicode separators such as U+2028 inside a segment stay in it.
    Without ``limit`` (a file the user names) it is read line by line, each line at most
    :data:`MAX_LINE_BYTES`.
    """
    if limit is None and read is None:
        segments: list[str] = []
        with open_input(path) as handle:
            while line := next_line(handle, path, len(segments) + 1):
                segments.append(decoded_line(line, path, len(segments) + 1))
        return segments
    lines = _read_text(path, limit, read).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def read_sgml(path: str | Path, limit: int | None = None,
              read: TextReader | None = None) -> dict[tuple[str, str], str]:
    """The segments of an mteval SGML file (``tstset``/``refset``/``srcset``), keyed by
    (document id, segment id), in mteval-v13a's order: documents sorted by id, segments by
    number. As in mteval, whitespace runs inside a document become one space; the text is
    left as written (entities are the tokenizer's business)."""
    text = _read_text(path, limit, read)
    segments: dict[tuple[str, str], str] = {}
    docs = sorted(((_attribute(_DOCID, tag, path, "docid"), span)
                   for tag, span in _elements(text, "doc")), key=lambda d: d[0])
    if not docs:
        raise InputError(f"{path}: no <doc> element (is this an mteval SGML file?)")
    for doc_id, span in docs:
        span = _WHITESPACE_RUN.sub(" ", span)
        found = [(_attribute(_SEGID, tag, path, "id"), seg) for tag, seg in _elements(span, "seg")]
        if not found:
            raise InputError(f"{path}: document {doc_id!r} has no <seg> element")
        for seg_id, seg in sorted(found, key=lambda s: _number(s[0])):
            if (doc_id, seg_id) in segments:
                raise InputError(f"{path}: segment {seg_id} of document {doc_id!r} appears twice")
            segments[(doc_id, seg_id)] = seg
    return segments


def _elements(text: str, name: str) -> list[tuple[str, str]]:
    """(attributes, content) of each ``<name ...>...</name>`` in ``text``, as mteval's
    non-greedy regex ``<name\\s*([^>]*)>(.*?)</name\\s*>`` finds them left to right, in one
    pass: the regex itself rescans the rest of the text from every ``<name`` that has no
    ``>`` or no closing tag after it (minutes for 100,000 ``<doc`` in 400 kB)."""
    found = []
    position = 0
    while (start := _OPEN[name].search(text, position)) is not None:
        end_of_tag = text.find(">", start.end())
        if end_of_tag < 0:  # no later opening tag can end either
            break
        close = _CLOSE[name].search(text, end_of_tag + 1)
        if close is None:  # nor can any later element close
            break
        attributes = _TAG_ATTRIBUTES.match(text, start.end(), end_of_tag).group(1)
        found.append((attributes, text[end_of_tag + 1:close.start()]))
        position = close.end()
    return found


def _attribute(pattern: re.Pattern, tag: str, path, name: str) -> str:
    match = pattern.search(tag)
    if not match:
        raise InputError(f"{path}: a tag without its {name!r} attribute: <{tag}>")
    return match.group(1)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return float("inf")


def is_sgml(path: str | Path) -> bool:
    return str(path).lower().endswith(SGML_SUFFIXES)


def _read_parallel_sgml(hyp_path: str, ref_paths: list[str], limit: int | None,
                        read: TextReader | None):
    hyps = read_sgml(hyp_path, limit, read)
    columns = [read_sgml(path, limit, read) for path in ref_paths]
    for path, column in zip(ref_paths, columns):
        missing = [key for key in hyps if key not in column]
        if missing or len(column) != len(hyps):
            example = missing[0] if missing else next(k for k in column if k not in hyps)
            raise InputError(
                f"{path} and {hyp_path} hold different segments (e.g. document "
                f"{example[0]!r}, segment {example[1]}): mteval needs the same documents and "
                "segments in every file")
    return list(hyps.values()), [[column[key] for column in columns] for key in hyps]


def stream_parallel(hyp_path: str, ref_paths: Sequence[str], starts: Sequence[int] = (),
                    first: int = 0) -> Iterator[tuple[str, list[str]]]:
    """``(hypothesis, references)`` line by line from plain-text files, as
    :func:`read_parallel` reads them (only ``\\n`` ends a line, a final ``\\r`` is dropped),
    holding one line of each file at a time. Files of unequal length are an
    :class:`InputError` once the shortest ends (naming both files and their line counts).
    ``starts``: the byte each file is read from, where line ``first`` (from 0) begins."""
    paths = [hyp_path, *ref_paths]
    handles = []
    try:
        for path, start in zip(paths, starts or [0] * len(paths)):
            handles.append(open_input(path))
            if start:
                handles[-1].seek(start)
        number = first
        while True:
            raw = [next_line(handle, path, number + 1) for handle, path in zip(handles, paths)]
            ended = [not line for line in raw]
            if any(ended):
                if not all(ended):
                    _unequal(paths, handles, ended, number)
                return
            number += 1
            lines = [decoded_line(line, path, number) for line, path in zip(raw, paths)]
            yield lines[0], lines[1:]
    finally:
        for handle in handles:
            handle.close()


def decoded_line(line: bytes, path: str, number: int) -> str:
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}:{number}: not UTF-8 ({error.reason} at byte "
                         f"{error.start} of the line)") from None


def _unequal(paths: list[str], handles: list, ended: list[bool], read: int) -> None:
    counts = [str(read) if done else _count_rest(handle, read + 1)
              for handle, done in zip(handles, ended)]
    hyp_path, hyps = paths[0], counts[0]
    for path, lines in zip(paths[1:], counts[1:]):
        if lines != hyps:
            raise InputError(f"{path} has {lines} lines but {hyp_path} has {hyps}: "
                             "every reference file needs one line per hypothesis")


def _count_rest(handle: BinaryIO, counted: int, budget: int = 64 * 2**20) -> str:
    """How many lines a file has, ``counted`` of them read: the rest counted in chunks, for
    at most ``budget`` bytes (``/dev/zero`` has no end: "more than N")."""
    data = b""
    while budget > 0 and (data := handle.read(min(2**20, budget))):
        counted += data.count(b"\n")
        budget -= len(data)
    if budget <= 0 and handle.read(1):
        return f"more than {counted}"
    return str(counted + (1 if data and not data.endswith(b"\n") else 0))


def read_parallel(hyp_path: str, ref_paths: list[str], limit: int | None = None,
                  read: TextReader | None = None) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and, per hypothesis, one reference from each reference file.

    Files ending in ``.sgm``/``.sgml`` are read as mteval SGML and matched by document and
    segment id (all files must then be SGML). With ``limit``, only regular files of at most
    that many bytes are read (:func:`read_regular_file`); with ``read``, the texts are what
    it returns for each path."""
    sgml = [is_sgml(p) for p in [hyp_path, *ref_paths]]
    if any(sgml):
        if not all(sgml):
            raise InputError("mix of SGML (.sgm) and plain-text files: give all of one kind")
        return _read_parallel_sgml(hyp_path, ref_paths, limit, read)
    hyps = read_segments(hyp_path, limit, read)
    columns = [read_segments(path, limit, read) for path in ref_paths]
    for path, column in zip(ref_paths, columns):
        if len(column) != len(hyps):
            raise InputError(
                f"{path} has {len(column)} lines but {hyp_path} has {len(hyps)}: "
                "every reference file needs one line per hypothesis")
    return hyps, [list(refs) for refs in zip(*columns)] if columns else [[] for _ in hyps]
