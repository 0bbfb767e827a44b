"""The pycocoevalcap convention: ``pycocoevalcap.bleu.bleu.Bleu`` (the MS-COCO caption
evaluation's BLEU), release 1.2.

Read from ``salaniz/pycocoevalcap@ad63453cfab57a81a02b2949b17a91fab1c3df77`` (the wheel of
1.2 holds the same ``bleu/bleu.py``, ``bleu/bleu_scorer.py`` and
``tokenizer/ptbtokenizer.py``). nlg-eval's copy (``Maluuba/nlg-eval@2ab4528fad55``
``nlgeval/pycocoevalcap/bleu/``, the BLEU-1..4 its ``compute_metrics`` reports) is these two
BLEU files written for Python 2 and 3 alike -- ``six.iteritems`` for ``dict.items`` and
``xrange`` (``bleu_scorer.py:23-26, 49, 85``), a parameter renamed (line 64), no ``verbose``
argument (``bleu.py:21, 40``) -- so it computes exactly this convention. Step by step:

* ``Bleu(n=4).compute_score(gts, res)`` takes dicts ``{id: [caption, ...]}`` with the same
  keys (``assert(gts.keys() == res.keys())``, ``bleu/bleu.py:23``), exactly one hypothesis
  per id and at least one reference (``assert(len(hypo) == 1)``, ``assert(len(ref) >= 1)``,
  lines 32-35: a segment without references is an ``AssertionError``), and always scores with
  ``option='closest'`` (line 40); ``option`` ``'shortest'`` and ``'average'`` are
  ``BleuScorer.compute_score``'s (``bleu_scorer.py:199``), where a segment without references
  raises in ``_single_reflen`` (``min()`` of nothing: ``ValueError``; the average divides by
  0: ``ZeroDivisionError``, lines 182-191);
* tokens: ``s.split()`` (``precook``, ``bleu_scorer.py:27``) -- or, in the official pipeline
  (``eval.py``, ``COCOEvalCap.evaluate``), the Stanford PTBTokenizer with ``-lowerCase`` and its
  punctuation dropped first (``tokenize="ptb"``, :mod:`bleu_harness.bleu.tokenizers.ptb`);
* clipping: each n-gram's count against its most frequent count in any one reference
  (``cook_refs``, lines 42-46);
* reference length per segment (``_single_reflen``, lines 182-193): ``closest`` is
  ``min((abs(l - testlen), l) for l in reflens)[1]``, so a tie takes the shorter; ``shortest``
  the shortest; ``average`` ``float(sum(reflens))/len(reflens)``; summed over the segments
  (line 225);
* every precision is ``(correct + tiny) / (guess + small)`` with ``tiny = 1e-15``,
  ``small = 1e-9`` (lines 201-202, 251-252): no order is ever 0, an order without n-grams is
  1e-6, and an identical candidate scores just under 1;
* BLEU-k for k = 1..n is ``bleu *= p_k; bleu ** (1./k)`` (a running product, lines 249-253);
  with ``ratio = (testlen + tiny) / (reflen + small)`` (line 254), each is multiplied by
  ``exp(1 - 1/ratio)`` when ``ratio < 1`` -- also when testlen == reflen, so equal lengths
  cost a factor just under 1, and an empty output or corpus scores 0;
* it returns ``(score, scores)``: ``score`` the list BLEU-1..n of the corpus, ``scores`` the
  same per segment (lines 232-240; a segment's list equals the list of a corpus of that
  segment alone, which is ``level="sentence"`` here). The engine's ``score`` is BLEU-n (the
  last of the list, ``Bleu_4`` at the default) and ``details["cumulative"]`` the whole list;
* ``n``: ``cook_refs`` and ``cook_test`` are called without ``n`` (lines 114, 116), so the
  statistics hold 4 orders whatever ``n`` is: ``n`` > 4 raises ``IndexError`` in
  ``compute_score``'s loop over the orders (line 229) as soon as there is a segment (the
  engine takes ``n`` from 1 up; ``Bleu(0)`` returns an empty list, which is no score);
* ``compute_score`` prints its totals and ratio (``verbose=1``, the default of
  ``Bleu.compute_score``, lines 259-261): the live backend captures that.

``option='average'`` adds each segment's mean reference length in float, in segment order:
its statistics keep each segment (``Preprocessing.segments``) to do the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.compute import COCO_SMALL, COCO_TINY, PRODUCT_FORM, compute
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.knobs import (
    KnobSettings,
    case_and_tokenizer,
    input_rules,
    remembered,
    uniform,
)
from bleu_harness.bleu.options import Option, choice, order
from bleu_harness.bleu.result import ConventionDeclined, ConventionError

NAME = "pycocoevalcap"
#: ``cook_refs`` / ``cook_test`` count n-grams to their default ``n=4`` (bleu_scorer.py:35, 60).
COUNTED_ORDERS = 4
#: ``option`` -> the knob model's reference-length rule.
REF_RULES = {"closest": "closest_shorter", "shortest": "shortest", "average": "average"}
#: ``none``: ``Bleu``'s own ``str.split()``; ``ptb``: the pipeline's PTBTokenizer first.
TOKENIZE_CHOICES = ("none", "ptb")
OPTIONS = (
    Option("n", 4, order()),  # Bleu(n=4)
    Option("option", "closest", choice(REF_RULES)),  # BleuScorer.compute_score(option=...)
    Option("tokenize", "none", choice(TOKENIZE_CHOICES, any_tokenizer=True)),
)


def required_order(options: Mapping[str, Any]) -> int:
    return options["n"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    """``str.split()`` or the PTB pipeline; each segment's statistics kept for ``average``
    (the sum of their mean reference lengths follows the segments' order)."""
    return Preprocessing(options["tokenize"], segments=options["option"] == "average")


def _settings(options: Mapping[str, Any], level: str, weights: tuple) -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=PRODUCT_FORM, ref=REF_RULES[options["option"]], smoothing="coco-epsilon",
        bp="epsilon", weights=weights, **case_and_tokenizer(preprocessing(options)))


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    """BLEU-n: uniform weights over n orders, in the running-product form."""
    return _settings(options, level, uniform(options["n"]))


