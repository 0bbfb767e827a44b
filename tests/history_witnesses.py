"""One witness for every row of the engine's history (``bleu_harness/bleu/history.py``): an
input on which the releases on either side of the row answer differently, so that a row put
at the wrong release fails ``tests/test_history.py`` whatever the generated inputs happen to
hit. Each was found by running the releases themselves (the CI releases of
``tools/atlas.py``, prepared by ``python tools/atlas.py prepare --ci``): the last listed
release before the row and the first at or after it differ on the input, the engine told to
follow each answers as it does, and the engine's answer at the later one changes when the
row is taken out (``tests/history_row_moved.py``).

``compare`` is "answer" (the same value bit for bit, or the same exception, on each side), or
"option" for a row that adds a choice of an option: whether the release takes the option at
all -- a release's environment may lack what the tokenizer then needs (MeCab-ko,
SentencePiece), which is the environment's answer, not the release's. A release that does not
know an option raises ``TypeError`` (an unexpected keyword) or ``KeyError`` (an unknown
tokenizer); the engine told to follow it raises ``ValueError`` naming the option.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Witness:
    hypotheses: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    level: str
    options: dict[str, Any] = field(default_factory=dict)
    compare: str = "answer"


#: (library, rule, the release the row names) -> its witness.
WITNESSES: dict[tuple[str, str, str], Witness] = {
    # NLTK: corpus_bleu(emulate_multibleu=True) is a TypeError before 3.2.4 and from 3.3
    ("nltk", "emulate_multibleu", "3.2.4"): Witness(("a b c d",), (("a b x y",),), "corpus",
                                                    {"emulate_multibleu": True}),
    ("nltk", "emulate_multibleu", "3.3"): Witness(("a b c d",), (("a b x y",),), "corpus",
                                                  {"emulate_multibleu": True}),
    # an order without a match: the product ends (3.2.5) or counts float_info.min (3.3)
    ("nltk", "zero_orders", "3.3"): Witness(("a b c d",), (("a b x y",),), "sentence"),
    # method4 reads the hypothesis length: the last segment's (3.3) or the corpus's (3.4)
    ("nltk", "smoothing_length", "3.4"): Witness(
        ("a b c d e f g", "a b"), (("a b c x y z w",), ("a b",)), "corpus",
        {"smoothing": "method4"}),
    ("nltk", "method4", "3.5"): Witness(("a b c x y",), (("a b c d e",),), "sentence",
                                       {"smoothing": "method4"}),
    ("nltk", "method4", "3.6"): Witness(("a b c x y",), (("a b c d e",),), "sentence",
                                        {"smoothing": "method4"}),
    ("nltk", "method2", "3.6"): Witness(("a b c x",), (("a b c d",),), "sentence",
                                        {"smoothing": "method2"}),
    # method1 with epsilon 0 leaves the orders without a match at 0: log(0) raises before
    # 3.6.6, and 3.6.6 leaves them out
    ("nltk", "positive_only", "3.6.6"): Witness(("a b c d",), (("a x b y",),), "sentence",
                                                {"smoothing": "method1", "epsilon": 0}),
    ("nltk", "weight_lists", "3.6.6"): Witness(
        ("a b c d",), (("a b c x",),), "sentence",
        {"weights": [[0.5, 0.5], [0.25, 0.25, 0.25, 0.25]]}),
    ("nltk", "reweigh", "3.6.6"): Witness(("",), (("a b",),), "sentence",
                                          {"auto_reweigh": True}),
    ("nltk", "empty_weights", "3.6.6"): Witness(("a b c d",), (("a b c x",),), "sentence",
                                                {"weights": []}),
    ("nltk", "empty_weights", "3.9"): Witness(("a b c d",), (("a b c x",),), "sentence",
                                              {"weights": []}),
    # SacreBLEU
    ("sacrebleu", "floor_default", "1.5.0"): Witness(("a b c x",), (("a b y z",),), "corpus",
                                                     {"smooth_method": "floor"}),
    ("sacrebleu", "sentence_smoothing", "1.5.0"): Witness(("a b c x",), (("a b y z",),),
                                                          "sentence"),
    ("sacrebleu", "empty_references", "1.5.0"): Witness(("a b",), (("",),), "corpus"),
    ("sacrebleu", "missing_references", "1.5.0"): Witness(
        ("a b c", "a b"), (("a b c", "a b c d"), ("a b",)), "corpus"),
    # a segment without references: EOFError through the 1.x functions, RuntimeError
    # through 2.0.0's BLEU class
    ("sacrebleu", "api", "2.0.0"): Witness(("a b", "c"), (("a b",), ()), "corpus"),
    ("sacrebleu", "no_match_zero", "2.0.0"): Witness(("a b c",), (("x y z",),), "sentence"),
    ("sacrebleu", "empty_references", "2.0.0"): Witness(("a b",), (("",),), "corpus"),
    # U+1B4E is punctuation to the regex module, not to unicodedata's enumeration
    ("sacrebleu", "intl", "2.0.0"): Witness(("a\u1b4eb c",), (("a \u1b4e b c",),), "corpus",
                                            {"tokenize": "intl"}),
    # 1.x cannot be asked for other orders (the adapter says so): the later side only
    ("sacrebleu", "max_order", "2.0.0"): Witness(("a b c d e f",), (("a b c d e x",),),
                                                 "corpus", {"max_ngram_order": 6}),
    ("sacrebleu", "max_order", "2.1.0"): Witness(("a b c d e f",), (("a b c d e x",),),
                                                 "corpus", {"max_ngram_order": 6}),
    ("sacrebleu", "empty_references", "2.2.0"): Witness(("a b",), (("",),), "corpus"),
    ("sacrebleu", "tokenizers", "2.1.0"): Witness(("a b",), (("a b",),), "corpus",
                                                  {"tokenize": "spm"}, "option"),
    ("sacrebleu", "tokenizers", "2.2.0"): Witness(("a b",), (("a b",),), "corpus",
                                                  {"tokenize": "ko-mecab"}, "option"),
    ("sacrebleu", "tokenizers", "2.3.0"): Witness(("a b",), (("a b",),), "corpus",
                                                  {"tokenize": "flores101"}, "option"),
}


def _ci_releases() -> dict[str, list[str]]:
    spec = importlib.util.spec_from_file_location("atlas_tool", ROOT / "tools" / "atlas.py")
    atlas = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(atlas)
    by_library: dict[str, list[str]] = {}
    for name in atlas.CI_RELEASES:
        library, version = name.split("-", 1)
        by_library.setdefault(library, []).append(version)
    return {library: sorted(versions, key=Version) for library, versions in by_library.items()}


CI_RELEASES = _ci_releases()


def sides(library: str, since: str) -> tuple[str, str]:
    """The CI releases on either side of a row: the last before ``since``, the first at or
    after it (``tests/test_release_lists.py`` holds that there are both)."""
    listed = CI_RELEASES[library]
    return ([v for v in listed if Version(v) < Version(since)][-1],
            [v for v in listed if Version(v) >= Version(since)][0])


def refuses(outcome: Any) -> bool:
    """A release that does not know an option (``TypeError``, ``KeyError``), or the engine
    that says a release has no such option (``ValueError`` naming it)."""
    error_type = getattr(outcome, "error_type", None)
    return error_type in ("TypeError", "KeyError") or (
        error_type == "ValueError" and "option" in getattr(outcome, "message", ""))
