"""The multi-bleu convention: Moses ``scripts/generic/multi-bleu.perl`` (mosesdecoder@34452895f350),
and, with ``script``, the two scripts with its arithmetic.

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

``script``:

* ``moses`` (default): the above, ``scripts/generic/multi-bleu.perl`` at
  moses-smt/mosesdecoder@34452895.
* ``detok``: ``scripts/generic/multi-bleu-detok.perl`` at the same commit, the above line for
  line after mteval-v13a's ``tokenization`` (case preserved; ``:190-214``) of every line,
  read as UTF-8 (``:17-18``), so Perl's Unicode ``\\s`` separates: the ``mteval-13a``
  tokens. ``-lc`` is Perl ``lc`` on characters, applied to a hypothesis before its
  tokenization (``:72-73``) and to a reference after it (``:62,80``): an upper-case entity or
  ``<SKIPPED>`` is replaced or removed on the hypothesis side only. It reads lines with
  ``chop`` (``:61,71``), so a last line without a line break loses its last character: a
  matter of the file, not of the segments scored here.
* ``wmt06``: the WMT06 shared task's ``multi-bleu.perl`` (vendored from
  OpenNMT/OpenNMT@72d4a5f ``benchmark/3rdParty/multi-bleu.perl``; mosesdecoder's first
  version, 64ec2e5 of 2006, has the same arithmetic): a hypothesis split with ``split``
  (``:36``), a reference with ``split(/ /, ...)``, every single space (``:42``: empty tokens
  count, tabs stay inside tokens); the closest reference, the *first-listed* on a tie (strict
  ``<``, ``:44``); ``chop`` (``:26,35``); no ``-lc``; precisions ``100*CORRECT/TOTAL`` with no
  guard, so an order without n-grams -- or an empty system output, in the BP -- dies
  ("Illegal division by zero", ``:97-113``), and so does a reference length of 0 (the
  ratio); no reference line at all dies ("did not find any reference translations",
  ``:19``); it prints ``BLEU = %.2f, %.1f/%.1f/%.1f/%.1f (BP=%.3f, ration=%.3f)``
  (``:106``, its spelling).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, compute
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
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
    choice,
    resolve_options,
)
from bleu_harness.bleu.result import ConventionError

NAME = "multi-bleu"
ORDER = 4
#: The script's initial ``$closest_length``, kept when a segment has no reference.
NO_REFERENCE_LENGTH = 9999
#: ``script``: which of the scripts with multi-bleu's arithmetic.
SCRIPTS = ("moses", "detok", "wmt06")
OPTIONS = (Option("lc", False, boolean, aliases=("-lc", "lowercase")),
           Option("script", "moses", choice(SCRIPTS)))
#: (script, lc) -> the tokenizer (bleu_harness.bleu.tokenizers).
TOKENIZERS = {("moses", False): "multibleu", ("moses", True): "multibleu-lc",
              ("detok", False): "mteval-13a", ("detok", True): "multibleu-detok-lc",
              ("wmt06", False): "multibleu-wmt06"}


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options; the WMT06 script has no ``-lc``."""
    options = resolve_options(NAME, OPTIONS, given)
    if options["script"] == "wmt06" and options["lc"]:
        raise ValueError(f"{NAME}: the WMT06 multi-bleu.perl (script: wmt06) has no -lc")
    return options


def required_order(options: Mapping[str, Any]) -> int:
    return ORDER


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing(TOKENIZERS[options["script"], options["lc"]])


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="mean", times_scale=True, my_log=True),
        ref="closest_first" if options["script"] == "wmt06" else "closest_shorter",
        unreferenced_length=NO_REFERENCE_LENGTH, weights=uniform(ORDER), scale=100.0,
        **case_and_tokenizer(preprocessing(options)))


def _check(corpus: CorpusStats) -> None:
    """Where multi-bleu.perl (and multi-bleu-detok.perl) dies or exits before it prints a
    score."""
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


def _check_wmt06(corpus: CorpusStats) -> None:
    """Where the WMT06 multi-bleu.perl dies: no reference line, or a division by zero (an
    order without hypothesis n-grams, an empty output, a reference length of 0)."""
    if not corpus.most_references:
        raise ConventionError(
            NAME, "no reference file has a line, so it dies ('did not find any reference "
            "translations')", "did not find any reference translations")
    if not all(corpus.totals[:ORDER]):
        raise ConventionError(
            NAME, "an order has no n-gram in the output (every hypothesis shorter than "
            f"{ORDER} words, or none at all): CORRECT/TOTAL divides by zero",
            "Illegal division by zero")
    if corpus.ref_len("closest_first", without_references=NO_REFERENCE_LENGTH) == 0:
        raise ConventionError(NAME, "the reference length is 0 and the printed ratio divides "
                              "by it", "Illegal division by zero")


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The knob arithmetic (``100 * $bleu`` of ``my_log`` terms), reported as the script
    prints it: percent precisions (an order without n-grams an int 0; the WMT06 script's
    ``100*CORRECT/TOTAL``, another float form) and the BLEU line."""
    wmt06 = options["script"] == "wmt06"
    (_check_wmt06 if wmt06 else _check)(corpus)
    c = compute(corpus, knobs(options, level))
    ratio = c.hyp_len / c.ref_len
    if wmt06:
        precisions = tuple(100 * m / t for m, t in zip(c.matches, c.totals))
        report = ("BLEU = %.2f, %.1f/%.1f/%.1f/%.1f (BP=%.3f, ration=%.3f)"
                  % (c.scores[0], *precisions, c.bp, ratio))
    else:
        precisions = tuple(100 * (m / t if t else 0) for m, t in zip(c.matches, c.totals))
        report = ("BLEU = %.2f, %.1f/%.1f/%.1f/%.1f (BP=%.3f, ratio=%.3f, hyp_len=%d, "
                  "ref_len=%d)" % (c.scores[0], *precisions, c.bp, ratio, c.hyp_len, c.ref_len))
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len,
                    details={"ratio": ratio}, report=report)


def sentence_arithmetic(options: Mapping[str, Any]) -> SentenceArithmetic | None:
    """A sentence's score by :func:`finish`: the knob arithmetic; its checks refuse a
    segment without references, an empty reference or output, and the WMT06 script one of
    fewer than 4 words (an order without n-grams)."""
    return SentenceArithmetic(knobs(options, "sentence"),
                              min_hyp_len=ORDER if options["script"] == "wmt06" else 1)


#: What ``bleu-harness identify`` searches.
VARIANTS = ({"lc": False}, {"lc": True}, {"script": "detok", "lc": False},
            {"script": "detok", "lc": True}, {"script": "wmt06"})

#: What the convention follows, in a line.
DESCRIPTION = ("Moses multi-bleu.perl: whitespace tokens, closest reference (shorter on a "
               "tie), no smoothing, 0-100 scale, -lc; script: detok (multi-bleu-detok.perl, "
               "mteval's 13a tokens), wmt06 (the WMT06 script: first reference on a tie)")
