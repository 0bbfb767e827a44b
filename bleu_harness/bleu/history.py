"""Library releases whose arithmetic differs, as data, each change with its source.

Each row is one change: the rule it changed, the first release with the new value, and where
the change is recorded. A convention asks for the rules in effect at a release
(``NLTK.rules("3.4.5")``) and never branches on version numbers itself; the atlas and
``identify`` read the same table (``eras``). Every row was read from the released source
(``nltk/translate/bleu_score.py``, ``sacrebleu/metrics/bleu.py``, ``metrics/base.py``,
``tokenizers/``, ``compat.py`` of each release) and is checked bit for bit against the
installed release (tests/test_history.py, the atlas environments of tools/atlas.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from packaging.version import InvalidVersion, Version


@dataclass(frozen=True)
class Change:
    rule: str
    since: str  # the first release with ``value``
    value: Any
    what: str
    cite: str


#: (id of a History, release) -> its rules (``History.rules``).
_RULES: dict[tuple[int, str], Mapping[str, Any]] = {}


@dataclass(frozen=True)
class History:
    library: str
    first: str  # the oldest release the engine models
    latest: str  # the release it follows by default
    initial: Mapping[str, Any]  # the rules of ``first``
    changes: tuple[Change, ...]
    #: The releases the atlas installs and checks (tools/atlas.py): where something
    #: changed, and the latest of each series.
    releases: tuple[str, ...] = ()

    def supports(self, version: str) -> bool:
        try:
            return Version(version) >= Version(self.first)
        except InvalidVersion:
            return False

    def rules(self, version: str | None = None) -> Mapping[str, Any]:
        """Every rule's value at ``version`` (default: the latest release); computed once
        per release (the knob model asks for them on every attribution step)."""
        version = version or self.latest
        key = (id(self), version)
        known = _RULES.get(key)
        if known is None:
            known = _RULES[key] = self._rules(version)
        return known

    def _rules(self, version: str) -> Mapping[str, Any]:
        if not self.supports(version):
            raise ValueError(f"{self.library}: the engine models releases from {self.first} on, "
                             f"not {version!r}")
        rules = dict(self.initial)
        for change in sorted(self.changes, key=lambda c: Version(c.since)):
            if Version(change.since) <= Version(version):
                rules[change.rule] = change.value
        return MappingProxyType(rules)

    def eras(self) -> list[tuple[str, str | None]]:
        """The release ranges with the same arithmetic: (first release, next era's first
        release or ``None``), oldest first."""
        starts = sorted({self.first} | {c.since for c in self.changes}, key=Version)
        return [(start, starts[i + 1] if i + 1 < len(starts) else None)
                for i, start in enumerate(starts)]

    def era_of(self, version: str) -> str:
        """``3.3 ≤ nltk < 3.4`` -- the range of releases that compute as ``version`` does."""
        for start, end in self.eras():
            if Version(start) <= Version(version) and (end is None
                                                      or Version(version) < Version(end)):
                return f"{self.library} >={start}" + (f",<{end}" if end else "")
        return f"{self.library} {version}"

    def pick(self, spec: str) -> str | None:
        """The newest known release that ``spec`` (PEP 440) admits, if the engine models one:
        the release the engine follows for an expectation recorded for that range."""
        # imported here: a fifth of the engine's import time, for the case files' ranges only
        from packaging.specifiers import InvalidSpecifier, SpecifierSet

        try:
            admitted = SpecifierSet(spec)
        except InvalidSpecifier:
            return None
        known = {self.first, self.latest, *self.releases, *(c.since for c in self.changes)}
        inside = [v for v in known if Version(v) in admitted and self.supports(v)]
        return max(inside, key=Version) if inside else None

    def changes_at(self, version: str) -> list[Change]:
        return [c for c in self.changes if c.since == version]


NLTK = History(
    library="nltk", first="3.2.2", latest="3.10.4",
    initial={
        "zero_orders": "truncate", "smoothing_length": "last segment",
        "method4": "1/(i+k/ln T)", "method2": "all orders", "positive_only": False,
        "weight_lists": False, "reweigh": "before the zero check",
        "empty_weights": "no orders", "emulate_multibleu": False,
    },
    changes=(
        Change("emulate_multibleu", "3.2.4", True,
               "corpus_bleu takes emulate_multibleu=True: method0 puts sys.float_info.min "
               "alone in place of every precision from the first order without a match, and "
               "the score is rounded to 4 decimals", "nltk 3.2.4 translate/bleu_score.py "
               "corpus_bleu (return round(s, 4) if emulate_multibleu) and "
               "SmoothingFunction.method0"),
        Change("emulate_multibleu", "3.3", False, "emulate_multibleu is gone again",
               "nltk 3.3 translate/bleu_score.py"),
        Change("zero_orders", "3.3", "float_min",
               "an order without a match counts as sys.float_info.min instead of ending the "
               "product (tiny positive scores)",
               "PR #1844 for issue #1838 (merged 2017-11), released in 3.3"),
        Change("smoothing_length", "3.4", "corpus",
               "smoothing gets the corpus hypothesis length instead of the last segment's",
               "commit 3eed45e23 (issue #2083), released in 3.4"),
        Change("method4", "3.5", "(i+k/ln T)/l",
               "method4 divides by the order's n-gram count: precisions above 1",
               "commit 95cc7d577 (2019-07-22), released in 3.5; issue #2676"),
        Change("method4", "3.6", "1/(2^k k/ln T)/l",
               "method4 rewritten (Chen & Cherry 2014), only for a hypothesis longer than one "
               "token", "PR #2681 (commit bff956df3, 2021-04-02), released in 3.6"),
        Change("method2", "3.6", "from bigrams",
               "method2 leaves the unigram precision unsmoothed",
               "PR #2572 for issue #2571, released in 3.6"),
        Change("positive_only", "3.6.6", True,
               "precisions that are still 0 after smoothing are left out of the log sum "
               "(instead of a math domain error)", "PR #2839, released in 3.6.6"),
        Change("weight_lists", "3.6.6", True,
               "a list of weight vectors gives a list of scores", "PR #2793, released in 3.6.6"),
        Change("reweigh", "3.6.6", "per vector after the zero check",
               "auto_reweigh applies per weight vector, after the no-match return (an empty "
               "hypothesis no longer divides by zero)", "PR #2793, released in 3.6.6"),
        Change("empty_weights", "3.6.6", "IndexError",
               "empty weights fail the list-of-vectors test (weights[0][0] raises an "
               "IndexError that only TypeError is caught for)", "PR #2793, released in 3.6.6"),
        Change("empty_weights", "3.9", "no orders",
               "empty weights are one empty vector again (a bare except; (TypeError, "
               "IndexError) from 3.10)", "nltk 3.9 bleu_score.corpus_bleu"),
    ),
    releases=("3.2.5", "3.3", "3.4", "3.4.5", "3.5", "3.6.2", "3.6.5", "3.6.6", "3.7", "3.8",
              "3.8.1", "3.9.2", "3.10.4"))

#: SacreBLEU's ``tokenize`` choices (metrics/bleu.py ``_TOKENIZERS`` of each release), each
#: list the one before plus what that release added.
_TOKENIZERS_1_4 = ("none", "13a", "intl", "zh", "ja-mecab", "char")
_TOKENIZERS_2_1 = _TOKENIZERS_1_4 + ("spm",)
_TOKENIZERS_2_2 = _TOKENIZERS_2_1 + ("ko-mecab",)
_TOKENIZERS_2_3 = _TOKENIZERS_2_2 + ("flores101", "flores200")

SACREBLEU = History(
    library="sacrebleu", first="1.4.4", latest="2.6.0",
    initial={
        "api": "1.x", "floor_default": 0.0, "sentence_smoothing": "floor",
        "empty_references": "kept", "missing_references": "EOFError",
        "no_match_zero": False, "intl": "unicodedata", "max_order": "4 only",
        "tokenizers": _TOKENIZERS_1_4,
    },
    changes=(
        Change("floor_default", "1.5.0", 0.1, "the floor smoothing value defaults to 0.1",
               "sacrebleu 1.5.0 release notes (#129)"),
        Change("sentence_smoothing", "1.5.0", "exp",
               "sentence_bleu smooths with exp by default, as the command line does",
               "sacrebleu 1.5.0 release notes (#98)"),
        Change("empty_references", "1.5.0", "dropped (EOFError)",
               "empty references are left out; a segment with none left raises "
               "EOFError('No valid references for a sentence!')",
               "sacrebleu 1.5.0: variable number of references (#130, #132, #134)"),
        Change("missing_references", "1.5.0", "dropped",
               "None references are left out (variable number of references)",
               "sacrebleu 1.5.0 release notes (#130)"),
        Change("api", "2.0.0", "2.x", "the sacrebleu.metrics.BLEU class API",
               "sacrebleu 2.0.0 release notes"),
        Change("no_match_zero", "2.0.0", True,
               "a corpus without any matching n-gram scores 0 whatever the smoothing",
               "issue #141, released in 2.0.0"),
        Change("empty_references", "2.0.0", "dropped (RuntimeError)",
               "a segment without a non-empty reference raises RuntimeError('Empty or `None` "
               "reference sentence found.')", "sacrebleu 2.0.0 metrics/base.py"),
        Change("intl", "2.0.0", "regex",
               "the intl tokenizer uses the regex module's \\p{N}, \\p{P}, \\p{S} instead of "
               "classes enumerated from unicodedata with \\d",
               "sacrebleu 2.0.0 tokenizers/tokenizer_intl.py"),
        Change("max_order", "2.0.0", "4 in compute_bleu",
               "max_ngram_order selects the statistics but compute_bleu still loops over 4 "
               "orders", "sacrebleu 2.0.0 metrics/bleu.py (fixed in 2.1.0)"),
        Change("max_order", "2.1.0", "any", "max_ngram_order reaches compute_bleu",
               "sacrebleu 2.1.0 metrics/bleu.py"),
        Change("empty_references", "2.2.0", "kept",
               "an empty reference is a reference of length 0 again",
               "issue #161, released in 2.2.0"),
        Change("tokenizers", "2.1.0", _TOKENIZERS_2_1,
               "tokenize='spm': SentencePiece (the FLORES-101 model)",
               "sacrebleu 2.1.0 metrics/bleu.py _TOKENIZERS"),
        Change("tokenizers", "2.2.0", _TOKENIZERS_2_2, "tokenize='ko-mecab': MeCab-ko",
               "sacrebleu 2.2.0 metrics/bleu.py _TOKENIZERS"),
        Change("tokenizers", "2.3.0", _TOKENIZERS_2_3,
               "tokenize='flores101' and 'flores200': SentencePiece with the FLORES models",
               "sacrebleu 2.3.0 metrics/bleu.py _TOKENIZERS"),
    ),
    releases=("1.4.14", "1.5.1", "2.0.0", "2.1.0", "2.2.1", "2.3.3", "2.4.3", "2.5.1", "2.6.0"))

HISTORIES: Mapping[str, History] = MappingProxyType({"nltk": NLTK, "sacrebleu": SACREBLEU})
