"""The keras-hub convention: ``keras_hub.metrics.Bleu`` (keras-team/keras-hub@71453d08f59e
``keras_hub/src/metrics/bleu.py``; the same formula since keras-nlp's first ``Bleu``,
13a9f2d13, 2022), a Keras metric whose ``update_state(y_true, y_pred)`` accumulates float32
state and whose ``result()`` is the corpus BLEU of everything seen so far.

Read from the module, step by step:

* tokens: with ``tokenizer=None``, ``_tokenizer`` (lines 149-166), keras-hub's own port of
  SacreBLEU's 13a in RE2 regexes with no space padding around the line and a dead
  ``[\\.,]$`` rule, then ``tf.strings.split`` on ASCII whitespace
  (:mod:`bleu_harness.bleu.tokenizers.kerashub`): ``"It costs 5."`` is ``It costs 5.`` (three
  tokens; SacreBLEU: ``5 .``). ``tokenize="none"`` stands for ``tokenizer=tf.strings.split``
  on pre-tokenized text; any callable ``str -> list[str]`` stands for the user's own;
* the state: ``_matches`` and ``_possible_matches`` (``max_order`` float32s), and float32
  translation and reference lengths (``add_weight``, lines 118-147), read back with
  ``.numpy()`` at each update (lines 287-290) and added to in place, so several
  ``update_state`` calls give the corpus BLEU of all their segments (exact up to 2^24 of a
  count, beyond which float32 sums round: not modelled);
* reference length: the **shortest** reference of each segment (``min(len(r) for r in
  references)``, line 226; a segment without references raises ``ValueError``);
* clipped matches against the union (max count) of the references, orders 1..``max_order``;
  ``possible_matches`` adds only positive counts (lines 228-241): TF-NMT's statistics;
* ``smooth=True``: ``(m + 1.0) / (l + 1.0)`` for **every** order (Lin et al. 2004, lines
  245-248); otherwise ``float(m) / l``, or 0.0 where the order has no n-gram (lines 249-256).
  ``m`` and ``l`` are float32 NumPy scalars, and under NumPy 2 (NEP 50: a Python float does
  not widen a NumPy scalar) each precision is a **float32**;
* ``min(precisions) > 0``: ``exp(sum((1.0 / max_order) * math.log(p)))`` in float64, else 0
  (lines 258-262; ``min()`` of no precisions, ``max_order=0``, raises ``ValueError``);
* ``ratio = float(translation_length) / reference_length`` is a float32 too; BP 1 if ``ratio
  > 1.0``, else ``math.exp(1 - 1.0 / ratio)`` with ``1.0 / ratio`` and ``1 - ...`` float32
  (lines 264-269). NumPy divides by zero without raising: an empty hypothesis side gives
  ``1.0 / 0.0 = inf`` and BP ``exp(-inf) = 0``; an empty reference side gives ``ratio = inf``
  and BP 1; both empty (an empty corpus too, ``update_state`` on empty string tensors)
  give ``0/0 = nan``, and the score is NaN (a metric never updated reads its initial 0.0);
* ``bleu = geo_mean * bp`` assigned to the float32 ``_bleu`` (lines 271, 358): the score is a
  float32 number on the 0-1 scale.

Under NumPy 1.x (before NEP 50, ``numpy=1``) ``float(m) / l`` is a float64: value-based
casting makes a Python float and a ``np.float32`` scalar a ``np.float64`` (NumPy 1.26.4:
``type(np.float32(1) + 1.0)``), so the precisions, the ratio and ``1.0 / ratio`` are float64
-- TF-NMT's arithmetic on keras-hub's statistics -- and only the score is rounded to float32
when it is assigned to ``_bleu``. The two differ in the last bits of the float32 score (the
oracle's ``Bleu`` under NumPy 1.26.4 and 2.x, ``tests/test_kerashub.py``).
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
from bleu_harness.bleu.options import Option, boolean, choice, order
from bleu_harness.bleu.result import ConventionError

NAME = "keras-hub"
#: ``tokenize`` values -> the engine's tokenizers: the default tokenizer, and
#: ``tf.strings.split`` as the tokenizer of pre-tokenized text.
TOKENIZERS = {"13a": "keras-13a", "none": "tf-split"}
OPTIONS = (
    Option("max_order", 4, order(minimum=0)),
    Option("smooth", False, boolean),
    Option("tokenize", "13a", choice(tuple(TOKENIZERS), any_tokenizer=True),
           aliases=("tokenizer",)),
    # Not keras-hub's: the major version of the NumPy it runs on (its promotion rules).
    Option("numpy", 2, choice((2, 1))),
)


def required_order(options: Mapping[str, Any]) -> int:
    return options["max_order"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    tokenize = options["tokenize"]
    return Preprocessing(tokenize if callable(tokenize) else TOKENIZERS[tokenize])


#: The arithmetic under each NumPy: NEP 50 (NumPy 2) keeps ``float(m) / l`` and the ratio
#: float32; NumPy 1's value-based casting makes a Python float and a ``np.float32`` scalar a
#: float64, so the precisions, the ratio and ``1.0 / ratio`` are float64 (TF-NMT's arithmetic)
#: and only the score is rounded to float32.
NUMPY_ARITHMETIC = {
    2: Arithmetic(log_sum="sum", bp="1/ratio-float32", float32_precisions=True),
    1: Arithmetic(log_sum="sum", bp="1/ratio"),
}


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=NUMPY_ARITHMETIC[options["numpy"]],
        ref="shortest", all_empty="nan-ratio",
        smoothing="add-k" if options["smooth"] else "none",
        smoothing_value=1 if options["smooth"] else None, weights=uniform(options["max_order"]),
        float32=True, version="" if options["numpy"] == 2 else f"numpy{options['numpy']}",
        **case_and_tokenizer(preprocessing(options)))


def _check(corpus: CorpusStats, options: Mapping[str, Any]) -> None:
    """Where ``_corpus_bleu`` raises: ``min()`` of a segment's reference lengths without a
    reference (in the loop, first), and ``min()`` of no precisions."""
    if corpus.has_segment_without_references:
        raise ConventionError(NAME, "min() of a segment's reference lengths needs a reference",
                              "ValueError")
    if options["max_order"] == 0:
        raise ConventionError(NAME, "max_order=0 leaves no precisions, and min() of none "
                              "raises", "ValueError")


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The input checks, then the knob arithmetic (float32 precisions and length ratio,
    float64 log sum and exp, the score rounded to float32)."""
    _check(corpus, options)
    c = compute(corpus, knobs(options, level))
    precisions = () if c.gate else tuple(p for p, _ in c.precisions)
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len)


#: What ``bleu-harness identify`` searches.
VARIANTS = (*({"smooth": s, "tokenize": t, "max_order": n} for s in (False, True)
               for t in ("13a", "none") for n in (4, 1, 2, 3)),
            *({"smooth": s, "tokenize": t, "numpy": 1} for s in (False, True)
              for t in ("13a", "none")))

#: What the convention follows, in a line.
DESCRIPTION = ("keras-hub Bleu metric: TF-NMT's formula (shortest reference, optional add-one "
               "on every order) over float32 state, its own unpadded RE2 port of 13a")
#: Case-file tokenizer names its ``tokenize`` option accepts.
CASE_TOKENIZERS = tuple(TOKENIZERS)
