"""The torchmetrics convention: ``torchmetrics.text.BLEUScore`` /
``torchmetrics.functional.text.bleu_score`` (Lightning-AI/torchmetrics@v1.9.0
``src/torchmetrics/functional/text/bleu.py``; Lightning-AI/torchmetrics#3504).

Read from ``functional/text/bleu.py``, step by step:

* tokens: ``str.split()`` (an empty string gives no token);
* reference length: the closest, the **first-listed** on a tie
  (``target_len_list[target_len_diff.index(min(target_len_diff))]``); a segment without
  references raises ``ValueError`` (``min`` of an empty list);
* ``if min(numerator) == 0.0: return tensor(0.0)`` -- before smoothing, so ``smooth`` never
  rescues an order without a match;
* ``smooth=True``: ``(m + 1) / (l + 1)`` for orders 2..N, ``m / l`` for the unigram;
* ``weights`` (default ``[1 / n_gram] * n_gram``) must have ``n_gram`` entries and are not
  normalised: ``exp(sum(weights * log(p)))``;
* BP = 1 if c > r else ``exp(1 - r / c)``;
* everything in float32 tensors. The engine rounds each step to float32; ``torch.log`` and
  ``torch.exp`` may differ from the correctly rounded value by an ulp, so the result matches
  the library to float32 precision (about 1e-7 relative), not bit for bit.

Why not bit for bit: PyTorch's x86-64 CPU builds compute ``log`` and ``exp`` of a float32
tensor with Intel MKL's vector math (``aten/src/ATen/cpu/vml.h``, ``IMPLEMENT_VML_MKL``:
``vmsLn``/``vmsExp`` in ``VML_HA`` mode), whose results are neither the C library's
``logf``/``expf`` nor correctly rounded, and whose code is not published. Measured with torch
2.13.0+cpu (MKL 2024.2) on 20,000 uniformly random float32 inputs: ``torch.log`` differs from
glibc's ``logf`` on 7.9 % of them and from the correctly rounded logarithm on 7.7 %;
``torch.exp`` of inputs in (-20, 0) on 1.2 %, also on 0-d tensors. So this convention, torchtext's and
torchmetrics' ``SacreBLEUScore`` (the same tensor arithmetic) are held to float32 precision,
with the share that is bit for bit counted in their tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, compute
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.knobs import KnobSettings, case_and_tokenizer, input_rules, remembered
from bleu_harness.bleu.options import (
    Option,
    boolean,
    optional,
    order,
    resolve_options,
    weights,
)
from bleu_harness.bleu.result import ConventionError

NAME = "torchmetrics"
OPTIONS = (
    Option("n_gram", 4, order()),
    Option("smooth", False, boolean),
    Option("weights", None, optional(weights)),
)


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options, and ``weights`` of ``n_gram`` entries (``_bleu_score_update``'s check)."""
    return checked_weights(NAME, resolve_options(NAME, OPTIONS, given))


def checked_weights(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options``, or the ``ValueError`` ``BLEUScore`` raises for weights whose number is
    not ``n_gram``."""
    if options["weights"] is not None and len(options["weights"]) != options["n_gram"]:
        raise ValueError(f"{name}: List of weights has different weights than `n_gram`: "
                         f"{len(options['weights'])} != {options['n_gram']}")
    return options


def weights_of(options: Mapping[str, Any]) -> tuple[float, ...]:
    n_gram = options["n_gram"]
    return options["weights"] if options["weights"] is not None else (1.0 / n_gram,) * n_gram


def required_order(options: Mapping[str, Any]) -> int:
    return options["n_gram"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing("none")


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return formula_knobs(options, level, preprocessing(options))


#: The options of the formula (``_bleu_score_update`` / ``_bleu_score_compute``).
FORMULA_OPTIONS = tuple(option.name for option in OPTIONS)


def formula_knobs(options: Mapping[str, Any], level: str, text: Preprocessing) -> KnobSettings:
    """``BLEUScore``'s formula at ``options`` over the tokens of ``text``: ``SacreBLEUScore``
    runs the same ``_bleu_score_update`` and ``_bleu_score_compute`` with its own tokenizer
    (the torchmetrics-sacrebleu convention), so its input checks are these too."""
    formula = {name: options[name] for name in FORMULA_OPTIONS}
    return KnobSettings(
        input_rules=input_rules(NAME, level, formula, finish, required_order),
        arithmetic=Arithmetic(log_sum="steps"), ref="closest_first",
        no_match_zero=True, zero="zero-before-smoothing",
        smoothing="add-k-from-bigram" if options["smooth"] else "none",
        smoothing_value=1 if options["smooth"] else None, weights=tuple(weights_of(options)),
        float32=True, **case_and_tokenizer(text))


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    return finish_formula(NAME, corpus, knobs(options, level))


def finish_formula(name: str, corpus: CorpusStats, k: KnobSettings) -> Finished:
    """The knob arithmetic of ``k`` (:func:`formula_knobs`) in float32 steps;
    ``return tensor(0.0)`` (an order without a match) reports no precisions and a BP of 0.
    ``name`` is the convention an error names."""
    if corpus.has_segment_without_references:
        raise ConventionError(name, "a segment without references has no closest length",
                              "ValueError")
    c = compute(corpus, k)
    precisions, bp = (((), 0.0) if c.gate else (tuple(p for p, _ in c.precisions), c.bp))
    return Finished(c.scores, precisions, c.matches, c.totals, bp, c.hyp_len, c.ref_len)


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"n_gram": n, "smooth": s} for n in (4, 1, 2, 3) for s in (False, True))

#: What the convention follows, in a line.
DESCRIPTION = ("torchmetrics BLEUScore: closest reference (first-listed on a tie), 0 when "
               "any order has no match, add-one smoothing from bigrams, float32")
