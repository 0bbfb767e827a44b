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
)
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.result import ConventionError

NAME = "multi-bleu"
ORDER = 4
#: The script's initial ``$closest_length``, kept when a segment has no reference.
NO_REFERENCE_LENGTH = 9999
DEFAULTS: dict[str, Any] = {"lc": False}
ALIASES = {"-lc": "lc", "lowercase": "lc"}


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    given = {ALIASES.get(key, key): value for key, value in given.items()}
    options = merge_options(NAME, given, DEFAULTS)
    require_bool(NAME, "lc", options["lc"])
    return options


def required_order(options: Mapping[str, Any]) -> int:
    return ORDER


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing("multibleu-lc" if options["lc"] else "multibleu")




def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    if not corpus.most_references:
        raise ConventionError(
            NAME, "no reference file has a line, so it finds no references and dies "
            "('ERROR: could not find reference file')", "ERROR: could not find reference file")
    hyp_len = corpus.hyp_len
    ref_len = corpus.ref_len("closest_shorter", without_references=NO_REFERENCE_LENGTH)
    counts = corpus.matches[:ORDER]
    totals = corpus.totals[:ORDER]
    precisions = [m / t if t else 0 for m, t in zip(counts, totals)]
    if ref_len == 0:
        raise ConventionError(
            NAME, "the reference length is 0: it prints 'BLEU = 0, 0/0/0/0 (BP=0, ratio=0, "
            "hyp_len=0, ref_len=0)' and exits with status 1", "exit status 1")
    bp = 1.0
    if hyp_len < ref_len:
        if hyp_len == 0:
            raise ConventionError(NAME, "an empty system output with a non-empty reference "
                                  "divides by the hypothesis length 0",
                                  "Illegal division by zero")
        bp = math.exp(1 - ref_len / hyp_len)
    bleu = bp * math.exp((my_log(precisions[0]) + my_log(precisions[1])
                          + my_log(precisions[2]) + my_log(precisions[3])) / 4)
    ratio = hyp_len / ref_len
    report = ("BLEU = %.2f, %.1f/%.1f/%.1f/%.1f (BP=%.3f, ratio=%.3f, hyp_len=%d, ref_len=%d)"
              % (100 * bleu, *(100 * p for p in precisions), bp, ratio, hyp_len, ref_len))
    return Finished(
        (100 * bleu,), tuple(100 * p for p in precisions), counts, totals, bp, hyp_len, ref_len,
        details={"ratio": ratio}, report=report)


#: What ``bleu-harness identify`` searches.
VARIANTS = ({"lc": False}, {"lc": True})