def _check(corpus: CorpusStats, options: Mapping[str, Any]) -> None:
    """Where ``Bleu`` / ``BleuScorer`` raise, in the order they would."""
    option, n = options["option"], options["n"]
    unreferenced = corpus.has_segment_without_references
    if unreferenced and option == "closest":  # Bleu.compute_score, before any scoring
        raise ConventionError(NAME, "Bleu.compute_score asserts that every image has a "
                              "reference (assert(len(ref) >= 1))", "AssertionError")
    # BleuScorer.compute_score, segment by segment: the reference length first (it raises
    # for a segment without references), then the loop over n orders (IndexError past 4).
    reflen_error = (("min() of a segment's reference lengths needs a reference", "ValueError")
                    if option == "shortest" else
                    ("the average of no reference lengths divides by 0", "ZeroDivisionError"))
    if n > COUNTED_ORDERS and corpus.segment_count:
        if not unreferenced:
            first_raises = False
        elif corpus.segment_count == 1 or corpus.without_references == corpus.segment_count:
            first_raises = True
        else:
            raise ConventionDeclined(NAME, "which of IndexError (n > 4) and the "
                                     "reference-length error comes first depends on the "
                                     "order of the segments")
        if not first_raises:
            raise ConventionError(NAME, f"n={n}: cook_test counts {COUNTED_ORDERS} orders, and "
                                  "compute_score reads order 5 of the first segment",
                                  "IndexError")
    if unreferenced:
        raise ConventionError(NAME, *reflen_error)


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The input checks, then the knob arithmetic for BLEU-1..n at once (one weight vector
    per k): the score is BLEU-n, ``details["cumulative"]`` the list ``compute_score``
    returns, ``details["ratio"]`` its ``(c + tiny) / (r + small)``."""
    _check(corpus, options)
    n = options["n"]
    c = compute(corpus, _settings(options, level, tuple(uniform(k) for k in range(1, n + 1))))
    cumulative = tuple(c.scores)
    return Finished((cumulative[-1],), tuple(p for p, _ in c.precisions), c.matches, c.totals,
                    c.bp, c.hyp_len, c.ref_len,
                    details={"cumulative": cumulative,
                             "ratio": (c.hyp_len + COCO_TINY) / (c.ref_len + COCO_SMALL)})


#: What ``bleu-harness identify`` searches: BLEU-1..4 (``Bleu_1`` ... ``Bleu_4``), each
#: reference-length option, on the text as given and through the PTB pipeline.
VARIANTS = tuple({"n": n, "option": o, "tokenize": t} for n in (4, 1, 2, 3)
                 for o in ("closest", "shortest", "average") for t in ("none", "ptb"))

#: What the convention follows, in a line.
DESCRIPTION = ("pycocoevalcap Bleu (MS-COCO captions): (m + 1e-15) / (n + 1e-9) precisions, "
               "closest reference (shorter on a tie), BP just under 1 at equal lengths, "
               "BLEU-1..n as a running product")
#: Case-file tokenizer names its ``tokenize`` option accepts.
CASE_TOKENIZERS = ("none",)
