"""Tokenizers: text in, token list out. Pure functions, one per scheme.

Each tokenizer reproduces a published scheme so that a convention's statistics are those of
the library it follows:

* ``none`` — Python's ``str.split()`` (what NLTK callers do, and SacreBLEU's ``none``).
* ``13a`` — the ``tokenization`` routine of NIST ``mteval-v13a.pl`` without its lowercasing,
  which is what SacreBLEU's ``13a`` tokenizer copies (``sacrebleu/tokenizers/tokenizer_13a.py``
  and ``tokenizer_re.py``).
* ``intl`` — the international tokenization of ``mteval-v14.pl`` (lines 954-983), as SacreBLEU's
  ``intl`` (``tokenizer_intl.py``): split punctuation unless between digits, split symbols.
* ``char`` — every non-whitespace character is a token (SacreBLEU ``char``).

SacreBLEU strips trailing whitespace before it tokenizes (``BLEU._preprocess_segment``); the
``rstrip`` is part of each scheme here for the same reason (it matters for ``-\\n`` in 13a).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import regex

Tokenizer = Callable[[str], list[str]]

# mteval-v13a.pl, sub tokenization: the language-dependent part (Western languages).
_V13A_RULES = (
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),  # punctuation
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),  # period, comma unless after a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),  # period, comma unless before a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # dash after a digit
)

# mteval-v14.pl, sub tokenization_international (Unicode properties need `regex`).
_V14_INTL_RULES = (
    (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
    (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
    (regex.compile(r"(\p{S})"), r" \1 "),
)

_SGML_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def tokenize_none(text: str) -> list[str]:
    """Split on whitespace, nothing else (``str.split()``)."""
    return text.split()


@lru_cache(maxsize=2**16)
def _v13a_string(line: str) -> str:
    line = line.replace("<skipped>", "")
    line = line.replace("-\n", "")
    line = line.replace("\n", " ")
    if "&" in line:
        for entity, char in _SGML_ENTITIES:
            line = line.replace(entity, char)
    line = f" {line} "
    for pattern, replacement in _V13A_RULES:
        line = pattern.sub(replacement, line)
    return line


def tokenize_13a(text: str) -> list[str]:
    """mteval-v13a tokenization, case preserved (SacreBLEU ``13a``)."""
    return _v13a_string(text.rstrip()).split()


@lru_cache(maxsize=2**16)
def _v14_intl_string(line: str) -> str:
    for pattern, replacement in _V14_INTL_RULES:
        line = pattern.sub(replacement, line)
    return line


def tokenize_intl(text: str) -> list[str]:
    """mteval-v14 international tokenization (SacreBLEU ``intl``)."""
    return _v14_intl_string(text.rstrip()).split()


def tokenize_char(text: str) -> list[str]:
    """Every character that ``str.split`` does not treat as whitespace (SacreBLEU ``char``)."""
    return list("".join(text.split()))


TOKENIZERS: dict[str, Tokenizer] = {
    "none": tokenize_none,
    "13a": tokenize_13a,
    "intl": tokenize_intl,
    "char": tokenize_char,
}


def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer called ``name``; a ``ValueError`` lists the known ones otherwise."""
    try:
        return TOKENIZERS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(TOKENIZERS))
        raise ValueError(f"unknown tokenizer {name!r} (known: {known})") from None
