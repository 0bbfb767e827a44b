"""Character classes by Unicode general category, from Python's ``unicodedata``.

Python 3.11's ``unicodedata`` has Unicode 14.0.0, the version of Perl 5.36's tables (each
class checked code point by code point against Perl) -- where the ``regex`` module carries
its own, newer tables. Tensor2Tensor enumerates its classes the same way
(``bleu_hook.UnicodeRegex``), over ``range(sys.maxunicode)``.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import cache, lru_cache

#: The major classes enumerated, in one pass over every code point.
MAJOR_CLASSES = "NPSZ"


@lru_cache(maxsize=1)
def category_ranges() -> dict[str, tuple[tuple[int, int], ...]]:
    """Runs ``(first, last)`` of code points whose category starts with each letter of
    :data:`MAJOR_CLASSES`, over ``range(sys.maxunicode)`` as ``bleu_hook`` enumerates them."""
    category = unicodedata.category
    runs: dict[str, list[tuple[int, int]]] = {p: [] for p in MAJOR_CLASSES}
    current: dict[str, list[int]] = {}
    for x in range(sys.maxunicode):
        c = category(chr(x))[0]
        if c in runs:
            run = current.get(c)
            if run is not None and run[1] == x - 1:
                run[1] = x
            else:
                if run is not None:
                    runs[c].append((run[0], run[1]))
                current[c] = [x, x]
    for c, run in current.items():
        runs[c].append((run[0], run[1]))
    return {c: tuple(r) for c, r in runs.items()}


@cache
def character_class(major: str) -> str:
    """The inside of a ``[...]`` matching every code point of the major class ``major``
    (``"P"``: punctuation, ``"S"``: symbols, ``"N"``: numbers, ``"Z"``: separators)."""
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                   for a, b in category_ranges()[major])
