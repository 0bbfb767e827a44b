"""The compare-mt convention: ``compare_mt.scorers.BleuScorer`` (the ``bleu`` scorer of
``compare-mt``'s reports), read from ``compare_mt/scorers.py`` at neulab/compare-mt@9b0bfe2f1a6d
(the file compare-mt 0.2.10 installs, byte for byte; ``BleuScorer`` is lines 106-228):

* tokens: ``corpus_utils.iterate_tokens`` (``corpus_utils.py:1-4``) reads each line as
  ``line.strip().split(' ')``, so two spaces make an empty token and an empty line is one
  empty token (``[""]``);
  ``case_insensitive`` lowercases the tokens (``corpus_utils.lower``, ``str.lower``);
* one reference per segment (its corpus is a list of token lists): its length is the
  reference length;
* ``_precision``: clipped matches over the hypothesis n-grams, the denominator floored at 1
  per segment (``denom = max(1, denom)``, line 158);
* ``score_sentence`` raises ``NotImplementedError`` (a corpus score only);
* ``score_cached_corpus``: no corpus at all returns ``0.0``; no unigram match returns the int
  ``0`` (``if num_prec[1] == 0: return 0``, lines 217-218), before any scaling;
* an order without a match adds nothing to the log sum (``p = math.log(p) if p > 0 else 0``,
  line 223): it counts as precision 1, and the weights are not renormalised; the sum runs
  left to right from 0 (``prec += p * w``);
* ``bp = min(1, math.exp(1 - ref_len/out_len))`` (line 226); the score is ``self.scale * bp *
  math.exp(prec)`` (line 228) with ``global_scorer_scale = 100.0``: the scale multiplies the
  BP first.

``scorer="sentbleu"`` is ``compare_mt.scorers.SentBleuScorer`` (compare-mt's ``sentbleu``,
``scorers.py:236-270``): each sentence is NLTK's ``sentence_bleu([ref], out,
smoothing_function=SmoothingFunction().method2)`` on the same tokens (lowercased first with
``case_insensitive``), NLTK's default weights, times ``self.scale`` (100.0); a corpus is
``SentenceFactoredScorer.score_corpus`` (``scorers.py:48-67``): the sentence scores summed in
order from the int 0 and divided by the number of segments (``0.0`` for none). NLTK's
arithmetic is the latest release's (the one installed beside compare-mt); ``weights`` is not
an option of this scorer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bleu_harness.bleu.compute import Arithmetic, compute
from bleu_harness.bleu.conventions import nltk
from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.knobs import KnobSettings, case_and_tokenizer, input_rules, remembered
from bleu_harness.bleu.options import Option, boolean, choice, weights
from bleu_harness.bleu.result import ConventionDeclined, ConventionError

NAME = "compare-mt"
OPTIONS = (
    Option("weights", (0.25, 0.25, 0.25, 0.25), weights),
    Option("case_insensitive", False, boolean),
    Option("scorer", "bleu", choice(("bleu", "sentbleu"))),  # compare-mt's scorer names
)
#: ``global_scorer_scale`` (``scorers.py:18``): both scorers' scale.
SCALE = 100.0
#: ``SentBleuScorer``'s NLTK call: ``sentence_bleu`` with ``method2``, its other arguments
#: NLTK's defaults.
SENTBLEU_NLTK = {"smoothing": "method2"}


def required_order(options: Mapping[str, Any]) -> int:
    return len(options["weights"])


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    """``SentenceFactoredScorer`` scores each segment alone: a corpus keeps them."""
    return Preprocessing("strip-split-space", options["case_insensitive"],
                         segments=options["scorer"] == "sentbleu")


def _nltk_options() -> dict[str, Any]:
    return nltk.resolve("sentence", dict(SENTBLEU_NLTK))


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    if options["scorer"] == "sentbleu":
        return replace(
            nltk.knobs(_nltk_options(), "sentence"),
            input_rules=input_rules(NAME, level, options, finish, required_order),
            arithmetic=Arithmetic(strict_bp=True, times_scale=True), arithmetic_for=(),
            scale=SCALE, average="sentence-mean" if level == "corpus" else "corpus",
            **case_and_tokenizer(preprocessing(options)))
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="sum", scale_first=True), ref="first",
        no_match_zero=True, zero="dropped", weights=tuple(options["weights"]),
        denominator="floor1", scale=SCALE, **case_and_tokenizer(preprocessing(options)))


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """``BleuScorer.score_corpus``: one reference per segment (its API has no other), then
    the knob arithmetic; ``0.0`` for no segment, the int ``0`` for no unigram match.
    ``sentbleu``: :func:`_sentbleu`."""
    if options["scorer"] == "sentbleu":
        return _sentbleu(corpus, level, options)
    if level == "sentence":
        raise ConventionError(NAME, "BleuScorer has no sentence-level score (score_sentence "
                              "raises: use compare-mt's sentbleu scorer)", "NotImplementedError")
    if corpus.segment_count and (corpus.fewest_references, corpus.most_references) != (1, 1):
        raise ConventionDeclined(NAME, "BleuScorer takes exactly one reference per segment")
    c = compute(corpus, knobs(options, level), zero=0)
    scores = (0.0,) if not corpus.segment_count else c.scores
    precisions = tuple(100 * m / t if t else 0.0 for m, t in zip(c.matches, c.totals))
    return Finished(scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len)


def _sentbleu(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """``SentBleuScorer``: NLTK's ``sentence_bleu`` (method2) of each segment times 100.0;
    a corpus the mean of those, summed in segment order (``score_corpus``)."""
    if options["weights"] != (0.25, 0.25, 0.25, 0.25):
        raise ConventionDeclined(NAME, "SentBleuScorer takes no weights (NLTK's defaults)")
    if corpus.segment_count and (corpus.fewest_references, corpus.most_references) != (1, 1):
        raise ConventionDeclined(NAME, "SentBleuScorer takes exactly one reference per segment")
    nltk_options = _nltk_options()
    segments = (corpus,) if level == "sentence" else corpus.segment_corpora
    scores = []
    for segment in segments:
        try:
            scores.append(SCALE * nltk.finish(segment, "sentence", nltk_options).scores[0])
        except ConventionError as error:
            raise ConventionError(NAME, f"NLTK's sentence_bleu: {error.rule}",
                                  error.library_exception) from None
    if level == "sentence":
        score = scores[0]
    else:
        total = 0
        for value in scores:
            total += value
        score = total / len(scores) if scores else 0.0
    c = compute(corpus, knobs(options, level))  # the summed statistics' BP and lengths
    precisions = tuple(100 * m / t if t else 0.0 for m, t in zip(c.matches, c.raw))
    return Finished((score,), precisions, c.matches, c.raw, c.bp, c.hyp_len, c.ref_len)


#: What ``bleu-harness identify`` searches.
VARIANTS = (*({"weights": w, "case_insensitive": ci}
                for w in ((0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (1.0,))
                for ci in (False, True)),
            *({"scorer": "sentbleu", "case_insensitive": ci} for ci in (False, True)))

#: What the convention follows, in a line.
DESCRIPTION = ("compare-mt BleuScorer: one reference, split on single spaces, an order "
               "without a match counts as precision 1, 0-100 scale; scorer: sentbleu "
               "(NLTK's method2 sentence BLEU times 100, a corpus their mean)")
