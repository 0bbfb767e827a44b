"""torchmetrics' own copies of SacreBLEU's tokenizers (``_SacreBLEUTokenizer``,
Lightning-AI/torchmetrics@v1.9.0 ``src/torchmetrics/functional/text/sacre_bleu.py``), which
``SacreBLEUScore`` and ``sacre_bleu_score`` use. Read line by line, they differ from
SacreBLEU's in three ways:

* **no ``rstrip``** (SacreBLEU's ``BLEU._preprocess_segment`` strips trailing whitespace first;
  ``_bleu_score_update`` hands torchmetrics' tokenizer the line as it is, ``bleu.py:85-86``):
  ``13a`` is then what Hugging Face's unstripped copy gives (``'a-\\n'`` joins to ``a``;
  ``_tokenize_13a``, ``sacre_bleu.py:213-234``), and ``intl`` splits punctuation before
  trailing whitespace (``'1990. '`` gives ``1990 .`` where SacreBLEU keeps ``1990.``;
  ``_tokenize_international``, ``sacre_bleu.py:265-295``);
* **lowercasing after tokenizing** (``__call__`` / ``tokenize``:
  ``self._lower(tokenized_line, self.lowercase).split()``, ``sacre_bleu.py:153-168``; SacreBLEU
  lowercases before): an upper-case entity (``&QUOT;``) or ``<SKIPPED>`` stays text, and a
  character ``zh`` spaces out whose lowercase it does not (the Kelvin sign, U+212A, lowers
  to ASCII ``k``) stays one token; :class:`LowercasedAfter`;
* the SentencePiece models (``flores101``, ``flores200``; no ``spm``) are the files
  torchmetrics downloads to ``tempfile.gettempdir()/torchmetrics-flores``
  (``_FLORES_LOCAL_DIR``, ``sacre_bleu.py:91-96``). The engine never downloads: it reads that
  file, or SacreBLEU's cached download of the same URL, and declines otherwise.

``none``, ``zh`` and ``char`` are SacreBLEU's (``zh`` strips itself; the ranges of
``_UCODE_RANGES`` are SacreBLEU's: tests/test_torchmetrics_sacrebleu.py compares the tokens at
every code point against torchmetrics itself where it is installed),
``ja-mecab`` and ``ko-mecab`` too (a tagger per line, ``strip``, ``parse``, ``strip``).
torchmetrics calls the tokenizer only on a non-empty line (``tokenizer(line) if line else
[]``, ``bleu.py:85-86``); every tokenizer here gives no token for ``''`` anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bleu_harness.bleu.tokenizers import get_tokenizer, tokenizer_name
from bleu_harness.bleu.tokenizers.optional import (
    MecabTokenizer,
    SentencePieceTokenizer,
    sacrebleu_cached_model,
)
from bleu_harness.bleu.tokenizers.optional import why_unavailable as optional_unavailable

#: ``AVAILABLE_TOKENIZERS`` (``sacre_bleu.py:61``), the ``tokenize`` option's choices.
TORCHMETRICS_TOKENIZE = ("none", "13a", "zh", "intl", "char", "ja-mecab", "ko-mecab",
                         "flores101", "flores200")
#: ``tokenize`` -> the engine's tokenizer giving the same tokens (before any lowercasing).
SAME_TOKENS = {"none": "none", "13a": "13a-unstripped", "zh": "zh", "intl": "intl-unstripped",
               "char": "char"}
#: The model file of each SentencePiece tokenizer: the last part of its URL
#: (``_FLORES_MODELS_URL``, ``sacre_bleu.py:93-96``; SacreBLEU downloads the same URLs).
FLORES_MODELS = {"flores101": "sacrebleu_tokenizer_spm.model",
                 "flores200": "flores200sacrebleuspm"}


def flores_model(name: str) -> Path:
    """Where torchmetrics reads the model of ``name`` (``_tokenize_flores``,
    ``sacre_bleu.py:364-371``), or SacreBLEU's cached download of the same URL when
    torchmetrics has none."""
    import tempfile  # here: it is a twentieth of the engine's start-up

    own = Path(tempfile.gettempdir()) / "torchmetrics-flores" / FLORES_MODELS[name]
    if own.is_file():
        return own
    cached = sacrebleu_cached_model(name)
    return cached if cached.is_file() else own


@dataclass(frozen=True)
class FloresTokenizer(SentencePieceTokenizer):
    """torchmetrics' ``flores101`` / ``flores200``: the model's pieces joined by spaces."""

    def why_unavailable(self) -> str | None:
        reason = optional_unavailable(self.name, self.model)
        if reason is None or "sentencepiece:" in reason:
            return reason
        return (f"the {self.name} tokenizer needs the SentencePiece model torchmetrics "
                f"downloads: no file {self.model} (nothing is downloaded)")


@dataclass(frozen=True)
class LowercasedAfter:
    """A tokenizer whose tokens are lowercased afterwards, as torchmetrics does:
    ``" ".join(tokens).lower().split()`` (``sacre_bleu.py:153-155``; ``str.lower`` never
    makes or removes whitespace, so the split is the tokenizer's). A value (hashable,
    picklable), so that equal preprocessings share their statistics."""

    tokenizer: Any  # a tokenizer name or a tokenizer value (MeCab, SentencePiece)

    def __call__(self, text: str) -> list[str]:
        return " ".join(get_tokenizer(self.tokenizer)(text)).lower().split()

    def why_unavailable(self) -> str | None:
        check: Callable[[], str | None] | None = getattr(self.tokenizer, "why_unavailable",
                                                         None)
        return check() if check is not None else None

    def describe(self) -> str:
        return f"{tokenizer_name(self.tokenizer)}+lower-after"


def torchmetrics_tokenizer(tokenize: str) -> Any:
    """The engine's tokenizer for torchmetrics' ``tokenize`` choice (call ``why_unavailable``
    on it before use: MeCab and SentencePiece are optional)."""
    if tokenize in SAME_TOKENS:
        return SAME_TOKENS[tokenize]
    if tokenize in FLORES_MODELS:
        return FloresTokenizer(tokenize, str(flores_model(tokenize).resolve()))
    return MecabTokenizer(tokenize)
