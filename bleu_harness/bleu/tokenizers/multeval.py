"""MultEval's tokens (jhclark/multeval@bd93ed16): no tokenization, a split on Guava's
``CharMatcher.BREAKING_WHITESPACE`` that keeps empty strings, two ways.

* ``multeval-eval``: as ``multeval eval`` reads its files. ``HypothesisManager.loadSentences``
  (``src/multeval/HypothesisManager.java:107-125``) passes each line through
  ``StringUtils.normalizeWhitespace`` (``src/multeval/util/StringUtils.java:7-11``):
  ``WHITESPACE.matcher(sent.trim()).replaceAll(" ")`` with ``Pattern.compile("\\\\s+")`` --
  Java's ``String.trim()`` removes every character up to U+0020 from both ends, and Java's
  ``\\s`` is ``[ \\t\\n\\x0B\\f\\r]`` only. Then ``BLEU.stats`` splits.
* ``guava-breaking-whitespace``: ``multeval.metrics.BLEU.stats(hyp, refs)`` called on the
  strings as they are (``src/multeval/metrics/BLEU.java:33-49``).

The split: ``Splitter.on(CharMatcher.BREAKING_WHITESPACE).split(s)``, without
``omitEmptyStrings``, so every separator character ends a token: two separators make an empty
token, a leading or trailing one an empty token at that end, and an empty line is one empty
token ``[""]``. ``BREAKING_WHITESPACE`` is U+0009-U+000D, U+0020, U+0085, U+1680,
U+2000-U+2006, U+2008-U+200A, U+2028, U+2029, U+205F, U+3000 (not U+00A0, U+2007, U+202F):
Guava 11.0 (the jar MultEval ships, ``lib/guava-11.0.jar``) and 31.1 (Debian's
``libguava-java``) match the same characters, checked over every UTF-16 unit.

So after ``eval``'s normalisation ASCII whitespace never makes an empty token, but the other
separators still do (``"a\\u3000\\u3000b"`` is ``["a", "", "b"]``), and an empty (or blank)
line is one empty token.
"""

from __future__ import annotations

import re

#: ``CharMatcher.BREAKING_WHITESPACE`` (Guava 11.0 and 31.1).
BREAKING_WHITESPACE = ("\t\n\x0b\x0c\r \x85\u1680" + "".join(map(chr, range(0x2000, 0x2007)))
                       + "\u2008\u2009\u200a\u2028\u2029\u205f\u3000")
_SPLIT = re.compile("[" + re.escape(BREAKING_WHITESPACE) + "]")
#: Java's ``String.trim()``: every character up to U+0020.
_JAVA_TRIMMED = "".join(map(chr, range(0x21)))
#: Java's ``\\s+`` without ``UNICODE_CHARACTER_CLASS``.
_JAVA_WHITESPACE = re.compile("[ \t\n\x0b\x0c\r]+")


def tokenize_guava_breaking_whitespace(text: str) -> list[str]:
    """``Splitter.on(CharMatcher.BREAKING_WHITESPACE).split(text)``, empty strings kept."""
    return _SPLIT.split(text)


def normalize_whitespace(text: str) -> str:
    """``StringUtils.normalizeWhitespace``: ``trim()``, then ``\\s+`` -> one space."""
    return _JAVA_WHITESPACE.sub(" ", text.strip(_JAVA_TRIMMED))


def tokenize_multeval_eval(text: str) -> list[str]:
    """A line as ``multeval eval`` scores it: normalised, then split."""
    return _SPLIT.split(normalize_whitespace(text))
