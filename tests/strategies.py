"""Hypothesis strategies for BLEU inputs: the edge cases where conventions part ways."""

from __future__ import annotations

from hypothesis import strategies as st

# Few words, so n-grams repeat and match; punctuation, entities, digits, non-ASCII, CJK, case.
WORDS = ["a", "b", "c", "the", "The", "cat", "a", "b", ".", ",", "?", "don't", "3.5", "1990.",
         "-", "e-mail", "&amp;", "&quot;", "«", "é", "Straße", "日本語", "$5", "(x)"]
SEPARATORS = [" ", " ", " ", "  ", "\t", ""]


@st.composite
def segment_text(draw, max_words: int = 7, words: list[str] = WORDS,
                 separators: list[str] = SEPARATORS) -> str:
    chosen = draw(st.lists(st.sampled_from(words), max_size=max_words))
    if not chosen:
        return draw(st.sampled_from(["", " ", ""]))
    text = chosen[0]
    for word in chosen[1:]:
        text += draw(st.sampled_from(separators)) + word
    return text


@st.composite
def corpus(draw, min_segments: int = 1, max_segments: int = 4, words: list[str] = WORDS,
           separators: list[str] = SEPARATORS) -> tuple[list[str], list[list[str]]]:
    n = draw(st.integers(min_segments, max_segments))
    text = segment_text(words=words, separators=separators)
    hyps = [draw(text) for _ in range(n)]
    # A segment without references is rare (both libraries raise on it), but it happens.
    ref_counts = st.sampled_from([0, 1, 1, 1, 2, 2, 3, 4])
    refs = [[draw(text) for _ in range(draw(ref_counts))] for _ in range(n)]
    # Sometimes make a reference identical to its hypothesis, or tie two reference lengths.
    for i in range(n):
        if refs[i] and draw(st.booleans()):
            refs[i][0] = hyps[i]
    return hyps, refs


WEIGHTS = st.sampled_from([
    (0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1.0,), (1 / 3, 1 / 3, 1 / 3), (0.5, 0.5, 0.5, 0.5),
    (0.2, 0.2, 0.2, 0.2, 0.2), (0, 0, 1), (0.1, 0.2, 0.3, 0.4), (2, 0, 0, 1), (),
    ((0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25)),
])

NLTK_OPTIONS = st.fixed_dictionaries({
    "weights": WEIGHTS,
    "smoothing": st.sampled_from([f"method{i}" for i in range(8)]),
    "auto_reweigh": st.booleans(),
}, optional={
    "epsilon": st.sampled_from([0.1, 0.01, 1]),
    "alpha": st.sampled_from([5, 1, 0.5]),
    "k": st.sampled_from([5, 2, 0.5]),
})

SACREBLEU_OPTIONS = st.fixed_dictionaries({}, optional={
    "smooth_method": st.sampled_from(["none", "floor", "add-k", "exp"]),
    "smooth_value": st.sampled_from([None, 0.1, 1, 0.5, 2]),
    "effective_order": st.booleans(),
    "tokenize": st.sampled_from(["none", "13a", "intl", "char"]),
    "lowercase": st.booleans(),
    "max_ngram_order": st.sampled_from([1, 2, 3, 4, 5, 6]),
})

#: torchmetrics ``SacreBLEUScore``: ``n_gram`` any order, ``smooth``, its tokenizers that
#: need nothing but ``regex``, ``lowercase``, ``weights`` of ``n_gram`` entries.
TORCHMETRICS_SACREBLEU_OPTIONS = st.integers(1, 5).flatmap(lambda n: st.fixed_dictionaries({
    "n_gram": st.just(n),
    "smooth": st.booleans(),
    "tokenize": st.sampled_from(["none", "13a", "zh", "intl", "char"]),
    "lowercase": st.booleans(),
}, optional={"weights": st.sampled_from([(1 / n,) * n, (0.5,) * n, tuple(range(1, n + 1))])}))

# Captions for pycocoevalcap's PTB pipeline: what the Stanford PTBTokenizer splits, escapes
# (brackets, quotes, U+0085 as "..."), joins with U+00A0 ("3 1/2") or drops as punctuation,
# and case it folds with Java's toLowerCase (final sigma, dotted capital I). No character at
# which Java ends a line (U+000D, U+000B, U+000C, U+2028, U+2029): pycocoevalcap then pairs
# captions with the wrong images, which the engine refuses (tests/test_pycocoevalcap.py).
CAPTION_WORDS = WORDS + [
    "A", "Man", "(", ")", "[x]", "{y}", '"', "'", "`", "``", "''", "“quoted”", "‘x’", "--", "—",
    "–", "...", "…", "U.S.", "Mr.", "e.g.", "A.", "can't", "'tis", "gonna", "cannot", "3 1/2",
    "5,000", "1/2", "&", "@home", "#tag", "a@b.com", "http://x.org/a?b=1", ":-)", "!", "?!",
    ";", ":", "-LRB-", "ΣΑΣ", "İstanbul", "ﬁne", "naïve", "\u00a0", "\u0085", "\u00ad", "😀",
    "x\ny", "\x00", "\u200b",
]


@st.composite
def caption_text(draw, max_words: int = 8) -> str:
    words = draw(st.lists(st.sampled_from(CAPTION_WORDS), max_size=max_words))
    if words and draw(st.booleans()):  # as most captions end: a word, a full stop
        words.append(draw(st.sampled_from(["cat.", "dog", "grass .", "field"])))
    if not words:
        return draw(st.sampled_from(["", " ", "\t"]))
    text = words[0]
    for word in words[1:]:
        text += draw(st.sampled_from(SEPARATORS)) + word
    return text


@st.composite
def caption_corpus(draw, max_segments: int = 6) -> tuple[list[str], list[list[str]]]:
    """Captions with 1-5 references each (COCO has 5), sometimes one equal to the candidate
    or to it in another case."""
    n = draw(st.integers(1, max_segments))
    hyps = [draw(caption_text()) for _ in range(n)]
    refs = [[draw(caption_text()) for _ in range(draw(st.integers(1, 5)))] for _ in range(n)]
    for i in range(n):
        if draw(st.booleans()):
            refs[i][0] = draw(st.sampled_from([hyps[i], hyps[i].upper(), hyps[i].lower()]))
    return hyps, refs
