"""BLEU as independent knobs, so one convention can be turned into another one knob at a time.

Every convention of the engine is, at its default and common options, one setting of these
knobs (CONVENTIONS.md A.1-A.6 name where each value comes from). :func:`knob_score` computes
BLEU for any setting, including mixtures no library implements, from the engine's statistics.
It is a model, checked against the engine: :func:`settings_for` returns ``None`` for options
the model does not cover (NLTK methods 4-7, SacreBLEU's non-default smoothing values).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from harness.bleu.arithmetic import float32
from harness.bleu.convention import Preprocessing
from harness.bleu.corpus import CorpusStats
from harness.bleu.tokenizers import ascii_lower, tokenizer_name

#: Knob -> (value -> the words a researcher can paste into a paper).
MEANINGS: dict[str, dict[Any, str]] = {
    "ref": {"closest_shorter": "the closest reference length, the shorter on a tie",
            "closest_first": "the closest reference length, the first-listed on a tie",
            "shortest": "the shortest reference length"},
    "no_match_zero": {True: "score 0 when no unigram matches",
                      False: "no early 0 when nothing matches"},
    "zero": {"zero": "an order without a match makes the score 0",
             "tiny": "an order without a match counts as sys.float_info.min (a tiny score)",
             "zero-before-smoothing": "any order without a match makes the score 0, before "
                                      "smoothing"},
    "smoothing": {"none": "no smoothing",
                  "epsilon": "a zero count becomes 0.1 (NLTK method1 / SacreBLEU floor)",
                  "add-one": "add one to matches and n-grams of every order",
                  "add-one-from-bigram": "add one to matches and n-grams from bigrams on",
                  "nist-geometric": "NIST geometric smoothing (1/2^k of the n-gram count)"},
    "empty_order": {"zero": "an order without hypothesis n-grams has precision 0",
                    "neutral": "an order without hypothesis n-grams is neutral but still "
                               "divides by N",
                    "effective": "orders without hypothesis n-grams are left out (effective "
                                 "order)"},
    "normalise": {True: "weights normalised to sum 1", False: "weights used as given"},
    "denominator": {"raw": "n-gram counts as they are",
                    "floor1": "each segment's n-gram count floored at 1 (NLTK)"},
    "case": {"mixed": "case-sensitive", "lower": "lowercased (str.lower)",
             "ascii-lower": "ASCII capitals lowercased"},
    "float32": {True: "float32 arithmetic", False: "float64 arithmetic"},
}


@dataclass(frozen=True)
class KnobSettings:
    """One BLEU convention, knob by knob (order = the order attribution tries them in)."""

    ref: str = "closest_shorter"
    no_match_zero: bool = False
    zero: str = "zero"
    smoothing: str = "none"
    empty_order: str = "zero"
    weights: tuple[float, ...] = (0.25, 0.25, 0.25, 0.25)
    normalise: bool = False
    denominator: str = "raw"
    tokenizer: str = "none"
    case: str = "mixed"
    float32: bool = False

    def differing(self, other: KnobSettings) -> list[str]:
        return [f.name for f in fields(self) if getattr(self, f.name) != getattr(other, f.name)]

    def with_knobs(self, other: KnobSettings, knobs) -> KnobSettings:
        return replace(self, **{k: getattr(other, k) for k in knobs})


def describe(knob: str, value: Any) -> str:
    if knob == "weights":
        return "weights (" + ", ".join(f"{w:g}" for w in value) + ")"
    if knob == "tokenizer":
        return f"{tokenizer_name(value)} tokens"
    return MEANINGS.get(knob, {}).get(value, f"{knob}={value}")


def statistics(hypotheses, references, tokenizer: str, case: str, order: int) -> CorpusStats:
    """The engine's statistics for a tokenizer and a case folding."""
    from harness.bleu.api import corpus_statistics

    fold = {"lower": str.lower, "ascii-lower": ascii_lower}.get(case)
    if fold is not None:
        hypotheses = [fold(h) for h in hypotheses]
        references = [[fold(r) for r in refs] for refs in references]
    return corpus_statistics(hypotheses, references, Preprocessing(tokenizer), order)


