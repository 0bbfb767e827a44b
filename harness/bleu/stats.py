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
from itertools import chain, repeat

try:
    from _collections import _count_elements  # CPython's C helper behind Counter.update
except ImportError:  # pragma: no cover - other interpreters
    def _count_elements(mapping: dict, iterable: Iterable) -> None:
        for element in iterable:
            mapping[element] = mapping.get(element, 0) + 1


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


def _counts(grams: Iterable) -> dict:
    """How often each n-gram occurs, counted at C speed (what ``Counter`` does inside,
    without its Python-level construction)."""
    counts: dict = {}
    _count_elements(counts, grams)
    return counts


def clipped_matches(hyp: Sequence[str], refs: Sequence[Sequence[str]], max_order: int) -> list[int]:
    """Clipped matches of one segment for orders 1..``max_order`` (tokens already split).

    Set arithmetic first: an n-gram the hypothesis has once matches iff some reference has
    it, so ``len(hyp_set & reference n-grams)`` is the clipped count unless the hypothesis
    repeats an n-gram (its set is smaller than its n-gram count); only then are counts taken
    (one C-level count per side), and the sum runs over the shared n-grams only.
    Reference n-grams stream through ``set.intersection`` without being stored, and an
    order without a match ends the loop (no longer n-gram can match). Linear in the
    segment's length at every step.
    """
    matches = [0] * max_order
    if not hyp or not refs:
        return matches
    top = min(max_order, len(hyp), max(map(len, refs)))
    hyp_shifted = [hyp[i:] for i in range(top)]
    if len(refs) == 1:
        ref = refs[0]
        ref_shifted = [ref[i:] for i in range(top)]
        hyp_grams, ref_grams = hyp, ref
        for n in range(1, top + 1):
            if n > 1:
                hyp_grams = list(zip(*hyp_shifted[:n]))
                ref_grams = zip(*ref_shifted[:n])
            hyp_set = set(hyp_grams)
            if len(hyp_set) == len(hyp_grams):
                matched = len(hyp_set.intersection(ref_grams))
            else:  # the hypothesis repeats an n-gram
                ref_counts = _counts(ref_grams)
                common = hyp_set.intersection(ref_counts)
                matched = sum(map(min, map(_counts(hyp_grams).__getitem__, common),
                                  map(ref_counts.__getitem__, common)))
            if not matched:
                break
            matches[n - 1] = matched
        return matches
    refs_shifted = [[ref[i:] for i in range(top)] for ref in refs]
    for n in range(1, top + 1):
        hyp_grams = hyp if n == 1 else list(zip(*hyp_shifted[:n]))
        hyp_set = set(hyp_grams)
        ref_grams = [shifted[0] if n == 1 else zip(*shifted[:n])
                     for shifted in refs_shifted if len(shifted[0]) >= n]
        if len(hyp_set) == len(hyp_grams):
            matched = len(hyp_set.intersection(chain.from_iterable(ref_grams)))
        else:  # the hypothesis repeats an n-gram: the largest count in one reference clips
            ref_counts = [_counts(grams) for grams in ref_grams]
            common = hyp_set.intersection(chain.from_iterable(ref_counts))
            if len(ref_counts) == 1:
                best = map(ref_counts[0].__getitem__, common)
            else:
                best = map(max, *[map(counts.get, common, repeat(0)) for counts in ref_counts])
            matched = sum(map(min, map(_counts(hyp_grams).__getitem__, common), best))
        if not matched:
            break
        matches[n - 1] = matched
    return matches


def segment_stats(
    hyp: Sequence[str], refs: Sequence[Sequence[str]], max_order: int
) -> SegmentStats:
    """Statistics of one segment for orders 1..``max_order`` (tokens already split)."""
    return SegmentStats(len(hyp), tuple(map(len, refs)),
                        tuple(clipped_matches(hyp, refs, max_order)))


def corpus_stats(
    hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], max_order: int
) -> tuple[SegmentStats, ...]:
    """:func:`segment_stats` for every segment."""
    return tuple(segment_stats(h, r, max_order) for h, r in zip(hyps, refs, strict=True))
