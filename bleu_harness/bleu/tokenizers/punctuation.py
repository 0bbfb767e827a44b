"""ASCII punctuation to spaces, then ``str.split()``: jury's ``DefaultTokenizer`` without its
case folding (obss/jury@c8d32259 ``jury/utils/nlp.py:5-11`` ``normalize_text``:
``re.sub("[" + re.escape(string.punctuation) + "]", " ", text)``, ``" ".join(text.split())``,
then ``.lower()``; ``jury/tokenizer.py:7-9`` splits the result). Only the 32 characters of
``string.punctuation`` are replaced: ``«``, ``’`` or ``—`` stay inside their words, and
``don't`` is two tokens. The lowercasing is the convention's case knob (``str.lower`` first:
it neither makes nor removes a space or an ASCII punctuation mark, so the order does not
matter)."""

from __future__ import annotations

import re
import string

#: ``normalize_text``'s pattern.
ASCII_PUNCTUATION = re.compile("[%s]" % re.escape(string.punctuation))


def tokenize_ascii_punct_split(text: str) -> list[str]:
    """``text`` with each ASCII punctuation character a space, split on whitespace."""
    return ASCII_PUNCTUATION.sub(" ", text).split()
