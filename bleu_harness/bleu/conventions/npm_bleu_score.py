"""The npm-bleu-score convention: the npm package ``bleu-score`` 1.0.4 (``bleu(reference,
candidate, maxN)``, ``js/bleu.js`` of the npm tarball, compiled from ``ts/bleu.tsx``; run by
Node.js, whose ``Math`` is V8's), read line by line:

* one reference string and one candidate string, a sentence score (there is no corpus
  function); the harness's ``level="sentence"`` with exactly one reference;
* tokens: ``reference.split(' ')`` and ``candidate.split(' ')`` (``js/bleu.js:6-7``): two
  spaces make an empty token, an empty string is one empty token (so a candidate always has
  at least one), a tab or a line break stays inside its token; no case folding;
* n-grams of orders 1..``maxN`` counted as keys of object literals (lines 10-20), matches
  ``Math.min(candidate count, reference count)`` (lines 21-27): the usual clipped counts,
  except that a candidate unigram ``__proto__`` never matches and any other name of
  ``Object.prototype`` in the candidate (``constructor``, ``toString``, ``valueOf``, ...) makes
  the matches ``NaN``, and so the score (:mod:`bleu_harness.bleu.tokenizers.javascript`);
* each precision ``matches / (candidateTokens.length - n + 1)``, or 0 where that count is not
  positive (lines 28-29); no smoothing: an order without a match makes the product 0;
* BP ``candidateLength > referenceLength ? 1 : Math.exp(1 - referenceLength /
  candidateLength)`` (lines 32-36): 1 when the lengths are equal (``exp(0)``), and never a
  division by zero (a candidate has a token);
* ``Math.pow(precision.reduce((acc, p) => acc * p, 1), 1 / maxN)`` (line 38): the product of
  the precisions from 1, in order, to the power ``1 / maxN`` -- weights that are always
  uniform -- times the BP (line 39), on the 0-1 scale;
* ``Math.exp`` and ``Math.pow`` are V8's (fdlibm's algorithms, not the C library's ``exp`` and
  ``pow`` Python's ``math`` calls: they differ in the last bit about one time in ten), which
  the engine reproduces (:mod:`bleu_harness.bleu.fdlibm`, checked against Node.js 20.20.2).

``maxN`` is required by the function; the README's example passes 4, the default here.
``maxN`` 0 gives ``NaN`` in the tool (``Math.pow(1, Infinity)``) and a negative or fractional
one a ``RangeError`` (``Array(maxN)``, line 9): the convention takes ``maxN`` from 1 on.
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
from bleu_harness.bleu.options import Option, order
from bleu_harness.bleu.result import ConventionDeclined

NAME = "npm-bleu-score"
OPTIONS = (
    Option("maxN", 4, order()),
)


def required_order(options: Mapping[str, Any]) -> int:
    return options["maxN"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing("js-split-space")


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="product", v8_math=True), ref="first",
        weights=uniform(options["maxN"]), **case_and_tokenizer(preprocessing(options)))


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """``bleu(reference, candidate, maxN)``: one candidate, one reference, then the knob
    arithmetic (the product form, V8's ``Math``)."""
    if level != "sentence":
        raise ConventionDeclined(NAME, "bleu(reference, candidate, maxN) scores one "
                                 "candidate: there is no corpus level")
    if (corpus.fewest_references, corpus.most_references) != (1, 1):
        raise ConventionDeclined(NAME, "bleu takes exactly one reference string")
    c = compute(corpus, knobs(options, level))
    return Finished(c.scores, tuple(p for p, _ in c.precisions), c.matches, c.totals, c.bp,
                    c.hyp_len, c.ref_len)


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"maxN": n} for n in (4, 1, 2, 3))

#: What the convention follows, in a line.
DESCRIPTION = ("npm bleu-score (JavaScript): one reference, split(' '), the product of the "
               "precisions to the power 1/maxN, no smoothing, V8's Math.exp/Math.pow, NaN "
               "for an Object.prototype name")
