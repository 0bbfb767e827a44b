"""Corpus statistics: everything a convention needs from a corpus, as sums over its segments.

A :class:`CorpusStats` is small, immutable, picklable and *mergeable*: the statistics of two
halves of a corpus add up to the statistics of the whole (``a + b``), bit for bit, because
every field is an integer sum, a minimum or maximum, or the first/last of something. So a
corpus can be scored in one pass with bounded memory (no per-segment table is kept), and
sharded over processes or machines (``harness.bleu.shard``).

Reference-length rules (which reference length ``r`` a segment contributes):

* ``closest_shorter`` -- the reference length closest to the hypothesis length, the shorter
  one on a tie: NLTK ``closest_ref_length`` (key ``(abs(L - c), L)``), SacreBLEU
  ``BLEU._get_closest_ref_len``, multi-bleu.perl, mteval-v13a ``brevity_penalty_closest``.
* ``closest_first`` -- closest, the first-listed reference on a tie: torchmetrics
  ``_bleu_score_update`` (``target_len_diff.index(min(...))``, issue #3504).
* ``shortest`` -- the shortest reference: TF-NMT ``compute_bleu``, mteval-v11b.
* ``first`` -- the first reference: Tensor2Tensor, which takes one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from harness.bleu.stats import SegmentStats

RefLengthRule = Callable[[int, Sequence[int]], int]


def closest_shorter(hyp_len: int, ref_lens: Sequence[int]) -> int:
    return min(ref_lens, key=lambda length: (abs(length - hyp_len), length))


def closest_first(hyp_len: int, ref_lens: Sequence[int]) -> int:
    diffs = [abs(length - hyp_len) for length in ref_lens]
    return ref_lens[diffs.index(min(diffs))]


def shortest(hyp_len: int, ref_lens: Sequence[int]) -> int:
    return min(ref_lens)


def first(hyp_len: int, ref_lens: Sequence[int]) -> int:
    return ref_lens[0]


REF_LENGTH_RULES: dict[str, RefLengthRule] = {
    "closest_shorter": closest_shorter,
    "closest_first": closest_first,
    "shortest": shortest,
    "first": first,
}
RULES = tuple(REF_LENGTH_RULES)


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b))


@dataclass(frozen=True)
class CorpusStats:
    """The sufficient statistics of a corpus, orders 1..``max_order``.

    ``matches``: clipped matches per order; ``totals``: hypothesis n-grams per order
    (``hyp_len - n + 1``, 0 when shorter); ``floored_totals``: the same with every segment's
    count floored at one (NLTK ``modified_precision``); ``ref_sums``: the summed reference
    length under each rule of :data:`RULES`, over the segments that have a reference.
    The rest are the facts about single segments that conventions raise on: segments
    without a reference, the first one's hypothesis length, the fewest and most references
    of a segment, the longest reference, and the last segment (NLTK's smoothing methods 5
    and 6 read it).
    """

    max_order: int
    segment_count: int = 0
    hyp_len: int = 0
    matches: tuple[int, ...] = ()
    totals: tuple[int, ...] = ()
    floored_totals: tuple[int, ...] = ()
    ref_sums: tuple[int, ...] = (0,) * len(RULES)
    without_references: int = 0
    unreferenced_with_hypothesis: int = 0
    never_referenced: int = 0  # segments with no reference even before any was dropped
    first_unreferenced_hyp_len: int | None = None
    fewest_references: int | None = None
    most_references: int | None = None
    longest_reference: int = 0
    last: SegmentStats | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for name in ("matches", "totals", "floored_totals"):
            if not getattr(self, name):
                object.__setattr__(self, name, (0,) * self.max_order)

    @property
    def has_segment_without_references(self) -> bool:
        return self.without_references > 0

    def ref_len(self, rule: str, without_references: int | None = None) -> int:
        """Summed reference length under ``rule``; a segment without references contributes
        ``without_references`` (SacreBLEU's ``_get_closest_ref_len`` gives -1, multi-bleu
        keeps its 9999); with ``None`` such a segment is a ``ValueError`` (``min()`` of no
        lengths, as in the libraries)."""
        total = self.ref_sums[RULES.index(rule)]
        if self.without_references:
            if without_references is None:
                raise ValueError("a segment without references has no reference length")
            total += self.without_references * without_references
        return total

    def __add__(self, other: CorpusStats) -> CorpusStats:
        """The statistics of this corpus followed by ``other``'s."""
        if not isinstance(other, CorpusStats):
            return NotImplemented
        if self.max_order != other.max_order:
            raise ValueError(f"cannot merge statistics of orders {self.max_order} and "
                             f"{other.max_order}")
        if not other.segment_count:
            return self
        if not self.segment_count:
            return other

        def least(a, b):
            return b if a is None else a if b is None else min(a, b)

        def most(a, b):
            return b if a is None else a if b is None else max(a, b)

        return CorpusStats(
            self.max_order, self.segment_count + other.segment_count,
            self.hyp_len + other.hyp_len, _add(self.matches, other.matches),
            _add(self.totals, other.totals), _add(self.floored_totals, other.floored_totals),
            _add(self.ref_sums, other.ref_sums),
            self.without_references + other.without_references,
            self.unreferenced_with_hypothesis + other.unreferenced_with_hypothesis,
            self.never_referenced + other.never_referenced,
            self.first_unreferenced_hyp_len if self.first_unreferenced_hyp_len is not None
            else other.first_unreferenced_hyp_len,
            least(self.fewest_references, other.fewest_references),
            most(self.most_references, other.most_references),
            max(self.longest_reference, other.longest_reference), other.last)

    def __radd__(self, other):  # sum() starts from 0
        return self if other == 0 else NotImplemented


