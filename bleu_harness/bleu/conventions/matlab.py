"""The MATLAB convention: Text Analytics Toolbox ``bleuEvaluationScore`` (R2020a+), as documented.

MATLAB's source is closed; this follows its reference page, rule by rule
(https://www.mathworks.com/help/textanalytics/ref/bleuevaluationscore.html):

* ``NgramWeights`` (here ``ngram_weights``; default four equal weights): "The function
  normalizes the n-gram weights to sum to one"; their number sets N; they must be finite and
  nonnegative (anything else is a ``ValueError`` naming the problem, as MATLAB validates them).
* "If the number of words in candidate is smaller than the number of elements in
  ngramWeights, then the resulting BLEU score is zero."
* "If candidate and references are both empty documents, then score is NaN."
* "If candidate is identical to one of the reference documents, then score is 1."
* clipping against the largest count in any single reference; BP = 1 if c > r, else
  exp(1 - r/c), r the reference length closest to the candidate's.
* ``IgnoreCase`` (here ``ignore_case``): compare ignoring case.

Choices where the documentation is silent or contradicts itself (each is visible in the
signature and flagged by a case in the corpus):

* An identical candidate shorter than N meets two rules (score 0 and score 1). The engine
  applies the *fewer-words-than-N* rule first, so it scores 0: that rule describes what the
  computation does (an order with no candidate n-gram), the identical rule describes the
  ordinary outcome.
* A tie between two closest references takes the shorter (as every other implementation).
* An order with zero precision makes the score 0 (the geometric mean of a zero); an order
  whose normalised weight is 0 is left out (MATLAB's ``0*log(0)`` would be NaN; documented
  behaviour gives none).
* Tokens are whitespace-separated: ``tokenizedDocument`` is not reproduced (the documented
  examples are written with the full stop as its own token).
* Corpus level (MATLAB scores one candidate): the statistics are summed as in the paper, the
  fewer-words rule applies when no candidate has N words, the NaN rule when every candidate
  and every reference is empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, compute
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.kernel import SentenceArithmetic
from bleu_harness.bleu.knobs import KnobSettings, case_and_tokenizer, input_rules, remembered
from bleu_harness.bleu.options import (
    Option,
    boolean,
    normalisable_weights,
)
from bleu_harness.bleu.result import ConventionError

NAME = "matlab"
OPTIONS = (
    Option("ngram_weights", (0.25, 0.25, 0.25, 0.25), normalisable_weights,
           aliases=("NgramWeights",)),
    Option("ignore_case", False, boolean, aliases=("IgnoreCase",)),
)


def required_order(options: Mapping[str, Any]) -> int:
    return len(options["ngram_weights"])


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing("none", options["ignore_case"])


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="sum", strict_bp=True), ref="closest_shorter",
        fewer_words="zero", all_empty="nan", weights=tuple(options["ngram_weights"]),
        normalise=True, **case_and_tokenizer(preprocessing(options)))


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The input check, then the knob arithmetic (``sum`` of weighted logs, strict BP; NaN
    for empty candidate and references, 0 for fewer words than N), reported with the
    unsmoothed precisions."""
    if not corpus.segment_count or corpus.has_segment_without_references:
        raise ConventionError(NAME, "every candidate needs at least one reference document",
                              "MATLAB:error")
    c = compute(corpus, knobs(options, level))
    precisions = tuple(m / t if t else 0.0 for m, t in zip(c.matches, c.totals))
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len)


def sentence_arithmetic(options: Mapping[str, Any]) -> SentenceArithmetic | None:
    """A sentence's score by :func:`finish`: the knob arithmetic; its check refuses only a
    segment without references."""
    return SentenceArithmetic(knobs(options, "sentence"))


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"ngram_weights": (1,) * n, "ignore_case": c} for n in (4, 1, 2, 3)
                   for c in (False, True))

#: What the convention follows, in a line.
DESCRIPTION = ("MATLAB bleuEvaluationScore as documented: normalised weights, fewer words "
               "than N scores 0, both empty is NaN")
