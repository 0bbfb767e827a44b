"""Sentence BLEU of many segments in C: one pass counts every segment into a row of integers
(``_native.segment_rows``), one loop scores the rows (``_native.sentence_scores``,
``_sentence.c``), with no Python object per segment but its score.

The arithmetic in C is :func:`bleu_harness.bleu.compute.compute` for one segment, for the
knob settings :func:`plan` can express (the float forms of SacreBLEU, NLTK, TF-NMT, MATLAB,
multi-bleu.perl, mteval, Tensor2Tensor ...), and a convention takes it where its module
declares what its ``finish`` scores a sentence with (``sentence_arithmetic``): the knob
settings, the orders its statistics hold, its early zero, and where its input checks may
refuse. Every row the C arithmetic does not take -- no reference, an empty text, a refused
input, a log or ``exp`` the tool raises on -- is scored by the convention's own ``finish``
in Python, so a batch gives what single calls give, bit for bit and exception for exception
(``tests/test_kernel.py`` holds the two to each other).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from itertools import islice
from dataclasses import dataclass
from typing import Any

from bleu_harness.bleu import native
from bleu_harness.bleu.compute import REFERENCE_TIMES_SCALE
from bleu_harness.bleu.convention import Preprocessing
from bleu_harness.bleu.corpus import RULES
from bleu_harness.bleu.counting import native_group
from bleu_harness.bleu.knobs import KnobSettings


@dataclass(frozen=True)
class SentenceArithmetic:
    """What a convention's ``finish`` scores one sentence with: ``compute(stats, knobs,
    available, zero).scores[0]`` wherever its input checks let the segment through. Those
    checks refuse only segments the C arithmetic leaves to Python anyway (no reference, an
    empty text), and segments of more than one reference where ``single_reference``, or of
    fewer than ``min_hyp_len`` words."""

    knobs: KnobSettings
    available: int | None = None
    zero: Any = 0.0
    single_reference: bool = False
    min_hyp_len: int = 1


_ZERO = {"zero": 0, "tiny": 1, "dropped": 2, "truncate": 3, "raises": 4,
         "zero-before-smoothing": 5}
_SMOOTHING = {"none": 0, "floor": 1, "add-k": 2, "add-k-from-bigram": 3, "nist-geometric": 4}
_EMPTY_ORDER = {"zero": 0, "neutral": 1, "effective": 2, "reweigh": 0}
_BP_FORM = {"r/c": 0, "1/ratio": 1, "exponent": 2}
_LOG_SUM = {"mean": 0, "sum": 1, "fsum": 2}
_MAX_WEIGHTS = 64
#: Pairs counted into rows at a time by :meth:`Kernel.scores`.
CHUNK = 1024


def _sums_left_to_right() -> bool:
    """Whether this interpreter's ``sum`` adds floats one after another (up to Python 3.11);
    from 3.12 it compensates, and the C arithmetic calls it instead."""
    return builtins.sum([1e100, 1.0, -1e100]) == 0.0


_PYTHON_SUM = None if _sums_left_to_right() else builtins.sum


def plan(arithmetic: SentenceArithmetic, order: int) -> tuple | None:
    """The C arithmetic's plan for these settings on rows of ``order`` matches
    (``_sentence.c`` ``plan_of``), or ``None`` where it cannot express them (NLTK's smoothing
    methods 4-7 and lists of weight vectors, float32 steps, products, x87, V8's Math,
    rounding, items, averages of sentences, more orders than the rows hold, ...)."""
    k = arithmetic.knobs
    form = k.float_form if k.float_form.fits(k) else REFERENCE_TIMES_SCALE
    if k.weights and isinstance(k.weights[0], tuple):
        return None  # a list of weight vectors (NLTK): one score each, or a TypeError
    weights = k.weights
    if (not weights or len(weights) > min(_MAX_WEIGHTS, order)
            or (arithmetic.available is not None and arithmetic.available < len(weights))):
        return None
    if (k.ref not in RULES or k.bp not in ("standard", "off") or k.smoothing not in _SMOOTHING
            or k.zero not in _ZERO or k.empty_order not in _EMPTY_ORDER
            or k.denominator not in ("raw", "floor1", "floor1-sum") or k.rounding is not None
            or k.items not in (None, 1) or k.average != "corpus"
            or form.log_sum not in _LOG_SUM or form.bp not in _BP_FORM
            or form.reciprocal_precision or form.float64_bp or form.float32_precisions
            or form.difference_of_logs or form.log_difference or form.v8_math):
        return None
    value = k.smoothing_value if k.smoothing in ("floor", "add-k", "add-k-from-bigram") else 0.0
    if not (type(value) is float or (type(value) is int and abs(value) < 2**53)):
        return None  # an int beyond 2^53 adds exactly in Python, not in a double
    if k.normalise and sum(weights) > 0:  # compute._compute, before the combination
        weights = tuple(w / sum(weights) for w in weights)
    if any(type(w) is not float for w in weights):
        return None  # an int weight's products and sums are ints in Python
    mean = form.log_sum == "mean" and len(set(weights)) == 1 and not k.normalise
    log_sum = "mean" if mean else "sum" if form.log_sum == "sum" else "fsum"
    min_hyp_len = arithmetic.min_hyp_len
    if k.empty_order == "reweigh" and weights == (0.25,) * 4:
        min_hyp_len = max(min_hyp_len, 4)  # NLTK's auto_reweigh below 4 words: Python
    return (RULES.index(k.ref), arithmetic.single_reference, min_hyp_len,
            k.fewer_words == "zero", k.no_match_zero, k.denominator != "raw", _ZERO[k.zero],
            _SMOOTHING[k.smoothing], float(value), _EMPTY_ORDER[k.empty_order],
            k.bp == "off", form.strict_bp, _BP_FORM[form.bp], weights, _LOG_SUM[log_sum],
            form.unit == "percent", form.my_log, form.stops_at_empty_order, k.float32,
            form.scale_first, form.times_scale, form.scale_in_float32, float(k.scale),
            arithmetic.zero, _PYTHON_SUM)


@dataclass(frozen=True)
class Kernel:
    """A convention's sentence scores in C under one preprocessing and order."""

    specs: tuple
    order: int
    plan: tuple

    def scores(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]],
               ) -> tuple[list, list[int]]:
        """Each pair's score (a float, or the convention's early zero), and the indices of
        the pairs left to Python (``None`` in the scores). The rows are counted
        :data:`CHUNK` pairs at a time, so memory beyond the scores does not grow with the
        batch."""
        scores: list = []
        left: list[int] = []
        hyp_iter, ref_iter = iter(hypotheses), iter(references)
        for start in range(0, len(hypotheses), CHUNK):
            rows = native._native.segment_rows(islice(hyp_iter, CHUNK), islice(ref_iter, CHUNK),
                                               self.specs)
            chunk_scores, chunk_left = self.score_rows(rows)
            scores += chunk_scores
            left += [start + i for i in chunk_left]
        return scores, left

    def score_rows(self, rows: bytes) -> tuple[list, list[int]]:
        """:meth:`scores` of rows already counted (``segment_rows``, ``pairwise_rows``)."""
        return native._native.sentence_scores(rows, self.order, self.plan)

    def pairwise(self, texts: Sequence[str], candidates: int, evidence: int,
                 ) -> tuple[list, list[int]]:
        """:meth:`scores` of every pair :func:`pairwise_rows` counts, candidate by candidate
        (``scores[i * E + j]``, ``E`` evidence texts); each candidate's rows are scored as
        they are counted, so memory beyond the scores does not grow with the group."""
        return native._native.pairwise_rows(texts, candidates, evidence, self.specs, self.plan)


def pairwise_rows(texts: Sequence[str], candidates: int, evidence: int, specs: tuple) -> bytes:
    """The row of each of the first ``candidates`` texts against each text from index
    ``evidence`` on (0: the candidates) as its one reference, each text tokenized once
    (``_native.pairwise_rows``)."""
    return native._native.pairwise_rows(texts, candidates, evidence, specs)


def kernel(arithmetic: SentenceArithmetic | None, key: Preprocessing, order: int,
           ) -> Kernel | None:
    """The C kernel of these settings under ``key`` to ``order``, or ``None`` where the
    preprocessing is counted in Python (:func:`~bleu_harness.bleu.counting.native_group`:
    no C pass built, among others) or :func:`plan` declines."""
    group = None if arithmetic is None else native_group(key, order)
    planned = None if group is None else plan(arithmetic, order)
    if planned is None:
        return None
    return Kernel(native.row_specs(group), order, planned)
