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
  (3.6.6, PR #2839); weights are used as given, never normalised;
* ``emulate_multibleu=True``, an option of 3.2.4 and 3.2.5 only (their
  ``translate/bleu_score.py`` is one file; gone in 3.3): ``SmoothingFunction.method0``
  returns ``[sys.float_info.min]`` alone at the first order without a match when its index
  is below 5, so the sum is the first weight times ``log(2**-1022)`` (a first weight of 0
  leaves the brevity penalty), from the sixth order on it ends the product as 3.2.5 does;
  ``corpus_bleu`` returns ``round(s, 4)``, after its int ``0`` for no unigram match. Held to
  the real 3.2.5 (``tests/test_nltk_emulate_multibleu.py``); ``identify`` does not search it
  (its scores are the unrounded ones as printed, or 0.0).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, compute
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.history import NLTK
from bleu_harness.bleu.kernel import SentenceArithmetic
from bleu_harness.bleu.knobs import KnobSettings, input_rules, remembered
from bleu_harness.bleu.options import (
    Option,
    boolean,
    choice,
    number,
    release,
    resolve_options,
    weights,
)
from bleu_harness.bleu.result import ConventionError
from bleu_harness.bleu.smoothing import (
    NLTK_PARAMETERS,
    SMOOTHING_ORDER,
)

NAME = "nltk"
SMOOTHING_METHODS = tuple(f"method{i}" for i in range(8))


def smoothing_method(convention: str, key: str, value: Any) -> str:
    """``"method0"`` ... ``"method7"``, or the method's number."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = f"method{value}"
    return choice(SMOOTHING_METHODS)(convention, key, value)


def weight_vectors(convention: str, key: str, value: Any) -> tuple:
    """One weight vector, or several (NLTK's ``weights[0][0]`` test for a list of vectors)."""
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple)):
        return tuple(weights(convention, key, vector) for vector in value)
    return weights(convention, key, value)


