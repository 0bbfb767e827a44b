"""SacreBLEU's tokenizers that need nothing but Python: ``none``, ``13a``, ``intl``, ``char``
(and ``zh``, in :mod:`bleu_harness.bleu.tokenizers.chinese`).

* ``none`` -- Python's ``str.split()`` (what NLTK callers do, and SacreBLEU's ``none``).
* ``13a`` -- the ``tokenization`` routine of NIST ``mteval-v13a.pl`` without its lowercasing,
  as SacreBLEU's ``13a`` copies it (``sacrebleu/tokenizers/tokenizer_13a.py`` and
  ``tokenizer_re.py``).
* ``intl`` -- the international tokenization of ``mteval-v14.pl`` (lines 954-983), as
  SacreBLEU's ``intl`` (``tokenizer_intl.py``), with the ``regex`` module's Unicode tables.
* ``char`` -- every non-whitespace character is a token (SacreBLEU ``char``).

SacreBLEU strips trailing whitespace before it tokenizes (``BLEU._preprocess_segment``); the
``rstrip`` is part of each scheme here for the same reason (it matters for ``-\\n`` in 13a).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

# mteval-v13a.pl, sub tokenization: the language-dependent part (Western languages), as
# SacreBLEU's TokenizerRegexp applies it: four regex passes, each over the previous one's output.
_V13A_RULES = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),  # punctuation
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),  # period, comma unless after a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),  # period, comma unless before a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # dash after a digit
)
# The first rule's class, spelled out: {|}~ [\]^_` space!"#$%& ()*+ :;<=>?@ /
_V13A_PUNCTUATION = "{|}~[\\]^_`!\"#$%&()*+:;<=>?@/"
# Where no digit touches a period, comma or dash, the four passes reduce to "every
# punctuation character, period and comma becomes its own token": one str.translate.
_V13A_SPACED = str.maketrans({c: f" {c} " for c in _V13A_PUNCTUATION + ".,"})
_V13A_DIGIT_RULES_APPLY = re.compile(r"[0-9][-.,]|[.,][0-9]")


@cache
def _v14_intl_rules() -> tuple:
    """mteval-v14.pl, sub tokenization_international (Unicode properties need ``regex``,
    imported on first use: it is a tenth of the engine's start-up)."""
    import regex

    return ((regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
            (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
            (regex.compile(r"(\p{S})"), r" \1 "))

_SGML_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def tokenize_none(text: str) -> list[str]:
    """Split on whitespace, nothing else (``str.split()``)."""
    return text.split()


def _v13a_language_independent(line: str) -> str:
    """mteval-v13a's language-independent part: ``<skipped>`` tags, end-of-line hyphenation,
    line joins and four SGML entities (each step only when its trigger is present)."""
    if "<skipped>" in line:
        line = line.replace("<skipped>", "")
    if "\n" in line:
        line = line.replace("-\n", "").replace("\n", " ")
    if "&" in line:
        for entity, char in _SGML_ENTITIES:
            line = line.replace(entity, char)
    return line


def tokenize_13a(text: str) -> list[str]:
    """mteval-v13a tokenization, case preserved (SacreBLEU ``13a``).

    SacreBLEU makes four regex passes over every line. Their combined effect, where no digit
    stands next to a period, comma or dash, is that each punctuation character, period and
    comma becomes a token of its own: one ``str.translate``. Only lines where a digit does
    (``3.5``, ``1990.``, ``5-4``; about 3% of news text) take the four passes, whose order and
    non-overlapping matches decide runs like ``a.,5`` (tokens ``a . ,5``). Equality with
    SacreBLEU's tokenizer is tested on generated text (tests/test_tokenizers.py).
    """
    return _tokens_13a(_v13a_language_independent(text.rstrip()))


def tokenize_13a_unstripped(text: str) -> list[str]:
    """SacreBLEU's ``Tokenizer13a`` called on the text as it is, without the ``rstrip`` that
    SacreBLEU's ``BLEU`` applies first: Hugging Face ``evaluate``'s ``bleu`` copies the
    tokenizer (``metrics/bleu/tokenizer_13a.py``) and calls it on each string, so ``'a-\\n'``
    joins to ``a`` where SacreBLEU gives ``a -``. Only a line break can tell the two apart."""
    if "\n" not in text:
        return tokenize_13a(text)
    return _tokens_13a(_v13a_language_independent(text))


def _tokens_13a(line: str) -> list[str]:
    if _V13A_DIGIT_RULES_APPLY.search(line) is None:
        return line.translate(_V13A_SPACED).split()
    line = f" {line} "
    for pattern, replacement in _V13A_RULES:
        line = pattern.sub(replacement, line)
    return line.split()


@lru_cache(maxsize=2**16)
def _v14_intl_string(line: str) -> str:
    for pattern, replacement in _v14_intl_rules():
        line = pattern.sub(replacement, line)
    return line


def tokenize_intl(text: str) -> list[str]:
    """mteval-v14 international tokenization (SacreBLEU ``intl``)."""
    return _v14_intl_string(text.rstrip()).split()


def tokenize_intl_unstripped(text: str) -> list[str]:
    """mteval-v14's international tokenization of the text as it is, without the ``rstrip``
    SacreBLEU's ``BLEU`` applies first: torchmetrics' copy (``SacreBLEUScore``,
    ``_tokenize_international``; :mod:`bleu_harness.bleu.tokenizers.torchmetrics`). ``'1990. '``
    gives ``1990 .`` where SacreBLEU keeps ``1990.``."""
    return _v14_intl_string(text).split()


def tokenize_char(text: str) -> list[str]:
    """Every character that ``str.split`` does not treat as whitespace (SacreBLEU ``char``)."""
    return list("".join(text.split()))


