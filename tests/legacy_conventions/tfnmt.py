"""The tf-nmt convention: TensorFlow NMT ``nmt/scripts/bleu.py`` ``compute_bleu``, which
Hugging Face ``evaluate.load("bleu")`` runs (CONVENTIONS.md A.1).

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

import math
from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.convention import (
    Convention,
    Finished,
    Preprocessing,
    merge_options,
    require_bool,
    require_choice,
    require_order,
)
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.result import ConventionError
from bleu_harness.bleu.tokenizers import SACREBLEU_TOKENIZERS

NAME = "tf-nmt"
TOKENIZE_CHOICES = SACREBLEU_TOKENIZERS + ("split-space", "strip-split-space", "space")
#: Where a ``tokenize`` choice means another tokenizer than SacreBLEU's of that name.
TOKENIZERS = {"13a": "13a-unstripped", "space": "split-space"}
DEFAULTS: dict[str, Any] = {"max_order": 4, "smooth": False, "tokenize": "13a"}


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    options = merge_options(NAME, given, DEFAULTS)
    require_order(NAME, "max_order", options["max_order"], minimum=0)
    require_bool(NAME, "smooth", options["smooth"])
    if not callable(options["tokenize"]):  # or the user's own tokenizer
        require_choice(NAME, "tokenize", options["tokenize"], TOKENIZE_CHOICES)
    return options


def required_order(options: Mapping[str, Any]) -> int:
    return options["max_order"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    tokenize = options["tokenize"]
    return Preprocessing(tokenize if callable(tokenize) else TOKENIZERS.get(tokenize, tokenize))




def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    max_order = options["max_order"]
    if corpus.has_segment_without_references:
        raise ConventionError(NAME, "min() of a segment's reference lengths needs a reference",
                              "ValueError")
    if max_order == 0:
        raise ConventionError(NAME, "max_order=0 leaves no precisions, and min() of none "
                              "raises", "ValueError")
    translation_length = corpus.hyp_len
    reference_length = corpus.ref_len("shortest")
    matches = corpus.matches[:max_order]
    possible = corpus.totals[:max_order]
    if options["smooth"]:
        precisions = [(m + 1.0) / (p + 1.0) for m, p in zip(matches, possible)]
    else:
        precisions = [float(m) / p if p > 0 else 0.0 for m, p in zip(matches, possible)]
    if min(precisions) > 0:
        geo_mean = math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions))
    else:
        geo_mean = 0
    if reference_length == 0:
        raise ConventionError(NAME, "ratio = c / r with a reference length of 0",
                              "ZeroDivisionError")
    ratio = float(translation_length) / reference_length
    if ratio > 1.0:
        bp = 1.0
    elif ratio == 0:
        raise ConventionError(NAME, "exp(1 - 1. / ratio) with a hypothesis length of 0",
                              "ZeroDivisionError")
    else:
        bp = math.exp(1 - 1.0 / ratio)
    return Finished((geo_mean * bp,), tuple(precisions), matches, possible, bp,
                    translation_length, reference_length, details={"ratio": ratio})


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"smooth": s, "tokenize": t, "max_order": n} for s in (False, True)
                   for t in ("13a", "none", "split-space", "strip-split-space", "intl", "char") for n in (4, 1, 2, 3))
