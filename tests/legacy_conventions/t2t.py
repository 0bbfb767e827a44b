"""The t2t convention: Tensor2Tensor ``tensor2tensor/utils/bleu_hook.py`` (CONVENTIONS.md A.2),
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

import math
from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE
from bleu_harness.bleu.arithmetic import float32
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
from bleu_harness.bleu.result import UNSUPPORTED_INPUT, ConventionError

NAME = "t2t"
TOKENIZE_CHOICES = ("t2t", "none")
DEFAULTS: dict[str, Any] = {
    "max_order": 4, "use_bp": True, "case_sensitive": False, "tokenize": "t2t"}


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    options = merge_options(NAME, given, DEFAULTS)
    require_order(NAME, "max_order", options["max_order"], minimum=0)
    require_bool(NAME, "use_bp", options["use_bp"])
    require_bool(NAME, "case_sensitive", options["case_sensitive"])
    if not callable(options["tokenize"]):  # or the user's own tokenizer
        require_choice(NAME, "tokenize", options["tokenize"], TOKENIZE_CHOICES)
    return options


def required_order(options: Mapping[str, Any]) -> int:
    return options["max_order"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing(options["tokenize"], not options["case_sensitive"])




def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    max_order = options["max_order"]
    if corpus.segment_count and (corpus.fewest_references, corpus.most_references) != (1, 1):
        raise ConventionError(NAME, "compute_bleu takes exactly one reference per segment",
                              UNSUPPORTED_INPUT)
    if max_order == 0:
        raise ConventionError(NAME, "max_order=0 leaves no precisions, and max() of none "
                              "raises", "ValueError")
    translation_length = corpus.hyp_len
    reference_length = corpus.ref_len("first")
    matches = corpus.matches[:max_order]
    possible = corpus.totals[:max_order]
    precisions = []
    smooth = 1.0
    for m, p in zip(matches, possible):
        if p > 0:
            if m > 0:
                precisions.append(m / p)
            else:
                smooth *= 2
                precisions.append(1.0 / (smooth * p))
        else:
            precisions.append(0.0)
    geo_mean = 0.0
    if max(precisions) > 0:
        geo_mean = math.exp(sum(math.log(p) for p in precisions if p) / max_order)
    bp = 1.0
    if options["use_bp"] and reference_length:
        ratio = translation_length / reference_length
        if ratio <= 0.0:
            bp = 0.0
        elif ratio < 1.0:
            bp = math.exp(1 - 1.0 / ratio)
    return Finished((float32(geo_mean * bp),), tuple(precisions), matches, possible, bp,
                    translation_length, reference_length)


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"case_sensitive": c, "tokenize": t} for c in (False, True) for t in ("t2t", "none"))
