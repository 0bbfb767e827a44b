"""The tokenizations of the Perl scripts: Moses ``multi-bleu.perl`` and NIST ``mteval-v13a.pl``,
and their relatives (``multi-bleu-detok.perl``, the WMT06 ``multi-bleu.perl``,
``mteval-v11b.pl``; ``mteval-v12.pl`` and ``mteval-v14.pl`` tokenize as ``mteval-v13a.pl``).

Perl's rules differ from Python's in small ways that change scores (each checked against the
real scripts under Perl 5.36, ``tests/test_perl_oracle.py``):

* multi-bleu reads bytes, so only ASCII whitespace separates and ``-lc`` folds A-Z only.
* mteval reads its SGML as UTF-8 characters. Its reader turns every run of Perl whitespace
  (``\\s``: ``\\t \\n \\v \\f \\r``, space, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028,
  U+2029, U+202F, U+205F, U+3000) into one space *before* the tokenization, so a line break
  inside a segment never reaches the ``-\\n`` join; it then splits on ``\\s+``. Python's
  ``str.split`` also splits on U+001C-U+001F, which Perl keeps inside a token.
* Perl's ``lc`` has no final-sigma rule: ``lc("ΟΔΟΣ")`` is ``οδοσ`` where ``str.lower`` gives
  ``οδος``. Otherwise the two map every code point alike (Unicode 14.0, checked exhaustively).
* ``mteval-v11b.pl`` reads its SGML as bytes (``binmode FILE``, no ``use utf8``), so its 13a
  rules see only ASCII whitespace (U+00A0, U+2028, U+3000 stay inside a token), as
  multi-bleu's ``split`` does.
* ``multi-bleu-detok.perl`` reads UTF-8 lines and applies mteval-v13a's ``tokenization``
  (case preserved) to each: the ``mteval-13a`` tokens; its ``-lc`` lowercases a hypothesis
  before that and a reference after it (:mod:`bleu_harness.bleu.tokenizers.roles`).
* The WMT06 ``multi-bleu.perl`` splits a reference on single spaces (empty tokens where two
  meet, and a leading one; Perl drops trailing empty fields).
* ``--international-tokenization`` classes characters with Perl's Unicode tables. Perl 5.36
  has Unicode 14.0.0; so does Python 3.11's ``unicodedata``, which these classes come from
  (equal for every code point in ``\\p{N}``, ``\\p{P}``, ``\\p{S}``, ``\\p{Z}``, checked
  against Perl). Under another Perl or Python, characters assigned in between are classed
  differently (e.g. U+1FAE8, a symbol since Unicode 15.0, is no ``\\p{S}`` in Perl 5.36).
"""

from __future__ import annotations

import re
from functools import lru_cache

from bleu_harness.bleu.tokenizers.roles import ByRole
from bleu_harness.bleu.tokenizers.sacrebleu import (
    _SGML_ENTITIES,
    _V13A_RULES,
    _v13a_language_independent,
    tokenize_13a,
)
from bleu_harness.bleu.tokenizers.unicode_classes import character_class

_ASCII_UPPER_TO_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# Perl's whitespace on a byte string (no UTF-8 flag): space, \t, \n, \v, \f, \r.
_PERL_WHITESPACE = " \t\n\x0b\f\r"
_PERL_BYTE_WHITESPACE = re.compile(f"[{_PERL_WHITESPACE}]+")


def ascii_lower(text: str) -> str:
    """A-Z to a-z and nothing else: Perl ``lc`` on a byte string, mteval's ``tr/[A-Z]/[a-z]/``."""
    return text.translate(_ASCII_UPPER_TO_LOWER)


def tokenize_multibleu(text: str) -> list[str]:
    """multi-bleu.perl's ``split``: Perl reads bytes, so only ASCII whitespace separates."""
    stripped = text.strip(_PERL_WHITESPACE)
    return _PERL_BYTE_WHITESPACE.split(stripped) if stripped else []


