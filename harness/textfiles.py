"""Reading segment files: UTF-8, one segment a line."""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """A problem with the user's input files or arguments: one line, exit code 2."""


def read_segments(path: str | Path) -> list[str]:
    """The lines of ``path`` without their line endings (``\\n`` or ``\\r\\n``).

    Only ``\\n`` ends a line: Unicode separators such as U+2028 inside a segment stay in it.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 ({error.reason} at byte {error.start})") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_parallel(hyp_path: str, ref_paths: list[str]) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and, per hypothesis, one reference from each reference file."""
    hyps = read_segments(hyp_path)
    columns = [read_segments(path) for path in ref_paths]
    for path, column in zip(ref_paths, columns):
        if len(column) != len(hyps):
            raise InputError(
                f"{path} has {len(column)} lines but {hyp_path} has {len(hyps)}: "
                "every reference file needs one line per hypothesis")
    return hyps, [list(refs) for refs in zip(*columns)] if columns else [[] for _ in hyps]
