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

from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, compute
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.history import SACREBLEU
from bleu_harness.bleu.kernel import SentenceArithmetic
from bleu_harness.bleu.knobs import (
    KnobSettings,
    case_and_tokenizer,
    input_rules,
    remembered,
    uniform,
)
from bleu_harness.bleu.options import (
    Option,
    boolean,
    checked_by_resolve,
    choice,
    number,
    optional,
    order,
    path,
    release,
    resolve_options,
)
from bleu_harness.bleu.result import ConventionDeclined, ConventionError
from bleu_harness.bleu.tokenizers import SACREBLEU_TOKENIZERS
from bleu_harness.bleu.tokenizers.optional import (
    MECAB,
    OPTIONAL_TOKENIZERS,
    optional_tokenizer,
)

NAME = "sacrebleu"
SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}


OPTIONS = (
    Option("smooth_method", "exp", choice(SMOOTH_DEFAULTS)),
    Option("smooth_value", None, optional(number)),
    Option("effective_order", False, boolean, aliases=("use_effective_order",)),
    Option("tokenize", "13a", checked_by_resolve),
    Option("lowercase", False, boolean),
    Option("max_ngram_order", 4, order(minimum=0)),
    Option("spm_model", None, optional(path)),
    Option("version", SACREBLEU.latest, release(SACREBLEU)),
)


