"""fairseq-score's tokens: a line as the token ids ``libbleu`` counts, written as words.

Read from facebookresearch/fairseq@4a388e64cd646ed7d7ad8de8fae55df2b8eea91d (v0.12.2; the same
files are in the PyPI sdist ``fairseq-0.12.2.tar.gz``):

* ``fairseq_cli/score.py:47,72-73,89-90``: one ``Dictionary()`` for both files, and
  ``dict.encode_line(line)`` for each hypothesis and reference line;
* ``fairseq/tokenizer.py:9-15`` ``tokenize_line``: ``\\s+`` becomes one space, then ``strip()``
  and ``split()``;
* ``fairseq/data/dictionary.py:304-329`` ``encode_line``: ``add_if_not_exist=True``, so every
  word gets its own id (``add_symbol``, lines 125-136) -- **no word of a text becomes
  ``<unk>``** -- and ``append_eos=True`` appends ``</s>``; ``Dictionary.__init__`` (lines
  21-41) gives ``<s>``, ``<pad>``, ``</s>``, ``<unk>`` the ids 0-3, so those four *words* are
  the special ids themselves;
* ``fairseq/scoring/bleu.py:114-117`` ``Scorer.add``: the reference's ``<unk>`` ids become
  -999, so a reference ``<unk>`` matches nothing (and the hypothesis' ``<unk>``, id 3, finds
  no 3 in the reference);
* ``fairseq/clib/libbleu/libbleu.cpp:28-57`` ``bleu_trim``: leading ``<pad>`` removed; then
  trailing ``</s>`` and ``<pad>`` removed, but never the first token (``while (end > 0)``).
  With the ``</s>`` appended a line is never empty: an empty line, ``</s>`` or ``<pad>`` is
  the one token ``</s>``. (A length-0 array, which ``bleu_rtrim`` would underflow on, never
  comes from a line of text.)

Tokens stand for ids: two tokens are equal exactly when fairseq gives them the same id.
``libbleu`` compares n-grams by a 64-bit FNV-1a hash of their ids (``bleu_hash``, lines
59-71); hash collisions are not modelled. Each ``<unk>`` becomes a token no other token equals
(it holds a space, which no token of ``split()`` has, and a number drawn once per occurrence):
it counts in the lengths and never matches.
"""

from __future__ import annotations

import re
from itertools import count

#: ``fairseq/tokenizer.py:9``.
SPACE_NORMALIZER = re.compile(r"\s+")
PAD, EOS, UNK = "<pad>", "</s>", "<unk>"
_UNMATCHED = count()


def tokenize_line(line: str) -> list[str]:
    """``fairseq.tokenizer.tokenize_line``."""
    return SPACE_NORMALIZER.sub(" ", line).strip().split()


def tokenize_fairseq(text: str) -> list[str]:
    """The tokens ``libbleu``'s ``bleu_add`` counts for a line: ``encode_line`` (words, then
    ``</s>``), ``bleu_ltrim`` (leading ``<pad>``), ``bleu_rtrim`` (trailing ``</s>``/``<pad>``,
    keeping the first token), each ``<unk>`` unmatched."""
    words = [*tokenize_line(text), EOS]
    start = 0
    while start < len(words) and words[start] == PAD:
        start += 1
    words = words[start:]
    end = len(words) - 1
    while end > 0 and words[end] in (EOS, PAD):
        end -= 1
    return [f"{UNK} {next(_UNMATCHED)}" if word == UNK else word for word in words[:end + 1]]
