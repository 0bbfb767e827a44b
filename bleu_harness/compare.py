"""Comparing an actual float with an expected value as its source printed it (whether two
computed scores agree: :mod:`bleu_harness.bleu.agreement`).

* ``exact``: bit-equal (the source printed the full ``repr``);
* ``printed``: within half a unit in the last printed digit (``0.7825`` holds to 5e-5;
  ``1.2882297539194154e-231`` to 5e-247); a trailing ``...`` (a doctest ELLIPSIS) means the
  actual ``repr`` starts with the printed digits;
* a number: an explicit absolute tolerance.

An integer as printed (``0``, ``1``: NLTK returns the int 0, MATLAB's rules say "zero") is
exact: there are no digits to round.

NaN equals NaN; a tiny positive value (NLTK's 1e-77 family) is not zero.
"""

from __future__ import annotations

import math
from decimal import Decimal

ELLIPSIS = "..."


def is_full_repr(text: str) -> bool:
    """True when ``text`` is exactly how Python prints some float (its shortest repr), or an
    integer."""
    try:
        return repr(float(text)) == text or is_integer_literal(text)
    except ValueError:
        return False


def is_integer_literal(text: str) -> bool:
    return text.lstrip("-").isdigit()


def expected_float(text: str) -> float:
    return float(text[: -len(ELLIPSIS)] if text.endswith(ELLIPSIS) else text)


def matches(actual: float, expected: str, compare: str | float = "printed") -> bool:
    if expected == "NaN" or math.isnan(actual):
        return expected == "NaN" and math.isnan(actual)
    if isinstance(compare, float):
        return abs(actual - expected_float(expected)) <= compare
    if compare == "exact" or is_integer_literal(expected):
        return actual == float(expected)
    if expected.endswith(ELLIPSIS):
        return repr(float(actual)).startswith(expected[: -len(ELLIPSIS)])
    if actual == float(expected):
        return True
    exact_difference = abs(Decimal(repr(float(actual))) - Decimal(expected))
    return exact_difference <= Decimal(5) * Decimal(10) ** (Decimal(expected).as_tuple().exponent - 1)


def difference(actual: float, expected: str) -> float | None:
    """``actual - expected`` where both are finite numbers, else ``None``."""
    if expected == "NaN" or math.isnan(actual):
        return None
    try:
        result = actual - expected_float(expected)
    except (ValueError, OverflowError):
        return None
    return result if math.isfinite(result) else None
