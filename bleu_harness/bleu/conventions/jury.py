"""The jury convention: jury's ``bleu`` metric (PyPI jury 2.3.1, obss/jury@c8d32259:
``Bleu.construct().compute(predictions, references)``, ``jury.load_metric("bleu")``), read
from ``jury/metrics/bleu/bleu_for_language_generation.py`` and what it calls:

* tokens: ``DefaultTokenizer`` (``jury/tokenizer.py:7-9``, ``jury/utils/nlp.py:5-11``): every
  character of ``string.punctuation`` becomes a space, whitespace runs become one space,
  ``str.lower()``, ``split()`` -- ``don't`` is ``don t``, ``«`` stays in its word;
* the arithmetic is TF-NMT's ``compute_bleu`` (tensorflow/nmt@0be864257a76
  ``nmt/scripts/bleu.py``: jury downloads that file at run time, ``_download_and_prepare``,
  lines 143-151, and calls it, lines 157-170): the shortest reference of each pair, add-one
  ``smooth`` on every order, ``exp(sum((1. / max_order) * log p))``, BP from ``1/ratio``,
  and its ``ValueError`` / ``ZeroDivisionError`` (:mod:`~bleu_harness.bleu.conventions.tfnmt`);
* ``predictions`` and ``references`` are lists of items, each item a list of predictions and
  a list of references. Where every item has one prediction (``evaluate`` in
  ``jury/metrics/_core/base.py:265-276`` collapses them), that is ``compute_bleu`` of the
  pairs. Where some item has several, ``_compute_multi_pred_multi_ref`` (lines 202-268)
  pairs each prediction with its item's references, scores the flattened pairs with
  ``compute_bleu``, and then "adjusts" the BP: with ``ratio`` the flattened length ratio, the
  score stands if ``ratio > 1``; otherwise it is multiplied by ``adjusted_bp / bp``, both
  ``exp(1 - 1 / r)`` -- of ``ratio``, and of the sum of each item's *longest* prediction
  over the sum of its *shortest* reference -- so a score can gain from a long prediction
  (an adjusted ratio above 1 gives a factor above 1), and a long flattened corpus skips the
  adjustment entirely;
* the harness's segments are the flattened pairs: ``predictions_per_item`` (an ``int``, or
  each item's count) groups consecutive segments into items, 1 by default; the segments of
  an item repeat the item's references (the lengths are checked; the first segment's
  stand for the item's);
* before any of this, ``Collator(predictions)`` reads ``predictions[0][0]`` and
  ``references[0][0]`` (``jury/utils/common.py:26-34``): an empty corpus, or a first item
  without references, raises ``IndexError``; with one prediction per item ``collapse``
  reads the first token of the first prediction -- and of the first reference, where every
  item has one -- so a first one without tokens raises ``IndexError`` too;
* ``Jury()``'s pipeline (``jury/core.py``) first drops the items with an empty prediction
  or reference list (``_remove_empty``): not modelled; this is the metric's own
  ``compute``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, compute, item_lengths, item_sizes
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.conventions import tfnmt
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.knobs import (
    KnobSettings,
    case_and_tokenizer,
    input_rules,
    remembered,
    uniform,
)
from bleu_harness.bleu.options import Option, boolean, integer, order
from bleu_harness.bleu.result import ConventionDeclined, ConventionError
from bleu_harness.bleu.stats import SegmentStats

NAME = "jury"


def item_counts(convention: str, key: str, value: Any) -> int | tuple[int, ...]:
    """Predictions per item: one count for every item, or each item's (a list), each >= 1."""
    if isinstance(value, (list, tuple)):
        if not value:
            raise ValueError(f"{convention}: option {key!r} needs at least one item")
        return tuple(integer(convention, key, v) for v in value)
    return integer(convention, key, value)


OPTIONS = (
    Option("max_order", 4, order(minimum=0)),
    Option("smooth", False, boolean),
    Option("predictions_per_item", 1, item_counts),
)


