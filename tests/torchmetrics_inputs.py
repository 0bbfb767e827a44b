"""Generated inputs for torchmetrics' ``SacreBLEUScore``: made of what its tokenizers and
SacreBLEU's treat differently.

Shared by tools/record_torchmetrics_sacrebleu.py (which records the real tool's outputs into
tests/data/torchmetrics_sacrebleu.json) and tests/test_torchmetrics_sacrebleu.py (which also
runs the real tool on them live when it is installed), so both draw the same kind of text
from a seeded ``random.Random``. Standard library only: the recorder runs it on the torch
interpreter too.
"""

from __future__ import annotations

import random

#: The words of tests/strategies.py, and what lowercasing after tokenizing, the missing
#: ``rstrip`` and the ``zh`` ranges make differ: upper-case entities and ``<SKIPPED>``,
#: 'İ' (lowercase: 'i' + U+0307), 'ẞ' (lowercase 'ß'), the Kelvin sign (lowercase ASCII 'k',
#: but "Chinese" to ``zh``), the Ohm and Angstrom signs, full-width letters, a Roman numeral,
#: a year before a final full stop, hyphenation at a line end.
WORDS = ["a", "b", "c", "the", "The", "THE", "cat", "a", "b", ".", ",", "?", "don't", "3.5",
         "1990.", "-", "e-mail", "well-", "&amp;", "&quot;", "&QUOT;", "&AMP;", "&lt;",
         "<skipped>", "<SKIPPED>", "«", "é", "É", "Straße", "STRASSE", "ẞ", "ß", "İ",
         "İstanbul", "i\u0307", "\u212a", "k", "300\u212a", "\u2126", "\u03c9", "\u212b", "å",
         "日本語", "東京", "ＡＢＣ", "ａｂｃ", "Ⅻ", "ⅻ", "½", "$5", "(x)", "€", "ΟΔΟΣ", "οδοσ"]
#: Japanese and Korean words for the MeCab tokenizers.
CJK_WORDS = ["東京", "に", "行きました", "へ", "私", "は", "ＡＢＣ", "Tokyo", "TOKYO", "안녕하세요",
             "세계", "서울", "에", "갔습니다", "İ", ".", "、", "。"]
SEPARATORS = [" ", " ", " ", "  ", "\t", "", "\n", "-\n", "\xa0", "\u3000"]
#: What may end a segment: nothing mostly, else trailing whitespace (no ``rstrip`` here).
ENDINGS = ["", "", "", "", " ", "\n", "\t", "-\n", "  "]

TOKENIZERS = ["13a", "13a", "none", "zh", "intl", "intl", "char"]
MECAB = ["ja-mecab", "ko-mecab"]
FLORES = ["flores101", "flores200"]
WEIGHTS = {1: [(1.0,), (0.5,), (2.0,)],
           2: [(0.5, 0.5), (0.1, 0.9), (1, 1)],
           3: [(1 / 3, 1 / 3, 1 / 3), (0.2, 0.3, 0.5)],
           4: [(0.25, 0.25, 0.25, 0.25), (0.5, 0.5, 0.5, 0.5), (0.1, 0.2, 0.3, 0.4), (0, 0, 0, 1)],
           5: [(0.2, 0.2, 0.2, 0.2, 0.2)], 6: [(1 / 6,) * 6]}


def text(rng: random.Random, words: list[str], most: int = 7) -> str:
    chosen = [rng.choice(words) for _ in range(rng.randrange(0, most + 1))]
    if not chosen:
        return rng.choice(["", "", " ", "\n"])
    out = chosen[0]
    for word in chosen[1:]:
        out += rng.choice(SEPARATORS) + word
    return out + rng.choice(ENDINGS)


def _references(rng: random.Random, hyp: str, words: list[str]) -> list[str]:
    """Zero to four references: often the hypothesis itself, or one word shorter and one
    word longer (a length tie, in either order), or its words repeated."""
    count = rng.choice([0, 1, 1, 1, 2, 2, 2, 3, 4]) if rng.random() < 0.97 else 0
    refs = [text(rng, words) for _ in range(count)]
    hyp_words = hyp.split()
    if refs and rng.random() < 0.45:
        refs[0] = hyp
    if len(refs) >= 2 and hyp_words and rng.random() < 0.4:
        shorter = " ".join(hyp_words[:-1])
        longer = " ".join(hyp_words + [rng.choice(words)])
        refs[0], refs[1] = (shorter, longer) if rng.random() < 0.5 else (longer, shorter)
    if refs and rng.random() < 0.1:
        refs[-1] = " ".join(hyp_words + hyp_words)
    return refs


def corpus(rng: random.Random, words: list[str] = WORDS) -> tuple[list[str], list[list[str]]]:
    """One to four segments, each with zero to four references (none is rare: the tool
    raises ``ValueError`` there)."""
    hyps = [text(rng, words) for _ in range(rng.randrange(1, 5))]
    if rng.random() < 0.05:
        hyps = [rng.choice(["a a a a", "the the the", "a b a b a b"])]
    refs = [_references(rng, hyp, words) for hyp in hyps]
    if rng.random() < 0.97:
        for segment in refs:
            if not segment:
                segment.append(text(rng, words))
    return hyps, refs


def options(rng: random.Random, tokenizers: list[str] = TOKENIZERS) -> dict:
    """Every option of ``SacreBLEUScore``: ``n_gram`` 1-6, ``smooth``, ``tokenize``,
    ``lowercase``, and ``weights``; rarely a wrong one (weights of the wrong length, a
    tokenizer torchmetrics lacks): a ``ValueError``."""
    n_gram = rng.choice([4, 4, 4, 1, 2, 3, 5, 6])
    chosen = {"n_gram": n_gram, "smooth": rng.random() < 0.4,
              "tokenize": rng.choice(tokenizers), "lowercase": rng.random() < 0.5}
    if rng.random() < 0.005:
        chosen["tokenize"] = "spm"  # SacreBLEU's, not torchmetrics': a ValueError
    roll = rng.random()
    if roll < 0.25:
        chosen["weights"] = list(rng.choice(WEIGHTS[n_gram]))
    elif roll < 0.27:
        chosen["weights"] = [0.5] * (n_gram + 1)
    return chosen


def request(rng: random.Random, tokenizers: list[str] = TOKENIZERS,
            words: list[str] = WORDS) -> dict:
    """One request: ``hypotheses``, ``references``, ``level`` and ``options``."""
    hyps, refs = corpus(rng, words)
    level = "sentence" if len(hyps) == 1 and rng.random() < 0.5 else "corpus"
    return {"hypotheses": hyps, "references": refs, "level": level,
            "options": options(rng, tokenizers)}


def requests(seed: int, count: int) -> list[dict]:
    """``count`` requests from ``seed``: most with the pure-Python tokenizers, one in ten
    with MeCab's and one in twenty with the SentencePiece ones."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.1:
            out.append(request(rng, MECAB, CJK_WORDS))
        elif roll < 0.15:
            out.append(request(rng, FLORES, WORDS + CJK_WORDS))
        else:
            out.append(request(rng))
    return out