def knob_score(corpus: CorpusStats, k: KnobSettings) -> float:
    """BLEU (0-1 scale) of the statistics under the knob settings ``k``."""
    weights = k.weights
    if k.normalise and sum(weights) > 0:
        weights = tuple(w / sum(weights) for w in weights)
    order = len(weights)
    matches = corpus.matches[:order]
    raw = corpus.totals[:order]
    totals = corpus.floored_totals[:order] if k.denominator == "floor1" else raw
    if not corpus.segment_count or order == 0:
        return 0.0
    if k.no_match_zero and matches[0] == 0:
        return 0.0
    if k.zero == "zero-before-smoothing" and min(matches) == 0:
        return 0.0
    terms: list[tuple[float, float]] = []  # (weight, log precision)
    halvings = 1
    for n, (w, m, t, r) in enumerate(zip(weights, matches, totals, raw), start=1):
        if r == 0 and k.empty_order == "neutral":
            terms.append((w, 0.0))
            continue
        if r == 0 and k.empty_order == "effective":
            break
        if k.smoothing == "add-one" or (k.smoothing == "add-one-from-bigram" and n > 1):
            p = (m + 1) / (t + 1)
        elif m > 0:
            p = m / t
        elif k.smoothing == "epsilon" and t > 0:
            p = 0.1 / t
        elif k.smoothing == "nist-geometric" and t > 0:
            halvings *= 2
            p = 1 / (halvings * t)
        else:
            p = 0.0
        if p == 0:
            if k.zero == "tiny":
                p = sys.float_info.min
            else:
                return 0.0
        terms.append((w, math.log(p)))
    if k.empty_order == "effective" and len(terms) < order:
        total = sum(w for w, _ in terms)
        terms = [(w / total if total else 0.0, lp) for w, lp in terms]
    geometric = math.exp(math.fsum(w * lp for w, lp in terms)) if terms else 0.0
    hyp_len, ref_len = corpus.hyp_len, corpus.ref_len(k.ref)
    if hyp_len == 0:
        bp = 0.0
    elif hyp_len >= ref_len:
        bp = 1.0
    else:
        bp = math.exp(1 - ref_len / hyp_len)
    score = bp * geometric
    return float32(score) if k.float32 else score


def _uniform(order: int) -> tuple[float, ...]:
    return (1 / order,) * order


def settings_for(convention: str, options: Mapping[str, Any]) -> KnobSettings | None:
    """The knob settings of a convention with its (resolved) options; ``None`` where the
    model does not cover them."""
    builder = _BUILDERS.get(convention)
    return builder(options) if builder else None


def _nltk(o) -> KnobSettings | None:
    smoothing = {"method0": "none", "method1": "epsilon", "method2": "add-one-from-bigram",
                 "method3": "nist-geometric"}.get(o["smoothing"])
    weights = o["weights"]
    if smoothing is None or (weights and isinstance(weights[0], tuple)) or o["epsilon"] != 0.1:
        return None
    reweigh = o["auto_reweigh"] and tuple(weights) == (0.25, 0.25, 0.25, 0.25)
    return KnobSettings(no_match_zero=True, zero="tiny" if smoothing == "none" else "zero",
                        smoothing=smoothing, empty_order="effective" if reweigh else "zero",
                        weights=tuple(weights), denominator="floor1")


def _sacrebleu(o) -> KnobSettings | None:
    method, value = o["smooth_method"], o["smooth_value"]
    smoothing = {"none": "none", "exp": "nist-geometric", "floor": "epsilon",
                 "add-k": "add-one-from-bigram"}[method]
    if value is not None and value != {"floor": 0.1, "add-k": 1}.get(method, value):
        return None
    return KnobSettings(no_match_zero=True, smoothing=smoothing,
                        empty_order="effective" if o["effective_order"] else "zero",
                        weights=_uniform(o["max_ngram_order"]), tokenizer=o["tokenize"],
                        case="lower" if o["lowercase"] else "mixed")


def _matlab(o) -> KnobSettings:
    return KnobSettings(weights=tuple(o["ngram_weights"]), normalise=True,
                        case="lower" if o["ignore_case"] else "mixed")


def _multibleu(o) -> KnobSettings:
    return KnobSettings(case="ascii-lower" if o["lc"] else "mixed")


def _mteval(o) -> KnobSettings:
    smoothed = not o["no_smoothing"]
    case = "mixed" if o["preserve_case"] else (
        "lower" if o["international_tokenization"] else "ascii-lower")
    return KnobSettings(ref="closest_shorter" if o["brevity_penalty"] == "closest" else "shortest",
                        smoothing="nist-geometric" if smoothed else "none",
                        empty_order="neutral" if smoothed else "zero",
                        tokenizer="mteval-intl" if o["international_tokenization"] else "13a",
                        case=case)


def _tfnmt(o) -> KnobSettings:
    return KnobSettings(ref="shortest", smoothing="add-one" if o["smooth"] else "none",
                        weights=_uniform(o["max_order"]), tokenizer=o["tokenize"])


def _torchmetrics(o) -> KnobSettings:
    from harness.bleu.conventions.torchmetrics import weights_of

    weights = weights_of(o)
    return KnobSettings(ref="closest_first", no_match_zero=True, zero="zero-before-smoothing",
                        smoothing="add-one-from-bigram" if o["smooth"] else "none",
                        weights=tuple(weights), float32=True)


def _t2t(o) -> KnobSettings | None:
    if not o["use_bp"]:
        return None
    return KnobSettings(smoothing="nist-geometric", empty_order="neutral",
                        weights=_uniform(o["max_order"]), tokenizer=o["tokenize"],
                        case="mixed" if o["case_sensitive"] else "lower", float32=True)


_BUILDERS = {"nltk": _nltk, "sacrebleu": _sacrebleu, "matlab": _matlab, "multi-bleu": _multibleu,
             "mteval-v13a": _mteval, "tf-nmt": _tfnmt, "torchmetrics": _torchmetrics,
             "t2t": _t2t}
