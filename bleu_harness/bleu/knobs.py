"""The knob model: every BLEU convention as one setting of independent knobs.

Each convention's ``knobs(options, level)`` returns its :class:`KnobSettings`, the single
description of the convention: its signature is derived from it (:meth:`KnobSettings.signature`),
and ``explain``, ``identify``, ``fingerprint`` and the divergence map reason with it.
:func:`evaluate` gives what any setting answers on an input, a score or ``raises X``, for
mixtures no tool implements too, so one convention can be turned into another one knob at a
time (each convention's module names where each of its values comes from).

Two parts of a setting are the conventions' own code, not a second copy of it:

* ``input_rules`` -- where a tool refuses an input (NLTK's ``KeyError`` for a hypothesis
  without references, TF-NMT's ``ZeroDivisionError`` for an empty hypothesis, multi-bleu.perl
  dying on an empty system output): the convention's own ``finish`` decides, on the statistics
  of the setting's tokenization, so "raises where nltk raises" is exact by construction;
* NLTK's smoothing methods 4-7 -- ``SmoothingFunction`` as ``bleu_harness.bleu.smoothing``
  implements it (for the NLTK convention too).

Everything else is one arithmetic on the statistics, ``bleu_harness.bleu.compute``, in each
convention's own float form (``KnobSettings.arithmetic``: ``Fraction``, ``math.fsum``, float32
steps, ...), so for a convention's own settings the model gives its ``finish``'s score bit for
bit (not yet where a release's rules are no knob: NLTK before 3.6.6, SacreBLEU 2.0.0 with
``max_ngram_order`` other than 4); a mixture no tool implements is computed in the reference
form.
``tests/test_knob_model.py`` holds this model to every ``finish`` on every case of the corpus
and to the same exception.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from functools import cached_property, wraps
from typing import Any

from bleu_harness.bleu.compute import REFERENCE, Arithmetic, compute
from bleu_harness.bleu.convention import Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.options import FrozenOptions
from bleu_harness.bleu.result import ConventionError
from bleu_harness.bleu.tokenizers import ascii_lower, tokenizer_name
from bleu_harness.bleu.tokenizers.perl import perl_lc
from bleu_harness.bleu.tokenizers.torchmetrics import LowercasedAfter

#: Tokenizers that fold case themselves, and the folding they apply: the case knob of a
#: setting that uses them, and the tokenizer they are the lowercasing variant of.
FOLDING_TOKENIZERS: dict[str, tuple[str, str]] = {
    "multibleu-lc": ("multibleu", "ascii-lower"),
    "mteval-13a-lc": ("mteval-13a", "ascii-lower"),
    "mteval-intl-lc": ("mteval-intl", "perl-lc"),
    "mteval-11b-lc": ("mteval-11b", "ascii-lower"),
    # multi-bleu-detok.perl -lc: lc before the tokenization of a hypothesis, after that of a
    # reference (bleu_harness.bleu.tokenizers.roles)
    "multibleu-detok-lc": ("mteval-13a", "perl-lc"),
    "ptb": ("ptb-cased", "lower"),  # PTBTokenizer -lowerCase (Java's toLowerCase per token)
}

#: Knob -> (value -> the words a researcher can paste into a paper).
MEANINGS: dict[str, dict[Any, str]] = {
    "ref": {"closest_shorter": "the closest reference length, the shorter on a tie",
            "closest_first": "the closest reference length, the first-listed on a tie",
            "shortest": "the shortest reference length",
            "first": "the first reference's length",
            "average": "the mean reference length of each segment (pycocoevalcap 'average')"},
    "no_match_zero": {True: "score 0 when no unigram matches",
                      False: "no early 0 when nothing matches"},
    "zero": {"zero": "an order without a match makes the score 0",
             "tiny": "an order without a match counts as sys.float_info.min (a tiny score)",
             "tiny-long-double": "an order without a match counts as the long double "
                                 "minimum 2**-16382 (fast-bleu method0): the score "
                                 "underflows to 0 unless its weight is 0",
             "zero-before-smoothing": "any order without a match makes the score 0, before "
                                      "smoothing",
             "dropped": "an order whose precision is still 0 after smoothing is left out of "
                        "the sum (NLTK 3.6.6+)",
             "raises": "an order whose precision is still 0 after smoothing enters the log: "
                       "a math domain error (NLTK before 3.6.6)",
             "truncate": "the product ends at the first order without a match (NLTK "
                         "method0 before 3.3)",
             "first-weight-tiny": "from the first order without a match, the product is "
                                  "w1 * log(sys.float_info.min) alone (NLTK 3.2.4-3.2.5 "
                                  "emulate_multibleu)"},
    "smoothing": {"none": "no smoothing",
                  "floor": "a zero count becomes a small constant (NLTK method1 / SacreBLEU "
                           "floor)",
                  "add-k": "add k to matches and n-grams of every order",
                  "add-k-from-bigram": "add k to matches and n-grams from bigrams on",
                  "coco-epsilon": "(m + 1e-15) / (n + 1e-9) for every order, so no precision "
                                  "is 0 (pycocoevalcap)",
                  "nist-geometric": "NIST geometric smoothing (1/2^k of the n-gram count)",
                  "nltk-method4": "NLTK method4 (shorter hypotheses get smaller smoothed "
                                  "precisions)",
                  "nltk-method5": "NLTK method5 (the average of neighbouring orders)",
                  "nltk-method6": "NLTK method6 (interpolation with the lower orders)",
                  "nltk-method7": "NLTK method7 (method4, then method5)"},
    "empty_order": {"zero": "an order without hypothesis n-grams has precision 0",
                    "neutral": "an order without hypothesis n-grams is neutral but still "
                               "divides by N",
                    "effective": "orders without hypothesis n-grams are left out (effective "
                                 "order)",
                    "reweigh": "fewer than 4 hypothesis words re-weigh uniformly over that "
                               "many orders (NLTK auto_reweigh)",
                    "reweigh-first": "fewer than 4 hypothesis words re-weigh uniformly over "
                                     "that many orders, before smoothing and the no-match "
                                     "return (NLTK auto_reweigh before 3.6.6)"},
    "fewer_words": {"zero": "fewer words than N scores 0 (MATLAB)",
                    "score": "fewer words than N is scored like any input"},
    "all_empty": {"nan": "an empty candidate with empty references is NaN (MATLAB)",
                  "nan-ratio": "a hypothesis length and a reference length of 0 give NaN "
                               "(a float32 0/0 length ratio, keras-hub)",
                  "zero": "an empty candidate with empty references scores 0 (allennlp: the "
                          "brevity penalty of lengths 0 == 0)",
                  "score": "empty candidate and references are scored like any input"},
    "bp": {"standard": "brevity penalty exp(1 - r/c) when c < r", "off": "no brevity penalty",
           "epsilon": "brevity penalty exp(1 - 1/ratio) when ratio = (c + 1e-15) / (r + 1e-9) "
                      "< 1: just under 1 when c == r (pycocoevalcap)"},
    "unreferenced_length": {None: "a segment without references has no reference length",
                            0: "a segment without references is scored (fast-bleu: nothing "
                               "matches, so 0)",
                            9999: "a segment without references counts 9999 (multi-bleu's "
                                  "initial closest length)",
                            -1: "a segment without references counts -1 (SacreBLEU)"},
    "normalise": {True: "weights normalised to sum 1", False: "weights used as given"},
    "denominator": {"raw": "n-gram counts as they are",
                    "floor1": "each segment's n-gram count floored at 1 (NLTK)",
                    "floor1-sum": "each order's summed n-gram count floored at 1 (ignite)"},
    "case": {"mixed": "case-sensitive", "lower": "lowercased (str.lower)",
             "ascii-lower": "ASCII capitals lowercased",
             "lower-after": "lowercased after tokenizing (str.lower of the tokens, "
                            "torchmetrics SacreBLEUScore)",
             "perl-lc": "lowercased by Perl's lc (no final sigma)"},
    "drop_empty_references": {True: "empty references left out first (SacreBLEU 1.5-2.1)",
                              False: "empty references kept"},
    "float32": {True: "float32 arithmetic", False: "float64 arithmetic"},
    "rounding": {None: "not rounded", 4: "rounded to 4 decimals (NLTK emulate_multibleu)"},
    "average": {"corpus": "one score of the corpus's summed statistics",
                "sentence-mean": "the mean of the segments' sentence scores (ignite's macro "
                                 "average)"},
    "smoothing_value": {None: "no smoothing parameter"},
    "items": {None: "one prediction per item (no length adjustment)",
              1: "one prediction per item (jury: each segment its own item, no length "
                 "adjustment)"},
}


Finish = Callable[[CorpusStats, str, Mapping[str, Any]], Any]


@dataclass(frozen=True)
class InputRules:
    """Where a convention refuses an input: its own ``finish`` on the statistics decides.

    ``finish`` and ``order`` (the n-gram order the convention's statistics need at these
    options) are bound by the convention, so this module never looks a convention up."""

    convention: str
    level: str
    options: Mapping[str, Any] = field(compare=False)
    fingerprint: str = ""  # what equality compares: the convention and its options
    finish: Finish | None = field(default=None, compare=False)
    order: int = field(default=1, compare=False)

    def refusal(self, corpus: CorpusStats) -> ConventionError | None:
        """The convention's error on these statistics, or ``None`` if it scores them."""
        try:
            self.finish(corpus, self.level, self.options)
        except ConventionError as error:
            return error
        return None


