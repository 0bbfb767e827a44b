"""The mteval-v13a convention: NIST ``mteval-v13a.pl`` BLEU (CONVENTIONS.md A.2), run with
``-b`` semantics (BLEU only).

Read from the script (Moses ``scripts/generic/mteval-v13a.pl``), step by step:

* the SGML reader turns each run of Perl whitespace into one space before the tokenization
  (so a line break in a segment is a space, never a ``-\\n`` join), and words are split on
  Perl's ``\\s`` (U+001C-U+001F stay inside words): :mod:`bleu_harness.bleu.tokenizers.perl`;
* ``tokenization``: entity unescaping, the 13a punctuation rules (what SacreBLEU's ``13a``
  copies) and ``tr/[A-Z]/[a-z]/`` (ASCII only) unless ``-c`` (``preserve_case``);
  ``--international-tokenization``: ``tokenization_international`` (mteval-v14 rules with
  Perl 5.36's Unicode 14.0 classes, Perl ``lc`` -- no final sigma -- unless ``-c``);
* ``--brevity-penalty closest`` (default; ``brevity_penalty_closest`` keeps the shorter on a
  tie) or ``shortest``;
* ``bleu_score`` (default, smoothed): ``exp_len_score = exp(min(0, 1 - r/c))`` if c > 0 else 0;
  for j = 1..9: an order without n-grams adds ``iscore = 0`` (neutral, but still divides by j),
  the k-th order with n-grams and no match adds ``log(1/(2^k * l_j))``, others ``log(m_j/l_j)``;
  individual ``exp(iscore)``, cumulative ``exp(score/j) * exp_len_score``; BLEU is cumulative 4.
  The system-level call prints ``length ratio: c/r ..., penalty (log): log(exp_len_score)``,
  so r = 0 dies ("Illegal division by zero") and c = 0 dies ("Can't take log of 0");
* ``bleu_score_nosmoothing`` (``--no-smoothing``): an order with no match has cumulative 0
  (and keeps individual 0); otherwise cumulative ``exp(score/j + min(0, 1 - r/c))`` and
  individual ``exp(log(m_j/l_j))``;
* the report prints 4 decimals; the score here is the unrounded cumulative 4-gram BLEU.
* a segment (``level="sentence"``) is scored as the script scores each segment (its
  ``BLEU-seg.scr`` with ``--metricsMATR``): ``bleu_score`` without the report line, so an
  empty hypothesis scores 0 and an empty reference does not divide -- the script dies only
  on the system line.

With NIST scores also computed (the script's default), ``nist_score`` divides by the
reference unigram count, so a document whose references are all empty dies there first; the
engine models BLEU alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, Computation, compute
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
    choice,
)
from bleu_harness.bleu.result import ConventionError

NAME = "mteval-v13a"
#: ``$max_Ngram``: the script scores and prints orders 1 to 9; BLEU is the 4-gram cumulative.
MAX_NGRAM = 9
BLEU_ORDER = 4
REF_RULES = {"closest": "closest_shorter", "shortest": "shortest"}
OPTIONS = (
    Option("preserve_case", False, boolean, aliases=("c", "-c")),
    Option("international_tokenization", False, boolean,
           aliases=("--international-tokenization",)),
    Option("brevity_penalty", "closest", choice(REF_RULES), aliases=("--brevity-penalty",)),
    Option("no_smoothing", False, boolean, aliases=("--no-smoothing",)),
)
def required_order(options: Mapping[str, Any]) -> int:
    return MAX_NGRAM


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    if options["international_tokenization"]:
        return Preprocessing("mteval-intl" if options["preserve_case"] else "mteval-intl-lc")
    return Preprocessing("mteval-13a" if options["preserve_case"] else "mteval-13a-lc")


def settings(options: Mapping[str, Any], level: str, order: int) -> KnobSettings:
    """The script's BLEU at one order: ``order`` = 4 is its BLEU score, orders 1 to 9 its
    cumulative scores."""
    smoothed = not options["no_smoothing"]
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="mean", strict_bp=True,
                              bp="exponent" if options["no_smoothing"] else "r/c"),
        ref=REF_RULES[options["brevity_penalty"]],
        smoothing="nist-geometric" if smoothed else "none",
        empty_order="neutral" if smoothed else "zero", weights=uniform(order),
        **case_and_tokenizer(preprocessing(options)))


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return settings(options, level, BLEU_ORDER)


def individual_scores(computed: Computation, smoothed: bool) -> tuple[float, ...]:
    """The script's "Individual BLEU" of each order, ``exp(iscore)``: ``exp(log p)`` (not
    always ``p``); an order without n-grams has ``iscore = 0`` when smoothed; without
    smoothing an order without a match prints 0."""
    return tuple(math.exp(math.log(p)) if p > 0 else (1.0 if smoothed and not present else 0.0)
                 for p, present in computed.precisions)


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The knob arithmetic at orders 1 to 9 (the cumulative scores; BLEU is order 4), the
    individual scores from order 9's precisions, and the report the script prints (the
    system-level ``length ratio`` line dies on r = 0 and on a zero length penalty)."""
    if not corpus.segment_count or corpus.has_segment_without_references:
        raise ConventionError(NAME, "every reference set must hold every segment",
                              "FATAL ERROR (die)")
    smoothed = not options["no_smoothing"]
    report_line = smoothed and level == "corpus"
    if report_line and corpus.ref_len(REF_RULES[options["brevity_penalty"]]) == 0:
        raise ConventionError(NAME, "the reference length is 0 and the report line divides "
                              "by it", "Illegal division by zero")
    computed = [compute(corpus, settings(options, level, order))
                for order in range(1, MAX_NGRAM + 1)]
    cumulative = tuple(c.scores[0] for c in computed)
    individual = individual_scores(computed[-1], smoothed)
    hyp_len, ref_len, bp = corpus.hyp_len, computed[0].ref_len, computed[0].bp
    report_lines = []
    if report_line:
        if bp == 0:
            raise ConventionError(NAME, "the system output is empty and the report line takes "
                                  "log(0) of the length penalty", "Can't take log of 0")
        report_lines.append(f"length ratio: {perl_number(hyp_len / ref_len)} "
                            f"({hyp_len}/{ref_len}), penalty (log): {perl_number(math.log(bp))}")
    report_lines.append("BLEU score = %.4f" % cumulative[BLEU_ORDER - 1])
    report_lines.append("Individual BLEU:" + "".join("  %2.4f " % v for v in individual))
    report_lines.append("Cumulative BLEU:" + "".join("  %2.4f " % v for v in cumulative))
    matches, totals = corpus.matches[:MAX_NGRAM], corpus.totals[:MAX_NGRAM]
    return Finished(
        computed[BLEU_ORDER - 1].scores, individual[:BLEU_ORDER], matches[:BLEU_ORDER], totals[:BLEU_ORDER],
        float(bp), hyp_len, ref_len,
        details={"cumulative": cumulative, "individual": individual, "counts": matches,
                 "totals": totals},
        report="\n".join(report_lines))


def perl_number(value: float) -> str:
    """How Perl prints a number in a string: ``%.15g``."""
    return "%.15g" % value


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"preserve_case": c, "international_tokenization": i, "brevity_penalty": b,
                    "no_smoothing": s}
                   for c in (False, True) for i in (False, True)
                   for b in ("closest", "shortest") for s in (False, True))

#: What the convention follows, in a line.
DESCRIPTION = ("NIST mteval-v13a.pl BLEU: its own tokenization, lowercased unless -c, NIST "
               "geometric smoothing, 1-9-gram cumulative and individual scores")
