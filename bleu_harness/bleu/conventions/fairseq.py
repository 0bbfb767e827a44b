"""The fairseq convention: fairseq's default ``bleu`` scorer, ``fairseq.scoring.bleu.Scorer`` over
the C ``libbleu``, as ``fairseq-score`` runs it on two text files and prints it
(``BLEU4 = ...``; ``fairseq-generate`` prints the same ``result_string``).

Read from facebookresearch/fairseq@4a388e64cd646ed7d7ad8de8fae55df2b8eea91d (v0.12.2, the PyPI
sdist ``fairseq-0.12.2.tar.gz``; ``libbleu.cpp``, ``scoring/bleu.py`` and ``fairseq_cli/score.py``
are unchanged up to 3d262bb25690), step by step:

* tokens (:mod:`bleu_harness.bleu.tokenizers.fairseq`): ``--ignore-case`` lowercases the line
  (``line.lower()``, ``fairseq_cli/score.py:49-54``); a shared ``Dictionary`` gives every
  whitespace word an id (``encode_line``, ``add_if_not_exist=True``: no word of a text is
  unknown) and appends ``</s>``; ``libbleu.cpp:28-57`` trims leading ``<pad>`` and trailing
  ``</s>``/``<pad>`` but keeps the first token, so an empty line is the one token ``</s>``;
  the words ``<pad>``, ``</s>``, ``<unk>`` are those special ids, and a reference ``<unk>``
  becomes -999 (``fairseq/scoring/bleu.py:114-117``): it never matches;
* one reference per segment (``-r`` is one file; ``Scorer.add(ref, pred)``);
* ``bleu_addngram`` (``libbleu.cpp:73-109``), orders 1-4: the hypothesis' n-grams counted, each
  reference n-gram matches one of them while any is left -- clipped matches against one
  reference; n-grams compared by a 64-bit hash of their ids (``bleu_hash``, lines 59-71),
  which collides on real text (two bigrams of compare-mt's TED data): the statistics are
  counted by that hash, over the ids fairseq-score's one ``Dictionary`` gives in corpus
  order (:class:`~bleu_harness.bleu.tokenizers.fairseq.FairseqIds`);
* ``Scorer.precision`` (``bleu.py:138-147``): ``match / count``, an int 0 for an order without
  n-grams; ``Scorer.score(order)`` (lines 132-136): ``psum = sum(log p)`` over the first
  ``order`` precisions, ``-inf`` for a zero one (so any order without a match scores 0.0),
  then ``self.brevity() * math.exp(psum / order) * 100``; ``brevity`` (lines 149-151):
  ``min(1, math.exp(1 - reflen / predlen))`` -- a ``ZeroDivisionError`` for a hypothesis
  length of 0 (no segment at all: every line has at least its one token);
* ``result_string`` (lines 153-168), the line both command-line tools print, divides
  ``predlen / reflen`` for its ``ratio``: a reference length of 0 is a ``ZeroDivisionError``
  too (``result.report`` is that line); it asserts ``order <= 4``, and ``score(0)`` divides by
  0, so ``order`` is 1-4 here;
* ``level="sentence"`` is ``--sentence-bleu`` ("with +1 smoothing", ``score.py:31-32,63-75``):
  ``scorer.reset(one_init=True)`` for each line, so ``bleu_one_init`` (``libbleu.cpp:123-133``)
  seeds the match and n-gram counts of orders 2-4 with 1: ``(m + 1) / (n + 1)`` from bigrams
  on, ``m / n`` for unigrams. In 0.12.2 ``fairseq-score --sentence-bleu`` itself dies before
  that: it calls ``bleu.Scorer(dict.pad(), dict.eos(), dict.unk())`` (line 67), but ``Scorer``
  takes one ``BleuConfig`` since 3b27ed79 (tags v0.12.0-v0.12.3: ``TypeError``,
  facebookresearch/fairseq#5056); the engine gives what the ``Scorer`` API gives with
  ``reset(one_init=True)``, which is what the option did up to v0.10.2.

Not modelled: ``fairseq-score`` reads files (a segment holding a line break would be two
lines there, and ``zip`` stops at the shorter file); ``fairseq-generate``'s own ids (a model's
dictionary, where unknown words are ``<unk>``) -- here every word of the text has its id.
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
from bleu_harness.bleu.options import Option, boolean, choice
from bleu_harness.bleu.result import ConventionDeclined, ConventionError

NAME = "fairseq"
#: ``bleu_stat`` holds orders 1-4 (``libbleu.cpp:15-26``); ``result_string`` asserts ``order <= 4``.
ORDERS = (1, 2, 3, 4)
OPTIONS = (
    Option("order", 4, choice(ORDERS)),  # fairseq-score -o/--order N (default 4)
    Option("ignore_case", False, boolean),  # fairseq-score --ignore-case
)


def report_format(order: int) -> str:
    """``result_string``'s format for ``order`` (``fairseq/scoring/bleu.py:155-158``)."""
    return ("BLEU{} = {:2.2f}, {:2.1f}" + "/{:2.1f}" * (order - 1)
            + " (BP={:.3f}, ratio={:.3f}, syslen={}, reflen={})")


def required_order(options: Mapping[str, Any]) -> int:
    return options["order"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing("fairseq", options["ignore_case"])


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    """``exp(sum(log p) / order)`` times the BP, times 100; at sentence level the one-init
    seeds, which are add-one smoothing from bigrams on."""
    sentence = level == "sentence"
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="mean", times_scale=True), ref="first",
        smoothing="add-k-from-bigram" if sentence else "none",
        smoothing_value=1 if sentence else None, weights=uniform(options["order"]),
        scale=100.0, **case_and_tokenizer(preprocessing(options)))


def _check(corpus: CorpusStats) -> None:
    """Where ``Scorer`` and ``result_string`` raise, in the order they would."""
    if corpus.segment_count and (corpus.fewest_references, corpus.most_references) != (1, 1):
        raise ConventionDeclined(NAME, "fairseq-score reads one reference file: exactly one "
                                 "reference per segment")
    if corpus.hyp_len == 0:
        raise ConventionError(NAME, "brevity() divides the reference length by a hypothesis "
                              "length of 0", "ZeroDivisionError")
    if corpus.ref_len("first") == 0:
        raise ConventionError(NAME, "result_string's ratio divides by a reference length of 0",
                              "ZeroDivisionError")


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """The input checks, then the knob arithmetic; ``precisions`` in percent as
    ``result_string`` prints them (the seeded ones at sentence level), ``report`` its line."""
    _check(corpus)
    order = options["order"]
    c = compute(corpus, knobs(options, level))
    precisions = tuple(p * 100 for p, _ in c.precisions)
    ratio = c.hyp_len / c.ref_len
    report = report_format(order).format(order, c.scores[0], *precisions, c.bp, ratio,
                                         c.hyp_len, c.ref_len)
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len,
                    details={"ratio": ratio}, report=report)


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"order": o, "ignore_case": i} for o in (4, 1, 2, 3) for i in (False, True))

#: What the convention follows, in a line.
DESCRIPTION = ("fairseq Scorer (libbleu, fairseq-score): whitespace words as dictionary ids, "
               "</s> appended, one reference, <unk> never matches, 0 when an order has no "
               "match, add-one from bigrams at sentence level, 0-100 scale")
