"""SacreBLEU's ``zh`` tokenizer (``sacrebleu/tokenizers/tokenizer_zh.py``, by Shujian Huang):
``strip``, a space either side of every "Chinese character", then the four 13a punctuation
rules (no entities, no ``-\\n`` join) and a split on whitespace.

"Chinese" is a list of ranges compared as strings. Two of them were meant as supplementary
planes (``u'\\u20000'``, ``u'\\u2f800'``) but a ``\\u`` escape takes four hex digits, so each
bound is two characters (U+2000 then ``0``); a one-character string lies between them exactly
when its code point is in U+2001-U+2A6D or U+2F81-U+2FA1. So general punctuation, arrows and
math symbols are "Chinese" here, and the supplementary ideographs are not -- the tokenizer
is followed as it is (every code point checked against SacreBLEU's, tests/test_tokenizers.py).
"""

from __future__ import annotations

import re

from bleu_harness.bleu.tokenizers.sacrebleu import _V13A_RULES

#: The code points ``TokenizerZh._is_chinese_char`` accepts, as inclusive ranges.
CHINESE_RANGES = (
    (0x3400, 0x4DB5), (0x4E00, 0x9FA5), (0x9FA6, 0x9FBB), (0xF900, 0xFA2D), (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0x2001, 0x2A6D),  # written '\u20000'..'\u2a6d6': U+2000 '0' .. U+2A6D '6'
    (0x2F81, 0x2FA1),  # written '\u2f800'..'\u2fa1d': U+2F80 '0' .. U+2FA1 'd'
    (0xFF00, 0xFFEF), (0x2E80, 0x2EFF), (0x3000, 0x303F), (0x31C0, 0x31EF), (0x2F00, 0x2FDF),
    (0x2FF0, 0x2FFF), (0x3100, 0x312F), (0x31A0, 0x31BF), (0xFE10, 0xFE1F), (0xFE30, 0xFE4F),
    (0x2600, 0x26FF), (0x2700, 0x27BF), (0x3200, 0x32FF), (0x3300, 0x33FF),
)
_CHINESE = re.compile("[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                                    for a, b in CHINESE_RANGES) + "]")


def tokenize_zh(text: str) -> list[str]:
    """SacreBLEU ``zh`` (after the ``rstrip`` its ``BLEU`` applies; the tokenizer strips)."""
    line = _CHINESE.sub(r" \g<0> ", text.strip())
    for pattern, replacement in _V13A_RULES:
        line = pattern.sub(replacement, line)
    return line.split()
