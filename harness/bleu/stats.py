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

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat


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


def _ngrams(shifted: Sequence[Sequence[str]], n: int) -> Iterable:
    """The n-grams of a token list, given its shifted copies ``tokens[i:]``: the tokens
    themselves for n = 1 (no tuple to build), tuples otherwise."""
    return shifted[0] if n == 1 else zip(*shifted[:n])


def _clipped_with_repeats(hyp_grams: list, hyp_set: set, ref_grams: list[Iterable]) -> int:
    """Clipped matches when the hypothesis repeats an n-gram: sum over shared n-grams of
    min(count in the hypothesis, largest count in one reference). One ``Counter`` per side,
    so linear in the segment's length (``list.count`` per n-gram was quadratic)."""
    hyp_counts = Counter(hyp_grams)
    ref_counts = [Counter(grams) for grams in ref_grams]
    common = hyp_set.intersection(ref_counts[0])
    for counts in ref_counts[1:]:
        common.update(hyp_set.intersection(counts))
    if len(ref_counts) == 1:
        best = map(ref_counts[0].__getitem__, common)
    else:
        best = map(max, *[map(counts.get, common, repeat(0)) for counts in ref_counts])
    return sum(map(min, map(hyp_counts.__getitem__, common), best))


def segment_stats(
    hyp: Sequence[str], refs: Sequence[Sequence[str]], max_order: int
) -> SegmentStats:
    """Statistics of one segment for orders 1..``max_order`` (tokens already split).

    Set arithmetic first: an n-gram the hypothesis has once matches iff some reference has
    it, so ``len(hyp_set & reference n-grams)`` is the clipped count unless the hypothesis
    repeats an n-gram (its set is smaller than its n-gram count); only then are counts taken.
    Reference n-grams stream through ``set.intersection`` without being stored, and an order
    without a match ends the loop (no longer n-gram can match). Linear in the segment's
    length at every step.
    """
    hyp_len = len(hyp)
    ref_lens = tuple(map(len, refs))
    matches = [0] * max_order
    if hyp_len and refs:
        top = min(max_order, hyp_len, max(ref_lens))
        hyp_shifted = [hyp[i:] for i in range(top)]
        ref_shifted = [[ref[i:] for i in range(top)] for ref in refs]
        for n in range(1, top + 1):
            hyp_grams = hyp if n == 1 else list(zip(*hyp_shifted[:n]))
            hyp_set = set(hyp_grams)
            ref_grams = [_ngrams(shifted, n) for shifted in ref_shifted if len(shifted[0]) >= n]
            if len(hyp_set) != len(hyp_grams):  # the hypothesis repeats an n-gram
                matched = _clipped_with_repeats(hyp_grams, hyp_set, ref_grams)
            elif len(ref_grams) == 1:
                matched = len(hyp_set.intersection(ref_grams[0]))
            else:
                common = hyp_set.intersection(ref_grams[0])
                for grams in ref_grams[1:]:
                    common.update(hyp_set.intersection(grams))
                matched = len(common)
            if not matched:
                break
            matches[n - 1] = matched
    return SegmentStats(hyp_len, ref_lens, tuple(matches))


def corpus_stats(
    hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], max_order: int
) -> tuple[SegmentStats, ...]:
    """:func:`segment_stats` for every segment."""
    return tuple(segment_stats(h, r, max_order) for h, r in zip(hyps, refs, strict=True))
