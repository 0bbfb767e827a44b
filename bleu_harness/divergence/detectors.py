"""Divergence tags: why two BLEU numbers for the same input can differ, read off the input's
statistics and the options of the two sides.

One detector per tag, registered under the tag's name in ``bleu_harness/schema/tags.yaml``
(the vocabulary of tags; ``tests/test_detectors.py`` checks every name is there). The input detectors read the
statistics of the pass an input's :class:`~bleu_harness.divergence.scorer.Scorer` keeps --
the one the attribution and the diagnosis of that input read too -- in the input's own
tokens (whitespace, or the tokenizer it names), orders 1..4: every count and every
reference-length rule comes from there (``bleu_harness.bleu.corpus``), none is recounted
here. Two facts the pass does not keep are read from the tokens of the texts concerned: a
reference without tokens, and the hypothesis length of segments without references.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE
from bleu_harness.bleu.convention import Preprocessing
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.tokenizers import get_tokenizer
from bleu_harness.divergence.scorer import Scorer

DEFAULT_ORDER = 4


@dataclass(frozen=True)
class Evidence:
    """What the input detectors read: ``scorer``'s input in ``tokenizer``'s tokens (``None``:
    whitespace), up to order ``order``."""

    scorer: Scorer
    tokenizer: str | None = None
    order: int = DEFAULT_ORDER

    @property
    def stats(self) -> CorpusStats:
        """The input's statistics as it is (no case folding, every reference kept)."""
        return self.scorer.counted(Preprocessing(self.tokenizer or "none"), self.order)

    @property
    def folded(self) -> CorpusStats:
        """The statistics after ``str.lower`` on the text, as the conventions that fold case
        do it (SacreBLEU ``lowercase=True``)."""
        return self.scorer.counted(Preprocessing(self.tokenizer or "none", lowercase=True),
                                   self.order)

    @property
    def tokenize(self) -> Callable[[str], list[str]]:
        return get_tokenizer(self.tokenizer or "none")

    def texts(self):
        yield from self.scorer.hypotheses
        for refs in self.scorer.references:
            yield from refs


InputDetector = Callable[[Evidence], "bool | str"]
#: Tag -> its detector on the input, in the order tags are listed. A detector answers
#: whether its tag applies, or the tag itself where it carries a detail (``zero-overlap@2``).
INPUT_DETECTORS: dict[str, InputDetector] = {}
OptionDetector = Callable[[Mapping[str, Any], Mapping[str, Any]], bool]
#: Tag -> its detector on the options of two sides (the second ``{}`` for one side alone).
OPTION_DETECTORS: dict[str, OptionDetector] = {}


def _detects(registry: dict, tag: str):
    def register(detector):
        registry[tag] = detector
        return detector
    return register


@_detects(INPUT_DETECTORS, "zero-overlap")
def zero_overlap(e: Evidence) -> str:
    """The lowest order that has n-grams and not one match, as ``zero-overlap@n``."""
    s = e.stats
    for n, (total, matched) in enumerate(zip(s.totals[:e.order], s.matches), start=1):
        if total and not matched:
            return f"zero-overlap@{n}"
    return ""


@_detects(INPUT_DETECTORS, "short-hypothesis")
def short_hypothesis(e: Evidence) -> bool:
    """A hypothesis with tokens, but fewer than the order."""
    return e.stats.shorter_than(e.order) > e.stats.shorter_than(1)


@_detects(INPUT_DETECTORS, "empty-hypothesis")
def empty_hypothesis(e: Evidence) -> bool:
    return e.stats.shorter_than(1) > 0


@_detects(INPUT_DETECTORS, "empty-reference")
def empty_reference(e: Evidence) -> bool:
    """A segment without references, or a reference without tokens."""
    tokenize = e.tokenize
    return e.stats.has_segment_without_references or any(
        not tokenize(ref) for refs in e.scorer.references for ref in refs)


@_detects(INPUT_DETECTORS, "ref-length-tie")
def ref_length_tie(e: Evidence) -> bool:
    """Two references equally close to a hypothesis: the first-listed is longer than the
    shorter one (in every segment the first-listed is at least the shorter, so the sums
    differ exactly when one segment's do)."""
    return e.stats.ref_len("closest_first", 0) != e.stats.ref_len("closest_shorter", 0)


@_detects(INPUT_DETECTORS, "closest-vs-shortest")
def closest_vs_shortest(e: Evidence) -> bool:
    """The closest reference is not the shortest in some segment (the closest is never the
    shorter of the two, so the sums tell)."""
    return e.stats.ref_len("closest_shorter", 0) != e.stats.ref_len("shortest", 0)


