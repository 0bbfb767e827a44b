"""Sufficient statistics: one pass over tokenized segments, shared by every convention.

Every BLEU implementation the harness knows clips a hypothesis n-gram's count by its largest
count in any single reference (Papineni et al. 2002, section 2.1; NLTK ``modified_precision``;
SacreBLEU ``BLEU._extract_reference_info``). What differs between conventions is what they do
with these numbers afterwards, so the statistics keep everything a convention may need: the
clipped matches and the hypothesis n-gram count per order (raw, without NLTK's floor of one),
the hypothesis length and *every* reference length (the reference-length rule and its
tie-break belong to the convention).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SegmentStats:
    """Statistics of one hypothesis against its references, orders 1..len(matches)."""

    hyp_len: int
    ref_lens: tuple[int, ...]
    matches: tuple[int, ...]
    dropped: int = 0  # references left out before counting (SacreBLEU 1.5-2.1 drops '')

    @property
    def max_order(self) -> int:
        return len(self.matches)

    @property
    def totals(self) -> tuple[int, ...]:
        """Hypothesis n-grams per order: ``hyp_len - n + 1``, or 0 when shorter than n."""
        return hyp_ngram_counts(self.hyp_len, len(self.matches))


def hyp_ngram_counts(hyp_len: int, max_order: int) -> tuple[int, ...]:
    return tuple(hyp_len - n + 1 if hyp_len >= n else 0 for n in range(1, max_order + 1))


def _ngrams(shifted: list[Sequence[str]], n: int) -> Iterable:
    """The n-grams of a token list, given its shifted copies ``tokens[i:]``: the tokens
    themselves for n = 1 (no tuple to build), tuples otherwise."""
    return shifted[0] if n == 1 else zip(*shifted[:n])


def _repeated_top_up(common: set, hyp_grams: list, ref_grams: list[list]) -> int:
    """What clipping adds beyond one match per shared n-gram, for n-grams the hypothesis
    repeats: sum of min(count in hyp, largest count in one ref) - 1."""
    extra = 0
    for gram in common:
        count = hyp_grams.count(gram)
        if count > 1:
            best = max(grams.count(gram) for grams in ref_grams)
            extra += (count if count < best else best) - 1
    return extra


def segment_stats(
    hyp: Sequence[str], refs: Sequence[Sequence[str]], max_order: int
) -> SegmentStats:
    """Statistics of one segment for orders 1..``max_order`` (tokens already split).

    Set arithmetic first: an n-gram the hypothesis has once matches iff some reference has
    it, so ``len(hyp_set & reference n-grams)`` is the clipped count unless the hypothesis
    repeats an n-gram (its set is smaller than its n-gram count); only then are counts taken.
    Reference n-grams stream through ``set.intersection`` without being stored, and an order
    without a match ends the loop (no longer n-gram can match).
    """
    hyp_len = len(hyp)
    ref_lens = tuple(map(len, refs))
    matches = [0] * max_order
    if hyp_len and refs:
        longest = max(ref_lens)
        hyp_shifted = [hyp[i:] for i in range(min(max_order, hyp_len))]
        ref_shifted = [[ref[i:] for i in range(min(max_order, len(ref)))] for ref in refs]
        for n in range(1, min(max_order, hyp_len, longest) + 1):
            hyp_set = set(_ngrams(hyp_shifted, n))
            if len(ref_shifted) == 1:
                common = hyp_set.intersection(_ngrams(ref_shifted[0], n))
            else:
                common = set()
                for shifted in ref_shifted:
                    if len(shifted) >= n:
                        common.update(hyp_set.intersection(_ngrams(shifted, n)))
            if not common:
                break
            matched = len(common)
            if len(hyp_set) != hyp_len - n + 1:  # the hypothesis repeats an n-gram
                matched += _repeated_top_up(
                    common, list(_ngrams(hyp_shifted, n)),
                    [list(_ngrams(shifted, n)) for shifted in ref_shifted if len(shifted) >= n])
            matches[n - 1] = matched
    return SegmentStats(hyp_len, ref_lens, tuple(matches))


def corpus_stats(
    hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], max_order: int
) -> tuple[SegmentStats, ...]:
    """:func:`segment_stats` for every segment."""
    return tuple(segment_stats(h, r, max_order) for h, r in zip(hyps, refs, strict=True))
