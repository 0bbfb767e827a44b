"""Text that comes from case files and implementations, made safe to show: no control
characters, lone surrogates or unbounded lengths in a report, and the invisible characters of
a segment made visible."""

from __future__ import annotations

import re
from typing import Any

MESSAGE_LIMIT = 500
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_INVISIBLE = {"\t": "⇥", "\u00a0": "⍽", "\u200b": "<U+200B>", "\ufeff": "<U+FEFF>",
              "\u2028": "<U+2028>", "\r": "␍", "\n": "↵"}


def clean_text(text: Any, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` safe for every report: at most ``limit`` characters, lone surrogates and
    control characters (NUL, ESC, ...) written as escapes, so that neither a UTF-8 writer, an
    XML document nor a terminal can be broken by what an implementation said."""
    text = str(text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


#: What ends a line for some reader (a terminal, a CI log, ``str.splitlines``, JavaScript).
_LINE_BREAKS = re.compile(r"[\n\t\u2028\u2029]")


def one_line(text: Any, limit: int | None = None) -> str:
    """``text`` safe as (part of) one line of output: :func:`clean_text`, and line breaks,
    tabs, U+2028 and U+2029 escaped too -- a case file's name or an implementation's message
    can never start a line of its own (a forged ``::warning::`` in a CI log) or split one
    line of a report in two. ``limit``: at most that many characters (default: no limit)."""
    text = clean_text(text, limit if limit is not None else max(len(str(text)), 1))
    return _LINE_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}" if ord(m.group()) > 0xff
                            else f"\\x{ord(m.group()):02x}", text)


def visible(text: str, limit: int = 10_000) -> str:
    """A segment as a reader should see it: tabs, no-break and zero-width spaces, line breaks
    and trailing spaces shown; control characters escaped."""
    for char, shown_as in _INVISIBLE.items():
        text = text.replace(char, shown_as)
    stripped = text.rstrip(" ")
    return clean_text(stripped + "·" * (len(text) - len(stripped)), limit)


def count_of(number: int, noun: str) -> str:
    """``1 group``, ``2 groups``: a count with its noun (a plain ``s`` plural)."""
    return f"{number} {noun}{'' if number == 1 else 's'}"
