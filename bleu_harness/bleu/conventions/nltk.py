"""The NLTK convention: ``nltk.translate.bleu_score``, release 3.10.4 by default, and any
release from 3.2.2 with ``version="3.4.5"`` (the rules of each release are data in
``bleu_harness.bleu.history``; checked bit for bit against 3.2.5 ... 3.10.4).

``level="sentence"`` is ``sentence_bleu``, ``"corpus"`` is ``corpus_bleu`` (which
``sentence_bleu`` calls with one segment). The arithmetic follows ``corpus_bleu`` step by
step, with the same number types, so the floats agree bit for bit:

* precisions are exact ``Fraction(m_n, l_n)`` of corpus sums, where every segment's ``l_n`` is
  floored at one (``modified_precision``: ``denominator = max(1, sum(counts.values()))``);
* the reference length is the closest one, the shorter on a tie (``closest_ref_length``);
* ``brevity_penalty``: 1 if c > r, 0 if c == 0, else ``exp(1 - r/c)``;
* no unigram match returns 0 before any smoothing (``if p_numerators[1] == 0``);
* smoothing is ``SmoothingFunction`` (Chen & Cherry 2014) with NLTK's own quirks: method0 puts
  ``sys.float_info.min`` for a zero precision (tiny positive scores since 3.3, PR #1844);
  methods 5 and 6 read the *last* segment's references and hypothesis; method4 uses the corpus
  hypothesis length (3.4, #2083) and the 3.6 formula (PR #2681); method2 leaves p_1 alone
  (3.6, PR #2572);
* ``bp * exp(fsum(w_i * log(p_i) for ... if p_i > 0))`` — non-positive precisions are dropped
  (3.6.6, PR #2839); weights are used as given, never normalised.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from bleu_harness.bleu.compute import Arithmetic
from bleu_harness.bleu.convention import (
    Finished,
    Preprocessing,
    merge_options,
    require_bool,
    require_choice,
    require_number,
    weight_tuple,
)
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.history import NLTK
from bleu_harness.bleu.knobs import KnobSettings, input_rules
from bleu_harness.bleu.result import ConventionError
from bleu_harness.bleu.smoothing import (
    NLTK_PARAMETERS,
    SMOOTHING_ORDER,
    SmoothingInputs,
    smooth,
)

NAME = "nltk"
SMOOTHING_METHODS = tuple(f"method{i}" for i in range(8))
DEFAULTS: dict[str, Any] = {
    "weights": (0.25, 0.25, 0.25, 0.25),
    "smoothing": "method0",
    **NLTK_PARAMETERS,  # epsilon, alpha, k
    "auto_reweigh": False,
    "version": NLTK.latest,
}
METHOD5_ORDER = SMOOTHING_ORDER


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    options = merge_options(NAME, given, DEFAULTS)
    options["weights"] = _weights(options["weights"])
    smoothing = options["smoothing"]
    if isinstance(smoothing, int) and not isinstance(smoothing, bool):
        smoothing = f"method{smoothing}"
    require_choice(NAME, "smoothing", smoothing, SMOOTHING_METHODS)
    options["smoothing"] = smoothing
    for key in ("epsilon", "alpha", "k"):
        require_number(NAME, key, options[key])
    require_bool(NAME, "auto_reweigh", options["auto_reweigh"])
    options["version"] = str(options["version"])
    NLTK.rules(options["version"])  # a ValueError for a release the engine does not model
    return options


def _weights(value: Any) -> tuple:
    """One weight vector, or several (NLTK's ``weights[0][0]`` test for a list of vectors)."""
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple)):
        return tuple(weight_tuple(NAME, "weights", vector) for vector in value)
    return weight_tuple(NAME, "weights", value)


def weight_sets(options: Mapping[str, Any]) -> tuple[tuple[float, ...], ...]:
    weights = options["weights"]
    if weights and isinstance(weights[0], tuple):
        return weights
    return (weights,)


def is_weight_list(options: Mapping[str, Any]) -> bool:
    weights = options["weights"]
    return bool(weights) and isinstance(weights[0], tuple)


