"""The fast-bleu convention: ``fast_bleu.BLEU`` (PyPI fast-bleu 0.0.90,
Danial-Alh/fast-bleu@182584a6), NLTK's sentence BLEU rewritten in C++, read line by line
(``fast_bleu/__python_wrapper__.py`` and ``fast_bleu/cpp_sources/sources/``):

* ``BLEU(references, weights, smoothing_func=1, auto_reweight=False)`` scores each hypothesis
  of ``get_score(hypotheses)`` against the one reference set it was built with: a sentence
  score (the harness's ``level="sentence"``, the segment's references as that set); it has no
  corpus score;
* tokens: the token lists it is given (the harness hands it ``str.split()`` tokens), each
  ``str(token).encode('utf-8')`` (``__python_wrapper__.py:5-6``) and read back as a C string
  (``PyBytes_AsString``, ``fastbleu_module.cpp:55``): a token ends at its first NUL;
* ``weights`` is a dict of weight vectors, one score each (the harness: one vector, or a list
  of them). The wrapper asserts ``2 <= len(w)`` for every vector, ``smoothing_func in [0,
  1]`` and ``abs(1. - sum(w)) < 1e-15`` (lines 76-79, ``AssertionError``), on the Python
  values; the C++ then holds each weight as a C ``float`` (``(float)PyFloat_AS_DOUBLE``,
  ``fastbleu_module.cpp:19``): 1/3 is 0.3333333432674408. ``PyFloat_AS_DOUBLE`` does not
  check its argument: an ``int`` weight is read from the int object's own fields, a tiny
  denormal that is 0.0 as a float -- ``(0, 0, 0, 1)`` weighs nothing and scores the brevity
  penalty -- and a negative int NaN on CPython 3.11 (0.0 from 3.12): the convention declines
  negative int weights;
* clipped matches against the largest count in any reference (``get_max_counts``,
  ``bleu.cpp:121-160``), over the hypothesis n-grams, whose count is floored at 1
  (``modified_precision``, ``nltk.cpp:54-73``), as ``Fraction(num, den)``, reduced unless
  ``num`` is 0 (``fraction.cpp:25-55``);
* the closest reference length, the shorter on a tie (``closest_ref_length``, ``nltk.cpp:
  75-84``); BP ``exp(1 - (double)r / c)`` in double, 1 if c > r, 0 if c = 0 (lines 86-94);
  without references nothing matches and the score is 0.0;
* ``auto_reweight`` compares the weights with ``{0.25}`` -- ``{0.25, 0, 0, 0}`` (line
  122-124) -- which no weight vector that sums to 1 equals: it changes nothing;
* no unigram match returns 0.0 before any smoothing (line 128-129);
* ``smoothing_func`` 0 (``smooth_0``): a zero count becomes ``1 / LLONG_MAX``, whose log is
  taken as ``log(LDBL_MIN)``, -11355.14 (line 138-139): NLTK's method0 with the long double
  minimum, so the score underflows to 0.0 where NLTK's is a tiny float; 1 (``smooth_1``, the
  default): ``1 / (10 den)``, NLTK's method1 with its epsilon 0.1;
* ``s += (double)w * logl((long double)num / den)`` for each order, in the x87's 80-bit
  ``long double`` with ``s`` a double, then ``bp * exp(s)`` in double (lines 135-148;
  :mod:`bleu_harness.bleu.x87`): 1-3 ulps from NLTK's ``math.fsum`` of double logs even with
  weights a float holds exactly.

Where ``long double`` is not the x87's (ARM) the convention declines: fast-bleu's bits there
are another arithmetic's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu import x87
from bleu_harness.bleu.arithmetic import float32
from bleu_harness.bleu.compute import Arithmetic, compute
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.knobs import KnobSettings, case_and_tokenizer, input_rules, remembered
from bleu_harness.bleu.options import Option, boolean, weights
from bleu_harness.bleu.result import ConventionDeclined, ConventionError

NAME = "fast-bleu"
DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


def weight_vectors(convention: str, key: str, value: Any) -> tuple:
    """One weight vector, or several (the values of fast-bleu's ``weights`` dict), each kept
    with its numbers' types (an ``int`` weight is not read as a float)."""
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple)):
        return tuple(weights(convention, key, vector) for vector in value)
    return weights(convention, key, value)


