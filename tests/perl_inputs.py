"""Generated inputs for the Perl scripts: made of what Perl and Python treat differently.

Shared by tests/test_perl_oracle.py and tools/perl_cases.py (which records the scripts'
outputs as cases), so both draw the same kind of text from a seeded ``random.Random``.
"""

from __future__ import annotations

import random

WORDS = ["a", "b", "the", "The", "cat", "ΟΔΟΣ", "οδοσ", "ΑΣ", "Σ", "é", "É", "日本", "3.5",
         "1990.", "5-4", "e-mail", "don't", ".", ",", "-", "&amp;", "&quot;", "&lt;", "&apos;",
         "«", "€", "$5", "(x)", "a\x1fb", "c\x1c", "well-", "İ", "ß", "\u00bd", "x<skipped>"]
#: Separators: Perl whitespace of either kind, and what is whitespace to Python only.
SEPARATORS = [" ", " ", " ", "  ", "\t", "\xa0", "\u2028", "\u3000", "\x1f", "\x0b", "\r"]
#: multi-bleu reads lines: no line break inside a segment.
LINE_BREAKS = ["\n", "-\n", " \n"]
#: What multi-bleu-detok.perl -lc lowercases before its tokenization on one side only.
UPPER_CASE_MARKUP = ["&QUOT;", "&AMP;", "&Lt;", "<SKIPPED>", "x<SKIPPED>y", "&AMP;quot;"]
#: Where the WMT06 script's ``split(/ /, ...)`` of a reference differs from ``split``.
SPACES_AROUND = ["", "", "", " ", "  ", "\t"]


def text(rng: random.Random, separators: list[str], most: int = 6,
         words: list[str] = WORDS) -> str:
    words = [rng.choice(words) for _ in range(rng.randrange(0, most + 1))]
    if not words:
        return rng.choice(["", "", " "])
    out = words[0]
    for word in words[1:]:
        out += rng.choice(separators) + word
    return out


def _references(rng: random.Random, hyp: str, width: int, separators: list[str],
                most: int = 6, words: list[str] = WORDS) -> list[str]:
    refs = [text(rng, separators, most, words) for _ in range(width)]
    if rng.random() < 0.4:
        refs[0] = hyp  # a match, so scores are not all zero
    elif rng.random() < 0.3:
        refs[0] = " ".join(hyp.split()[: max(1, len(hyp.split()) - 1)])
    return refs


def multi_bleu_corpus(rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """One to four segments with one to three references each (equally many: the script
    reads reference ``j`` of every segment from file ``j``)."""
    width = rng.randrange(1, 4)
    hyps = [text(rng, SEPARATORS) for _ in range(rng.randrange(1, 5))]
    return hyps, [_references(rng, hyp, width, SEPARATORS) for hyp in hyps]


def mteval_corpus(rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """Like :func:`multi_bleu_corpus`, with line breaks inside segments too (mteval reads
    SGML); the same number of references for every segment of every corpus (one reference
    set each), here always two."""
    separators = SEPARATORS + LINE_BREAKS
    hyps = [text(rng, separators) for _ in range(rng.randrange(1, 4))]
    return hyps, [_references(rng, hyp, 2, separators) for hyp in hyps]


def detok_corpus(rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """:func:`multi_bleu_corpus` with upper-case entities and ``<SKIPPED>`` too."""
    words = WORDS + UPPER_CASE_MARKUP
    width = rng.randrange(1, 4)
    hyps = [text(rng, SEPARATORS, words=words) for _ in range(rng.randrange(1, 5))]
    return hyps, [_references(rng, hyp, width, SEPARATORS, words=words) for hyp in hyps]


def wmt06_corpus(rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """:func:`multi_bleu_corpus` with longer segments (the WMT06 script dies on an order
    without n-grams) and spaces or a tab around some references."""
    width = rng.randrange(1, 4)
    hyps = [text(rng, SEPARATORS, most=9) for _ in range(rng.randrange(1, 5))]
    refs = [_references(rng, hyp, width, SEPARATORS, most=9) for hyp in hyps]
    return hyps, [[rng.choice(SPACES_AROUND) + ref + rng.choice(SPACES_AROUND) for ref in row]
                  for row in refs]
