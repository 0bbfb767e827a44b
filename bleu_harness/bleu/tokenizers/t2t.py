"""Tensor2Tensor's tokenizer: ``bleu_hook.bleu_tokenize``, the mteval-v14 rules re-implemented
with character classes enumerated from ``unicodedata``."""

from __future__ import annotations

import re
from functools import lru_cache

from bleu_harness.bleu.tokenizers.unicode_classes import character_class


@lru_cache(maxsize=1)
def _t2t_patterns():
    """Tensor2Tensor ``bleu_hook.UnicodeRegex``: character classes enumerated from
    ``unicodedata`` (categories P* and S*), with Python's ``\\d`` (decimal digits only, where
    mteval-v14 has ``\\p{N}``). Written as ranges, which match the same characters as
    T2T's list of every character."""
    punctuation, symbols = character_class("P"), character_class("S")
    return (
        (re.compile(r"([^\d])([" + punctuation + r"])"), r"\1 \2 "),
        (re.compile(r"([" + punctuation + r"])([^\d])"), r" \1 \2"),
        (re.compile("([" + symbols + "])"), r" \1 "),
    )


def tokenize_t2t(text: str) -> list[str]:
    """Tensor2Tensor ``bleu_hook.bleu_tokenize`` (the mteval-v14 rules, re-implemented)."""
    for pattern, replacement in _t2t_patterns():
        text = pattern.sub(replacement, text)
    return text.split()


