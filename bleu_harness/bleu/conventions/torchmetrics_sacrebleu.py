"""The torchmetrics-sacrebleu convention: ``torchmetrics.text.SacreBLEUScore`` /
``torchmetrics.functional.text.sacre_bleu_score``, torchmetrics 1.9.0
(Lightning-AI/torchmetrics@v1.9.0, commit 700261d3683b,
``src/torchmetrics/functional/text/sacre_bleu.py`` and ``src/torchmetrics/text/sacre_bleu.py``).

Its name says SacreBLEU, but only the tokenizers are SacreBLEU's -- torchmetrics' own copies
of them (:mod:`bleu_harness.bleu.tokenizers.torchmetrics`: no ``rstrip``, lowercasing *after*
tokenizing). The score is ``BLEUScore``'s: ``sacre_bleu_score`` calls ``_bleu_score_update``
with the tokenizer and ``_bleu_score_compute`` (``sacre_bleu.py:51, 543-555``;
``SacreBLEUScore`` subclasses ``BLEUScore`` and only swaps the tokenizer, ``text/sacre_bleu.py:
35, 122-136``). So, unlike SacreBLEU's ``BLEU``:

* reference length: the closest, the **first-listed** on a tie (``bleu.py:90-92``);
* any order without a match gives 0, before smoothing (``bleu.py:132-133``);
* ``smooth=True`` is add-one on orders 2..N (``bleu.py:135-140``), not SacreBLEU's ``exp``,
  and the default is no smoothing; no effective order;
* ``weights`` (``n_gram`` of them, not normalised; ``sacre_bleu.py:533-536``);
* float32 tensors, 0-1 scale: to float32 precision, as torchmetrics' ``BLEUScore``
  (``torch.log``/``torch.exp`` are MKL's; :mod:`bleu_harness.bleu.conventions.torchmetrics`).

These are the knobs of the ``torchmetrics`` convention (``formula_knobs``, reused here with
this convention's tokens): the same arithmetic, the same input checks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bleu_harness.bleu.convention import Finished, Preprocessing
from bleu_harness.bleu.conventions import torchmetrics
from bleu_harness.bleu.corpus import CorpusStats
from bleu_harness.bleu.knobs import KnobSettings, remembered
from bleu_harness.bleu.options import Option, boolean, choice, resolve_options
from bleu_harness.bleu.tokenizers import SACREBLEU_TOKENIZERS
from bleu_harness.bleu.tokenizers.torchmetrics import (
    TORCHMETRICS_TOKENIZE,
    LowercasedAfter,
    torchmetrics_tokenizer,
)

NAME = "torchmetrics-sacrebleu"
OPTIONS = torchmetrics.OPTIONS + (
    Option("tokenize", "13a", choice(TORCHMETRICS_TOKENIZE)),
    Option("lowercase", False, boolean),
)


def resolve(level: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """The options, and ``weights`` of ``n_gram`` entries (``sacre_bleu.py:533-534``)."""
    return torchmetrics.checked_weights(NAME, resolve_options(NAME, OPTIONS, given))


def required_order(options: Mapping[str, Any]) -> int:
    return options["n_gram"]


def preprocessing(options: Mapping[str, Any]) -> Preprocessing:
    """torchmetrics' tokenizer, then ``str.lower`` of its tokens when ``lowercase``. With
    ``none`` lowercasing before or after splitting is the same, so it is the shared
    ``Preprocessing("none", True)``."""
    tokenizer = torchmetrics_tokenizer(options["tokenize"])
    if not options["lowercase"]:
        return Preprocessing(tokenizer)
    if tokenizer == "none":
        return Preprocessing("none", lowercase=True)
    return Preprocessing(LowercasedAfter(tokenizer))


@remembered
def knobs(options: Mapping[str, Any], level: str = "corpus") -> KnobSettings:
    """``BLEUScore``'s knobs (the torchmetrics convention's) with this tokenization."""
    return torchmetrics.formula_knobs(options, level, preprocessing(options))


def finish(corpus: CorpusStats, level: str, options: Mapping[str, Any]) -> Finished:
    return torchmetrics.finish_formula(NAME, corpus, knobs(options, level))


#: What ``bleu-harness identify`` searches.
VARIANTS = tuple({"n_gram": n, "smooth": s, "tokenize": t, "lowercase": lc}
                 for n in (4, 1, 2, 3) for s in (False, True)
                 for t in ("13a", "intl", "char", "zh", "none") for lc in (False, True))

#: What the convention follows, in a line.
DESCRIPTION = ("torchmetrics SacreBLEUScore: torchmetrics' copies of SacreBLEU's tokenizers "
               "(no rstrip, lowercased after tokenizing) with BLEUScore's formula: closest "
               "reference (first-listed on a tie), 0 when any order has no match, add-one "
               "smoothing from bigrams, float32")
#: Case-file tokenizer names its ``tokenize`` option accepts.
CASE_TOKENIZERS = SACREBLEU_TOKENIZERS
#: ``tokenize`` is a name only: ``_check_tokenizers_validity`` raises ``ValueError`` for
#: anything not in ``_TOKENIZE_FN`` (``sacre_bleu.py:414-415``).
CALLABLE_TOKENIZER = False
