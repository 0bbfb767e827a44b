"""Corpus statistics: everything a convention needs from a corpus, as sums over its segments.

A :class:`CorpusStats` is small, immutable, picklable and *mergeable*: the statistics of two
halves of a corpus add up to the statistics of the whole (``a + b``), bit for bit, because
every field is an integer sum, a minimum or maximum, or the first/last of something. So a
corpus can be scored in one pass with bounded memory (no per-segment table is kept, unless
a preprocessing asks for one: ``Preprocessing.segments``, for a mean of sentence scores), and
sharded over processes or machines (``bleu_harness.bleu.shard``).

Reference-length rules (which reference length ``r`` a segment contributes), written once in
Python, in :func:`reference_lengths` (the C kernel, ``_native.c`` ``add_segment``, does the
same in C; ``tests/test_native.py`` checks the two agree):

* ``closest_shorter`` -- the reference length closest to the hypothesis length, the shorter
  one on a tie: NLTK ``closest_ref_length`` (key ``(abs(L - c), L)``), SacreBLEU
  ``BLEU._get_closest_ref_len``, multi-bleu.perl, mteval-v13a ``brevity_penalty_closest``.
* ``closest_first`` -- closest, the first-listed reference on a tie: torchmetrics
  ``_bleu_score_update`` (``target_len_diff.index(min(...))``, issue #3504).
* ``shortest`` -- the shortest reference: TF-NMT ``compute_bleu``, mteval-v11b.
* ``first`` -- the first reference: Tensor2Tensor, which takes one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import add

from bleu_harness.bleu.stats import SegmentStats

#: The reference-length rules, in the order :func:`reference_lengths` gives their lengths.
RULES = ("closest_shorter", "closest_first", "shortest", "first")


def reference_lengths(hyp_len: int, ref_lens: Sequence[int]) -> tuple[int, int, int, int]:
    """The reference length a segment contributes under each rule of :data:`RULES` (at
    least one reference). Of the closest lengths ``hyp_len - d`` is the shorter, so it is
    taken where a reference has it; the first-listed closest is the first at distance
    ``d``."""
    diffs = [abs(length - hyp_len) for length in ref_lens]
    nearest = min(diffs)
    shorter = hyp_len - nearest if hyp_len - nearest in ref_lens else hyp_len + nearest
    return shorter, ref_lens[diffs.index(nearest)], min(ref_lens), ref_lens[0]


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
    #: Every segment's statistics in order, where the preprocessing asked for them
    #: (``Preprocessing.segments``: a mean of sentence scores, ignite's macro average, needs
    #: them); ``None`` otherwise, so the statistics stay small.
    segments: tuple[SegmentStats, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def value(self) -> tuple:
        """Everything the statistics hold, as one hashable value: ``==`` leaves out ``last``
        and ``segments`` (they are not summed), which a score may still read -- two
        statistics with one ``value`` score the same under any settings."""
        return (self, self.last, self.segments)

    @cached_property
    def segment_corpora(self) -> tuple[CorpusStats, ...]:
        """Each kept segment as a corpus of its own (orders 1..``max_order``), built once: a
        mean of sentence scores reads them under every knob setting attribution tries."""
        if self.segments is None:
            raise ValueError("a mean of sentence scores needs each segment's statistics "
                             "(a preprocessing with segments=True)")
        return tuple(segment_corpus(segment, self.max_order) for segment in self.segments)

    def __post_init__(self) -> None:
        for name in ("matches", "totals", "floored_totals"):
            if not getattr(self, name):
                object.__setattr__(self, name, (0,) * self.max_order)

    @classmethod
    def of_segment(cls, max_order: int, hyp_len: int, ref_lens: Sequence[int],
                   matches: Sequence[int], dropped: int = 0,
                   keep_segments: bool = False) -> CorpusStats:
        """The statistics of a corpus of one segment: what :class:`StatsBuilder` builds from
        that one :meth:`~StatsBuilder.add`, without its sums (the pairwise API makes one per
        pair); ``keep_segments``: with :attr:`segments` (a mean of sentence scores)."""
        ref_lens = tuple(ref_lens)
        count = len(ref_lens)
        if count == 1:
            sums = (ref_lens[0],) * len(RULES)
        elif count:
            sums = reference_lengths(hyp_len, ref_lens)
        else:
            sums = (0,) * len(RULES)
        matches = tuple(matches[:max_order])
        last = SegmentStats(hyp_len, ref_lens, matches, dropped)
        return cls(max_order, 1, hyp_len, matches,
                   tuple(max(hyp_len - n, 0) for n in range(max_order)),
                   tuple(max(hyp_len - n, 1) for n in range(max_order)), sums,
                   int(not count), int(not count and hyp_len > 0),
                   int(not count and not dropped), None if count else hyp_len, count, count,
                   max(ref_lens, default=0), last, (last,) if keep_segments else None)

    @property
    def has_segment_without_references(self) -> bool:
        return self.without_references > 0

    def shorter_than(self, n: int) -> int:
        """How many segments have a hypothesis of fewer than ``n`` tokens (1 <= ``n`` <=
        ``max_order``): each adds one n-gram to ``floored_totals`` of order ``n``."""
        return self.floored_totals[n - 1] - self.totals[n - 1]

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
            max(self.longest_reference, other.longest_reference), other.last,
            None if self.segments is None or other.segments is None
            else self.segments + other.segments)

    def __radd__(self, other):  # sum() starts from 0
        return self if other == 0 else NotImplemented


class StatsBuilder:
    """Accumulates segment statistics into :class:`CorpusStats`, one segment at a time.

    Per segment it keeps only sums (O(1) work besides the reference lengths): the n-gram
    totals are derived at :meth:`build` from the summed hypothesis length and a histogram of
    the hypotheses shorter than the highest order, and a segment with one reference adds its
    length once for every reference-length rule.
    """

    __slots__ = (
        "count",
        "fewest",
        "first_without",
        "hyp_len",
        "last",
        "longest",
        "matches",
        "most",
        "never",
        "order",
        "ref_sums",
        "segments",
        "short_lengths",
        "single_ref_sum",
        "without",
        "without_hyp",
    )

    def __init__(self, max_order: int, segments: bool = False) -> None:
        self.order = max_order
        #: Each segment's statistics, in order, when asked for (``segments``).
        self.segments: list[SegmentStats] | None = [] if segments else None
        self.count = self.hyp_len = self.without = self.without_hyp = self.never = 0
        self.matches = [0] * max_order
        self.short_lengths = [0] * max_order  # segments by hypothesis length, below the order
        self.ref_sums = [0] * len(RULES)
        self.single_ref_sum = 0  # one reference: the same length under every rule
        self.first_without: int | None = None
        self.fewest: int | None = None
        self.most: int | None = None
        self.longest = 0
        self.last: tuple | None = None

    def add(self, hyp_len: int, ref_lens: Sequence[int], matches: Sequence[int],
            dropped: int = 0) -> None:
        """Adds one segment: its hypothesis length, reference lengths, clipped matches per
        order (at least :attr:`order` of them; more are ignored) and dropped references."""
        self.count += 1
        self.hyp_len += hyp_len
        if hyp_len < self.order:
            self.short_lengths[hyp_len] += 1
        self.matches = list(map(add, self.matches, matches))  # a NaN count stays NaN
        count = len(ref_lens)
        if count == 1:
            length = ref_lens[0]
            self.single_ref_sum += length
            self.longest = max(self.longest, length)
        elif count:
            self.ref_sums = list(map(int.__add__, self.ref_sums,
                                     reference_lengths(hyp_len, ref_lens)))
            self.longest = max(self.longest, max(ref_lens))
        else:
            self.without += 1
            if hyp_len:
                self.without_hyp += 1
            if not dropped:
                self.never += 1
            if self.first_without is None:
                self.first_without = hyp_len
        if self.fewest is None or count < self.fewest:
            self.fewest = count
        if self.most is None or count > self.most:
            self.most = count
        self.last = (hyp_len, ref_lens, matches, dropped)
        if self.segments is not None:
            self.segments.append(SegmentStats(hyp_len, tuple(ref_lens),
                                              tuple(matches[:self.order]), dropped))

    def add_many(self, hyp_lens: Sequence[int], ref_lens: Sequence[Sequence[int]],
                 matches: Sequence[Sequence[int]], dropped: Sequence[int]) -> None:
        """:meth:`add` for consecutive segments, one list per argument. When every segment
        has one reference (the common case) the sums are taken at C speed, not per segment."""
        if not hyp_lens:
            return
        if self.segments is not None or set(map(len, ref_lens)) != {1}:
            for segment in zip(hyp_lens, ref_lens, matches, dropped, strict=True):
                self.add(*segment)
            return
        self.count += len(hyp_lens)
        self.hyp_len += sum(hyp_lens)
        for length in filter(self.order.__gt__, hyp_lens):
            self.short_lengths[length] += 1
        self.matches = list(map(sum, zip(self.matches, *matches)))
        singles = [lens[0] for lens in ref_lens]
        self.single_ref_sum += sum(singles)
        self.longest = max(self.longest, *singles)
        self.fewest = 1 if self.fewest is None else min(self.fewest, 1)
        self.most = 1 if self.most is None else max(self.most, 1)
        self.last = (hyp_lens[-1], ref_lens[-1], matches[-1], dropped[-1])

    def build(self) -> CorpusStats:
        order, count, short_lengths = self.order, self.count, self.short_lengths
        # Order n+1 has max(0, hyp_len - n) n-grams per segment: the summed length less n per
        # segment, given back to the segments no longer than n.
        totals = tuple(self.hyp_len - n * count
                       + sum(s * (n - length) for length, s in enumerate(short_lengths[:n]))
                       for n in range(order))
        short = [sum(short_lengths[:n + 1]) for n in range(order)]
        floored = tuple(t + s for t, s in zip(totals, short))
        last = None
        if self.last is not None:
            hyp_len, ref_lens, matches, dropped = self.last
            last = SegmentStats(hyp_len, tuple(ref_lens), tuple(matches[:order]), dropped)
        return CorpusStats(order, count, self.hyp_len, tuple(self.matches), totals, floored,
                           tuple(s + self.single_ref_sum for s in self.ref_sums),
                           self.without, self.without_hyp, self.never, self.first_without,
                           self.fewest, self.most, self.longest, last,
                           None if self.segments is None else tuple(self.segments))


def segment_corpus(segment: SegmentStats, max_order: int) -> CorpusStats:
    """The statistics of a corpus of one segment (orders 1..``max_order``, at most the
    segment's)."""
    builder = StatsBuilder(max_order)
    builder.add(segment.hyp_len, segment.ref_lens, segment.matches, segment.dropped)
    return builder.build()
