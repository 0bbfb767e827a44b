"""The multeval convention: MultEval's BLEU (jBLEU 0.1.1, "an exact reimplementation of NIST's
mteval-v13.pl without tokenization"), read from jhclark/multeval@bd93ed16 step by step:

* tokens (:mod:`bleu_harness.bleu.tokenizers.multeval`): ``multeval eval`` reads each line
  through ``StringUtils.normalizeWhitespace`` (Java ``trim()``, ``\\s+`` -> one space;
  ``HypothesisManager.java:107-125``, ``StringUtils.java:7-11``); ``BLEU.stats``
  (``src/multeval/metrics/BLEU.java:33-49``) then splits on Guava's
  ``CharMatcher.BREAKING_WHITESPACE`` without ``omitEmptyStrings``: an empty line is one empty
  token, and two Unicode spaces (U+3000, U+2000-U+200A, ...) make an empty token between
  them. ``entry="stats"``: ``BLEU.stats`` on the strings as given (a Java caller), without the
  normalisation: then ASCII spaces make empty tokens too. No lowercasing, no punctuation
  rules;
* references: ``multeval eval`` reads one line of every ``--refs`` file per hypothesis, so
  every segment has the same number (another input is declined for ``entry="eval"``); a
  segment without references: ``pickReference`` returns -1 and ``refs.get(-1)`` throws
  ``IndexOutOfBoundsException`` (``src/jbleu/JBLEU.java:28-65``);
* ``JBLEU.pickReference`` (lines 28-57): the closest reference length, the **shorter** on a
  tie (the first-listed among equal lengths);
* ``JBLEU.stats`` (lines 59-108): clipped matches (each reference's n-gram counts, the
  largest kept; each hypothesis n-gram ``remove``\\s one) over orders 1-4 (``N = 4``, fixed);
  per segment the attempted and matched n-grams and the chosen reference length, summed over
  the corpus as ints (``IntStats.add``, ``SuffStatUtils.sumStats``, which throws
  ``IllegalArgumentException`` "Need more than zero data points." for no segment);
* ``JBLEU.score`` (lines 149-220): BP ``Math.exp(1.0 - refWords / hypWords)`` when
  ``hypWords < refWords``, else 1.0; for each order: no n-grams, ``iscore = 0`` (the order
  is neutral, still weighted 0.25); no match, ``smooth *= 2`` and ``log(1 / (smooth *
  attempted))`` (mteval-v13a's smoothing); else ``log(m / t)``; ``score += iscore * 0.25`` from
  0.0 in order; ``brevityPenalty * Math.exp(score)``, thresholded to [0, 1] (it never leaves
  that range: every term is at most 0 and BP at most 1);
* ``BLEU.score`` (``BLEU.java:57-59``): ``bleu.score(...) * 100``, what ``multeval eval``
  averages over optimizer runs (one run: the score itself; its table prints ``%2.1f``);
  a segment's score (``--sentLevelDir``) is the same of its own statistics.

Where it differs from mteval-v13a: the tokens (none of the 13a rules, no lowercasing, empty
tokens), the sum ``score += iscore * 0.25`` (mteval divides the sum by the order) and the
brevity penalty of 0 == 0 (1.0; mteval's is 0).

Floats: the arithmetic is the same double operations in the same order, but Java's
``Math.log`` and ``Math.exp`` may be 1 ulp from the correctly rounded value, and each JVM and
CPU has its own (HotSpot on x86-64 uses Intel's LIBM stubs: of a million arguments measured,
0.25 % of ``exp`` and 0.08 % of ``log`` results differ from glibc's, which Python uses;
``StrictMath``'s fdlibm differs from both in about 10 %). MultEval's last bits are therefore
its JVM's, and the engine agrees with OpenJDK 17 on x86-64 bit for bit on most inputs and
within a few ulps (1e-14 relative) on the rest (tests/test_multeval.py counts both).
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
from bleu_harness.bleu.options import Option, choice
from bleu_harness.bleu.result import ConventionDeclined, ConventionError

NAME = "multeval"
#: ``JBLEU.N`` (``JBLEU.java:15``): BLEU-4 only.
ORDER = 4
#: ``entry``: how the text reaches ``BLEU.stats`` -- ``eval`` (``multeval eval``'s files,
#: whitespace normalised) or ``stats`` (the method called on the strings as they are).
ENTRIES = {"eval": "multeval-eval", "stats": "guava-breaking-whitespace"}
OPTIONS = (Option("entry", "eval", choice(ENTRIES)),)


def required_order(options: Mapping[str, Any]) -> int:
    return ORDER


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing(ENTRIES[options["entry"]])


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    """mteval-v13a's smoothed BLEU (closest reference, NIST smoothing, orders without n-grams
    neutral) as ``score += iscore * 0.25``, times 100."""
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="sum", times_scale=True), ref="closest_shorter",
        smoothing="nist-geometric", empty_order="neutral", weights=uniform(ORDER),
        scale=100.0, **case_and_tokenizer(preprocessing(options)))


def refuse(corpus: CorpusStats, options: Mapping[str, Any]) -> None:
    """Where MultEval cannot take the input, or throws, in the order it would."""
    if (options["entry"] == "eval" and corpus.segment_count
            and corpus.fewest_references != corpus.most_references):
        raise ConventionDeclined(NAME, "multeval eval reads one line of every reference file "
                                 "per hypothesis: every segment has the same number of "
                                 "references")
    if corpus.has_segment_without_references:
        raise ConventionError(NAME, "pickReference finds no reference and refs.get(-1) "
                              "throws", "IndexOutOfBoundsException")
    if not corpus.segment_count:
        raise ConventionError(NAME, "SuffStatUtils.sumStats: Need more than zero data "
                              "points.", "IllegalArgumentException")


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The input checks, then the knob arithmetic; the precisions are jBLEU's (smoothed)."""
    refuse(corpus, options)
    c = compute(corpus, knobs(options, level))
    precisions = tuple(p for p, _ in c.precisions)
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len)


#: What ``bleu-harness identify`` searches.
VARIANTS = ({"entry": "eval"}, {"entry": "stats"})
#: The precisions are JBLEU's fractions, the score is ``bleu.score(...) * 100``
#: (``BLEU.java:57-59``): a view that shows precisions as percentages scales them from 1.
PRECISIONS_SCALE = 1.0

#: What the convention follows, in a line.
DESCRIPTION = ("MultEval (jBLEU): mteval-v13a's smoothed BLEU without tokenization -- split on "
               "Guava's BREAKING_WHITESPACE, empty tokens kept (multeval eval normalises "
               "whitespace first) -- closest reference (shorter on a tie), orders summed "
               "times 0.25, 0-100 scale")

#: How close the engine comes to the tool, for the conventions catalogue (Java's libm).
AGREEMENT = ("float64 through Java's Math.log/exp: bit for bit on most inputs, within a few "
             "ulps (1e-14 relative) where the JVM's libm rounds otherwise")