def defaults(level: str, version: str | None = None) -> dict[str, Any]:
    """``sacrebleu.corpus_bleu`` / ``sentence_bleu`` defaults of the release: effective order
    at sentence level, where ``sentence_bleu`` smoothed with floor before 1.5.0."""
    rules = SACREBLEU.rules(version)
    sentence = level == "sentence"
    return {option.name: option.default for option in OPTIONS} | {
        "smooth_method": rules["sentence_smoothing"] if sentence else "exp",
        "effective_order": sentence, "version": version or SACREBLEU.latest}


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options over the level's and the release's defaults; ``tokenize`` one of the
    release's tokenizers (or the user's own callable)."""
    version = str(given["version"]) if "version" in given else None
    SACREBLEU.rules(version)  # a ValueError for a release the engine does not model
    options = resolve_options(NAME, OPTIONS, given, defaults(level, version))
    if not callable(options["tokenize"]):
        choice(SACREBLEU.rules(options["version"])["tokenizers"])(
            NAME, "tokenize", options["tokenize"])
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
        tokenizer = "intl-unicodedata"
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


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    rules = SACREBLEU.rules(options["version"])
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(unit="percent", log_sum="mean", my_log=True,
                              stops_at_empty_order=True), ref="closest_shorter",
        unreferenced_length=-1, no_match_zero=rules["no_match_zero"],
        smoothing=SMOOTHING_KNOBS[options["smooth_method"]],
        smoothing_value=smooth_value(options),
        empty_order="effective" if options["effective_order"] else "zero",
        weights=uniform(loop_orders(options)), scale=100.0, version=options["version"],
        **case_and_tokenizer(preprocessing(options)))


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


def loop_orders(options: Mapping[str, Any]) -> int:
    """The orders ``compute_bleu`` loops over: 4 in 2.0.0 whatever ``max_ngram_order`` says
    (``range(1, self.NGRAM_ORDER + 1)``; an ``IndexError`` past the statistics), else the
    option."""
    if SACREBLEU.rules(options["version"])["max_order"] == "4 in compute_bleu":
        return 4
    return options["max_ngram_order"]


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """``BLEU.compute_bleu`` over the statistics: the knob arithmetic in SacreBLEU's form
    (percent precisions, ``my_log``, ``sum(...) / eff_order``); precisions 0.0 from the
    first order without n-grams on, and on the no-match return."""
    rules = SACREBLEU.rules(options["version"])
    order = options["max_ngram_order"]
    if rules["max_order"] == "4 only" and order != 4:
        raise ConventionDeclined(NAME, "SacreBLEU 1.x scores 4-grams only (BLEU.NGRAM_ORDER)")
    _check_references(corpus, level, order, rules)
    try:
        c = compute(corpus, knobs(options, level), available=order)
    except (ValueError, ZeroDivisionError, OverflowError, IndexError) as error:
        raise ConventionError(
            NAME, f"compute_bleu fails with these smoothing values: {error}",
            type(error).__name__) from None
    looped = loop_orders(options)
    precisions = (0.0,) * looped if c.gate else tuple(p for p, _ in c.precisions)
    return Finished(c.scores, precisions, corpus.matches[:order], corpus.totals[:order], c.bp,
                    c.hyp_len, c.ref_len,
                    library_signature=library_signature(options, corpus.fewest_references,
                                                        corpus.most_references))


def sentence_arithmetic(options: Mapping[str, Any]) -> SentenceArithmetic | None:
    """A sentence's score by :func:`finish`: the knob arithmetic with the statistics' orders
    as ``available``; ``_check_references`` refuses only a segment left without a
    reference. SacreBLEU 1.x at another order than 4 declines every input."""
    rules = SACREBLEU.rules(options["version"])
    if rules["max_order"] == "4 only" and options["max_ngram_order"] != 4:
        return None
    return SentenceArithmetic(knobs(options, "sentence"), available=options["max_ngram_order"])


#: What SacreBLEU's signature calls a tokenizer, where that is not its name: the
#: SentencePiece models' ``SPM_MODELS[key]["signature"]`` (sacrebleu 2.6.0
#: ``tokenizers/tokenizer_spm.py:13-26``).
TOKENIZER_SIGNATURES = {"spm": "flores101", "flores101": "flores101", "flores200": "flores200"}


def library_signature(options: Mapping[str, Any], fewest_references: int | None,
                      most_references: int | None) -> str:
    """SacreBLEU 2.x's own signature of a score, ``BLEU.get_signature()`` (sacrebleu 2.6.0
    ``metrics/base.py:114-178`` ``Signature``, ``metrics/bleu.py:42-77`` ``BLEUSignature``):
    ``nrefs`` (``var`` where segments have different numbers of references), ``case``
    (``lc``/``mixed``), ``eff`` (``yes``/``no``), ``tok`` (the tokenizer's ``signature()``),
    ``smooth`` (the method, with its value to two decimals where the method takes one) and
    ``version`` last. Empty for SacreBLEU 1.x (another format), for MeCab tokenizers (their
    signature names the installed MeCab's version) and for the user's own tokenizer."""
    tokenizer = options["tokenize"]
    if (SACREBLEU.rules(options["version"])["api"] != "2.x" or callable(tokenizer)
            or tokenizer in MECAB):
        return ""
    method = options["smooth_method"]
    smooth = method
    if SMOOTH_DEFAULTS[method] is not None:
        value = options["smooth_value"]
        smooth += f"[{(SMOOTH_DEFAULTS[method] if value is None else value):.2f}]"
    nrefs = fewest_references if fewest_references == most_references else "var"
    return "|".join((f"nrefs:{nrefs}", f"case:{'lc' if options['lowercase'] else 'mixed'}",
                     f"eff:{'yes' if options['effective_order'] else 'no'}",
                     f"tok:{TOKENIZER_SIGNATURES.get(tokenizer, tokenizer)}",
                     f"smooth:{smooth}", f"version:{options['version']}"))


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"smooth_method": s, "effective_order": e, "tokenize": t, "lowercase": lc}
                   for s in ("exp", "none", "floor", "add-k") for e in (False, True)
                   for t in ("13a", "intl", "char", "none") for lc in (False, True))

#: What the convention follows, in a line.
DESCRIPTION = ("SacreBLEU BLEU: tokenized raw text, exp/floor/add-k smoothing, effective "
               "order, 0-100 scale")
#: Case-file tokenizer names its ``tokenize`` option accepts.
CASE_TOKENIZERS = SACREBLEU_TOKENIZERS