def max_order(options: Mapping[str, Any]) -> int:
    if is_weight_list(options) and not NLTK.rules(options["version"])["weight_lists"]:
        return len(options["weights"])  # releases before 3.6.6: one order per list item
    return max(len(w) for w in weight_sets(options))


def required_order(options: Mapping[str, Any]) -> int:
    order = max_order(options)
    if options["smoothing"] in ("method5", "method7"):
        order = max(order, METHOD5_ORDER)
    return order


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing("none", False)


def _smoothing_knobs(options: Mapping[str, Any]) -> dict[str, Any]:
    """NLTK's smoothing methods as knob settings (``SmoothingFunction``, Chen & Cherry 2014);
    a precision still 0 after smoothing is left out of the sum (3.6.6, PR #2839)."""
    method = options["smoothing"]
    method2_all = NLTK.rules(options["version"])["method2"] == "all orders"  # before 3.6
    return {
        "method0": {"zero": "tiny"},
        "method1": {"smoothing": "floor", "smoothing_value": options["epsilon"]},
        "method2": {"smoothing": "add-k" if method2_all else "add-k-from-bigram",
                    "smoothing_value": 1},
        "method3": {"smoothing": "nist-geometric"},
        "method4": {"smoothing": "nltk-method4", "smoothing_value": options["k"]},
        "method5": {"smoothing": "nltk-method5"},
        "method6": {"smoothing": "nltk-method6", "smoothing_value": options["alpha"]},
        "method7": {"smoothing": "nltk-method7", "smoothing_value": options["k"]},
    }[method] | ({} if method == "method0" else {"zero": "dropped"})


def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    vectors = weight_sets(options)
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(strict_bp=True), ref="closest_shorter",
        no_match_zero=True, **_smoothing_knobs(options),
        empty_order="reweigh" if options["auto_reweigh"] else "zero",
        weights=vectors if is_weight_list(options) else vectors[0], denominator="floor1",
        version=options["version"])


def brevity_penalty(ref_len: int, hyp_len: int) -> float:
    """``nltk.translate.bleu_score.brevity_penalty`` (note: int 1 or 0 at the edges)."""
    if hyp_len > ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - ref_len / hyp_len)


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    rules = NLTK.rules(options["version"])
    if not rules["weight_lists"]:
        return finish_before_3_6_6(corpus, options, rules)
    if not options["weights"] and rules["empty_weights"] == "IndexError":
        raise ConventionError(NAME, "empty weights fail weights[0][0] (3.6.6-3.8.1)",
                              "IndexError")
    vectors = weight_sets(options)
    order = max_order(options)
    _check_references(corpus, order)
    hyp_len = corpus.hyp_len
    ref_len = corpus.ref_len("closest_shorter")
    matches = corpus.matches[:order]
    denominators = corpus.floored_totals[:order]
    bp = brevity_penalty(ref_len, hyp_len)
    _check_some_segment(corpus, order)
    precisions = tuple(m / d for m, d in zip(matches, denominators))

    def finished(scores: tuple[float, ...]) -> Finished:
        return Finished(scores, precisions, matches, denominators, bp, hyp_len, ref_len)

    if order == 0 or matches[0] == 0:  # "Returns 0 if there's no matching n-grams"
        return finished((0,) * len(vectors))

    p_n: list[Any] = [Fraction(m, d) for m, d in zip(matches, denominators)]
    p_n = smooth(options["smoothing"], p_n, _inputs(corpus, options, matches, denominators,
                                                    rules))
    scores = []
    for weight in vectors:
        if options["auto_reweigh"] and hyp_len < 4 and weight == (0.25, 0.25, 0.25, 0.25):
            weight = (1 / hyp_len,) * hyp_len
        log_sum = math.fsum(w_i * math.log(p_i) for w_i, p_i in zip(weight, p_n) if p_i > 0)
        try:
            scores.append(bp * math.exp(log_sum))
        except OverflowError:
            raise ConventionError(NAME, "exp of the weighted log sum overflows", "OverflowError")
    return finished(tuple(scores))


def _check_some_segment(corpus: CorpusStats, order: int) -> None:
    """No segment at all: every n-gram count is 0 and ``Fraction(0, 0)`` raises when
    ``corpus_bleu`` collects the precisions (all releases), unless there is no order."""
    if not corpus.segment_count and order:
        raise ConventionError(NAME, "an empty corpus makes every precision Fraction(0, 0)",
                              "ZeroDivisionError")


