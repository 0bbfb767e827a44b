"""Parallel plain-text files cut into ranges of lines that worker processes read themselves.

``score --jobs N`` counts chunks of segments in N processes. When the parent reads every line
and sends each chunk's text to a worker, its reading and pickling take a core of their own.
Here the parent only finds where the ranges begin -- one pass over each file's bytes counting
``\\n``, at C speed -- and each worker opens the files, seeks to its range and reads it at
once (one read and one UTF-8 decoding a file), giving the segments
:func:`bleu_harness.textfiles.stream_parallel` gives. Where a range holds a line that reader
refuses (not UTF-8, too long), it is read again line by line the reader's own way, so the
error is the same, at the same line.

Only regular files of equal line counts are cut: a pipe cannot be seeked, and files of
unequal length are left to the streaming reader, which reports them where it meets the end.
"""

from __future__ import annotations

import os
import stat
from collections import deque
from collections.abc import Iterator, Sequence
from itertools import islice
from dataclasses import dataclass

from bleu_harness.bleu import native
from bleu_harness.errors import InputError
from bleu_harness.textfiles import MAX_LINE_BYTES, open_input, stream_parallel

#: Bytes read at a time while finding where the ranges begin.
_BLOCK = 2**20
#: Lines a range: a worker's share of a few tenths of a second of 4-reference text, so the
#: workers end within a range of each other.
LINES_PER_RANGE = 5_000


@dataclass(frozen=True)
class LineRange:
    """Lines ``first`` to ``first + count - 1`` (from 0) of each file, bytes ``starts[i]`` to
    ``ends[i]`` of ``paths[i]`` (the hypotheses' file first); ``remove`` is taken out of every
    reference line (``--remove-from-references``)."""

    paths: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    first: int
    count: int
    remove: str = ""

    def __call__(self) -> tuple[list[str], list[list[str]]]:
        """The range's hypotheses and each one's references (a chunk of
        :mod:`bleu_harness.bleu.shard`)."""
        columns = [self._block(path, start, end)
                   for path, start, end in zip(self.paths, self.starts, self.ends)]
        if any(column is None for column in columns):
            columns = self._line_by_line()
        hypotheses = columns[0]
        if len(columns) == 1:
            return hypotheses, [[] for _ in hypotheses]
        references = [list(refs) for refs in zip(*columns[1:])]
        if self.remove:
            references = [[ref.replace(self.remove, "") for ref in refs] for refs in references]
        return hypotheses, references

    def _block(self, path: str, start: int, end: int) -> list[str] | None:
        """The range's lines of one file, read at once and decoded at once; ``None`` where
        one of them is not as :func:`~bleu_harness.textfiles.stream_parallel` takes it (not
        UTF-8, too long) or the file changed: :meth:`_line_by_line` then says which."""
        with open_input(path) as handle:
            handle.seek(start)
            data = handle.read(end - start)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None
        lines = text.split("\n")
        if text.endswith("\n") or not text:
            lines.pop()
        if len(lines) != self.count or (len(data) > MAX_LINE_BYTES and any(
                4 * len(line) > MAX_LINE_BYTES and len(line.encode("utf-8")) > MAX_LINE_BYTES
                for line in lines)):
            return None
        if "\r" in text:
            lines = [line[:-1] if line.endswith("\r") else line for line in lines]
        return lines

    def _line_by_line(self) -> list[list[str]]:
        """The range read as the streaming reader reads it, line after line of every file in
        turn: the same segments, and the same error at the same line."""
        pairs = list(islice(stream_parallel(self.paths[0], self.paths[1:], self.starts,
                                            self.first), self.count))
        if len(pairs) < self.count:
            raise InputError(f"{self.paths[0]}: shorter than when its lines were counted "
                             "(changed while it was read)")
        return [[hyp for hyp, _ in pairs]] + [[refs[i] for _, refs in pairs]
                                              for i in range(len(self.paths) - 1)]


