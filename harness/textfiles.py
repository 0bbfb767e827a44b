"""Reading segment files: UTF-8, one segment a line."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from harness.errors import InputError

# mteval-v13a.pl ``extract_sgml_tag_and_span`` (``<NAME\s*([^>]*)>(.*?)</NAME\s*>``, read by
# :func:`_elements`) / ``extract_sgml_tag_attribute``.
_OPEN = {name: re.compile(f"<{name}", re.IGNORECASE) for name in ("doc", "seg")}
_CLOSE = {name: re.compile(f"</{name}\\s*>", re.IGNORECASE) for name in ("doc", "seg")}
_TAG_ATTRIBUTES = re.compile(r"\s*([^>]*)", re.DOTALL)
_DOCID = re.compile(r'docid\s*=\s*"?([^"]*)"?', re.IGNORECASE | re.DOTALL)
_SEGID = re.compile(r'id\s*=\s*"?([^"]*)"?', re.IGNORECASE | re.DOTALL)
_WHITESPACE_RUN = re.compile(r"\s+")
SGML_SUFFIXES = (".sgm", ".sgml")


#: A file that a case file names (``files:``) is read only if it is a regular file of at
#: most this size: a case file from a pull request must not make the harness read a device,
#: wait on a FIFO or fill the memory.
CASE_DATA_LIMIT = 64 * 2**20


def read_regular_file(path: str | Path, limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes. Opened
    non-blocking, so that a FIFO cannot make the open wait for a writer."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as error:
        raise InputError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{path}: not a regular file")
        if info.st_size > limit:
            raise InputError(f"{path}: larger than {limit // 2**20} MiB")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"{path}: larger than {limit // 2**20} MiB")
    return data


def _decode(data: bytes, path: str | Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 ({error.reason} at byte {error.start})") from None


def _read_text(path: str | Path, limit: int | None = None) -> str:
    if limit is not None:
        return _decode(read_regular_file(path, limit), path)
    try:  # bytes, then decode: no newline translation (a lone \r stays in its segment)
        return _decode(Path(path).read_bytes(), path)
    except (OSError, ValueError) as error:
        raise InputError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") from None


def read_segments(path: str | Path, limit: int | None = None) -> list[str]:
    """The lines of ``path`` without their line endings (``\\n`` or ``\\r\\n``).

    Only ``\\n`` ends a line: Unicode separators such as U+2028 inside a segment stay in it.
    """
    lines = _read_text(path, limit).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def read_sgml(path: str | Path, limit: int | None = None) -> dict[tuple[str, str], str]:
    """The segments of an mteval SGML file (``tstset``/``refset``/``srcset``), keyed by
    (document id, segment id), in mteval-v13a's order: documents sorted by id, segments by
    number. As in mteval, whitespace runs inside a document become one space; the text is
    left as written (entities are the tokenizer's business)."""
    text = _read_text(path, limit)
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


def _read_parallel_sgml(hyp_path: str, ref_paths: list[str], limit: int | None):
    hyps = read_sgml(hyp_path, limit)
    columns = [read_sgml(path, limit) for path in ref_paths]
    for path, column in zip(ref_paths, columns):
        missing = [key for key in hyps if key not in column]
        if missing or len(column) != len(hyps):
            example = missing[0] if missing else next(k for k in column if k not in hyps)
            raise InputError(
                f"{path} and {hyp_path} hold different segments (e.g. document "
                f"{example[0]!r}, segment {example[1]}): mteval needs the same documents and "
                "segments in every file")
    return list(hyps.values()), [[column[key] for column in columns] for key in hyps]


def stream_parallel(hyp_path: str, ref_paths: Sequence[str]) -> Iterator[tuple[str, list[str]]]:
    """``(hypothesis, references)`` line by line from plain-text files, as
    :func:`read_parallel` reads them (only ``\\n`` ends a line, a final ``\\r`` is dropped),
    holding one line of each file at a time. Files of unequal length are an
    :class:`InputError` once the shortest ends (naming both files and their line counts)."""
    paths = [hyp_path, *ref_paths]
    handles = []
    try:
        for path in paths:
            try:
                handles.append(open(path, "rb"))  # noqa: SIM115 -- closed in finally
            except OSError as error:
                raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
        number = 0
        while True:
            raw = [handle.readline() for handle in handles]
            ended = [not line for line in raw]
            if any(ended):
                if not all(ended):
                    _unequal(paths, handles, ended, number)
                return
            number += 1
            lines = [_decoded_line(line, path, number) for line, path in zip(raw, paths)]
            yield lines[0], lines[1:]
    finally:
        for handle in handles:
            handle.close()


def _decoded_line(line: bytes, path: str, number: int) -> str:
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
    counts = [read if done else read + 1 + sum(1 for _ in handle)
              for handle, done in zip(handles, ended)]
    hyp_path, hyps = paths[0], counts[0]
    for path, lines in zip(paths[1:], counts[1:]):
        if lines != hyps:
            raise InputError(f"{path} has {lines} lines but {hyp_path} has {hyps}: "
                             "every reference file needs one line per hypothesis")


def read_parallel(hyp_path: str, ref_paths: list[str],
                  limit: int | None = None) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and, per hypothesis, one reference from each reference file.

    Files ending in ``.sgm``/``.sgml`` are read as mteval SGML and matched by document and
    segment id (all files must then be SGML). With ``limit``, only regular files of at most
    that many bytes are read (:func:`read_regular_file`)."""
    sgml = [is_sgml(p) for p in [hyp_path, *ref_paths]]
    if any(sgml):
        if not all(sgml):
            raise InputError("mix of SGML (.sgm) and plain-text files: give all of one kind")
        return _read_parallel_sgml(hyp_path, ref_paths, limit)
    hyps = read_segments(hyp_path, limit)
    columns = [read_segments(path, limit) for path in ref_paths]
    for path, column in zip(ref_paths, columns):
        if len(column) != len(hyps):
            raise InputError(
                f"{path} has {len(column)} lines but {hyp_path} has {len(hyps)}: "
                "every reference file needs one line per hypothesis")
    return hyps, [list(refs) for refs in zip(*columns)] if columns else [[] for _ in hyps]
