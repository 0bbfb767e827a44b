"""Tensor2Tensor's tokenizer: ``bleu_hook.bleu_tokenize``, the mteval-v14 rules re-implemented
with character classes enumerated from ``unicodedata``.

T2T pastes every character of a class, unescaped and in code point order, between ``[`` and
``]`` (``UnicodeRegex.__init__``, tensor2tensor 1.15.7 ``utils/bleu_hook.py:158-169``): so
the backslash escapes the ``]`` after it and is itself neither punctuation nor symbol there
(``"a\\b"`` stays one token). The classes here are built the same way, so they match the
characters T2T's do.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from bleu_harness.bleu.tokenizers.unicode_classes import category_ranges


@cache
def pasted_class(major: str) -> str:
    """Every code point of the major class ``major``, unescaped, as ``bleu_hook`` pastes
    them into ``[...]`` (``property_chars``: ``range(sys.maxunicode)``, ``startswith``)."""
    return "".join(chr(c) for first, last in category_ranges()[major]
                   for c in range(first, last + 1))


@cache
def t2t_class_of(major: str) -> frozenset[int]:
    """The code points T2T's class for ``major`` (``"P"`` or ``"S"``) matches: its own
    characters but a backslash that escapes its neighbour, plus what a pasted ``-`` makes a
    range of (``,-.`` in ``P``): the candidates and ASCII, each tested against the pasted
    class once."""
    pattern = re.compile("[" + pasted_class(major) + "]")
    candidates = {c for first, last in category_ranges()[major] for c in range(first, last + 1)}
    return frozenset(c for c in candidates | set(range(128)) if pattern.fullmatch(chr(c)))


def class_pattern(code_points: frozenset[int]) -> str:
    """A regular expression matching one character of ``code_points``, as fast as ``re``
    allows: ``re`` compiles a class holding a character above U+FFFF into a list it scans
    for every character tried (a pasted T2T class: about 1 ms a line), and a class within
    the BMP into a table. So the BMP part is one class, and the rest is tried only after a
    cheap look at whether the character is above U+FFFF at all."""
    def ranges(points: list[int]) -> str:
        out, i = [], 0
        while i < len(points):
            j = i
            while j + 1 < len(points) and points[j + 1] == points[j] + 1:
                j += 1
            first, last = re.escape(chr(points[i])), re.escape(chr(points[j]))
            out.append(first if i == j else f"{first}-{last}")
            i = j + 1
        return "".join(out)

    bmp = sorted(c for c in code_points if c <= 0xFFFF)
    astral = sorted(c for c in code_points if c > 0xFFFF)
    alternatives = [f"[{ranges(bmp)}]"] if bmp else []
    if astral:
        alternatives.append(f"(?=[\U00010000-\U0010FFFF])[{ranges(astral)}]")
    return "(?:" + "|".join(alternatives) + ")"


@lru_cache(maxsize=1)
def _t2t_patterns():
    """Tensor2Tensor ``bleu_hook.UnicodeRegex``, with Python's ``\\d`` (decimal digits only,
    where mteval-v14 has ``\\p{N}``); each pasted class as the code points it matches
    (:func:`t2t_class_of`), written so that ``re`` looks them up in a table."""
    punctuation, symbols = class_pattern(t2t_class_of("P")), class_pattern(t2t_class_of("S"))
    return (
        (re.compile(r"([^\d])(" + punctuation + ")"), r"\1 \2 "),
        (re.compile("(" + punctuation + r")([^\d])"), r" \1 \2"),
        (re.compile("(" + symbols + ")"), r" \1 "),
    )


def tokenize_intl_unicodedata(text: str) -> list[str]:
    """SacreBLEU 1.x ``intl`` (``tokenizer_intl``: the ``unicodedata`` classes T2T
    enumerates) after the ``rstrip`` 1.x applies to every line before tokenizing."""
    return tokenize_t2t(text.rstrip())


def tokenize_t2t(text: str) -> list[str]:
    """Tensor2Tensor ``bleu_hook.bleu_tokenize`` (the mteval-v14 rules, re-implemented)."""
    for pattern, replacement in _t2t_patterns():
        text = pattern.sub(replacement, text)
    return text.split()
