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
    line = _v13a_language_independent(text.rstrip())
    if _V13A_DIGIT_RULES_APPLY.search(line) is None:
        return line.translate(_V13A_SPACED).split()
    line = f" {line} "
    for pattern, replacement in _V13A_RULES:
        line = pattern.sub(replacement, line)
    return line.split()


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


_ASCII_UPPER_TO_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# Perl's whitespace on a byte string (no UTF-8 flag): space, \t, \n, \v, \f, \r.
_PERL_WHITESPACE = " \t\n\x0b\f\r"
_PERL_BYTE_WHITESPACE = re.compile(f"[{_PERL_WHITESPACE}]+")


def ascii_lower(text: str) -> str:
    """A-Z to a-z and nothing else: Perl ``lc`` on a byte string, mteval's ``tr/[A-Z]/[a-z]/``."""
    return text.translate(_ASCII_UPPER_TO_LOWER)


def tokenize_space(text: str) -> list[str]:
    """``text.split(" ")``: TF-NMT ``evaluation_utils`` splits on single spaces, so two spaces
    make an empty token and an empty line is one empty token."""
    return text.split(" ")


def tokenize_multibleu(text: str) -> list[str]:
    """multi-bleu.perl's ``split``: Perl reads bytes, so only ASCII whitespace separates."""
    stripped = text.strip(_PERL_WHITESPACE)
    return _PERL_BYTE_WHITESPACE.split(stripped) if stripped else []


def tokenize_multibleu_lc(text: str) -> list[str]:
    """multi-bleu.perl ``-lc``: Perl ``lc`` on bytes lowercases A-Z only, then ``split``."""
    return tokenize_multibleu(ascii_lower(text))


def tokenize_mteval_13a_lc(text: str) -> list[str]:
    """mteval-v13a ``tokenization`` without ``-c``: 13a with ``tr/[A-Z]/[a-z]/`` (ASCII only).
    The case folding cannot move a token boundary (no letter is in the punctuation classes),
    so folding after the regexes is the same as mteval's folding between them."""
    return ascii_lower(" ".join(tokenize_13a(text))).split()


_PERL_HYPHEN = "\u002d\u00ad\u058a\u1806\u2010\u2011\u2e17\u30fb\ufe63\uff0d\uff65"
_MTEVAL_INTL_PREP = (
    (re.compile(f"[{_PERL_HYPHEN}]\u2028"), ""),  # s/\p{Hyphen}\p{Zl}//g
    (re.compile("\u2028"), " "),  # s/\p{Zl}/ /g
)
_MTEVAL_INTL_ENTITIES = _SGML_ENTITIES + (("&apos;", "'"),)
_UNICODE_SEPARATORS = regex.compile(r"\p{Z}+")


def _mteval_intl(text: str, lowercase: bool) -> list[str]:
    """mteval-v13a ``tokenization_international`` (``--international-tokenization``):
    ``<skipped>`` removal, hyphenated line joins, five entities (``&apos;`` too), Perl ``lc``
    (Unicode) unless ``-c``, the mteval-v14 punctuation and symbol rules, ``\\p{Z}`` runs to one
    space."""
    text = text.replace("<skipped>", "")
    for pattern, replacement in _MTEVAL_INTL_PREP:
        text = pattern.sub(replacement, text)
    for entity, char in _MTEVAL_INTL_ENTITIES:
        text = text.replace(entity, char)
    if lowercase:
        text = text.lower()
    return _UNICODE_SEPARATORS.sub(" ", _v14_intl_string(text)).split()


def tokenize_mteval_intl(text: str) -> list[str]:
    return _mteval_intl(text, lowercase=False)


def tokenize_mteval_intl_lc(text: str) -> list[str]:
    return _mteval_intl(text, lowercase=True)


def _category_ranges(prefixes: str) -> dict[str, list[tuple[int, int]]]:
    """Runs of code points whose ``unicodedata`` category starts with each of ``prefixes``,
    in one pass over every code point (as ``bleu_hook.UnicodeRegex`` enumerates them)."""
    import sys
    import unicodedata

    category = unicodedata.category
    runs: dict[str, list[tuple[int, int]]] = {p: [] for p in prefixes}
    current: dict[str, list[int]] = {}
    for x in range(sys.maxunicode):
        c = category(chr(x))[0]
        if c in runs:
            run = current.get(c)
            if run is not None and run[1] == x - 1:
                run[1] = x
            else:
                if run is not None:
                    runs[c].append((run[0], run[1]))
                current[c] = [x, x]
    for c, run in current.items():
        runs[c].append((run[0], run[1]))
    return runs


def _character_class(runs: list[tuple[int, int]]) -> str:
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                   for a, b in runs)


@lru_cache(maxsize=1)
def _t2t_patterns():
    """Tensor2Tensor ``bleu_hook.UnicodeRegex``: character classes enumerated from
    ``unicodedata`` (categories P* and S*), with Python's ``\\d`` (decimal digits only, where
    mteval-v14 has ``\\p{N}``). Written as ranges, which match the same characters as
    T2T's list of every character."""
    runs = _category_ranges("PS")
    punctuation, symbols = _character_class(runs["P"]), _character_class(runs["S"])
    return (
        (re.compile(r"([^\d])([" + punctuation + r"])"), r"\1 \2 "),
        (re.compile(r"([" + punctuation + r"])([^\d])"), r" \1 \2"),
        (re.compile("([" + symbols + "])"), r" \1 "),
    )


def tokenize_t2t(text: str) -> list[str]:
    """Tensor2Tensor ``bleu_hook.bleu_tokenize`` (the mteval-v14 rules, re-implemented)."""
    for pattern, replacement in _t2t_patterns():
        text = pattern.sub(replacement, text)
    return text.split()


#: The tokenizers SacreBLEU offers under these names (the case files' vocabulary).
SACREBLEU_TOKENIZERS = ("none", "13a", "intl", "char")

TOKENIZERS: dict[str, Tokenizer] = {
    "none": tokenize_none,
    "13a": tokenize_13a,
    "intl": tokenize_intl,
    "char": tokenize_char,
    "space": tokenize_space,
    "multibleu": tokenize_multibleu,
    "multibleu-lc": tokenize_multibleu_lc,
    "mteval-13a-lc": tokenize_mteval_13a_lc,
    "mteval-intl": tokenize_mteval_intl,
    "mteval-intl-lc": tokenize_mteval_intl_lc,
    "t2t": tokenize_t2t,
}


def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer called ``name``; a ``ValueError`` lists the known ones otherwise."""
    try:
        return TOKENIZERS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(TOKENIZERS))
        raise ValueError(f"unknown tokenizer {name!r} (known: {known})") from None
