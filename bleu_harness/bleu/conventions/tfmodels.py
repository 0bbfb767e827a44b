"""The tf-models convention: TensorFlow Model Garden ``official/nlp/metrics/bleu.py``
(tf-models-official 2.20.0), ``bleu_on_list`` -- Tensor2Tensor's ``bleu_hook`` copied, with
three differences read from the module:

* ``compute_bleu`` divides by the reference length before anything else
  (``ratio = translation_length / reference_length``): no ``if not reference_length`` guard,
  so a corpus of empty references raises ``ZeroDivisionError``;
* ``bp = 0. if ratio < 1e-6 else ...``: the BP is 0 below a length ratio of 1e-6 (T2T: only
  at ratio 0) -- which changes no score: ``exp(1 - 1/ratio)`` is already 0.0 in float64
  below a ratio of about 1/746;
* ``bleu_on_list`` returns ``compute_bleu(...) * 100`` -- ``np.float32`` times 100, so the
  0-100 score is rounded to float32 again.

The rest is T2T's (:mod:`bleu_harness.bleu.conventions.t2t`): one reference per segment,
always-on NIST geometric smoothing, an order without n-grams left out of the sum but still
dividing, BP from ``1/ratio``, ``str.lower`` unless ``case_sensitive``, ``bleu_tokenize`` (the
same pasted character classes), orders 1-4.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, compute
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.kernel import SentenceArithmetic
from bleu_harness.bleu.knobs import (
    KnobSettings,
    case_and_tokenizer,
    input_rules,
    remembered,
    uniform,
)
from bleu_harness.bleu.options import Option, boolean, choice
from bleu_harness.bleu.result import ConventionDeclined, ConventionError

NAME = "tf-models"
ORDER = 4
OPTIONS = (
    Option("case_sensitive", False, boolean),
    Option("tokenize", "t2t", choice(("t2t", "none"), any_tokenizer=True)),
)


def required_order(options: Mapping[str, Any]) -> int:
    return ORDER


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing(options["tokenize"], not options["case_sensitive"])


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="mean", bp="1/ratio", times_scale=True,
                              scale_in_float32=True),
        ref="first", smoothing="nist-geometric", empty_order="neutral",
        weights=uniform(ORDER), float32=True, scale=100.0,
        **case_and_tokenizer(preprocessing(options)))


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """``bleu_on_list``: one reference per segment, the reference length divides first, then
    the knob arithmetic (float32, times 100 in float32)."""
    if corpus.segment_count and (corpus.fewest_references, corpus.most_references) != (1, 1):
        raise ConventionDeclined(NAME, "compute_bleu takes exactly one reference per segment")
    if corpus.ref_len("first") == 0:
        raise ConventionError(NAME, "the length ratio divides by a reference length of 0",
                              "ZeroDivisionError")
    c = compute(corpus, knobs(options, level))
    precisions = tuple(100 * p for p, _ in c.precisions) or (0.0,) * len(c.matches)
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len)


def sentence_arithmetic(options: Mapping[str, Any]) -> SentenceArithmetic | None:
    """A sentence's score by :func:`finish`: the knob arithmetic, of one reference that is
    not empty."""
    return SentenceArithmetic(knobs(options, "sentence"), single_reference=True)


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"case_sensitive": c, "tokenize": t} for c in (False, True)
                 for t in ("t2t", "none"))

#: What the convention follows, in a line.
DESCRIPTION = ("TensorFlow Model Garden bleu_on_list: T2T's BLEU, no guard for a zero "
               "reference length, float32 times 100")
#: Case-file tokenizer names its ``tokenize`` option accepts.
CASE_TOKENIZERS = ("none",)
