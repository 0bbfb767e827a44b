"""Marian's BLEU validators' tokens (marian-nmt/marian-dev@46c94a58fd43
``src/training/validator.h``).

* ``marian-words`` (``--valid-metrics bleu``): the validator counts the target
  vocabulary's word ids. A line becomes ids by ``DefaultVocab::encode`` --
  ``utils::split(line, " ")`` (``src/data/default_vocab.cpp:58-61``, ``src/common/utils.cpp``:
  single spaces separate, empty pieces dropped, a tab is part of a word) -- and the
  reference's ids end at its first end-of-sentence id (``updateStats``, validator.h:771-789:
  ``if(w == eos) break;``), which the word ``</s>`` is (``DEFAULT_EOS_STR``,
  ``src/data/types.h``); the decoder's hypothesis ends at its EOS too, so a ``</s>`` ends
  either line here. (A word the vocabulary does not know becomes ``<unk>``, which matches a
  hypothesis ``<unk>``: there is no vocabulary here, every word is known.)
* ``marian-13a`` (``--valid-metrics bleu-detok``): ``BleuValidator::tokenize``
  (validator.h:698-722), "adapted from multi-bleu-detok.pl": ``<skipped>``, ``-`` + line
  break, line breaks and ``&quot; &amp; &lt; &gt;`` replaced in that order; the line padded
  with a space on each side; SacreBLEU 13a's four rules (punctuation and symbols; ``.`` and
  ``,`` unless after, resp. before, a digit; ``-`` after a digit) with ``std::regex``
  (ECMAScript, on the bytes of the UTF-8 text: no rule can split a multi-byte character, so
  the tokens are those of the same rules on code points); ``\\s+`` to one space, then the
  leading and trailing ``\\s`` removed -- ``std::regex``'s ``\\s`` is the C locale's
  ``isspace``: space, ``\\t \\n \\v \\f \\r`` (not U+00A0 or other Unicode spaces, which
  SacreBLEU's Python ``\\s`` takes) -- and ``utils::splitAny(..., " ")``. The text is what
  the target vocabulary decodes the ids to (SentencePiece normalises text on the way in:
  not modelled, the text given is the decoded text).
"""

from __future__ import annotations

import re

from bleu_harness.bleu.tokenizers.kerashub import REPLACE_SUBSTRINGS

# validator.h:713-716 are SacreBLEU 13a's four rules to the letter (``$1`` written ``\1``).
from bleu_harness.bleu.tokenizers.sacrebleu import _V13A_RULES

#: ``std::regex``'s ``\s`` in the classic C locale.
_C_SPACE = re.compile("[ \t\n\v\f\r]+")
EOS = "</s>"


def tokenize_marian_words(line: str) -> list[str]:
    """``utils::split(line, " ")``, up to the first ``</s>``."""
    words = [word for word in line.split(" ") if word]
    return words[:words.index(EOS)] if EOS in words else words


def tokenize_marian_13a(line: str) -> list[str]:
    """``BleuValidator::tokenize``, then ``utils::splitAny(..., " ")``."""
    for old, new in REPLACE_SUBSTRINGS:  # validator.h:703-709: the same seven, in order
        line = line.replace(old, new)
    line = f" {line} "
    for pattern, rewrite in _V13A_RULES:
        line = pattern.sub(rewrite, line)
    return [token for token in _C_SPACE.split(line) if token]
