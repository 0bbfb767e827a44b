"""Generated inputs for PyTorch-Ignite's ``Bleu`` and torchtext's ``bleu_score``: short
segments (no n-gram of the top order, zero-match orders), length ties in both orders, empty
hypotheses and references, a segment without references (rare: both raise), repeated words,
whitespace that ``str.split()`` splits on, and every option.

Shared by tools/record_ignite_torchtext.py (which records the real tools' answers into
tests/data/ignite.json and tests/data/torchtext.json) and tests/test_ignite.py /
tests/test_torchtext.py (which also ask the real tools live when they are installed), so
both draw the same kind of input from a seeded ``random.Random``. Standard library only: the
recorder runs it on the torch interpreter too.
"""

from __future__ import annotations

import random

#: Few words, so n-grams repeat and match; punctuation and non-ASCII words.
WORDS = ["a", "b", "c", "the", "The", "cat", "a", "b", "a", ".", ",", "don't", "3.5", "é",
         "日本語", "Straße"]
#: ``str.split()`` splits on each of these (``\xa0`` and U+3000 too).
SEPARATORS = [" ", " ", " ", "  ", "\t", "\n", "\xa0", "\u3000"]
SMOOTHINGS = ["no_smooth", "smooth1", "nltk_smooth2", "smooth2"]
#: torchtext weight vectors by ``max_n`` (as given, not normalised).
WEIGHTS = {1: [(1.0,), (0.5,), (2,)],
           2: [(0.5, 0.5), (0.1, 0.9), (1, 1)],
           3: [(1 / 3, 1 / 3, 1 / 3), (0.2, 0.3, 0.5), (0, 0, 1)],
           4: [(0.25, 0.25, 0.25, 0.25), (0.5, 0.5, 0.5, 0.5), (0.1, 0.2, 0.3, 0.4),
               (0, 0, 0, 1), (0.4, 0.3, 0.2, 0.1)],
           5: [(0.2, 0.2, 0.2, 0.2, 0.2)], 6: [(1 / 6,) * 6]}


def text(rng: random.Random, words: list[str] = WORDS, most: int = 8) -> str:
    chosen = [rng.choice(words) for _ in range(rng.randrange(0, most + 1))]
    if not chosen:
        return rng.choice(["", "", " "])
    out = chosen[0]
    for word in chosen[1:]:
        out += rng.choice(SEPARATORS) + word
    return out


def _references(rng: random.Random, hyp: str) -> list[str]:
    """Zero to four references: often the hypothesis itself, or one word shorter and one
    word longer (a length tie, in either order), or its words with one changed."""
    count = rng.choice([1, 1, 1, 2, 2, 2, 3, 4])
    refs = [text(rng) for _ in range(count)]
    words = hyp.split()
    if rng.random() < 0.4:
        refs[0] = hyp
    elif words and rng.random() < 0.4:
        changed = list(words)
        changed[rng.randrange(len(changed))] = rng.choice(WORDS)
        refs[0] = " ".join(changed)
    if len(refs) >= 2 and words and rng.random() < 0.4:
        shorter = " ".join(words[:-1])
        longer = " ".join(words + [rng.choice(WORDS)])
        refs[0], refs[1] = (shorter, longer) if rng.random() < 0.5 else (longer, shorter)
    if rng.random() < 0.05:
        refs[-1] = ""
    return refs


def corpus(rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """One to five segments; rarely a segment without references, or a hypothesis of one
    word repeated; more rarely no segment at all."""
    if rng.random() < 0.02:
        return [], []
    hyps = [text(rng) for _ in range(rng.randrange(1, 6))]
    if rng.random() < 0.05:
        hyps = [rng.choice(["a a a a", "the the the the the the the", "a b a b a b"])]
    refs = [_references(rng, hyp) for hyp in hyps]
    if rng.random() < 0.03:
        refs[rng.randrange(len(refs))] = []
    return hyps, refs


def ignite_options(rng: random.Random) -> dict:
    """``Bleu(ngram, smooth, average)``: every smoothing and both averages; ``ngram`` 1-6."""
    return {"ngram": rng.choice([4, 4, 4, 1, 2, 3, 5, 6]), "smooth": rng.choice(SMOOTHINGS),
            "average": rng.choice(["macro", "micro"])}


def torchtext_options(rng: random.Random) -> dict:
    """``bleu_score(max_n, weights)``: ``max_n`` 1-6 with weights of that length; rarely the
    default weights with another ``max_n`` or weights one too long (its assert)."""
    max_n = rng.choice([4, 4, 4, 1, 2, 3, 5, 6])
    roll = rng.random()
    if roll < 0.03:
        return {"max_n": max_n} if max_n != 4 else {"max_n": 4, "weights": [0.5] * 5}
    return {"max_n": max_n, "weights": list(rng.choice(WEIGHTS[max_n]))}


def requests(seed: int, count: int, options) -> list[dict]:
    """``count`` requests from ``seed``: ``hypotheses``, ``references``, ``level`` (sentence
    for half of the one-segment corpora) and ``options(rng)``."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        hyps, refs = corpus(rng)
        level = "sentence" if len(hyps) == 1 and rng.random() < 0.5 else "corpus"
        out.append({"hypotheses": hyps, "references": refs, "level": level,
                    "options": options(rng)})
    return out
