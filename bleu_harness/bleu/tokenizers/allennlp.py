"""allennlp's ``BLEU`` rows, written as words: each whitespace word is one token id, and the
ids ``exclude_indices`` names are left out.

allennlp's ``BLEU.__call__`` takes token-id tensors (allenai/allennlp@80fb6061
``allennlp/training/metrics/bleu.py:99-149``). The harness hands it one row per segment: every
``str.split()`` word has its own id, as a ``Vocabulary`` that has seen the text gives it; the
words ``@@PADDING@@`` and ``@@UNKNOWN@@`` are the padding and OOV ids 0 and 1
(``allennlp/data/vocabulary.py:28-29, 94-98``), so padding is written as that word.

With ``exclude_indices`` (``bleu.py:136-146``, ``allennlp/training/util.py:503-524``):

* ``get_valid_tokens_mask`` leaves the excluded ids out of both lengths;
* ``ngrams`` skips every n-gram that holds an excluded id.

At the ends of a row (padding, ``@start@``, ``@end@``) that is the row without those words,
which is what this tokenizer gives. An excluded word *between* two others is declined
(:class:`~bleu_harness.bleu.result.ConventionDeclined`, with the reason): allennlp forms no
n-gram across it, the words without it would, and the statistics hold one token list per
segment.
"""

from __future__ import annotations

from dataclasses import dataclass

from bleu_harness.bleu.result import ConventionDeclined

#: ``DEFAULT_PADDING_TOKEN`` and ``DEFAULT_OOV_TOKEN`` (``allennlp/data/vocabulary.py:28-29``),
#: indices 0 and 1 of a padded namespace (lines 94-98).
PADDING, OOV = "@@PADDING@@", "@@UNKNOWN@@"
RESERVED_INDICES = {0: PADDING, 1: OOV}


@dataclass(frozen=True)
class WithoutExcluded:
    """``str.split()`` words without the ``excluded`` ones (a value: hashable, picklable,
    so that equal options share their statistics)."""

    excluded: tuple[str, ...]

    def __call__(self, text: str) -> list[str]:
        excluded = self.excluded
        words = text.split()
        kept = [i for i, token in enumerate(words) if token not in excluded]
        if kept and kept[-1] - kept[0] + 1 > len(kept):  # an excluded word between two kept
            raise ConventionDeclined("allennlp", "an excluded word between two others: "
                                     "allennlp forms no n-gram across it (ngrams, "
                                     "allennlp/training/util.py:503-524), which the "
                                     "engine does not model")
        return [words[i] for i in kept]

    def describe(self) -> str:
        return "allennlp-exclude:" + ",".join(self.excluded)