OPTIONS = (
    Option("weights", (0.25, 0.25, 0.25, 0.25), weight_vectors),
    Option("smoothing", "method0", smoothing_method),
    *(Option(key, value, number) for key, value in NLTK_PARAMETERS.items()),
    Option("auto_reweigh", False, boolean),
    Option("emulate_multibleu", False, boolean),
    Option("version", NLTK.latest, release(NLTK)),
)


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options; ``emulate_multibleu`` only where the release has it (3.2.4-3.2.5)."""
    options = resolve_options(NAME, OPTIONS, given)
    if options["emulate_multibleu"] and not NLTK.rules(options["version"])["emulate_multibleu"]:
        raise ValueError(f"{NAME}: option 'emulate_multibleu' exists in NLTK 3.2.4-3.2.5 only, "
                         f"not in {options['version']} (give version=\"3.2.5\")")
    return options
METHOD5_ORDER = SMOOTHING_ORDER


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


def _smoothing_knobs(options: Mapping[str, Any], rules: Mapping[str, Any]) -> dict[str, Any]:
    """NLTK's smoothing methods as knob settings (``SmoothingFunction``, Chen & Cherry 2014),
    and what becomes of a precision still 0 after smoothing: left out of the sum from 3.6.6
    (PR #2839), a math domain error before; method0 counts it as ``sys.float_info.min``
    (3.3, PR #1844) or, before, ends the product there."""
    method = options["smoothing"]
    method2_all = rules["method2"] == "all orders"  # before 3.6
    if method == "method0" and options["emulate_multibleu"]:
        return {"zero": "first-weight-tiny"}
    if method == "method0":
        return {"zero": "tiny" if rules["zero_orders"] == "float_min" else "truncate"}
    return {
        "method1": {"smoothing": "floor", "smoothing_value": options["epsilon"]},
        "method2": {"smoothing": "add-k" if method2_all else "add-k-from-bigram",
                    "smoothing_value": 1},
        "method3": {"smoothing": "nist-geometric"},
        "method4": {"smoothing": "nltk-method4", "smoothing_value": options["k"]},
        "method5": {"smoothing": "nltk-method5"},
        "method6": {"smoothing": "nltk-method6", "smoothing_value": options["alpha"]},
        "method7": {"smoothing": "nltk-method7", "smoothing_value": options["k"]},
    }[method] | {"zero": "dropped" if rules["positive_only"] else "raises"}


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    rules = NLTK.rules(options["version"])
    vectors = weight_sets(options)
    reweigh = "reweigh" if rules["reweigh"].startswith("per vector") else "reweigh-first"
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(strict_bp=True), ref="closest_shorter",
        no_match_zero=True, **_smoothing_knobs(options, rules),
        empty_order=reweigh if options["auto_reweigh"] else "zero",
        weights=vectors if is_weight_list(options) else vectors[0], denominator="floor1",
        rounding=4 if options["emulate_multibleu"] else None, version=options["version"])


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """``corpus_bleu``: its input checks, then the knob arithmetic (exact ``Fraction``
    precisions, ``math.fsum``); an int 0 on the no-match return and an int BP at its edges,
    as ``corpus_bleu`` returns them. Before 3.6.6 ``auto_reweigh`` comes before everything
    (an empty hypothesis divides by zero) and a list of weight vectors is one vector whose
    items are multiplied (``TypeError`` once a score is computed)."""
    rules = NLTK.rules(options["version"])
    if not options["weights"] and rules["empty_weights"] == "IndexError":
        raise ConventionError(NAME, "empty weights fail weights[0][0] (3.6.6-3.8.1)",
                              "IndexError")
    k = knobs(options, level)
    order = max_order(options)
    _check_references(corpus, order)
    if k.empty_order == "reweigh-first" and corpus.hyp_len < 4 and k.weights == (0.25,) * 4:
        if corpus.hyp_len == 0:
            raise ConventionError(NAME, "auto_reweigh divides by the corpus hypothesis length "
                                  "0 (before 3.6.6)", "ZeroDivisionError")
        order = corpus.hyp_len
    _check_some_segment(corpus, order)
    multiplied_vectors = is_weight_list(options) and not rules["weight_lists"]
    if multiplied_vectors:
        k = replace(k, weights=(1.0,) * order)
    try:
        c = compute(corpus, k, zero=0)
    except OverflowError:
        raise ConventionError(NAME, "exp of the weighted log sum overflows",
                              "OverflowError") from None
    except ValueError:
        if not multiplied_vectors:
            raise ConventionError(NAME, "a precision still 0 after smoothing enters the log "
                                  "(before 3.6.6)", "ValueError") from None
        c = None
    if multiplied_vectors and (c is None or c.gate is None):
        raise ConventionError(NAME, "a list of weight vectors is multiplied as one vector "
                              "(before 3.6.6)", "TypeError")
    matches, denominators = corpus.matches[:order], corpus.floored_totals[:order]
    bp = 1 if c.hyp_len > c.ref_len else 0 if c.hyp_len == 0 else c.bp
    return Finished(c.scores, tuple(m / d for m, d in zip(matches, denominators)), matches,
                    denominators, bp, c.hyp_len, c.ref_len)


def sentence_arithmetic(options: Mapping[str, Any]) -> SentenceArithmetic | None:
    """A sentence's score by :func:`finish`: the knob arithmetic with the int 0 as its
    no-match return; its checks refuse a segment without references (and the releases
    whose rules are no knob have settings the kernel's plan declines)."""
    return SentenceArithmetic(knobs(options, "sentence"), zero=0)


def _check_some_segment(corpus: CorpusStats, order: int) -> None:
    """No segment at all: every n-gram count is 0 and ``Fraction(0, 0)`` raises when
    ``corpus_bleu`` collects the precisions (all releases), unless there is no order."""
    if not corpus.segment_count and order:
        raise ConventionError(NAME, "an empty corpus makes every precision Fraction(0, 0)",
                              "ZeroDivisionError")


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
