"""The expected side of a check in words: the one copy the views share (terminal, Markdown,
JUnit, HTML, the run diff and the pytest plugin).

The rule: the expected side of an expectation or drift check is a recorded value, and its
provenance says where it came from (:func:`origin`); the expected side of a differential
or divergence check is another implementation's answer, and the record names that
implementation (``other``): its name follows the value, ``0.5 (sacrebleu)``, and the check
is "vs sacrebleu". (Before, the terminal, Markdown, JUnit messages and the pytest plugin
named it for differential checks only, the HTML report, the diff and JUnit test names for
any check but an expectation.)
"""

from __future__ import annotations

from collections.abc import Mapping

from bleu_harness.records import EXPECTATION, CheckRecord, shown


def other_side(record: CheckRecord) -> str:
    """Whose answer the expected side is: the other implementation or convention of a
    differential or divergence check; ``""`` where it is a recorded value."""
    return record.other if record.other and record.check != EXPECTATION else ""


def expected_shown(record: CheckRecord) -> str:
    """The expected side: ``0.5``, ``raises ValueError``, or ``0.5 (sacrebleu)``."""
    other = other_side(record)
    return f"{record.expected} ({other})" if other else str(record.expected)


def versus(record: CheckRecord) -> str:
    """`` vs sacrebleu`` after the name of a check against another answer, else ``""``."""
    other = other_side(record)
    return f" vs {other}" if other else ""


def difference_shown(record: CheckRecord) -> str:
    return "" if record.difference is None else f"{record.difference:+.3g}"


def comparison(record: CheckRecord, separator: str = "   ") -> str:
    """``expected 0.5   actual 0.4   difference -0.1`` (the difference where there is one)."""
    parts = [f"expected {expected_shown(record)}", f"actual {shown(record.actual)}"]
    if record.difference is not None:
        parts.append(f"difference {difference_shown(record)}")
    return separator.join(parts)


def _fields(provenance: object) -> dict[str, str]:
    """The provenance's fields as text (a stream from elsewhere may hold any JSON there)."""
    if not isinstance(provenance, Mapping):
        return {}
    return {str(k): str(v) for k, v in provenance.items() if v not in (None, "")}


def origin(provenance: Mapping[str, str] | None) -> str:
    """Where a recorded value came from: ``source · where · issue · library version``
    (what the case's provenance has of them); its ``url`` is :func:`origin_url`."""
    p = _fields(provenance)
    library = " ".join(filter(None, (p.get("library"), p.get("version")))) if p.get(
        "library") else ""
    return " · ".join(filter(None, (p.get("source"), p.get("where"), p.get("issue"), library)))


def origin_url(provenance: Mapping[str, str] | None) -> str:
    return _fields(provenance).get("url", "")


def origin_text(provenance: Mapping[str, str] | None) -> str:
    """:func:`origin` with its address, for views without links (JUnit, pytest)."""
    return " · ".join(filter(None, (origin(provenance), origin_url(provenance))))
