"""The marian convention: the BLEU validators of the Marian NMT toolkit, ``--valid-metrics
bleu`` and ``bleu-detok`` (``BleuValidator``, marian-nmt/marian-dev@46c94a58fd43
``src/training/validator.h:563-814``, Marian v1.7.8, February 2019), the score Marian logs
during training and keeps ``--keep-best`` models by.

Read from the class, step by step:

* one reference per segment: the validation set's target side (``valid-sets``);
* tokens: ``bleu`` counts the target vocabulary's word ids, ``bleu-detok`` decodes them to
  text and tokenizes it with ``BleuValidator::tokenize``, a ``std::regex`` port of 13a
  (:mod:`bleu_harness.bleu.tokenizers.marian`); ``detok_`` requires a SentencePiece
  vocabulary (lines 574-582, else ``ABORT``);
* end of sentence: the reference's ids end at its first EOS (lines 783-789); the hypothesis
  keeps its final EOS, which ``updateStats`` leaves out by counting the n-grams of
  ``cand.size() - 1`` words (lines 749-756; ``bleu-detok`` appends ``"</s>"`` to the
  decoded tokens for that, ``decode(cand, /*addEOS=*/ true)``, line 792);
* statistics: ``std::vector<float> stats(9)`` (line 618), **float32** sums of
  ``min(tc, rc)`` and ``tc`` per n-gram of orders 1-4 (clipped against the one reference,
  lines 758-765) and of the reference length (line 767) -- exact up to 2^24 per count
  (beyond, float32 sums round: not modelled);
* ``calcBLEU`` (lines 797-809), all float32: for each order, 0 if its matches are 0, else
  ``logbleu += std::log(m / t)``; ``logbleu /= 4.f``; ``brev_penalty = 1.f - std::max(r / c,
  1.f)``; ``std::exp(logbleu + brev_penalty) * 100``. So 0 when any order has no match (a
  hypothesis side shorter than 4 words too), no smoothing, the BP inside the exponent, the
  score float32 on the 0-100 scale. ``std::log`` and ``std::exp`` of a ``float`` are the C
  library's ``logf``/``expf``, which are not always correctly rounded: the engine calls them
  too (:mod:`bleu_harness.bleu.libm`), so its score is the validator's bit for bit.

Later releases changed it: from Marian 1.8.0 (September 2019, whose ``calcBLEU`` is still
this one) ``bleu-detok`` also splits CJK continuous script into characters
(``tokenizeContinuousScript``, d7f7d292, 2019-03-27), and the later ``SacreBleuValidator``
(``validator.cpp``) sums ``std::log(m) - std::log(t)`` (marian-dev@c9f287db). Those rules
are not modelled here. A word the vocabulary does not know is ``<unk>`` on both sides and
matches; there is no vocabulary here (every word is known), and ``bleu-detok``'s text is taken
as what the SentencePiece vocabulary decodes (its normalisation is not modelled).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
from bleu_harness.bleu.options import Option, choice
from bleu_harness.bleu.result import ConventionDeclined

NAME = "marian"
ORDER = 4
#: ``--valid-metrics`` values -> the engine's tokenizers.
METRICS = {"bleu": "marian-words", "bleu-detok": "marian-13a"}
OPTIONS = (Option("valid_metrics", "bleu", choice(tuple(METRICS)), aliases=("valid-metrics",)),)


def required_order(options: Mapping[str, Any]) -> int:
    return ORDER


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing(METRICS[options["valid_metrics"]])


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="mean-float32", bp="exponent", times_scale=True,
                              scale_in_float32=True),
        ref="first", weights=uniform(ORDER), float32=True, scale=100.0,
        **case_and_tokenizer(preprocessing(options)))


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """One reference per segment, then the knob arithmetic (float32 steps, the BP in the
    exponent, times 100 in float32)."""
    if corpus.segment_count and (corpus.fewest_references, corpus.most_references) != (1, 1):
        raise ConventionDeclined(NAME, "the validator scores against the one target side of "
                                 "the validation set")
    c = compute(corpus, knobs(options, level))
    precisions = tuple(100 * p for p, _ in c.precisions) or (0.0,) * len(c.matches)
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len)


#: What ``bleu-harness identify`` searches.
VARIANTS = ({"valid_metrics": "bleu"}, {"valid_metrics": "bleu-detok"})

#: What the convention follows, in a line.
DESCRIPTION = ("Marian's bleu / bleu-detok validators: one reference, float32 statistics and "
               "arithmetic, 0 when an order has no match, words up to </s> or a std::regex 13a")
#: Case-file tokenizer names it accepts: none (its metrics decide the tokens).
CASE_TOKENIZERS = ()
CALLABLE_TOKENIZER = False
