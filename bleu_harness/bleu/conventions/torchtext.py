"""The torchtext convention: ``torchtext.data.metrics.bleu_score`` (torchtext 0.18.0, the last
release; its wheel was built from pytorch/text@a897aa927f94, whose
``torchtext/data/metrics.py`` is the same file as tag v0.18.0, 9bed85d7a7ae), read step by
step:

* tokens: ``bleu_score`` takes token lists and tokenizes nothing; the harness hands it each
  string's ``str.split()`` tokens. It counts n-grams through ``ngrams_iterator``
  (``torchtext/data/utils.py:208-228``: the tokens, then ``" ".join`` of each longer n-gram)
  and splits each again with ``split(" ")`` (``metrics.py:29``), so a token that holds a space
  would be counted as several: ``str.split()`` tokens never do;
* ``assert max_n == len(weights)`` (line 55): an ``AssertionError``, whose default weights
  ``[0.25] * 4`` fit only ``max_n=4``; the weights are used as given, not normalised;
* reference length: the closest, the **first-listed** on a tie (``min(refs_len_list, key=
  lambda x: abs(current_candidate_len - x))``, lines 72-73); a segment without references
  raises ``ValueError`` (``min()`` of no lengths);
* clipped matches over the hypothesis n-grams (the union of the references' counters,
  lines 75-84); ``max(len - i, 0)`` n-grams of order ``i + 1`` (line 88);
* ``if min(clipped_counts) == 0: return 0.0`` (lines 90-91): any order without a match, and
  an empty corpus, give 0.0; there is no smoothing;
* float32 tensors (``torch.zeros(max_n)``, ``torch.tensor(weights)``, lines 60-62): ``pn =
  clipped / total``, ``weights * torch.log(pn)``, summed by Python's ``sum`` from 0 in order,
  ``torch.exp`` (lines 93-95) -- torchmetrics' arithmetic -- but the BP is a float64
  ``math.exp(min(1 - refs_len / candidate_len, 0))`` (line 97) and ``bp * score.item()``
  (line 99) multiplies in float64, unrounded: the score is not a float32 number.

The engine rounds each float32 step as torch does; ``torch.log`` and ``torch.exp`` are MKL's,
not correctly rounded (measured: :mod:`bleu_harness.bleu.conventions.torchmetrics`), so it
matches torchtext to float32 precision (about 1e-7 relative), mostly bit for bit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, compute
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.knobs import KnobSettings, case_and_tokenizer, input_rules, remembered
from bleu_harness.bleu.options import Option, order, weights
from bleu_harness.bleu.result import ConventionError

NAME = "torchtext"
OPTIONS = (
    Option("max_n", 4, order()),
    Option("weights", (0.25, 0.25, 0.25, 0.25), weights),
)


def required_order(options: Mapping[str, Any]) -> int:
    return max(options["max_n"], len(options["weights"]))


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing("none")


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="steps", float64_bp=True), ref="closest_first",
        no_match_zero=True, zero="zero-before-smoothing", weights=tuple(options["weights"]),
        float32=True, **case_and_tokenizer(preprocessing(options)))


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The knob arithmetic; where ``bleu_score`` raises, its exception (the weights' assert
    first, line 55; then ``min()`` of a segment without references, line 73). Its early 0.0
    reports no precisions."""
    if len(options["weights"]) != options["max_n"]:
        raise ConventionError(NAME, 'Length of the "weights" list has be equal to max_n '
                              f"({len(options['weights'])} weights, max_n "
                              f"{options['max_n']})", "AssertionError")
    if corpus.has_segment_without_references:
        raise ConventionError(NAME, "a segment without references has no closest length "
                              "(min() of no lengths)", "ValueError")
    c = compute(corpus, knobs(options, level))
    precisions = () if c.gate else tuple(p for p, _ in c.precisions)
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len)


#: What ``bleu-harness identify`` searches: uniform weights of 1-4 orders.
VARIANTS = tuple({"max_n": n, "weights": (1 / n,) * n} for n in (4, 1, 2, 3))

#: What the convention follows, in a line.
DESCRIPTION = ("torchtext bleu_score: closest reference (first-listed on a tie), 0 when any "
               "order has no match, no smoothing, weights as given, a float32 geometric mean "
               "times a float64 BP")