def tokenize_multibleu_lc(text: str) -> list[str]:
    """multi-bleu.perl ``-lc``: Perl ``lc`` on bytes lowercases A-Z only, then ``split``."""
    return tokenize_multibleu(ascii_lower(text))


# Perl's \s on a character string (mteval reads UTF-8), listed by Perl 5.36 itself.
PERL_SPACE_CHARS = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
_PERL_SPACES = re.compile(f"[{PERL_SPACE_CHARS}]+")
# Where str.split() separates and Perl's \s does not.
_PYTHON_ONLY_SPACE = re.compile("[\x1c-\x1f]")


def perl_split(text: str) -> list[str]:
    """Perl ``split /\\s+/`` on a character string with no leading space: ``str.split()``
    except that U+001C-U+001F stay inside a token."""
    if _PYTHON_ONLY_SPACE.search(text) is None:
        return text.split()
    return [token for token in _PERL_SPACES.split(text) if token]


def perl_lc(text: str) -> str:
    """Perl ``lc`` on a character string: ``str.lower`` without the final-sigma rule."""
    return text.replace("\u03a3", "\u03c3").lower()


def _mteval_13a(text: str, fold: bool) -> list[str]:
    """mteval-v13a ``tokenization`` of a segment as its SGML reader hands it over (Perl
    whitespace runs already one space): ``tr/[A-Z]/[a-z]/`` when ``fold``. Without U+001C-U+001F
    this is SacreBLEU's 13a of the text with line breaks made spaces; case folding cannot move
    a token boundary (no letter is in the punctuation classes), so it may come after."""
    if _PYTHON_ONLY_SPACE.search(text) is None:
        tokens = tokenize_13a(text.replace("\n", " ") if "\n" in text else text)
        return ascii_lower(" ".join(tokens)).split() if fold else tokens
    line = f" {_v13a_language_independent(_PERL_SPACES.sub(' ', text))} "
    if fold:
        line = ascii_lower(line)
    for pattern, replacement in _V13A_RULES:
        line = pattern.sub(replacement, line)
    return perl_split(line.strip(" "))


def tokenize_mteval_13a(text: str) -> list[str]:
    """mteval-v13a ``tokenization`` with ``-c`` (case preserved)."""
    return _mteval_13a(text, fold=False)


def tokenize_mteval_13a_lc(text: str) -> list[str]:
    """mteval-v13a ``tokenization`` without ``-c``: ``tr/[A-Z]/[a-z]/`` (ASCII only)."""
    return _mteval_13a(text, fold=True)


def _mteval_11b(text: str, fold: bool) -> list[str]:
    """mteval-v11b ``NormalizeText`` (``mteval-v11b.pl:593-617``) of a segment as its reader
    hands it over: the 13a rules on bytes, so only ASCII whitespace runs become one space (the
    reader's ``s/[\\s\\n\\r]+/ /g``, ``mteval-v11b.pl:284``) and only they separate words (the
    scorer's ``split /\\s+/``, ``mteval-v11b.pl:493,501``); ``tr/[A-Z]/[a-z]/`` when ``fold``.
    The rules match ASCII bytes only, so on characters they do what they do on the bytes."""
    line = f" {_v13a_language_independent(_PERL_BYTE_WHITESPACE.sub(' ', text))} "
    if fold:
        line = ascii_lower(line)
    for pattern, replacement in _V13A_RULES:
        line = pattern.sub(replacement, line)
    return tokenize_multibleu(line)


def tokenize_mteval_11b(text: str) -> list[str]:
    """mteval-v11b ``NormalizeText`` with ``-c`` (case preserved)."""
    return _mteval_11b(text, fold=False)


def tokenize_mteval_11b_lc(text: str) -> list[str]:
    """mteval-v11b ``NormalizeText`` without ``-c``: ``tr/[A-Z]/[a-z]/`` (ASCII only)."""
    return _mteval_11b(text, fold=True)


