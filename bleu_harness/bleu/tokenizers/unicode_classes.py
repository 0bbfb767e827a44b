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
from operator import itemgetter

#: The major classes enumerated, in one pass over every code point.
MAJOR_CLASSES = "NPSZ"


@cache
def major_letters() -> str:
    """The first letter of every code point's general category, over ``range(sys.maxunicode)``
    as ``bleu_hook`` enumerates them (one string; ``unicodedata.category`` mapped at C speed)."""
    return "".join(map(itemgetter(0), map(unicodedata.category, map(chr, range(sys.maxunicode)))))


@lru_cache(maxsize=1)
def category_ranges() -> dict[str, tuple[tuple[int, int], ...]]:
    """Runs ``(first, last)`` of code points whose category starts with each letter of
    :data:`MAJOR_CLASSES`, over ``range(sys.maxunicode)`` as ``bleu_hook`` enumerates them."""
    letters = major_letters()
    return {major: tuple((run.start(), run.end() - 1) for run in re.finditer(f"{major}+", letters))
            for major in MAJOR_CLASSES}


@cache
def character_class(major: str) -> str:
    """The inside of a ``[...]`` matching every code point of the major class ``major``
    (``"P"``: punctuation, ``"S"``: symbols, ``"N"``: numbers, ``"Z"``: separators)."""
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                   for a, b in category_ranges()[major])
