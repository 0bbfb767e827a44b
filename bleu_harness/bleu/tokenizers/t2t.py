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


@lru_cache(maxsize=1)
def _t2t_patterns():
    """Tensor2Tensor ``bleu_hook.UnicodeRegex``, with Python's ``\\d`` (decimal digits only,
    where mteval-v14 has ``\\p{N}``)."""
    punctuation, symbols = pasted_class("P"), pasted_class("S")
    return (
        (re.compile(r"([^\d])([" + punctuation + r"])"), r"\1 \2 "),
        (re.compile(r"([" + punctuation + r"])([^\d])"), r" \1 \2"),
        (re.compile("([" + symbols + "])"), r" \1 "),
    )


@cache
def t2t_class_of(major: str) -> frozenset[int]:
    """The code points T2T's class for ``major`` (``"P"`` or ``"S"``) matches: its own
    characters but a backslash that escapes its neighbour (for the C pass's table)."""
    pattern = re.compile("[" + pasted_class(major) + "]")
    candidates = {c for first, last in category_ranges()[major] for c in range(first, last + 1)}
    return frozenset(c for c in candidates | set(range(128)) if pattern.fullmatch(chr(c)))


def tokenize_intl_unicodedata(text: str) -> list[str]:
    """SacreBLEU 1.x ``intl`` (``tokenizer_intl``: the ``unicodedata`` classes T2T
    enumerates) after the ``rstrip`` 1.x applies to every line before tokenizing."""
    return tokenize_t2t(text.rstrip())


def tokenize_t2t(text: str) -> list[str]:
    """Tensor2Tensor ``bleu_hook.bleu_tokenize`` (the mteval-v14 rules, re-implemented)."""
    for pattern, replacement in _t2t_patterns():
        text = pattern.sub(replacement, text)
    return text.split()
