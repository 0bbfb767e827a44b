"""NLTK's ``SmoothingFunction`` methods 0-7 (``nltk.translate.bleu_score``) as engine
functions: the NLTK convention's finish and the knob model's ``nltk-method4..7`` smoothing both
call :func:`smooth`. Where a release's rules change a method (method2's unigram before 3.6,
method4's formulas before 3.6, the smoothing length before 3.4), ``SmoothingInputs.rules`` (an
``NLTK.rules(version)`` mapping) says which; ``history.NLTK`` names each change's source."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.result import ConventionError
from bleu_harness.bleu.stats import SegmentStats

NAME = "nltk"
#: method5 always reads order 5 of the last segment (``modified_precision(..., 5)``).
SMOOTHING_ORDER = 5
#: ``SmoothingFunction``'s default ``epsilon``, ``alpha`` and ``k`` (the NLTK convention's too).
NLTK_PARAMETERS: dict[str, Any] = {"epsilon": 0.1, "alpha": 5, "k": 5}


@dataclass(frozen=True)
class SmoothingInputs:
    """What ``SmoothingFunction`` methods see besides ``p_n``: the unnormalised numerators
    and denominators, the hypothesis length of the smoothing, the last segment (methods 5 and
    6), the parameters ``epsilon``, ``alpha`` and ``k``, and the release's rules."""

    numerators: tuple[int, ...]
    denominators: tuple[int, ...]
    rules: Mapping[str, Any]
    last: SegmentStats | None
    hyp_len: int
    epsilon: Any
    alpha: Any
    k: Any

    @classmethod
    def for_corpus(cls, corpus: CorpusStats, numerators, denominators, rules: Mapping[str, Any],
                   epsilon: Any, alpha: Any, k: Any) -> SmoothingInputs:
        last = corpus.last
        if rules["smoothing_length"] == "last segment":  # before 3.4 (#2083)
            hyp_len = last.hyp_len
        else:  # 3.5 on: ``hyp_len if hyp_len else len(hypothesis)``
            hyp_len = corpus.hyp_len or last.hyp_len
        return cls(numerators, denominators, rules, last, hyp_len, epsilon, alpha, k)


def smooth(method: str, p_n: list, inputs: SmoothingInputs) -> list:
    """``SmoothingFunction().<method>(p_n, ...)``: the precisions after smoothing (``p_n``
    holds ``Fraction`` precisions; a method may change it in place, as NLTK's do)."""
    return SMOOTHERS[method](p_n, inputs)


def _method0(p_n: list, ctx: SmoothingInputs) -> list:
    return [p if m != 0 else sys.float_info.min for p, m in zip(p_n, ctx.numerators)]


def _method1(p_n: list, ctx: SmoothingInputs) -> list:
    return [
        (m + ctx.epsilon) / d if m == 0 else p
        for p, m, d in zip(p_n, ctx.numerators, ctx.denominators)
    ]


def _method2(p_n: list, ctx: SmoothingInputs) -> list:
    smooth_unigram = ctx.rules["method2"] == "all orders"  # before 3.6 (PR #2572)
    return [
        Fraction(m + 1, d + 1) if i != 0 or smooth_unigram else p
        for i, (p, m, d) in enumerate(zip(p_n, ctx.numerators, ctx.denominators))
    ]


def _method3(p_n: list, ctx: SmoothingInputs) -> list:
    incvnt = 1
    for i, (m, d) in enumerate(zip(ctx.numerators, ctx.denominators)):
        if m == 0:
            p_n[i] = 1 / (2**incvnt * d)
            incvnt += 1
    return p_n


def _method4(p_n: list, ctx: SmoothingInputs) -> list:
    if ctx.rules["method4"] != "1/(2^k k/ln T)/l":
        return _method4_before_3_6(p_n, ctx)
    incvnt = 1
    hyp_len = ctx.hyp_len
    for i, (m, d) in enumerate(zip(ctx.numerators, ctx.denominators)):
        if m == 0 and hyp_len > 1:
            try:
                numerator = 1 / (2**incvnt * ctx.k / math.log(hyp_len))
            except ZeroDivisionError:
                raise ConventionError(NAME, "method4 with k=0 divides by zero", "ZeroDivisionError")
            p_n[i] = numerator / d
            incvnt += 1
    return p_n


def _method4_before_3_6(p_n: list, ctx: SmoothingInputs) -> list:
    """``incvnt = i + 1 * self.k / math.log(hyp_len)`` (the precedence bug of issue #2341):
    ``1 / incvnt`` before 3.5, ``incvnt / denominator`` in 3.5 (precisions above 1, #2676)."""
    for i, (m, d) in enumerate(zip(ctx.numerators, ctx.denominators)):
        if m == 0 and ctx.hyp_len != 0:
            try:
                incvnt = i + 1 * ctx.k / math.log(ctx.hyp_len)
                p_n[i] = 1 / incvnt if ctx.rules["method4"] == "1/(i+k/ln T)" else incvnt / d
            except ZeroDivisionError:
                raise ConventionError(NAME, "method4 divides by log(1) = 0 for a one-token "
                                      "hypothesis (before 3.6)", "ZeroDivisionError")
    return p_n


def _method5(p_n: list, ctx: SmoothingInputs) -> list:
    last = ctx.last
    p_n_plus1 = p_n + [Fraction(last.matches[SMOOTHING_ORDER - 1], max(1, last.totals[SMOOTHING_ORDER - 1]))]
    m = {-1: p_n[0] + 1}
    for i, p_i in enumerate(p_n):
        p_n[i] = (m[i - 1] + p_i + p_n_plus1[i + 1]) / 3
        m[i] = p_n[i]
    return p_n


def _method6(p_n: list, ctx: SmoothingInputs) -> list:
    if len(p_n) < 3:
        raise ConventionError(NAME, "method6 needs at least three n-gram orders", "IndexError")
    if not p_n[2]:
        raise ConventionError(
            NAME, "method6 needs a non-zero trigram precision (p_n[2])", "AssertionError"
        )
    for i in range(2, len(p_n)):
        pi0 = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
        hyp_ngrams = max(0, ctx.last.hyp_len - i)  # n-grams of order i+1 in the last hypothesis
        try:
            p_n[i] = (ctx.numerators[i] + ctx.alpha * pi0) / (hyp_ngrams + ctx.alpha)
        except ZeroDivisionError:
            raise ConventionError(NAME, "method6 with alpha=0 divides by zero", "ZeroDivisionError")
    return p_n


def _method7(p_n: list, ctx: SmoothingInputs) -> list:
    return _method5(_method4(p_n, ctx), ctx)


SMOOTHERS: dict[str, Callable[[list, SmoothingInputs], list]] = {
    "method0": _method0,
    "method1": _method1,
    "method2": _method2,
    "method3": _method3,
    "method4": _method4,
    "method5": _method5,
    "method6": _method6,
    "method7": _method7,
}
