"""Corpus-level views of the segment statistics, computed once and shared by conventions.

Reference-length rules (which reference length ``r`` a segment contributes):

* ``closest_shorter`` — the reference length closest to the hypothesis length, the shorter
  one on a tie: NLTK ``closest_ref_length`` (key ``(abs(L - c), L)``), SacreBLEU
  ``BLEU._get_closest_ref_len``, multi-bleu.perl, mteval-v13a ``brevity_penalty_closest``.
* ``closest_first`` — closest, the first-listed reference on a tie: torchmetrics
  ``_bleu_score_update`` (``target_len_diff.index(min(...))``, issue #3504).
* ``shortest`` — the shortest reference: TF-NMT ``compute_bleu``, mteval-v11b.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from harness.bleu.stats import SegmentStats

RefLengthRule = Callable[[int, Sequence[int]], int]


def closest_shorter(hyp_len: int, ref_lens: Sequence[int]) -> int:
    return min(ref_lens, key=lambda length: (abs(length - hyp_len), length))


def closest_first(hyp_len: int, ref_lens: Sequence[int]) -> int:
    diffs = [abs(length - hyp_len) for length in ref_lens]
    return ref_lens[diffs.index(min(diffs))]


def shortest(hyp_len: int, ref_lens: Sequence[int]) -> int:
    return min(ref_lens)


REF_LENGTH_RULES: dict[str, RefLengthRule] = {
    "closest_shorter": closest_shorter,
    "closest_first": closest_first,
    "shortest": shortest,
}


@dataclass
class CorpusStats:
    """The segments' statistics plus lazily computed sums (orders up to ``max_order``)."""

    segments: tuple[SegmentStats, ...]
    max_order: int
    _cache: dict = field(default_factory=dict, repr=False)

    def _memo(self, key, compute):
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    @property
    def hyp_len(self) -> int:
        return self._memo("hyp_len", lambda: sum(self.hyp_lens))

    @property
    def matches(self) -> tuple[int, ...]:
        return self._memo("matches", lambda: self._column_sums(lambda s: s.matches))

    @property
    def hyp_lens(self) -> list[int]:
        return self._memo("hyp_lens", lambda: [s.hyp_len for s in self.segments])

    @property
    def totals(self) -> tuple[int, ...]:
        """Hypothesis n-grams per order, summed: sum of max(0, hyp_len - n + 1)."""
        return self._memo("totals", lambda: tuple(
            sum(h - n + 1 for h in self.hyp_lens if h >= n)
            for n in range(1, self.max_order + 1)))

    @property
    def floored_totals(self) -> tuple[int, ...]:
        """Totals with every segment's count floored at one (NLTK ``modified_precision``:
        ``denominator = max(1, sum(counts.values()))``)."""
        return self._memo("floored_totals", lambda: tuple(
            total + sum(1 for h in self.hyp_lens if h < n)
            for n, total in enumerate(self.totals, start=1)))

    @property
    def has_segment_without_references(self) -> bool:
        return self._memo("no_refs", lambda: any(not s.ref_lens for s in self.segments))

    def ref_len(self, rule: str, without_references: int | None = None) -> int:
        """Summed reference length under ``rule``.

        A segment without references contributes ``without_references`` (SacreBLEU's
        ``_get_closest_ref_len`` returns -1 for it); ``None`` means every segment has one.
        """
        pick = REF_LENGTH_RULES[rule]

        def one(segment: SegmentStats) -> int:
            if not segment.ref_lens and without_references is not None:
                return without_references
            return pick(segment.hyp_len, segment.ref_lens)

        return self._memo(
            ("ref_len", rule, without_references),
            lambda: sum(one(s) for s in self.segments),
        )

    def _column_sums(self, column) -> tuple[int, ...]:
        if not self.segments:
            return (0,) * self.max_order
        order = self.max_order
        return tuple(map(sum, zip(*(column(s)[:order] for s in self.segments))))