def input_rules(convention: str, level: str, options: Mapping[str, Any], finish: Finish,
                required_order: Callable[[Mapping[str, Any]], int]) -> InputRules:
    """The input rules of ``convention``, whose ``finish`` decides and whose statistics need
    ``required_order(options)`` n-gram orders."""
    return InputRules(convention, level, dict(options),
                      f"{convention}/{level}/" + repr(sorted(
                          (k, tokenizer_name(v) if callable(v) else v) for k, v in options.items())),
                      finish, required_order(options))


@dataclass(frozen=True)
class KnobSettings:
    """One BLEU convention, knob by knob (attribution tries them in this order).

    ``scale`` (1 or 100) and ``version`` describe the convention but change no 0-1 score.
    """

    input_rules: InputRules | None = None
    ref: str = "closest_shorter"
    unreferenced_length: int | None = None
    no_match_zero: bool = False
    zero: str = "zero"
    smoothing: str = "none"
    smoothing_value: float | None = None
    empty_order: str = "zero"
    fewer_words: str = "score"
    all_empty: str = "score"
    bp: str = "standard"
    weights: tuple[float, ...] = (0.25, 0.25, 0.25, 0.25)
    normalise: bool = False
    denominator: str = "raw"
    tokenizer: Any = "none"
    case: str = "mixed"
    drop_empty_references: bool = False
    float32: bool = False
    #: Decimals the score is rounded to (``round(s, 4)``), or ``None``.
    rounding: int | None = None
    #: "corpus": one score of the summed statistics; "sentence-mean": each segment scored
    #: alone under these knobs, the scores summed in order and divided by their number.
    average: str = "corpus"
    #: Predictions per item, where several predictions share an item's references (jury):
    #: ``k`` for items of ``k`` consecutive segments, or each item's count; ``None`` for one
    #: each. The BP is then re-scaled by the items' lengths (``compute``'s
    #: :func:`~bleu_harness.bleu.compute.adjusted_for_items`).
    items: Any = None
    scale: float = 1.0
    version: str = ""
    #: How the convention's tool writes the arithmetic in floats: not a scoring knob and never
    #: in the signature. It holds for the knob values it was declared with
    #: (``arithmetic_for``, taken at construction); a mixture (any knob changed, as
    #: attribution does) is no tool's and is computed in the reference form.
    arithmetic: Arithmetic = REFERENCE
    arithmetic_for: tuple = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.arithmetic_for:
            object.__setattr__(self, "arithmetic_for", self.scoring_values())

    def scoring_values(self) -> tuple:
        return tuple(getattr(self, name) for name in SCORING_KNOBS)

    @cached_property
    def float_form(self) -> Arithmetic:
        """``arithmetic`` for the declared knob values, the reference form for a mixture."""
        if self.arithmetic == REFERENCE:
            return REFERENCE
        return self.arithmetic if self.arithmetic_for == self.scoring_values() else REFERENCE

    def differing(self, other: KnobSettings) -> list[str]:
        return [name for name in SCORING_KNOBS if getattr(self, name) != getattr(other, name)]

    def with_knobs(self, other: KnobSettings, knobs) -> KnobSettings:
        """These settings with ``knobs`` taken from ``other`` (a smoothing method with its
        parameter)."""
        changes = {k: getattr(other, k) for k in knobs}
        if "smoothing" in changes:  # a smoothing method comes with its own parameter
            changes.setdefault("smoothing_value", other.smoothing_value)
        return self.changed(**changes)

    def changed(self, **changes: Any) -> KnobSettings:
        """``dataclasses.replace(self, **changes)`` without running ``__init__`` again:
        attribution, diagnosis and fingerprints build tens of thousands of mixtures a run
        (``replace`` was a fifth of their time). ``arithmetic_for`` stays this one's, as with
        ``replace``, so that a mixture is computed in the reference form; the float form is
        carried over where it is known without comparing every knob (the reference form
        stays the reference form; the declared values with one of them changed are a
        mixture)."""
        state = dict(self.__dict__)
        form = state.pop("float_form", None)
        moved = any(k in SCORING_KNOBS and not (state[k] is v or state[k] == v)
                    for k, v in changes.items())  # as the tuple comparison would see it
        state.update(changes)
        mixture = object.__new__(KnobSettings)
        object.__setattr__(mixture, "__dict__", state)
        if self.arithmetic == REFERENCE:
            state["float_form"] = REFERENCE
        elif form is not None and form is not REFERENCE:  # this one has its declared values
            state["float_form"] = REFERENCE if moved else form
        return mixture

    @property
    def order(self) -> int:
        """The n-gram order the statistics must hold for this setting."""
        order = max(len(vector) for vector in all_vectors(self.weights))
        if self.smoothing in ("nltk-method5", "nltk-method7"):
            order = max(order, 5)  # method5 reads order 5 of the last segment
        if self.input_rules is not None:
            order = max(order, self.input_rules.order)
        return max(order, 1)

    def preprocessing(self) -> tuple[Preprocessing, Callable[[str], str] | None]:
        """The engine's preprocessing for the tokenizer and case knobs, and a case folding
        to apply to the text first where the tokenizer has no folding variant."""
        # each segment is scored alone, or grouped into items
        # pycocoevalcap's average reference length adds each segment's mean, in order
        segments = (self.average == "sentence-mean" or self.items is not None
                    or self.ref == "average")
        for folding, (base, case) in FOLDING_TOKENIZERS.items():
            if self.tokenizer == base and self.case == case:
                return Preprocessing(folding, False, self.drop_empty_references,
                                     segments), None
        if self.case == "lower-after":
            return Preprocessing(LowercasedAfter(self.tokenizer), False,
                                 self.drop_empty_references, segments), None
        lowercase = self.case == "lower"
        fold = {"ascii-lower": ascii_lower, "perl-lc": perl_lc}.get(self.case)
        return Preprocessing(self.tokenizer, lowercase, self.drop_empty_references,
                             segments), fold

    def signature(self, name: str) -> str:
        """``name|knob:value|...``: every knob but the input rules (the name says whose)."""
        parts = [name] + [f"{f.name}:{signature_value(f.name, getattr(self, f.name))}"
                          for f in fields(self) if f.name not in ("input_rules", "arithmetic", "arithmetic_for")
                          and not (f.name in ("version", "smoothing_value")
                                   and getattr(self, f.name) in ("", None))
                          and not (f.name == "rounding" and self.rounding is None)
                          and not (f.name == "average" and self.average == "corpus")
                          and not (f.name == "items" and self.items is None)]
        return "|".join(parts)