@_detects(INPUT_DETECTORS, "bp-boundary")
def bp_boundary(e: Evidence) -> bool:
    """c == r: over the segments with references, the hypothesis length equals the closest
    reference length (the shorter on a tie)."""
    s = e.stats
    c = s.hyp_len
    if s.unreferenced_with_hypothesis:
        tokenize = e.tokenize
        c -= sum(len(tokenize(hyp)) for hyp, refs in zip(e.scorer.hypotheses,
                                                         e.scorer.references) if not refs)
    return bool(c) and c == s.ref_len("closest_shorter", 0)


@_detects(INPUT_DETECTORS, "corpus-denominator-floor")
def corpus_denominator_floor(e: Evidence) -> bool:
    """A corpus of several segments, one shorter than the order: NLTK floors its n-gram
    count at one."""
    return (e.scorer.level == "corpus" and e.stats.segment_count > 1
            and e.stats.shorter_than(e.order) > 0)


@_detects(INPUT_DETECTORS, "tokenization")
def tokenization(e: Evidence) -> bool:
    """A text whose ``13a`` tokens are not its whitespace tokens."""
    tokenize_13a = get_tokenizer("13a")
    return any(tokenize_13a(text) != text.split() for text in e.texts())


@_detects(INPUT_DETECTORS, "case")
def case_matters(e: Evidence) -> bool:
    """Folding case changes the clipped matches: the corpus's, or its last segment's (which
    NLTK's smoothing methods 5 and 6 read). A change that other segments cancel out between
    them changes no statistic a convention reads."""
    return _matches(e.folded, e.order) != _matches(e.stats, e.order)


def _matches(stats: CorpusStats, order: int) -> tuple:
    last = stats.last.matches[:order] if stats.last is not None else None
    return stats.matches[:order], last


def input_tags(scorer: Scorer, tokenizer: str | None = None,
               order: int = DEFAULT_ORDER) -> list[str]:
    """Tags that describe ``scorer``'s input itself (whitespace tokens unless
    ``tokenizer``); a ``ValueError`` where the input cannot be counted."""
    evidence = Evidence(scorer, tokenizer, order)
    tags = []
    for tag, detect in INPUT_DETECTORS.items():
        found = detect(evidence)
        if found:
            tags.append(found if isinstance(found, str) else tag)
    return tags


@_detects(OPTION_DETECTORS, "smoothing")
def smoothing(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    chosen = [o.get("smoothing", o.get("smooth_method")) for o in (a, b)]
    return any(s not in (None, "method0", "none") for s in chosen) or chosen[0] != chosen[1]


@_detects(OPTION_DETECTORS, "effective-order")
def effective_order(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return any(o.get("effective_order") or o.get("use_effective_order") or o.get("auto_reweigh")
               for o in (a, b))


@_detects(OPTION_DETECTORS, "weights")
def weights(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return _weights_of(a) != _weights_of(b)


@_detects(OPTION_DETECTORS, "case")
def case_folded(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return any(o.get("lowercase") or o.get("ignore_case") or o.get("IgnoreCase") for o in (a, b))


def option_tags(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """Tags for what the options of two sides do differently (or do at all)."""
    return [tag for tag, detect in OPTION_DETECTORS.items() if detect(a, b)]


def _weights_of(options: Mapping[str, Any]):
    for key in ("weights", "ngram_weights", "NgramWeights"):
        if key in options:
            return tuple(options[key])
    return None


def scale_tag(actual: float, expected: float) -> list[str]:
    """``scale`` when the two differ by a factor of 100 (a 0-1 score read as 0-100)."""
    if not (math.isfinite(actual) and math.isfinite(expected)) or not expected or not actual:
        return []
    for factor in (100.0, 0.01):
        if math.isclose(actual, expected * factor, rel_tol=FLOAT32_TOLERANCE):
            return ["scale"]
    return []


#: Every tag a detector here can give (each one is in ``schema/tags.yaml``).
DETECTED_TAGS = (*INPUT_DETECTORS, *OPTION_DETECTORS, "scale")


def check_tags(input_tags: list[str], options: Mapping[str, Any], answer: float | None,
               expected: float | None) -> list[str]:
    """The tags of a failing check: the input's, what its options do, and ``scale`` where
    the answer and the expected value (when both are numbers) are a factor 100 apart."""
    tags = list(input_tags) + [t for t in option_tags(options, {}) if t not in input_tags]
    if answer is not None and expected is not None:
        tags += scale_tag(answer, expected)
    return tags


def pair_tags(input_tags: list[str], options_a: Mapping[str, Any],
              options_b: Mapping[str, Any]) -> list[str]:
    """The tags of a divergence between two conventions on one input: the input's but
    ``bp-boundary`` (every convention gives BP = 1 at c == r, so the boundary explains no
    divergence), what their options do, and ``tokenization`` where their tokenizers differ."""
    tags = [t for t in input_tags if t != "bp-boundary"]
    tags += option_tags(options_a, options_b)
    if (options_a.get("tokenize") or "none") != (options_b.get("tokenize") or "none"):
        tags.append("tokenization")
    return tags
