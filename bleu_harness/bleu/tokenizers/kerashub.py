"""keras-hub ``Bleu``'s default tokenizer, its own port of SacreBLEU's 13a in RE2 regexes
(keras-team/keras-hub@71453d08f59e ``keras_hub/src/metrics/bleu.py:18-42`` and
``Bleu._tokenizer``, lines 149-166), and ``tf.strings.split`` alone.

``_tokenizer`` runs each ``(pattern, rewrite)`` of ``REPLACE_SUBSTRINGS + REGEX_PATTERNS``
through ``tf.strings.regex_replace(..., replace_global=True)`` -- RE2's
``RE2::GlobalReplace`` on each string (tensorflow/tensorflow@dfd50c949890
``tensorflow/core/kernels/regex_replace_op.cc``: its return value is ignored) -- then
``tf.strings.split`` with no separator. Unlike SacreBLEU's ``Tokenizer13a`` (and Hugging
Face's copy) the line is **not** padded with spaces first (SacreBLEU runs its regexes on
``f" {line} "``), and of its rules:

* ``<skipped>`` removed, ``-`` + line break removed, line breaks to spaces, ``&quot;``,
  ``&amp;``, ``&lt;``, ``&gt;`` unescaped, in that order (literal patterns: a global regex
  replace of a literal is ``str.replace``);
* ``([\\{-\\~\\[-\\` -\\&\\(-\\+\\:-\\@\\/])`` -> `` \\1 ``: ASCII punctuation and symbols split
  off (RE2 and Python read the escaped punctuation in the class alike: a backslash before a
  non-word ASCII character is that character, RE2 ``re2/parse.cc`` "Escaped non-word
  characters are always themselves");
* ``([^0-9])([\\.,])`` -> ``\\1 \\2 `` and ``([\\.,])([^0-9])`` -> `` \\1 \\2``: a full stop or
  comma split off unless a digit precedes, resp. follows -- with no padding a ``.`` or ``,``
  at the very start or end of the line has no character on that side, so ``5.`` at the end
  of a line stays one token (SacreBLEU: ``5 .``) and ``.5`` at the start too;
* ``([0-9])(-)`` -> ``\\1 \\2 ``;
* ``[\\.,]$`` -> `` \\0 \\1`` **does nothing**: the rewrite names group 1 and the pattern has
  no group, and ``RE2::GlobalReplace`` then returns 0 without touching the string
  (google/re2 ``re2/re2.cc``: ``nvec = 1 + MaxSubmatch(rewrite); if (nvec > 1 +
  re.NumberOfCapturingGroups()) return false;``). (Python's ``re.sub`` would raise "invalid
  group reference 1" there, and read ``\\0`` as the character U+0000.)
* ``\\s+`` -> `` ``: RE2's ``\\s`` is ``[\\t\\n\\f\\r ]`` only (google/re2 ``doc/syntax.txt``),
  not Python's Unicode ``\\s`` (no ``\\v``, no U+00A0, U+3000, ...);
* ``tf.strings.split(inputs)``: runs of ASCII whitespace separate (TensorFlow's
  ``SplitV2`` with an empty separator: ``str_util::ConsumeNonWhitespace``, C ``isspace`` on
  each byte: space, ``\\t \\n \\v \\f \\r``), so a vertical tab separates and U+00A0 does not.
  Python's ``bytes.split()`` is exactly that set; ``str.split()`` is not (it also splits on
  U+001C-U+001F, U+0085, U+00A0, U+2000...).

Every pattern here matches at least one character, so RE2's and Python's handling of empty
matches (which differ) never arises; ``[^0-9]`` matches any one code point in both (RE2 in
UTF-8 mode, with ``ClassNL``: a negated class matches a line break, as Python's does).
"""

from __future__ import annotations

import re

from bleu_harness.bleu.tokenizers.sacrebleu import _V13A_RULES

#: ``REPLACE_SUBSTRINGS`` (lines 18-26), in order: literal patterns.
REPLACE_SUBSTRINGS = (
    ("<skipped>", ""),
    ("-\n", ""),
    ("\n", " "),
    ("&quot;", '"'),
    ("&amp;", "&"),
    ("&lt;", "<"),
    ("&gt;", ">"),
)

#: ``REGEX_PATTERNS`` (lines 29-42) that change a string are SacreBLEU 13a's four rules to the
#: letter, which Python's ``re`` reads as RE2 does (``_V13A_RULES``); the fifth (``[\.,]$``,
#: a no-op under RE2) is left out, and the last (``\s+`` with RE2's ``\s``) changes no token
#: after the split on ASCII whitespace.

#: What C ``isspace`` is true for in the C locale (``tf.strings.split``'s separators).
_ASCII_WHITESPACE = re.compile("[ \t\n\v\f\r]+")


def tokenize_tf_split(line: str) -> list[str]:
    """``tf.strings.split(line)``: the pieces between runs of ASCII whitespace."""
    return [token for token in _ASCII_WHITESPACE.split(line) if token]


def tokenize_keras_13a(line: str) -> list[str]:
    """keras-hub ``Bleu._tokenizer`` with ``tokenizer=None``."""
    for old, new in REPLACE_SUBSTRINGS:
        line = line.replace(old, new)
    for pattern, rewrite in _V13A_RULES:
        line = pattern.sub(rewrite, line)
    return tokenize_tf_split(line)