#: The knobs that can change a 0-1 score, in the order attribution tries them.
SCORING_KNOBS = tuple(f.name for f in fields(KnobSettings)
                      if f.name not in ("scale", "version", "arithmetic", "arithmetic_for"))
_SCORED = tuple(name for name in SCORING_KNOBS
                if name not in ("input_rules", "tokenizer", "case", "drop_empty_references"))


def all_vectors(weights: tuple) -> tuple[tuple[float, ...], ...]:
    """Every weight vector: NLTK takes a list of them (one score each)."""
    return weights if weights and isinstance(weights[0], tuple) else (weights,)


def signature_value(knob: str, value: Any) -> str:
    if knob == "weights":
        vectors = all_vectors(value)
        return ";".join(",".join(f"{w:g}" for w in vector) for vector in vectors)
    if knob == "tokenizer":
        return tokenizer_name(value)
    if knob == "items" and isinstance(value, tuple):
        return ",".join(map(str, value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def describe(knob: str, value: Any) -> str:
    """A knob's value in words."""
    if knob == "weights":
        return f"weights ({signature_value(knob, value).replace(',', ', ')})"
    if knob == "tokenizer":
        return f"{tokenizer_name(value)} tokens"
    if knob == "input_rules":
        return (f"the input checks of {value.convention}" if value is not None
                else "no input checks")
    if knob == "smoothing_value" and value is not None:
        return f"smoothing parameter {value:g}"
    if knob == "items" and value not in (None, 1):
        return (f"predictions grouped into items of {signature_value(knob, value)} (jury's "
                f"adjusted BP: each item's longest prediction and shortest reference)")
    return MEANINGS.get(knob, {}).get(value, f"{knob}={value}")


def uniform(order: int) -> tuple[float, ...]:
    """``order`` equal weights ``1/order`` (none for order 0)."""
    return (1 / order,) * order if order else ()


def case_and_tokenizer(preprocessing: Preprocessing) -> dict[str, Any]:
    """The tokenizer, case and drop knobs of a convention's preprocessing."""
    tokenizer, case = preprocessing.tokenizer, "lower" if preprocessing.lowercase else "mixed"
    if isinstance(tokenizer, str) and tokenizer in FOLDING_TOKENIZERS:
        tokenizer, case = FOLDING_TOKENIZERS[tokenizer]
    elif isinstance(tokenizer, LowercasedAfter):
        tokenizer, case = tokenizer.tokenizer, "lower-after"
    return {"tokenizer": tokenizer, "case": case,
            "drop_empty_references": preprocessing.drop_empty_references}


def remembered(knobs_of: Callable[[Mapping[str, Any], str], KnobSettings]):
    """A convention's ``knobs`` that answers again from memory for the same
    :class:`~bleu_harness.bleu.options.FrozenOptions` and level (a batch of sentence scores
    asks it once per sentence; building the settings cost about half of a sentence's
    arithmetic). Other option mappings are worked out each time, as before."""
    memory: dict[tuple[FrozenOptions, str], KnobSettings] = {}

    @wraps(knobs_of)
    def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
        if type(options) is not FrozenOptions:
            return knobs_of(options, level)
        key = (options, level)
        known = memory.get(key)
        if known is None:
            if len(memory) >= 256:
                memory.clear()
            known = memory[key] = knobs_of(options, level)
        return known

    return knobs


# --- evaluation ------------------------------------------------------------------------------

Outcome = float | str  # a 0-1 score, or "raises X"

StatsSource = Callable[[KnobSettings], CorpusStats]
Refusal = Callable[[InputRules, CorpusStats], "ConventionError | None"]


def evaluate(stats: StatsSource, k: KnobSettings,
             refusal: Refusal = InputRules.refusal,
             score: Callable[[CorpusStats, KnobSettings], Outcome] | None = None) -> Outcome:
    """What setting ``k`` answers: ``raises X`` where its input rules refuse the input, else
    its 0-1 score. ``stats(k)`` gives the statistics of ``k``'s tokenization to ``k.order``;
    ``refusal(rules, corpus)`` what the rules say of them, ``score(corpus, k)`` the score
    (:func:`scored`; a caller that asks often of one input may remember either)."""
    score = score or scored
    corpus = stats(k)
    if k.input_rules is not None:
        error = refusal(k.input_rules, corpus)
        if error is not None:
            return f"raises {error.library_exception}"
    return score(corpus, k)


def scored(corpus: CorpusStats, k: KnobSettings) -> Outcome:
    """:func:`knob_score`, or why there is none: a mixture the arithmetic cannot take (no
    reference length for a segment without references, a smoothing without its parameter)
    is never equal to a real answer."""
    try:
        return knob_score(corpus, k)
    except (ConventionError, ValueError, ZeroDivisionError, OverflowError, TypeError) as error:
        return f"no score under these knobs ({type(error).__name__})"


def score_inputs(k: KnobSettings) -> tuple:
    """What the score of statistics reads of knob settings (:func:`scored`): every scoring
    knob but those that choose the statistics (tokenizer, case, empty references) or refuse
    the input, and the scale, the release (NLTK's smoothing rules) and the float form."""
    return (tuple(getattr(k, name) for name in _SCORED), k.scale, k.version, k.float_form)


def knob_score(corpus: CorpusStats, k: KnobSettings) -> float:
    """BLEU (0-1 scale) of the statistics under the knob settings ``k``: the one arithmetic
    (:func:`~bleu_harness.bleu.compute.compute`), in the convention's float form."""
    computed = compute(corpus, k)
    native = computed.scores[0]
    form = computed.arithmetic
    scaled = form.unit == "percent" or form.times_scale or form.scale_first
    return native / k.scale if scaled and k.scale != 1 else native
