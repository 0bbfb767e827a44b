"""The marian convention: the BLEU validators of the Marian NMT toolkit, ``--valid-metrics
bleu``, ``bleu-detok`` and ``bleu-segmented``, the score Marian logs during training and keeps
``--keep-best`` models by. Option ``version`` picks the release: by default the current one
(1.12; ``SacreBleuValidator``, the same from 1.10.0 to master, see *Later releases* below),
``version="1.7"`` the ``BleuValidator`` of Marian v1.7.8 (marian-nmt/marian-dev@46c94a58fd43
``src/training/validator.h:563-814``, February 2019), described first.

Read from v1.7.8's class, step by step:

* one reference per segment: the validation set's target side (``valid-sets``);
* tokens: ``bleu`` counts the target vocabulary's word ids, ``bleu-detok`` decodes them to
  text and tokenizes it with ``BleuValidator::tokenize``, a ``std::regex`` port of 13a
  (:mod:`bleu_harness.bleu.tokenizers.marian`); ``detok_`` requires a SentencePiece
  vocabulary (lines 574-584, else ``ABORT``);
* end of sentence: the reference's ids end at its first EOS (lines 783-789); the hypothesis
  keeps its final EOS, which ``updateStats`` leaves out by counting the n-grams of
  ``cand.size() - 1`` words (lines 749-756; ``bleu-detok`` appends ``"</s>"`` to the
  decoded tokens for that, ``decode(cand, /*addEOS=*/ true)``, line 792);
* statistics: ``std::vector<float> stats(9)`` (line 618), **float32** sums of
  ``min(tc, rc)`` and ``tc`` per n-gram of orders 1-4 (clipped against the one reference,
  lines 758-765) and of the reference length (line 767) -- exact up to 2^24 per count
  (beyond, float32 sums round: not modelled);
* ``calcBLEU`` (lines 797-809), all float32: for each order, 0 if its matches are 0, else
  ``logbleu += std::log(m / t)``; ``logbleu /= 4.f``; ``brev_penalty = 1.f - std::max(r / c,
  1.f)``; ``std::exp(logbleu + brev_penalty) * 100``. So 0 when any order has no match (a
  hypothesis side shorter than 4 words too), no smoothing, the BP inside the exponent, the
  score float32 on the 0-100 scale. ``std::log`` and ``std::exp`` of a ``float`` are the C
  library's ``logf``/``expf``, which are not always correctly rounded: the engine calls them
  too (:mod:`bleu_harness.bleu.libm`), so its score is the validator's bit for bit.

A word the vocabulary does not know is ``<unk>`` on both sides and matches; there is no
vocabulary here (every word is known), and ``bleu-detok``'s text is taken as what the
SentencePiece vocabulary decodes (its normalisation is not modelled).

**Later releases** (option ``version``; read in marian-nmt/marian-dev with ``git log`` of
``src/training/validator.*`` from v1.7.8 to master, c9f287db):

* **1.8.0 - 1.9.0** (``version="1.8"`` or ``"1.9"``): ``bleu-detok`` also splits continuous
  script into characters: ``decode`` runs ``tokenizeContinuousScript`` after ``tokenize``
  (d7f7d292, 2019-03-27, first as ``bleu-detok-ms``; 1.8.0 ``src/training/validator.h:
  744-775``), ``utils::isContinuousScript``'s table of Han, Kana and Thai code
  points (:mod:`bleu_harness.bleu.tokenizers.marian`, ``marian-13a-cjk``). Everything else
  is 1.7.8's: the same ``updateStats`` (``cand.size() - 1``) and ``calcBLEU``; 1.9.0 only
  moved the code to ``validator.cpp`` (c33074ce). A ``FactoredVocab`` (from ff0bd5f9) makes
  ``bleu`` detokenize too (1.8.0 validator.h:837-848): not modelled (no factored vocabulary
  here). ``tokenize`` is 1.7.8's to the letter and ``tokenizeContinuousScript`` is 1.12.0's
  (only ``auto`` spelled out since), so this series is 1.7.8's arithmetic, held to the v1.7.8
  validator, with the tokens held to the v1.12.0 one; no 1.8 or 1.9 build is compiled here.
* **1.10.0 on** (``version="1.10"``, ``"1.11"``, ``"1.12"``, the default; master
  c9f287db computes the same): ``SacreBleuValidator`` replaces ``BleuValidator``
  (1b908a82, "ChrF validation metric", 2020-11-02; CHANGELOG: "--metric bleu now always
  detokenizes SacreBLEU-style if a vocabulary knows how to, use bleu-segmented to compute
  BLEU on word ids. bleu-detok is now a synonym for bleu."). Read at 65bf82ffce52 (v1.12.0):

  - ``Validators`` maps ``bleu``, ``bleu-detok``, ``bleu-segmented`` and ``chrf`` to it
    (``src/training/validator.cpp:28-30``); ``chrf`` is not BLEU (not modelled);
  - tokens: ``decode`` takes the vocabulary's ``surfaceForm`` (EOS left out); with a
    ``SentencePieceVocab`` (or ``FactoredVocab``) it runs ``tokenize`` -- the same
    ``std::regex`` 13a, no lowercasing -- and ``tokenizeContinuousScript``, with a
    ``DefaultVocab`` (``.yml``/``.json`` vocabularies) it keeps the words as they are
    (validator.cpp:569-589; ``DefaultVocab::surfaceForm`` joins the words with spaces,
    1b908a82 ``src/data/default_vocab.cpp``): option ``vocab_type``. So ``bleu`` with a
    SentencePiece vocabulary is ``bleu-detok``, CJK split included;
  - ``bleu-segmented`` counts word ids (``useWordIds_``, validator.cpp:445, 617-620), and
    the EOS the hypothesis ends with now counts: the template ``updateStats`` counts all of
    ``cand`` (validator.h:299-336) where 1.7.8 left out its last word, while the reference
    still stops before its EOS (validator.cpp:603-612); ``decode`` no longer appends
    ``"</s>"`` (``addEOS=false``, line 620), so ``bleu``/``bleu-detok`` count no EOS on
    either side (``marian-segmented`` in :mod:`bleu_harness.bleu.tokenizers.marian`);
  - statistics: still ``std::vector<float>``, now 13 (``statsPerOrder = 3``: matches,
    hypothesis n-grams, reference n-grams for chrF; the reference length last,
    validator.cpp:491, validator.h:324-336);
  - ``calcBLEU`` (validator.cpp:625-642), float32 as before but for one step: ``logbleu +=
    std::log(commonNgrams) - std::log(hypothesesNgrams)`` -- two ``logf`` subtracted, not
    ``logf(m / t)`` (the ``Arithmetic`` switch ``log_difference``); 0 as soon as an order
    has no match; ``logbleu /= order_`` (4); ``1.f - std::max(refLen / hypUnigrams, 1.f)``;
    ``std::exp(logbleu + brev_penalty) * 100.f``. No expression there can be contracted
    into a fused multiply-add, so ``-O3 -march`` builds give the same bits.

``bleu-segmented`` before 1.10 is no metric (``Validators`` ABORTs: "Unknown validation
metric"), and before 1.10 ``bleu-detok`` ABORTs with a ``DefaultVocab`` ("Detokenizing BLEU
validator expects the target vocabulary to be SentencePieceVocab or FactoredVocab",
46c94a58 validator.h:574-584): both are option errors here. The default follows the current
release; ``version="1.7"`` is the v1.7.8 validator described first.
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
from bleu_harness.bleu.options import Option, choice, resolve_options
from bleu_harness.bleu.result import ConventionDeclined

NAME = "marian"
ORDER = 4
#: The release series the engine models, oldest first: v1.7.x (v1.7.0 and v1.7.8 score
#: alike) to v1.12.x, the last release (master, v1.12.43 at c9f287db, scores as 1.12.0).
RELEASES = ("1.7", "1.8", "1.9", "1.10", "1.11", "1.12")
LATEST = RELEASES[-1]
#: The first release of each change of the validators (see the module's docstring).
CJK_SPLIT_SINCE = "1.8"  # d7f7d292: tokenizeContinuousScript in bleu-detok
SACREBLEU_VALIDATOR_SINCE = "1.10"  # 1b908a82: SacreBleuValidator
VOCAB_TYPES = ("SentencePieceVocab", "DefaultVocab")
METRICS = ("bleu", "bleu-detok", "bleu-segmented")


def _series(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def at_least(options: Mapping[str, Any], release: str) -> bool:
    return _series(options["version"]) >= _series(release)


def release(convention: str, key: str, value: Any) -> str:
    """A Marian release: its series (``"1.12"``), or a release of it (``"1.12.0"``,
    ``"v1.7.8"``); the series is the value."""
    text = str(value).removeprefix("v") if isinstance(value, (str, int, float)) else ""
    series = ".".join(text.split(".")[:2])
    rest = text.split(".")[2:]
    if isinstance(value, bool) or series not in RELEASES or not all(p.isdigit() for p in rest):
        hint = (" (YAML reads 1.10 as the number 1.1: write it as a string, '1.10')"
                if isinstance(value, float) else "")
        raise ValueError(f"{convention}: option {key!r} must be a Marian release from "
                         f"{RELEASES[0]} to {LATEST} (as '1.12' or '1.12.0'), got "
                         f"{value!r}{hint}")
    return series


OPTIONS = (
    Option("valid_metrics", "bleu", choice(METRICS), aliases=("valid-metrics",)),
    Option("vocab_type", "SentencePieceVocab", choice(VOCAB_TYPES)),
    Option("version", LATEST, release),
)


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options; what Marian aborts on before validating is an option error."""
    options = resolve_options(NAME, OPTIONS, given)
    metric, sacrebleu = options["valid_metrics"], at_least(options, SACREBLEU_VALIDATOR_SINCE)
    if metric == "bleu-segmented" and not sacrebleu:
        raise ValueError(f"{NAME}: --valid-metrics bleu-segmented exists from Marian "
                         f"{SACREBLEU_VALIDATOR_SINCE} on (Marian {options['version']} "
                         "aborts: 'Unknown validation metric')")
    if metric == "bleu-detok" and not sacrebleu and options["vocab_type"] != VOCAB_TYPES[0]:
        raise ValueError(f"{NAME}: Marian {options['version']} aborts: 'Detokenizing BLEU "
                         "validator expects the target vocabulary to be SentencePieceVocab'")
    return options