def finish_before_3_6_6(corpus: CorpusStats, options: Mapping[str, Any],
                        rules: Mapping[str, Any]) -> Finished:
    """``corpus_bleu`` of NLTK 3.2.2-3.6.5: one weight vector whose items are the orders
    (a list of vectors fails where its items are multiplied); ``auto_reweigh`` before the
    no-match return; every precision into the log sum (a 0 left by smoothing is a math
    domain error); before 3.3, method0 ends the product at the first order without a match.
    """
    weights = options["weights"]
    order = len(weights)
    _check_references(corpus, order)
    hyp_len = corpus.hyp_len
    ref_len = corpus.ref_len("closest_shorter")
    bp = brevity_penalty(ref_len, hyp_len)
    if options["auto_reweigh"] and hyp_len < 4 and weights == (0.25, 0.25, 0.25, 0.25):
        if hyp_len == 0:
            raise ConventionError(NAME, "auto_reweigh divides by the corpus hypothesis length "
                                  "0 (before 3.6.6)", "ZeroDivisionError")
        weights = (1 / hyp_len,) * hyp_len
    orders = len(weights)
    _check_some_segment(corpus, orders)
    matches = corpus.matches[:orders]
    denominators = corpus.floored_totals[:orders]
    precisions = tuple(m / d for m, d in zip(matches, denominators))

    def finished(score: float) -> Finished:
        return Finished((score,), precisions, matches, denominators, bp, hyp_len, ref_len)

    if orders == 0 or matches[0] == 0:  # "Returns 0 if there's no matching n-grams"
        return finished(0)
    p_n: list[Any] = [Fraction(m, d) for m, d in zip(matches, denominators)]
    if options["smoothing"] == "method0" and rules["zero_orders"] == "truncate":
        p_n = p_n[:next((i for i, m in enumerate(matches) if m == 0), len(p_n))]
    else:
        p_n = smooth(options["smoothing"], p_n, _inputs(corpus, options, matches,
                                                        denominators, rules))
    terms = []
    for w_i, p_i in zip(weights, p_n):
        if p_i <= 0:
            raise ConventionError(NAME, "a precision still 0 after smoothing enters the log "
                                  "(before 3.6.6)", "ValueError")
        if isinstance(w_i, tuple):
            raise ConventionError(NAME, "a list of weight vectors is multiplied as one vector "
                                  "(before 3.6.6)", "TypeError")
        terms.append(w_i * math.log(p_i))
    try:
        return finished(bp * math.exp(math.fsum(terms)))
    except OverflowError:
        raise ConventionError(NAME, "exp of the weighted log sum overflows", "OverflowError")


def _inputs(corpus: CorpusStats, options: Mapping[str, Any], numerators, denominators,
            rules: Mapping[str, Any]) -> SmoothingInputs:
    return SmoothingInputs.for_corpus(corpus, numerators, denominators, rules,
                                      options["epsilon"], options["alpha"], options["k"])


def _check_references(corpus: CorpusStats, order: int) -> None:
    """A segment without references fails in ``modified_precision`` (``max_counts[ngram]``,
    a ``KeyError``) when it has n-grams, else in ``closest_ref_length`` (``min()`` of nothing)."""
    if not corpus.has_segment_without_references:
        return
    if order >= 1 and corpus.first_unreferenced_hyp_len >= 1:
        raise ConventionError(NAME, "a hypothesis without references has no n-gram to clip "
                              "against (modified_precision)", "KeyError")
    raise ConventionError(NAME, "a hypothesis without references has no closest reference "
                          "length (closest_ref_length takes min() of no lengths)", "ValueError")


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"smoothing": f"method{m}", "weights": w, "auto_reweigh": r}
                   for m in range(8)
                   for w in ((0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (1.0,))
                   for r in (False, True))

#: What the convention follows, in a line.
DESCRIPTION = ("NLTK sentence_bleu/corpus_bleu: raw weights, method0-7 smoothing, "
               "per-segment denominator floor, tiny floats for zero orders")
