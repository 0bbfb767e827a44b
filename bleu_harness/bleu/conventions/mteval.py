"""The mteval-v13a convention: NIST ``mteval-v13a.pl`` BLEU (mosesdecoder@34452895f350), run with
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

``script`` follows another release of the script (all in moses-smt/mosesdecoder@34452895
``scripts/generic/``), each run with ``-b``:

* ``v14`` (``mteval-v14.pl``): v13a's arithmetic and options; its ``bleu_score`` prints no
  ``length ratio`` line (no ``$report_length``, ``mteval-v14.pl:857-879``), so the system
  line never dies: an empty output scores 0, an empty reference set a smoothed score. The
  rest changes no score of SGML input: its international tokenization no longer joins
  ``\\p{Hyphen}\\p{Zl}`` (``:959``; the reader has made U+2028 a space already), it reads
  segment id ``0`` from XML (``:338-340``, where v13a's ``or die`` refuses it; in SGML
  reference and test files both still die on it, ``unless $seg = ...``, ``:479-480``),
  needs quoted SGML attributes (``:1023``) and sorts segments naturally (``Sort::Naturally``,
  ``:646``), which orders its output only.
* ``v11b`` (``mteval-v11b.pl``): the shortest reference, no smoothing (an order without a
  match has cumulative 0: ``bleu_score``, ``:532-553``, the arithmetic of v13a's
  ``--no-smoothing``), and ``-c``; no other option. It reads its files as bytes, so its 13a
  rules (``NormalizeText``, ``:593-617``: ``tr/[A-Z]/[a-z]/`` unless ``-c``) and its
  whitespace are ASCII (the ``mteval-11b`` tokens), and it computes ``min(0, 1-r/c)`` before
  anything else (``:538``): an empty output dies ("Illegal division by zero") -- a segment
  (``-d 2``) or a document as much as the system.
* ``v12`` (``mteval-v12.pl``): v11b's arithmetic with v13a's international tokenization
  (Unicode classes, Perl ``lc``, ``:614-639``) and a ``length ratio`` line in every
  ``bleu_score`` (``:557``), which divides by the shortest reference length: a reference
  length of 0 dies too, at every level.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, Computation, compute
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

NAME = "mteval-v13a"
#: ``$max_Ngram``: the script scores and prints orders 1 to 9; BLEU is the 4-gram cumulative.
MAX_NGRAM = 9
BLEU_ORDER = 4
REF_RULES = {"closest": "closest_shorter", "shortest": "shortest"}
#: ``script``: the release of the script followed.
SCRIPTS = ("v13a", "v14", "v11b", "v12")
OPTIONS = (
    Option("preserve_case", False, boolean, aliases=("c", "-c")),
    Option("international_tokenization", False, boolean,
           aliases=("--international-tokenization",)),
    Option("brevity_penalty", "closest", choice(REF_RULES), aliases=("--brevity-penalty",)),
    Option("no_smoothing", False, boolean, aliases=("--no-smoothing",)),
    Option("script", "v13a", choice(SCRIPTS)),
)
#: What the releases before v13a always do, where v13a has an option (and its flag).
FIXED = {
    "v11b": {"international_tokenization": False, "brevity_penalty": "shortest",
             "no_smoothing": True},
    "v12": {"international_tokenization": True, "brevity_penalty": "shortest",
            "no_smoothing": True},
}
FLAGS = {"international_tokenization": "--international-tokenization",
         "brevity_penalty": "--brevity-penalty", "no_smoothing": "--no-smoothing"}


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options; for ``v11b`` and ``v12`` the settings their scripts always have are the
    defaults, and another value is a ``ValueError`` (they have no such flag)."""
    script = resolve_options(NAME, OPTIONS, given)["script"]
    fixed = FIXED.get(script, {})
    defaults = {o.name: fixed.get(o.name, o.default) for o in OPTIONS}
    options = resolve_options(NAME, OPTIONS, given, defaults)
    for key, value in fixed.items():
        if options[key] != value:
            raise ValueError(f"{NAME}: mteval-{script}.pl has no {FLAGS[key]} (it always "
                             f"has {key}={value!r})")
    return options


def old_script(options: Mapping[str, Any]) -> bool:
    """``mteval-v11b.pl`` or ``mteval-v12.pl``."""
    return options["script"] in FIXED


def required_order(options: Mapping[str, Any]) -> int:
    return MAX_NGRAM


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    if options["script"] == "v11b":
        return Preprocessing("mteval-11b" if options["preserve_case"] else "mteval-11b-lc")
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
        version="" if options["script"] == "v13a" else options["script"],
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
    old = old_script(options)
    # v13a prints the length ratio for the system only (smoothed), v12 wherever it scores.
    report_line = (options["script"] == "v13a" and smoothed and level == "corpus"
                   or options["script"] == "v12")
    if old and corpus.hyp_len == 0:
        raise ConventionError(NAME, f"mteval-{options['script']}.pl computes min(0, 1 - r/c) "
                              "first: an empty output divides by its length 0",
                              "Illegal division by zero")
    if report_line and corpus.ref_len(REF_RULES[options["brevity_penalty"]]) == 0:
        raise ConventionError(NAME, "the reference length is 0 and the report line divides "
                              "by it", "Illegal division by zero")
    computed = [compute(corpus, settings(options, level, order))
                for order in range(1, MAX_NGRAM + 1)]
    cumulative = tuple(c.scores[0] for c in computed)
    individual = individual_scores(computed[-1], smoothed)
    hyp_len, ref_len, bp = corpus.hyp_len, computed[0].ref_len, computed[0].bp
    report_lines = []
    if old and report_line:  # v12: the exponent, as computed
        report_lines.append(f"length ratio: {perl_number(hyp_len / ref_len)} "
                            f"({hyp_len}/{ref_len}), penalty (log): "
                            f"{perl_number(min(0, 1 - ref_len / hyp_len))}")
    elif report_line:
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


def sentence_arithmetic(options: Mapping[str, Any]) -> SentenceArithmetic | None:
    """A sentence's score by :func:`finish`: the knob arithmetic at order 4 (its BLEU
    score); its checks refuse only a segment without references, an empty output (the old
    scripts) or a reference length of 0 (v12's report line)."""
    return SentenceArithmetic(knobs(options, "sentence"))


def perl_number(value: float) -> str:
    """How Perl prints a number in a string: ``%.15g``."""
    return "%.15g" % value


#: mteval-v13a.pl's 16 option settings (mteval-v14.pl has the same).
V13A_VARIANTS = tuple({"preserve_case": c, "international_tokenization": i, "brevity_penalty": b,
                       "no_smoothing": s}
                      for c in (False, True) for i in (False, True)
                      for b in ("closest", "shortest") for s in (False, True))

#: What ``bleu-harness identify`` searches: v13a's settings, and v11b's and v12's with and
#: without ``-c``. v14 is left out: it gives v13a's score wherever v13a gives one.
VARIANTS = V13A_VARIANTS + tuple({"script": script, "preserve_case": c}
                                 for script in FIXED for c in (False, True))

#: What the convention follows, in a line.
DESCRIPTION = ("NIST mteval-v13a.pl BLEU: its own tokenization, lowercased unless -c, NIST "
               "geometric smoothing, 1-9-gram cumulative and individual scores; script: "
               "v14, v11b, v12 (shortest reference, no smoothing)")
