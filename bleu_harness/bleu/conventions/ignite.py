"""The ignite convention: PyTorch-Ignite's ``ignite.metrics.nlp.Bleu`` (pytorch-ignite 0.5.5,
pytorch/ignite@8a2a163e8a94 = tag v0.5.5, ``ignite/metrics/nlp/bleu.py`` and
``ignite/metrics/nlp/utils.py``), read step by step:

* tokens: ``Bleu`` takes token lists and tokenizes nothing; the harness hands it each
  string's ``str.split()`` tokens;
* clipped matches over the hypothesis n-grams (``modified_precision``, ``utils.py:55-90``:
  the largest count in any one reference);
* reference length: the closest, the **shorter** on a tie (``_closest_ref_length``, key
  ``(abs(ref_len - hyp_len), ref_len)``, ``bleu.py:15-18``); a segment without references
  raises ``ValueError`` (``min()`` of no lengths);
* ``_brevity_penalty_smoothing`` (``bleu.py:191-216``): the **int** ``0`` when no unigram
  matches (line 197-198); with ``no_smooth``, the int ``0`` when any order has no match
  (line 201-202, before smoothing); BP ``exp(1 - r/c)`` when ``c < r`` (1 when ``c == r``);
  ``bp * math.exp(math.fsum(w * math.log(p)))`` with ``weights = [1 / ngram] * ngram``
  (line 145);
* smoothing (``_Smoother``, ``bleu.py:21-62``) over each order's *summed* counts ``m`` and
  ``d``: ``no_smooth`` ``m / max(1, d)``; ``smooth1`` ``m / max(1, d)``, or ``0.1 / max(1,
  d)`` for ``m == 0`` (an order without n-grams too: 0.1); ``nltk_smooth2`` ``(m + 1) /
  (max(1, d) + 1)`` from bigrams on, ``m / max(1, d)`` for unigrams; ``smooth2`` the same over
  the raw ``d`` (torchmetrics' add-one formula, but without its early 0). (``nltk_smooth2``
  puts the floored counts in a float32 tensor first, line 45: a summed count above 2**24
  would be rounded there; the engine does not model that);
* ``average="macro"`` (the default): each segment's sentence BLEU (``_sentence_bleu``, a
  corpus of one, lines 218-235), added in a float64 tensor in segment order and divided by
  their number (lines 240, 253-256, 270); no segment raises ``NotComputableError`` (line
  267-268). ``average="micro"``: the corpus's summed statistics in float64 tensors (lines
  244-247, 258-263, 273-280), the score a Python float, or the int ``0`` from the early
  returns (an empty corpus too);
* ``no_smooth``'s ``n.item() / d`` divides a Python float by a tensor ``d``, which torch
  computes as ``d.reciprocal() * n``: each precision is ``(1 / d) * m``, in float64 (micro)
  or in float32 (macro: a sentence's counts are float32 tensors, ``torch.zeros``, lines
  222-223) -- not ``m / d``. The other smoothings divide Python floats.

Everything else is float64 Python arithmetic, so the engine gives ignite's value bit for bit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE
from bleu_harness.bleu.compute import Arithmetic, compute
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
from bleu_harness.bleu.result import ConventionError

NAME = "ignite"
SMOOTHINGS = ("no_smooth", "smooth1", "nltk_smooth2", "smooth2")
OPTIONS = (
    Option("ngram", 4, order()),
    Option("smooth", "no_smooth", choice(SMOOTHINGS)),
    Option("average", "macro", choice(("macro", "micro"))),
)

#: ``smooth`` -> (smoothing knob, its parameter, denominator knob): ``smooth1``'s fixed
#: ``epsilon = 0.1`` (``bleu.py:39``); every method but ``smooth2`` floors each order's summed
#: count at 1 (``max(1, d)``, lines 40, 45, 61).
SMOOTHING_KNOBS: dict[str, tuple[str, float | None, str]] = {
    "no_smooth": ("none", None, "floor1-sum"),
    "smooth1": ("floor", 0.1, "floor1-sum"),
    "nltk_smooth2": ("add-k-from-bigram", 1, "floor1-sum"),
    "smooth2": ("add-k-from-bigram", 1, "raw"),
}


def required_order(options: Mapping[str, Any]) -> int:
    return options["ngram"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    """``str.split()`` tokens; the macro average scores each segment alone, so it keeps
    each segment's statistics."""
    return Preprocessing("none", segments=options["average"] == "macro")


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    smooth = options["smooth"]
    smoothing, value, denominator = SMOOTHING_KNOBS[smooth]
    macro = options["average"] == "macro"
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, refuse, required_order),
        arithmetic=Arithmetic(reciprocal_precision=(
            ("float32" if macro else "float64") if smooth == "no_smooth" else "")),
        ref="closest_shorter", no_match_zero=True,
        zero="zero-before-smoothing" if smooth == "no_smooth" else "zero",
        smoothing=smoothing, smoothing_value=value, denominator=denominator,
        weights=uniform(options["ngram"]), average="sentence-mean" if macro else "corpus",
        **case_and_tokenizer(preprocessing(options)))


def refuse(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> None:
    """Where ignite raises, its exception: the input checks (they read the summed statistics
    only, so the knob model can ask them of any setting's statistics)."""
    if corpus.has_segment_without_references:
        raise ConventionError(NAME, "a segment without references has no closest length "
                              "(_closest_ref_length: min() of no lengths)", "ValueError")
    if options["average"] == "macro" and not corpus.segment_count:
        raise ConventionError(NAME, "Bleu must have at least one example before it can be "
                              "computed (the macro average of no sentence)",
                              "NotComputableError")


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The input checks, then the knob arithmetic. Micro's early returns are the int ``0``;
    macro's mean is a float. Precisions and BP are those of the summed statistics (macro
    reports only the mean); the totals are the raw summed counts (ignite's
    ``p_denominators``)."""
    refuse(corpus, level, options)
    macro = options["average"] == "macro"
    c = compute(corpus, knobs(options, level), zero=0)
    scores = (0,) * len(c.scores) if c.gate and not macro else c.scores
    precisions = tuple(p for p, _ in c.precisions)
    return Finished(scores, precisions, c.matches, c.raw, c.bp, c.hyp_len, c.ref_len)


#: The default macro average divides in float32 (``(1 / d) * m``): its scores are as precise
#: as float32 against other conventions' (the engine still gives ignite's bit for bit).
PRECISION = FLOAT32_TOLERANCE

#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"ngram": n, "smooth": s, "average": a}
                 for n in (4, 1, 2, 3) for s in SMOOTHINGS for a in ("macro", "micro"))

#: What the convention follows, in a line.
DESCRIPTION = ("PyTorch-Ignite Bleu: by default the mean of sentence BLEUs (macro); closest "
               "reference (shorter on a tie), 0 when an order has no match without "
               "smoothing, smooth1 (0.1) / nltk_smooth2 / smooth2, float64")
