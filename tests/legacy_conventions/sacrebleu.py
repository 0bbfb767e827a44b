"""The SacreBLEU convention: ``sacrebleu.metrics.bleu.BLEU``, release 2.6.0 by default, and
any release from 1.4.4 with ``version="1.5.1"`` (the rules of each release are data in
``bleu_harness.bleu.history``; checked bit for bit against 1.4.14 ... 2.6.0).

Defaults are those of ``sacrebleu.corpus_bleu`` at corpus level (``smooth_method="exp"``,
effective order off, ``13a``) and of ``sacrebleu.sentence_bleu`` at sentence level (effective
order on). The finish is ``BLEU.compute_bleu`` (``metrics/bleu.py``) step by step:

* reference length: closest, shorter on a tie (``_get_closest_ref_len``); a segment whose
  references are all ``None`` has length -1 (and cannot be scored if it has n-grams);
* BP = 1 if c >= r, else ``exp(1 - r/c)``, 0.0 if c == 0;
* no match at any order returns 0.0 (2.0.0, issue #141);
* precisions in percent; ``exp`` smoothing halves 100/total at each zero-match order (NIST
  geometric, but only for orders that have n-grams); ``floor`` puts ``100 * value / total``;
  ``add-k`` adds k to matches and totals of orders above one;
* an order with no hypothesis n-grams stops the loop: with effective order the mean runs over
  the orders before it, without it the zero precision enters as ``my_log(0) = -9999999999``;
* ``bp * exp(sum(my_log(p) for p in precisions[:eff_order]) / eff_order)`` with plain ``sum``.

Text goes through ``str.lower`` (if ``lowercase``), ``rstrip`` and the tokenizer
(``BLEU._preprocess_segment``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.arithmetic import my_log
from bleu_harness.bleu.convention import (
    Convention,
    Finished,
    Preprocessing,
    merge_options,
    require_bool,
    require_choice,
    require_number,
    require_order,
)
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.history import SACREBLEU
from bleu_harness.bleu.result import UNSUPPORTED_INPUT, ConventionError
from bleu_harness.bleu.tokenizers import SACREBLEU_TOKENIZERS
from bleu_harness.bleu.tokenizers.optional import (
    OPTIONAL_TOKENIZERS,
    optional_tokenizer,
)

NAME = "sacrebleu"
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}


def defaults(level: str, version: str | None = None) -> dict[str, Any]:
    """``sacrebleu.sentence_bleu`` / ``corpus_bleu`` defaults of the release (``sentence_bleu``
    smoothed with floor before 1.5.0)."""
    rules = SACREBLEU.rules(version)
    sentence = level == "sentence"
    return {
        "smooth_method": rules["sentence_smoothing"] if sentence else "exp",
        "smooth_value": None,
        "effective_order": sentence,
        "tokenize": "13a",
        "lowercase": False,
        "max_ngram_order": 4,
        "spm_model": None,
        "version": version or SACREBLEU.latest,
    }


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    given = dict(given)
    if "use_effective_order" in given:  # the name in sacrebleu.corpus_bleu/sentence_bleu
        given["effective_order"] = given.pop("use_effective_order")
    version = str(given["version"]) if "version" in given else None
    SACREBLEU.rules(version)  # a ValueError for a release the engine does not model
    options = merge_options(NAME, given, defaults(level, version))
    options["version"] = str(options["version"])
    require_choice(NAME, "smooth_method", options["smooth_method"], tuple(SMOOTH_DEFAULTS))
    if options["smooth_value"] is not None:
        require_number(NAME, "smooth_value", options["smooth_value"])
    require_bool(NAME, "effective_order", options["effective_order"])
    require_bool(NAME, "lowercase", options["lowercase"])
    if not callable(options["tokenize"]):
        require_choice(NAME, "tokenize", options["tokenize"],
                       tuple(SACREBLEU.rules(options["version"])["tokenizers"]))
    if options["spm_model"] is not None and not isinstance(options["spm_model"], str):
        raise ValueError(f"{NAME}: option 'spm_model' must be a path, got "
                         f"{options['spm_model']!r}")
    require_order(NAME, "max_ngram_order", options["max_ngram_order"], minimum=0)
    return options


def required_order(options: Mapping[str, Any]) -> int:
    return options["max_ngram_order"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    """Lowercase, then tokenize; before 2.0.0 ``intl`` is the ``unicodedata``-enumerated
    tokenizer (what Tensor2Tensor copied); from 1.5.0 to 2.1.x an empty reference is left
    out before anything else."""
    rules = SACREBLEU.rules(options["version"])
    tokenizer = options["tokenize"]
    if tokenizer == "intl" and rules["intl"] == "unicodedata":
        tokenizer = "t2t"
    elif tokenizer in OPTIONAL_TOKENIZERS:
        tokenizer = optional_tokenizer(tokenizer, options["spm_model"])
    dropped = rules["empty_references"].startswith("dropped")
    return Preprocessing(tokenizer, options["lowercase"], drop_empty_references=dropped)


def smooth_value(options: Mapping[str, Any]) -> float | None:
    value = options["smooth_value"]
    if value is not None:
        return value
    if options["smooth_method"] == "floor":
        return SACREBLEU.rules(options["version"])["floor_default"]
    return SMOOTH_DEFAULTS[options["smooth_method"]]


#: SacreBLEU's ``smooth_method`` as the knob model's smoothing.
SMOOTHING_KNOBS = {"none": "none", "exp": "nist-geometric", "floor": "floor",
                   "add-k": "add-k-from-bigram"}




def _check_references(corpus: CorpusStats, level: str, order: int,
                      rules: Mapping[str, Any]) -> None:
    count = corpus.segment_count
    if rules["api"] == "1.x":
        return _check_references_1x(corpus, level, rules)
    if rules["empty_references"] == "dropped (RuntimeError)":
        if count and corpus.never_referenced == count:
            raise ConventionError(NAME, "corpus_score needs at least one reference stream",
                                  "IndexError")
        if corpus.without_references:
            raise ConventionError(NAME, "a segment without a non-empty reference "
                                  "(2.0.0-2.1.x)", "RuntimeError")
    if not count:
        raise ConventionError(NAME, "there must be at least one hypothesis", "IndexError")
    if corpus.without_references == count:
        what = "sentence_score needs a reference" if level == "sentence" else (
            "corpus_score needs at least one reference stream")
        raise ConventionError(NAME, what, "IndexError")
    if order and corpus.unreferenced_with_hypothesis:
        raise ConventionError(
            NAME, "a non-empty hypothesis whose references are all None cannot be scored",
            "TypeError")


def _check_references_1x(corpus: CorpusStats, level: str, rules: Mapping[str, Any]) -> None:
    """``BLEU.corpus_score`` of 1.x: in 1.4 every stream must hold every segment (a
    ``None`` reference is an EOFError) and a segment without references fails summing its
    ``None`` length; from 1.5 a segment without a non-empty reference is an EOFError."""
    fewest, most = corpus.fewest_references, corpus.most_references
    if rules["missing_references"] == "EOFError":
        if most == 0:
            raise ConventionError(NAME, "no reference: the closest length is None (1.4)",
                                  "TypeError")
        if fewest != most and level == "corpus":
            raise ConventionError(NAME, "reference streams with a None line (1.4)", "EOFError")
    elif fewest == 0:
        raise ConventionError(NAME, "a segment without a valid reference (1.5)", "EOFError")


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    rules = SACREBLEU.rules(options["version"])
    order = options["max_ngram_order"]
    if rules["max_order"] == "4 only" and order != 4:
        raise ConventionError(NAME, "SacreBLEU 1.x scores 4-grams only (BLEU.NGRAM_ORDER)",
                              UNSUPPORTED_INPUT)
    _check_references(corpus, level, order, rules)
    sys_len = corpus.hyp_len
    ref_len = corpus.ref_len("closest_shorter", without_references=-1)
    counts = corpus.matches[:order]
    totals = corpus.totals[:order]
    try:
        score, precisions, bp = compute_bleu(
            list(counts), list(totals), sys_len, ref_len, options["smooth_method"],
            smooth_value(options), options["effective_order"],
            4 if rules["max_order"] == "4 in compute_bleu" else order,
            rules["no_match_zero"])
    except (ValueError, ZeroDivisionError, OverflowError, IndexError) as error:
        raise ConventionError(
            NAME, f"compute_bleu fails with these smoothing values: {error}",
            type(error).__name__) from None
    return Finished((score,), tuple(precisions), counts, totals, bp, sys_len, ref_len)


def compute_bleu(correct: list, total: list, sys_len: int, ref_len: int, smooth_method: str,
                 smooth_value: float | None, effective_order: bool, max_order: int,
                 no_match_zero: bool = True):
    """``BLEU.compute_bleu``: returns (score, precisions in percent, bp). ``max_order`` is
    the orders it loops over (2.0.0 loops over 4 whatever the statistics hold: an
    IndexError for fewer); ``no_match_zero`` is the 0 for no match at all (2.0.0, #141)."""
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * max_order
    if no_match_zero and not any(correct):
        return 0.0, precisions, bp
    smooth_mteval = 1.0
    eff_order = max_order
    for n in range(1, max_order + 1):
        if smooth_method == "add-k" and n > 1:
            correct[n - 1] += smooth_value
            total[n - 1] += smooth_value
        if total[n - 1] == 0:
            break
        if effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif smooth_method == "floor":
                precisions[n - 1] = 100.0 * smooth_value / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    score = bp * math.exp(sum([my_log(p) for p in precisions[:eff_order]]) / eff_order)
    return score, precisions, bp


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"smooth_method": s, "effective_order": e, "tokenize": t, "lowercase": lc}
                   for s in ("exp", "none", "floor", "add-k") for e in (False, True)
                   for t in ("13a", "intl", "char", "none") for lc in (False, True))