def tokenizer(options: Mapping[str, Any]) -> str:
    """The engine's tokenizer of the metric at the release (the module's docstring)."""
    metric = options["valid_metrics"]
    if not at_least(options, SACREBLEU_VALIDATOR_SINCE):  # BleuValidator
        if metric == "bleu":
            return "marian-words"
        return "marian-13a-cjk" if at_least(options, CJK_SPLIT_SINCE) else "marian-13a"
    if metric == "bleu-segmented":
        return "marian-segmented"
    return "marian-13a-cjk" if options["vocab_type"] == "SentencePieceVocab" else "marian-words"


def required_order(options: Mapping[str, Any]) -> int:
    return ORDER


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    return Preprocessing(tokenizer(options))


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    return KnobSettings(
        input_rules=input_rules(NAME, level, options, finish, required_order),
        arithmetic=Arithmetic(log_sum="mean-float32", bp="exponent", times_scale=True,
                              scale_in_float32=True,
                              log_difference=at_least(options, SACREBLEU_VALIDATOR_SINCE)),
        ref="first", weights=uniform(ORDER), float32=True, scale=100.0,
        version=options["version"], **case_and_tokenizer(preprocessing(options)))


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    """One reference per segment, then the knob arithmetic (float32 steps, the BP in the
    exponent, times 100 in float32)."""
    if corpus.segment_count and (corpus.fewest_references, corpus.most_references) != (1, 1):
        raise ConventionDeclined(NAME, "the validator scores against the one target side of "
                                 "the validation set")
    c = compute(corpus, knobs(options, level))
    precisions = tuple(100 * p for p, _ in c.precisions) or (0.0,) * len(c.matches)
    return Finished(c.scores, precisions, c.matches, c.totals, c.bp, c.hyp_len, c.ref_len)


#: What ``bleu-harness identify`` searches: the current validator (``bleu`` with a
#: SentencePiece vocabulary is ``bleu-detok``), v1.8-1.9's and v1.7's.
VARIANTS = ({"valid_metrics": "bleu"}, {"valid_metrics": "bleu", "vocab_type": "DefaultVocab"},
            {"valid_metrics": "bleu-segmented"},
            {"valid_metrics": "bleu-detok", "version": "1.9"},
            {"valid_metrics": "bleu", "version": "1.7"},
            {"valid_metrics": "bleu-detok", "version": "1.7"})

#: What the convention follows, in a line.
DESCRIPTION = ("Marian's bleu / bleu-detok / bleu-segmented validators (1.12 by default, "
               "version 1.7-1.12): one reference, float32 statistics and arithmetic, 0 when "
               "an order has no match, a std::regex 13a with CJK characters split or "
               "vocabulary words")
#: Case-file tokenizer names it accepts: none (its metrics decide the tokens).
CASE_TOKENIZERS = ()
CALLABLE_TOKENIZER = False
