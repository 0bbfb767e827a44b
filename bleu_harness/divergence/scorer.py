"""One input's statistics, counted once per preprocessing, and what knob settings answer on
them: the one statistics pass that the detectors (``bleu_harness.divergence.detectors``),
attribution and diagnosis of an input share."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.convention import Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.knobs import (
    InputRules,
    KnobSettings,
    Outcome,
    evaluate,
    score_inputs,
    scored,
)
from bleu_harness.bleu.result import ConventionError


class Scorer:
    """What knob settings answer on one input, with the statistics computed once per
    tokenization and case folding."""

    def __init__(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]],
                 level: str = "corpus") -> None:
        self.hypotheses, self.references, self.level = hypotheses, references, level
        self._stats: dict[tuple[Any, ...], CorpusStats] = {}
        self._answers: dict[KnobSettings, Outcome] = {}
        #: scores by the statistics' value and what the score reads of the settings: the
        #: tokenizations of one input often count the same (a case folding of lowercase
        #: text, a tokenizer that splits nothing here), and settings that differ in them
        #: alone score the same statistics the same
        self._scores: dict[tuple, Outcome] = {}
        self._values: dict[tuple, int] = {}
        self._value_of: dict[int, tuple[CorpusStats, int]] = {}
        self._refusals: dict[tuple[InputRules, int],
                             tuple[CorpusStats, ConventionError | None]] = {}

    def counted(self, preprocessing: Preprocessing, order: int,
                fold: Callable[[str], str] | None = None) -> CorpusStats:
        """The input's statistics under ``preprocessing`` (``fold`` applied to the text
        first), orders 1..``order`` at least: counted on the first call, then kept. A
        ``ValueError`` names what is wrong with the input (``bleu_harness.bleu.api``)."""
        from bleu_harness.bleu.api import corpus_statistics

        key = (preprocessing, fold)
        known = self._stats.get(key)
        if known is None or known.max_order < order:
            hypotheses, references = self.hypotheses, self.references
            if fold is not None:
                hypotheses = [fold(h) for h in hypotheses]
                references = [[fold(r) for r in refs] for refs in references]
            known = corpus_statistics(hypotheses, references, preprocessing,
                                      max(order, known.max_order if known else 0))
            self._stats[key] = known
        return known

    def statistics(self, k: KnobSettings) -> CorpusStats:
        preprocessing, fold = k.preprocessing()
        return self.counted(preprocessing, k.order, fold)

    def __call__(self, k: KnobSettings) -> Outcome:
        try:
            return self._answers[k]
        except KeyError:
            answer = self._answers[k] = evaluate(self.statistics, k, self._refusal,
                                                 self._scored)
            return answer
        except TypeError:  # an unhashable tokenizer object
            return evaluate(self.statistics, k)

    def _scored(self, corpus: CorpusStats, k: KnobSettings) -> Outcome:
        """``scored(corpus, k)``, worked out once per statistics value and what the score
        reads of ``k`` (:func:`~bleu_harness.bleu.knobs.score_inputs`)."""
        key = (self._value(corpus), score_inputs(k))
        if key not in self._scores:
            self._scores[key] = scored(corpus, k)
        return self._scores[key]

    def _value(self, corpus: CorpusStats) -> int:
        """A number for the value of ``corpus`` (every field, its segments too), found once
        per statistics object (kept with it, so that its identity is never another's)."""
        known = self._value_of.get(id(corpus))
        if known is None:
            known = self._value_of[id(corpus)] = (corpus, self._values.setdefault(
                corpus.value, len(self._values)))
        return known[1]

    def _refusal(self, rules: InputRules, corpus: CorpusStats) -> ConventionError | None:
        """``rules.refusal(corpus)``, worked out once per input rules and statistics (the
        convention's whole ``finish`` runs for it; attribution asks for every knob mixture).
        The statistics are named by their identity, and kept with the answer so that the
        identity is never another's."""
        key = (rules, id(corpus))
        if key not in self._refusals:
            self._refusals[key] = (corpus, rules.refusal(corpus))
        return self._refusals[key][1]

    def settings(self, convention: str, options: Mapping[str, Any]) -> KnobSettings:
        return CONVENTIONS[convention].knobs(options, self.level)

    def refusal(self, k: KnobSettings) -> str:
        """What ``k``'s input checks say about this input, in words."""
        if k.input_rules is None:
            return "no input checks"
        error = self._refusal(k.input_rules, self.statistics(k))
        if error is None:
            return f"{k.input_rules.convention} scores this input"
        return f"{k.input_rules.convention} raises {error.library_exception}: {error.rule}"