def required_order(options: Mapping[str, Any]) -> int:
    return options["max_order"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    """``DefaultTokenizer``: punctuation to spaces, lowercased; each segment's statistics
    kept (its items' lengths, and whether the first has references)."""
    return Preprocessing("ascii-punct-split", lowercase=True, segments=True)


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    smooth = options["smooth"]
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, refuse, required_order),
        arithmetic=Arithmetic(log_sum="sum", bp="1/ratio"), ref="shortest",
        smoothing="add-k" if smooth else "none", smoothing_value=1 if smooth else None,
        weights=uniform(options["max_order"]), items=options["predictions_per_item"],
        **case_and_tokenizer(preprocessing(options)))


def refuse(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> None:
    """jury's input checks alone (the knob model asks them of any setting's statistics)."""
    _check(corpus, options)


def _check(corpus: CorpusStats, options: Mapping[str, Any]) -> None:
    """Where jury raises, in its order: ``Collator``'s look at the first item, the grouping
    the harness needs, then ``compute_bleu``'s own checks (TF-NMT's). The rules on single
    segments need their statistics (jury's preprocessing keeps them; statistics of another
    preprocessing, as the knob model may ask about, are checked without them)."""
    segments = corpus.segments or ()
    if not corpus.segment_count:
        raise ConventionError(NAME, "Collator reads predictions[0] of no items", "IndexError")
    if segments and not segments[0].ref_lens:
        raise ConventionError(NAME, "Collator reads references[0][0] of a first item "
                              "without references", "IndexError")
    try:
        sizes = item_sizes(options["predictions_per_item"], corpus.segment_count)
    except ValueError as error:
        raise ConventionDeclined(NAME, str(error)) from None
    start = 0
    for size in sizes:
        if len({s.ref_lens for s in segments[start:start + size]}) > 1:
            raise ConventionDeclined(NAME, f"the segments of an item ({start}-{start + size - 1})"
                                     " must repeat its references")
        start += size
    if segments and all(size == 1 for size in sizes):
        _check_collapse(corpus, segments[0])
    tfnmt.check(corpus, options, NAME)


def _check_collapse(corpus: CorpusStats, first: SegmentStats) -> None:
    """One prediction per item: ``evaluate`` collapses the predictions, and the references
    where every item has exactly one (``jury/metrics/_core/base.py:267-273``), and
    ``Collator.collapse`` reads the first token of the first one (``collator.py:21-24``,
    ``NestedSingleType.get_type``): an ``IndexError`` where it has no token."""
    if first.hyp_len == 0:
        raise ConventionError(NAME, "Collator.collapse reads the first token of a first "
                              "prediction without tokens", "IndexError")
    if (corpus.fewest_references, corpus.most_references) == (1, 1) and not first.ref_lens[0]:
        raise ConventionError(NAME, "Collator.collapse reads the first token of a first "
                              "reference without tokens", "IndexError")


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The input checks, then TF-NMT's arithmetic of the flattened pairs and, for items of
    several predictions, jury's adjusted BP."""
    _check(corpus, options)
    c = compute(corpus, knobs(options, level))
    hyp_len, ref_len = c.hyp_len, c.ref_len
    if any(size != 1 for size in item_sizes(options["predictions_per_item"],
                                            corpus.segment_count)):
        hyp_len, ref_len = item_lengths(corpus, options["predictions_per_item"])
    return Finished(c.scores, tuple(p for p, _ in c.precisions), c.matches, c.totals, c.bp,
                    hyp_len, ref_len, details={"ratio": hyp_len / ref_len})


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"smooth": s, "max_order": n} for s in (False, True) for n in (4, 1, 2, 3))

#: What the convention follows, in a line.
DESCRIPTION = ("jury bleu: TF-NMT compute_bleu on lowercased tokens with ASCII punctuation "
               "split off; several predictions per item re-scale the BP by their lengths")