def smoothing_number(convention: str, key: str, value: Any) -> int:
    """An ``int``: the wrapper asserts it is 0 or 1 (any other is its ``AssertionError``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{convention}: option {key!r} must be an integer (0 or 1), got "
                         f"{value!r}")
    return value


OPTIONS = (
    Option("weights", DEFAULT_WEIGHTS, weight_vectors),
    Option("smoothing_func", 1, smoothing_number),
    Option("auto_reweight", False, boolean),
)


def vectors(options: Mapping[str, Any]) -> tuple[tuple[float, ...], ...]:
    w = options["weights"]
    return w if w and isinstance(w[0], tuple) else (w,)


def as_float(weight: float) -> float:
    """A weight as the C++ holds it: a C ``float`` of the double, or 0.0 for an ``int``
    (``PyFloat_AS_DOUBLE`` of an int object reads a tiny denormal)."""
    if isinstance(weight, int):
        return 0.0
    return float32(weight)


def required_order(options: Mapping[str, Any]) -> int:
    return max((len(v) for v in vectors(options)), default=0)


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing("split-c-strings")


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    method0 = options["smoothing_func"] == 0
    held = tuple(tuple(as_float(w) for w in v) for v in vectors(options))
    several = bool(options["weights"]) and isinstance(options["weights"][0], tuple)
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="x87", strict_bp=True), ref="closest_shorter",
        unreferenced_length=0, no_match_zero=True,
        zero="tiny-long-double" if method0 else "zero",
        smoothing="none" if method0 else "floor", smoothing_value=None if method0 else 0.1,
        weights=held if several else held[0], denominator="floor1",
        **case_and_tokenizer(preprocessing(options)))


def _check(level: str, options: Mapping[str, Any]) -> None:
    """``BLEU``'s assertions (``__python_wrapper__.py:76-79``, in that order), then what the
    convention cannot follow."""
    lengths = [len(v) for v in vectors(options)]
    if not 2 <= min(lengths, default=0):
        raise ConventionError(NAME, f"2 <= min_n <= max_n; got 2 <= {min(lengths, default=0)} "
                              f"<= {max(lengths, default=0)}", "AssertionError")
    if options["smoothing_func"] not in (0, 1):
        raise ConventionError(NAME, "Smoothing function only supports 0 or 1 type.",
                              "AssertionError")
    if any(not abs(1. - sum(v)) < 1e-15 for v in vectors(options)):
        raise ConventionError(NAME, "All weights must sum to one.", "AssertionError")
    if any(isinstance(w, int) and w < 0 for v in vectors(options) for w in v):
        raise ConventionDeclined(NAME, "a negative int weight is read from CPython's int object "
                                 "(NaN on CPython 3.11, 0.0 from 3.12)")
    if level != "sentence":
        raise ConventionDeclined(NAME, "fast_bleu.BLEU scores each hypothesis against its "
                                 "reference set: there is no corpus level")
    reason = x87.why_unavailable()
    if reason:
        raise ConventionDeclined(NAME, reason)


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """``BLEU(references, weights, smoothing_func).get_score([hypothesis])``: the wrapper's
    assertions, then the knob arithmetic in fast-bleu's x87 form, one score per vector."""
    _check(level, options)
    c = compute(corpus, knobs(options, level))
    precisions = tuple(float(p) for p, _ in c.precisions)
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len)


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"smoothing_func": s, "weights": w} for s in (1, 0)
                 for w in ((0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3)))

#: What the convention follows, in a line.
DESCRIPTION = ("fast-bleu BLEU (C++): NLTK's sentence BLEU with method1 by default, float "
               "weights, an 80-bit long double log sum, method0's zero orders as log(LDBL_MIN)")
