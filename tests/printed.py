"""Compare a float with a number as a document printed it."""

from __future__ import annotations

from decimal import Decimal


def matches_printed(value: float, printed: str) -> bool:
    """True when ``value`` is what ``printed`` shows.

    ``0.5920...`` (a doctest ELLIPSIS) means ``repr(value)`` starts with ``0.5920``; a plain
    number with few digits (``0.7825``) holds to half a unit in its last digit; a full
    ``repr`` (``0.5882352941176471``) must be exactly that float.
    """
    for ellipsis in ("...", "\u2026"):
        if printed.endswith(ellipsis):
            return repr(float(value)).startswith(printed[: -len(ellipsis)])
    if float(printed).hex() == float(value).hex():
        return True
    exponent = Decimal(printed).as_tuple().exponent
    return abs(Decimal(repr(float(value))) - Decimal(printed)) <= Decimal(5) * Decimal(10) ** (exponent - 1)