def tokenize_perl_split_space(text: str) -> list[str]:
    """Perl ``split(/ /, $line)``: every single space separates, so two in a row give an empty
    token and a leading one an empty first token; trailing empty fields are dropped (so
    ``''`` and ``' '`` give none). Tabs and other whitespace stay inside tokens."""
    fields = text.split(" ")
    while fields and not fields[-1]:
        fields.pop()
    return fields


#: The WMT06 ``multi-bleu.perl``: hypotheses by ``split`` (on bytes: ASCII whitespace runs),
#: references by ``split(/ /, ...)`` (OpenNMT/OpenNMT@72d4a5f
#: ``benchmark/3rdParty/multi-bleu.perl:36,42``).
MULTIBLEU_WMT06 = ByRole(tokenize_multibleu, tokenize_perl_split_space)


def _detok_lc_hypothesis(text: str) -> list[str]:
    """``$_ = lc``, then ``tokenization`` (``multi-bleu-detok.perl:72-73``)."""
    return tokenize_mteval_13a(perl_lc(text))


def _detok_lc_reference(text: str) -> list[str]:
    """``tokenization`` when the file is read, then ``lc`` (``multi-bleu-detok.perl:62,80``):
    ``lc`` makes and removes no whitespace, so it may lowercase each token."""
    return [perl_lc(token) for token in tokenize_mteval_13a(text)]


#: ``multi-bleu-detok.perl -lc``: Perl ``lc`` (UTF-8 characters) before mteval-v13a's
#: case-preserving ``tokenization`` on a hypothesis, after it on a reference.
MULTIBLEU_DETOK_LC = ByRole(_detok_lc_hypothesis, _detok_lc_reference)


_MTEVAL_INTL_ENTITIES = _SGML_ENTITIES + (("&apos;", "'"),)


@lru_cache(maxsize=1)
def _mteval_intl_rules() -> tuple[tuple[re.Pattern, str], ...]:
    """``tokenization_international``'s punctuation, symbol and separator rules, with the
    classes of Perl 5.36's Unicode 14.0 (:mod:`bleu_harness.bleu.tokenizers.unicode_classes`)."""
    numbers, punctuation = character_class("N"), character_class("P")
    return (
        (re.compile(f"([^{numbers}])([{punctuation}])"), r"\1 \2 "),  # (\P{N})(\p{P})
        (re.compile(f"([{punctuation}])([^{numbers}])"), r" \1 \2"),  # (\p{P})(\P{N})
        (re.compile(f"([{character_class('S')}])"), r" \1 "),  # (\p{S})
        (re.compile(f"[{character_class('Z')}]+"), " "),  # \p{Z}+
    )


def _mteval_intl(text: str, lowercase: bool) -> list[str]:
    """mteval-v13a ``tokenization_international`` (``--international-tokenization``):
    ``<skipped>`` removal, five entities (``&apos;`` too), Perl ``lc`` unless ``-c``, the
    mteval-v14 punctuation and symbol rules, ``\\p{Z}`` runs to one space, Perl's split. Its
    ``\\p{Line_Break: Hyphen}\\p{Zl}`` join never fires on SGML input: the reader has made
    every U+2028 a space already."""
    if "<skipped>" in text:
        text = text.replace("<skipped>", "")
    if "&" in text:
        for entity, char in _MTEVAL_INTL_ENTITIES:
            text = text.replace(entity, char)
    if lowercase:
        text = perl_lc(text)
    for pattern, replacement in _mteval_intl_rules():
        text = pattern.sub(replacement, text)
    return perl_split(text.strip(" "))


def tokenize_mteval_intl(text: str) -> list[str]:
    return _mteval_intl(text, lowercase=False)


def tokenize_mteval_intl_lc(text: str) -> list[str]:
    return _mteval_intl(text, lowercase=True)
