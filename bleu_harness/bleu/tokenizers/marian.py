"""Marian's BLEU validators' tokens (marian-nmt/marian-dev@46c94a58fd43
``src/training/validator.h``, Marian v1.7.8; the later ones at 65bf82ffce52, v1.12.0).

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
* ``marian-13a-cjk`` (``bleu-detok`` from Marian 1.8.0; ``bleu`` and ``bleu-detok`` with a
  SentencePiece vocabulary from 1.10.0): ``marian-13a``'s text, then
  ``tokenizeContinuousScript`` (65bf82ff ``src/training/validator.h:261-279``, added in
  d7f7d292 as ``bleu-detok-ms``): each code point of a continuous script -- the hand-made
  table of ``utils::isContinuousScript`` (``src/common/utils.cpp:271-287``, the same from
  1.8.0 to master: Han ranges, Kana and Thai, no Hangul) -- gets a space on each side, and
  ``utils::splitAny(..., " ")`` splits (validator.cpp:569-589).
* ``marian-segmented`` (``--valid-metrics bleu-segmented``, Marian 1.10.0 on): the word ids
  of ``marian-words``, and the hypothesis keeps the EOS id the beam search ended it with
  (``Hypothesis::tracebackWords`` includes the final word): ``SacreBleuValidator``'s
  ``updateStats`` counts every n-gram of ``cand`` (validator.h:299-336, no ``cand.size() - 1``
  any more) while the reference still ends before its EOS (validator.cpp:603-620), so every
  hypothesis has one more unigram -- ``</s>``, which never matches -- one more n-gram of each
  order it reaches, and one more word of length (an empty hypothesis is one word long). A
  hypothesis tokenized differently from its references: a
  :class:`~bleu_harness.bleu.tokenizers.roles.ByRole`.
"""

from __future__ import annotations

import re

from bleu_harness.bleu.tokenizers.kerashub import REPLACE_SUBSTRINGS
from bleu_harness.bleu.tokenizers.roles import ByRole

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


#: ``utils::isContinuousScript`` (marian-nmt/marian-dev@65bf82ffce52
#: ``src/common/utils.cpp:271-287``): its closed ranges of Han, Kana and Thai code points.
CONTINUOUS_SCRIPT = (
    (0x2E80, 0x2E99), (0x2E9B, 0x2EF3), (0x2F00, 0x2FD5), (0x3005, 0x3005), (0x3007, 0x3007),
    (0x3021, 0x3029), (0x3038, 0x303A), (0x303B, 0x303B), (0x3200, 0x32FF), (0x3400, 0x4DB5),
    (0x4E00, 0x9FEF), (0xF900, 0xFA6D), (0xFA70, 0xFAD9), (0x20000, 0x2A6D6),
    (0x2A700, 0x2B734), (0x2B740, 0x2B81D), (0x2B820, 0x2CEA1), (0x2CEB0, 0x2EBE0),
    (0x2F800, 0x2FA1D),  # Han
    (0x3040, 0x30FF), (0x1B000, 0x1B0FF), (0x1B130, 0x1B16F),  # Kana
    (0x0E00, 0x0E7F),  # Thai
)


#: One continuous-script character (:data:`CONTINUOUS_SCRIPT` as a character class).
_CONTINUOUS = re.compile("([" + "".join(f"{chr(low)}-{chr(high)}"
                                         for low, high in CONTINUOUS_SCRIPT) + "])")


def tokenize_marian_13a_cjk(line: str) -> list[str]:
    """``tokenize``, ``tokenizeContinuousScript``, then ``utils::splitAny(..., " ")``: the
    ``marian-13a`` tokens with each continuous-script character a token of its own."""
    return [part for token in tokenize_marian_13a(line)
            for part in _CONTINUOUS.split(token) if part]


def tokenize_marian_segmented_hypothesis(line: str) -> list[str]:
    """A hypothesis's word ids as ``bleu-segmented`` counts them: up to ``</s>``, and the
    ``</s>`` the beam search ended it with."""
    return [*tokenize_marian_words(line), EOS]


#: ``bleu-segmented`` (Marian 1.10.0 on): the hypothesis keeps its EOS, the reference not.
MARIAN_SEGMENTED = ByRole(hypothesis=tokenize_marian_segmented_hypothesis,
                          reference=tokenize_marian_words)
