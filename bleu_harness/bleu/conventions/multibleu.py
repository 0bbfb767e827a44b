"""The multi-bleu convention: Moses ``scripts/generic/multi-bleu.perl`` (CONVENTIONS.md A.2).

Read from the script, step by step:

* tokens are Perl ``split`` on a byte string: ASCII whitespace only; ``-lc`` applies Perl
  ``lc`` to the hypothesis and every reference, which on bytes lowercases A-Z only;
* clipping against the largest count in any single reference, orders 1-4;
* reference length: the closest, the *shorter* on a tie ("take the *shorter* into account,
  not the 'first' one"); a segment with no reference line adds the initial ``9999``;
* precision ``CORRECT/TOTAL`` per order, 0 where the order has no n-gram;
* no reference file with a line (every one empty, or no segments): ``die("ERROR: could not
  find reference file ...")`` before it reads a hypothesis;
* ``ref_len == 0``: prints ``BLEU = 0, 0/0/0/0 (BP=0, ratio=0, hyp_len=0, ref_len=0)`` and
  exits with status 1; an empty system output with references dies in
  ``exp(1-$length_reference/$length_translation)`` ("Illegal division by zero");
* BP = ``exp(1 - r/c)`` if c < r, else 1; BLEU = ``BP * exp((my_log(p1) + ... + my_log(p4))
  / 4)`` with ``my_log(0) = -9999999999``;
* output ``BLEU = %.2f, %.1f/%.1f/%.1f/%.1f (BP=%.3f, ratio=%.3f, hyp_len=%d, ref_len=%d)``,
  on the 0-100 scale: the score here is ``100 * $bleu`` before rounding.
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
from bleu_harness.bleu.options import (
    Option,
    boolean,
)
from bleu_harness.bleu.result import ConventionError

NAME = "multi-bleu"
ORDER = 4
#: The script's initial ``$closest_length``, kept when a segment has no reference.
NO_REFERENCE_LENGTH = 9999
OPTIONS = (Option("lc", False, boolean, aliases=("-lc", "lowercase")),)


def required_order(options: Mapping[str, Any]) -> int:
    return ORDER


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing("multibleu-lc" if options["lc"] else "multibleu")


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="mean", times_scale=True, my_log=True),
        ref="closest_shorter",
        unreferenced_length=NO_REFERENCE_LENGTH, weights=uniform(ORDER), scale=100.0,
        **case_and_tokenizer(preprocessing(options)))


def _check(corpus: CorpusStats) -> None:
    """Where multi-bleu.perl dies or exits before it prints a score."""
    if not corpus.most_references:
        raise ConventionError(
            NAME, "no reference file has a line, so it finds no references and dies "
            "('ERROR: could not find reference file')", "ERROR: could not find reference file")
    ref_len = corpus.ref_len("closest_shorter", without_references=NO_REFERENCE_LENGTH)
    if ref_len == 0:
        raise ConventionError(
            NAME, "the reference length is 0: it prints 'BLEU = 0, 0/0/0/0 (BP=0, ratio=0, "
            "hyp_len=0, ref_len=0)' and exits with status 1", "exit status 1")
    if corpus.hyp_len == 0:
        raise ConventionError(NAME, "an empty system output with a non-empty reference "
                              "divides by the hypothesis length 0", "Illegal division by zero")


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The knob arithmetic (``100 * $bleu`` of ``my_log`` terms), reported as the script
    prints it: percent precisions (an order without n-grams an int 0) and the BLEU line."""
    _check(corpus)
    c = compute(corpus, knobs(options, level))
    precisions = tuple(100 * (m / t if t else 0) for m, t in zip(c.matches, c.totals))
    ratio = c.hyp_len / c.ref_len
    report = ("BLEU = %.2f, %.1f/%.1f/%.1f/%.1f (BP=%.3f, ratio=%.3f, hyp_len=%d, ref_len=%d)"
              % (c.scores[0], *precisions, c.bp, ratio, c.hyp_len, c.ref_len))
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len,
                    details={"ratio": ratio}, report=report)


#: What ``bleu-harness identify`` searches.
VARIANTS = ({"lc": False}, {"lc": True})

#: What the convention follows, in a line.
DESCRIPTION = ("Moses multi-bleu.perl: whitespace tokens, closest reference (shorter on a "
               "tie), no smoothing, 0-100 scale, -lc")
