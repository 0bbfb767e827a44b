"""The tf-nmt convention: TensorFlow NMT ``nmt/scripts/bleu.py`` ``compute_bleu``, which
Hugging Face ``evaluate.load("bleu")`` runs (tensorflow/nmt@0be864257a76; huggingface/evaluate
``metrics/bleu/bleu.py`` imports its copy, ``nmt_bleu.compute_bleu``).

Read from the function, step by step:

* reference length: the **shortest** reference of each segment (``min(len(r) for r in
  references)``; a segment without references raises ``ValueError``);
* clipped matches against the union (max count) of the references, orders 1..``max_order``;
  ``possible_matches`` adds only positive counts;
* ``smooth=True``: ``(m + 1.) / (l + 1.)`` for **every** order, the unigram included;
  otherwise ``m / l``, 0.0 where the order has no n-gram;
* geometric mean ``exp(sum((1. / max_order) * log(p)))`` if ``min(precisions) > 0``, else 0;
* ``ratio = c / r`` (r = 0 raises ``ZeroDivisionError``); BP = 1 if ratio > 1, else
  ``exp(1 - 1. / ratio)`` (c = 0 raises ``ZeroDivisionError``);
* the score on the 0-1 scale (TF-NMT's ``evaluation_utils`` prints it times 100).

Tokens: ``tokenize="13a"`` is Hugging Face ``evaluate``'s default, its copy of SacreBLEU's
``Tokenizer13a`` called on each string as it is (no ``rstrip``, so ``'a-\\n'`` joins to
``a``); ``"split-space"`` is ``line.split(" ")`` handed to ``compute_bleu``;
``"strip-split-space"`` is TF-NMT's own scoring script (``evaluation_utils._bleu`` strips
each line, then ``split(" ")``); ``"space"`` is the old name of ``split-space``; ``"none"``
is ``str.split()`` on pre-tokenized text; ``intl``, ``char`` and ``zh`` are SacreBLEU's.
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
from bleu_harness.bleu.result import ConventionError
from bleu_harness.bleu.tokenizers import SACREBLEU_TOKENIZERS

NAME = "tf-nmt"
TOKENIZE_CHOICES = SACREBLEU_TOKENIZERS + ("split-space", "strip-split-space", "space")
#: Where a ``tokenize`` choice means another tokenizer than SacreBLEU's of that name.
TOKENIZERS = {"13a": "13a-unstripped", "space": "split-space"}
OPTIONS = (
    Option("max_order", 4, order(minimum=0)),
    Option("smooth", False, boolean),
    Option("tokenize", "13a", choice(TOKENIZE_CHOICES, any_tokenizer=True)),
)


def required_order(options: Mapping[str, Any]) -> int:
    return options["max_order"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    tokenize = options["tokenize"]
    return Preprocessing(tokenize if callable(tokenize) else TOKENIZERS.get(tokenize, tokenize))


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="sum", bp="1/ratio"), ref="shortest",
        smoothing="add-k" if options["smooth"] else "none",
        smoothing_value=1 if options["smooth"] else None, weights=uniform(options["max_order"]),
        **case_and_tokenizer(preprocessing(options)))


def check(corpus: CorpusStats, options: Mapping[str, Any], name: str = NAME) -> None:
    """Where ``compute_bleu`` raises: ``min()`` of no lengths or no precisions, and the two
    divisions of its ``ratio`` and BP by a length of 0 (``name``: the convention whose
    error it is, jury's too)."""
    if corpus.has_segment_without_references:
        raise ConventionError(name, "min() of a segment's reference lengths needs a reference",
                              "ValueError")
    if options["max_order"] == 0:
        raise ConventionError(name, "max_order=0 leaves no precisions, and min() of none "
                              "raises", "ValueError")
    if corpus.ref_len("shortest") == 0:
        raise ConventionError(name, "ratio = c / r with a reference length of 0",
                              "ZeroDivisionError")
    if corpus.hyp_len == 0:
        raise ConventionError(name, "exp(1 - 1. / ratio) with a hypothesis length of 0",
                              "ZeroDivisionError")


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The input checks, then the knob arithmetic (``sum`` of weighted logs, BP from
    ``1/ratio``), reported with the (smoothed) precisions and the length ratio."""
    check(corpus, options)
    c = compute(corpus, knobs(options, level))
    return Finished(c.scores, tuple(p for p, _ in c.precisions), c.matches, c.totals, c.bp,
                    c.hyp_len, c.ref_len, details={"ratio": float(c.hyp_len) / c.ref_len})


def sentence_arithmetic(options: Mapping[str, Any]) -> SentenceArithmetic | None:
    """A sentence's score by :func:`finish`: the knob arithmetic; :func:`check` refuses
    only a segment without references, an empty reference or hypothesis, or no order."""
    return SentenceArithmetic(knobs(options, "sentence"))


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"smooth": s, "tokenize": t, "max_order": n} for s in (False, True)
                   for t in ("13a", "none", "split-space", "strip-split-space", "intl", "char") for n in (4, 1, 2, 3))

#: What the convention follows, in a line.
DESCRIPTION = ("TensorFlow NMT compute_bleu (= Hugging Face evaluate 'bleu'): shortest "
               "reference, optional add-one smoothing on every order, 0-1 scale")
#: Case-file tokenizer names its ``tokenize`` option accepts.
CASE_TOKENIZERS = TOKENIZE_CHOICES