class UnequalFiles(Exception):
    """The files turned out to have different numbers of lines: stream them instead, so the
    streaming reader reports it where it meets the end."""


def line_ranges(hyp_path: str, ref_paths: Sequence[str], lines_per_range: int,
                remove: str = "") -> Iterator[LineRange] | None:
    """The files as ranges of ``lines_per_range`` lines (the last one shorter; one empty
    range for empty files), found while they are read -- a range as soon as every file has
    passed its end, so counting begins before the files are read through -- or ``None``
    where they are to be streamed (a file that is not a regular file). The iterator raises
    :class:`UnequalFiles` where the files end at different lines."""
    paths = (hyp_path, *ref_paths)
    if not all(_regular(path) for path in paths):
        return None
    return _ranges(paths, lines_per_range, remove)


def _ranges(paths: tuple[str, ...], every: int, remove: str) -> Iterator[LineRange]:
    scanners = [_Scanner(path, every) for path in paths]
    try:
        starts, first = (0,) * len(paths), 0
        while True:
            ends = [scanner.next_start() for scanner in scanners]
            if all(end is not None for end in ends):
                yield LineRange(paths, starts, tuple(ends), first, every, remove)
                starts, first = tuple(ends), first + every
                continue
            totals = {scanner.lines for scanner in scanners}
            if any(end is not None for end in ends) or len(totals) != 1:
                raise UnequalFiles()
            count = totals.pop() - first
            if count or not first:
                yield LineRange(paths, starts, tuple(s.size for s in scanners), first, count,
                                remove)
            return
    finally:
        for scanner in scanners:
            scanner.close()


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def line_starts(block: bytes, newlines_before: int, every: int) -> tuple[int, list[int]]:
    """How many ``\\n`` ``block`` holds, and the offsets in it of the lines whose number
    (from 0 in the file; ``newlines_before`` lines ended before the block) is a multiple of
    ``every`` (the C kernel's ``line_starts`` where it is built)."""
    if native.AVAILABLE:
        return native._native.line_starts(block, newlines_before, every)
    newlines = block.count(b"\n")
    wanted = (newlines_before // every + 1) * every  # the next line to start
    at, seen, starts = -1, newlines_before, []
    while wanted <= newlines_before + newlines:  # it begins after a newline of this block
        for _ in range(wanted - seen):
            at = block.index(b"\n", at + 1)
        seen = wanted
        starts.append(at + 1)
        wanted += every
    return newlines, starts


class _Scanner:
    """Where every ``every``-th line of a file begins, found block by block as asked; at the
    end, how many lines the file has (as :func:`~bleu_harness.textfiles.next_line` reads
    them: a last line without ``\\n`` is a line) and its size."""

    def __init__(self, path: str, every: int) -> None:
        self.handle = open_input(path)
        self.every = every
        self.found: deque[int] = deque()
        self.newlines = 0  # in the blocks read
        self.size = 0  # the bytes read
        self.last = b""
        self.ended = False

    def next_start(self) -> int | None:
        """The offset of the next line whose number is a multiple of ``every``, or ``None``
        where the file ends first."""
        while not self.ended and (not self.found or self.found[0] == self.size):
            self._read_block()  # a start at the end of what was read may be the file's end
        if self.found and self.found[0] == self.size:
            self.found.popleft()  # the line break ends the file: no line begins there
        return self.found.popleft() if self.found else None

    @property
    def lines(self) -> int:
        return self.newlines + (1 if self.size and self.last != b"\n" else 0)

    def _read_block(self) -> None:
        block = self.handle.read(_BLOCK)
        if not block:
            self.ended = True
            return
        in_block, starts = line_starts(block, self.newlines, self.every)
        self.found.extend(self.size + start for start in starts)
        self.newlines += in_block
        self.size += len(block)
        self.last = block[-1:]

    def close(self) -> None:
        self.handle.close()
