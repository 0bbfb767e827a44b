"""The t2t convention: Tensor2Tensor ``tensor2tensor/utils/bleu_hook.py`` (tensor2tensor 1.15.7),
its ``compute_bleu`` as called by ``bleu_wrapper`` (the text entry point).

Read from the module (the revision with the zero-reference-length rule), step by step:

* one reference per segment (the API takes one token list): reference length is its length;
* matches: ``min(count, translation_count)`` over the reference's n-grams;
* precision per order: no hypothesis n-gram -> 0.0; no match -> ``smooth *= 2`` then
  ``1 / (smooth * possible)`` (always on, NIST-style geometric); else ``m / possible``;
* ``if max(precisions) > 0``: ``exp(sum(log(p) for p in precisions if p) / max_order)`` --
  an order without n-grams is left out of the sum but still divides;
* ``use_bp``: r = 0 -> BP 1; ratio <= 0 -> 0; ratio >= 1 -> 1; else ``exp(1 - 1/ratio)``;
* the result is ``np.float32(bleu)``.

Text: ``bleu_wrapper(case_sensitive=False)`` lowercases (``str.lower``) and tokenizes with
``bleu_tokenize`` (mteval-v14 rules over ``unicodedata`` classes); ``tokenize="none"`` scores
whitespace tokens as ``compute_bleu`` on pre-tokenized lists.
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
from bleu_harness.bleu.options import (
    Option,
    boolean,
    choice,
    order,
)
from bleu_harness.bleu.result import ConventionDeclined, ConventionError

NAME = "t2t"
TOKENIZE_CHOICES = ("t2t", "none")
OPTIONS = (
    Option("max_order", 4, order(minimum=0)),
    Option("use_bp", True, boolean),
    Option("case_sensitive", False, boolean),
    Option("tokenize", "t2t", choice(TOKENIZE_CHOICES, any_tokenizer=True)),
)


def required_order(options: Mapping[str, Any]) -> int:
    return options["max_order"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing(options["tokenize"], not options["case_sensitive"])


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="mean", bp="1/ratio"), ref="first",
        smoothing="nist-geometric", empty_order="neutral",
        bp="standard" if options["use_bp"] else "off", weights=uniform(options["max_order"]),
        float32=True, **case_and_tokenizer(preprocessing(options)))


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """``compute_bleu``'s input checks, then the knob arithmetic (mean of logs, BP from
    ``1/ratio``, ``np.float32`` at the end), reported with the smoothed precisions."""
    if corpus.segment_count and (corpus.fewest_references, corpus.most_references) != (1, 1):
        raise ConventionDeclined(NAME, "compute_bleu takes exactly one reference per segment")
    if options["max_order"] == 0:
        raise ConventionError(NAME, "max_order=0 leaves no precisions, and max() of none "
                              "raises", "ValueError")
    c = compute(corpus, knobs(options, level))
    precisions = tuple(p for p, _ in c.precisions) or (0.0,) * len(c.matches)
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len)


def sentence_arithmetic(options: Mapping[str, Any]) -> SentenceArithmetic | None:
    """A sentence's score by :func:`finish`: the knob arithmetic, of one reference."""
    return SentenceArithmetic(knobs(options, "sentence"), single_reference=True)


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"case_sensitive": c, "tokenize": t} for c in (False, True) for t in ("t2t", "none"))

#: What the convention follows, in a line.
DESCRIPTION = ("Tensor2Tensor bleu_hook: one reference, always-on NIST smoothing, "
               "lowercased intl tokens (bleu_wrapper), float32")
#: Case-file tokenizer names its ``tokenize`` option accepts.
CASE_TOKENIZERS = ("none",)
