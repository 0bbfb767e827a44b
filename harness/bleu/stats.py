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
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SegmentStats:
    """Statistics of one hypothesis against its references, orders 1..len(matches)."""

    hyp_len: int
    ref_lens: tuple[int, ...]
    matches: tuple[int, ...]
    totals: tuple[int, ...]

    @property
    def max_order(self) -> int:
        return len(self.matches)


def _ngram_counter(tokens: Sequence[str], n: int) -> Counter:
    if n == 1:
        return Counter(tokens)
    return Counter(zip(*[tokens[i:] for i in range(n)]))


def _clipped_matches(hyp_counts: Counter, ref_counts: Sequence[Counter]) -> int:
    """Sum over hypothesis n-grams of min(count, largest count in any one reference)."""
    if len(ref_counts) == 1:
        ref = ref_counts[0]
        common = hyp_counts.keys() & ref.keys()
        return sum([min(hyp_counts[g], ref[g]) for g in common])
    matched = 0
    for gram, count in hyp_counts.items():
        best = 0
        for ref in ref_counts:
            found = ref.get(gram, 0)
            if found > best:
                best = found
        matched += count if count < best else best
    return matched


def segment_stats(
    hyp: Sequence[str], refs: Sequence[Sequence[str]], max_order: int
) -> SegmentStats:
    """Statistics of one segment for orders 1..``max_order`` (tokens already split)."""
    hyp_len = len(hyp)
    matches = []
    totals = []
    for n in range(1, max_order + 1):
        total = hyp_len - n + 1
        if total <= 0:
            matches.append(0)
            totals.append(0)
            continue
        hyp_counts = _ngram_counter(hyp, n)
        ref_counts = [_ngram_counter(ref, n) for ref in refs if len(ref) >= n]
        matches.append(_clipped_matches(hyp_counts, ref_counts) if ref_counts else 0)
        totals.append(total)
    return SegmentStats(hyp_len, tuple(len(ref) for ref in refs), tuple(matches), tuple(totals))


def corpus_stats(
    hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], max_order: int
) -> tuple[SegmentStats, ...]:
    """:func:`segment_stats` for every segment."""
    return tuple(segment_stats(h, r, max_order) for h, r in zip(hyps, refs, strict=True))