class StatsBuilder:
    """Accumulates segment statistics into :class:`CorpusStats`, one segment at a time."""

    __slots__ = ("order", "count", "hyp_len", "matches", "totals", "short", "ref_sums",
                 "without", "without_hyp", "never", "first_without", "fewest", "most",
                 "longest", "last")

    def __init__(self, max_order: int) -> None:
        self.order = max_order
        self.count = self.hyp_len = self.without = self.without_hyp = self.never = 0
        self.matches = [0] * max_order
        self.totals = [0] * max_order
        self.short = [0] * max_order  # segments shorter than n (NLTK's floor adds one each)
        self.ref_sums = [0] * len(RULES)
        self.first_without: int | None = None
        self.fewest: int | None = None
        self.most: int | None = None
        self.longest = 0
        self.last: SegmentStats | None = None

    def add(self, segment: SegmentStats) -> None:
        hyp_len, ref_lens = segment.hyp_len, segment.ref_lens
        self.count += 1
        self.hyp_len += hyp_len
        matches, totals, short = self.matches, self.totals, self.short
        for n, m in enumerate(segment.matches[:self.order]):
            matches[n] += m
        for n in range(self.order):
            if hyp_len > n:
                totals[n] += hyp_len - n
            else:
                short[n] += 1
        count = len(ref_lens)
        if count:
            sums = self.ref_sums
            closest = min(ref_lens, key=lambda length: (abs(length - hyp_len), length))
            sums[0] += closest
            sums[1] += ref_lens[[abs(length - hyp_len) for length in ref_lens].index(
                abs(closest - hyp_len))]
            sums[2] += min(ref_lens)
            sums[3] += ref_lens[0]
            longest = max(ref_lens)
            self.longest = max(self.longest, longest)
        else:
            self.without += 1
            if hyp_len:
                self.without_hyp += 1
            if not segment.dropped:
                self.never += 1
            if self.first_without is None:
                self.first_without = hyp_len
        if self.fewest is None or count < self.fewest:
            self.fewest = count
        if self.most is None or count > self.most:
            self.most = count
        self.last = segment

    def build(self) -> CorpusStats:
        floored = tuple(t + s for t, s in zip(self.totals, self.short))
        last = self.last
        if last is not None and len(last.matches) != self.order:  # counted to a higher order
            last = replace(last, matches=last.matches[:self.order])
        return CorpusStats(self.order, self.count, self.hyp_len, tuple(self.matches),
                           tuple(self.totals), floored, tuple(self.ref_sums), self.without,
                           self.without_hyp, self.never, self.first_without, self.fewest,
                           self.most, self.longest, last)
