"""The C statistics pass against the pure-Python one: equal integers, every tokenizer.

Both passes must give the same :class:`CorpusStats` (every field, the last segment too) for
any input; the statistics are integers, so "equal" means equal. Run on every CI run: the
README's install builds the extension wherever a C compiler is found; without one these
tests are skipped and say so.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import corpus
from tiers import examples

from bleu_harness.bleu import native
from bleu_harness.bleu.convention import Preprocessing
from bleu_harness.bleu.counting import CHUNK, count_in_c, count_in_python
from bleu_harness.bleu.tokenizers import TOKENIZERS, UNAVAILABLE_WITHOUT

pytestmark = pytest.mark.skipif(native._native is None, reason=str(native.why_unavailable()))

# Characters that decide tokenization: whitespace of every kind (str.split's Unicode rule),
# 13a's punctuation and digit rules, entities and tags (13a's Python fallback), one-, two-
# and four-byte code points (the C pass compares strings of different widths), case; T2T's
# Unicode punctuation and symbols and decimal digits beyond ASCII (Arabic-Indic three) next to
# digits that are not decimal (superscript two).
PIECES = list("abAB .,-'\"&;:!?()[]{}$%09\n\t\x1c\x85\u2028\u3000\u00a0éΩ中😀İ§€«»—¡٣²+") + [
    "&quot;", "&amp;", "&lt;", "&gt;", "&amp;quot;", "<skipped>", "-\n", "..", "5", "the", "The",
    "cat", "cat"]


def random_text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 24)))


#: Every tokenizer but those that run another program (pycocoevalcap's PTB pipeline, Java):
#: the C pass takes their tokens from Python as it takes any Python tokenizer's.
IN_PROCESS = [name for name in TOKENIZERS if name not in UNAVAILABLE_WITHOUT]


def all_keys(rng: random.Random) -> dict[Preprocessing, int]:
    return {Preprocessing(tokenizer, lowercase, drop): rng.choice([0, 1, 2, 3, 4, 6])
            for tokenizer in IN_PROCESS for lowercase in (False, True)
            for drop in (False, True)}


def assert_same(hyps, refs, keys) -> None:
    expected = count_in_python(hyps, refs, keys)
    got = count_in_c(hyps, refs, keys)
    for key in keys:
        assert got[key] == expected[key], key
        assert got[key].last == expected[key].last, key


def test_every_tokenizer_on_generated_text():
    rng = random.Random(7)
    for _ in range(examples(150, 50)):
        n = rng.randrange(0, 12)
        hyps = [random_text(rng) for _ in range(n)]
        refs = [[random_text(rng) if rng.random() < 0.85 else "" for _ in range(rng.randrange(5))]
                for _ in range(n)]
        assert_same(hyps, refs, all_keys(rng))


# Whole words, as tokenized text has them: where 13a, T2T, Perl's split and the lower-casing
# tokenizations give str.split()'s tokens the C pass takes them instead of tokenizing again,
# so these lines exercise that sharing (lone punctuation, case, ASCII and not) and where it
# must not happen (punctuation inside a word, entities, a digit before a dash, Unicode-only
# whitespace, non-ASCII case).
WORDS = ["the", "The", "THE", "cat", "Cat", ".", ",", "!", "&quot;", "&amp;", "'s", "André",
         "ÉTÉ", "Straße", "ΟΔΟΣ", "İ", "5", "3.5", "-", "5-4", "well-known", "U.S.", "«", "€",
         "§", "x\u00a0y", "a\x1cb", "<", "&", "٣", "a-\nb", "Dr.", "(ok)", "a’s", "1,000", ".5",
         "-3", "$5", "&QUOT;", "Ω.", "x!?", "«Ab»",
         # entities inside words, replaced one after another as SacreBLEU does (&amp;lt; is <,
         # &amp;quot; is &quot;), and in capitals (replaced only after lower-casing)
         "&amp;lt;", "&amp;quot;", "&amp;amp;", "a&gt;b", "&lt;", "&GT;", "&quot;5", "5&amp;",
         "&apos;s", "&&quot;;", "&Amp;gt;", "x&amp;gt;&quot;é",
         # longer than the C pass's on-stack buffer for one word's entities
         "x" * 40 + "&amp;lt;" + "Y" * 30 + "&quot;"]


def test_tokenizations_that_share_str_split_tokens_agree():
    """Random subsets of the tokenizations, so that each takes its tokens every way it can:
    from str.split()'s as they are, from another tokenization's, built token by token from
    str.split()'s (T2T; 13a and mteval's folded 13a when no 13a lends them), or on its own."""
    rng = random.Random(11)
    every = [Preprocessing(tokenizer, lowercase)
             for tokenizer in ("none", "13a", "13a-unstripped", "multibleu", "mteval-13a",
                               "mteval-13a-lc", "t2t", "char") for lowercase in (False, True)]

    def line():
        return " ".join(rng.choice(WORDS if rng.random() < 0.3 else WORDS[:8])
                        for _ in range(rng.randrange(0, 12)))

    for _ in range(examples(400, 100)):
        chosen = [key for key in every[1:] if rng.random() < 0.3]
        if rng.random() < 0.8:
            chosen.append(every[0])
        keys = {key: 6 if key.tokenizer.startswith("mteval") else 4 for key in chosen}
        n = rng.randrange(1, 6)
        assert_same([line() for _ in range(n)],
                    [[line() for _ in range(rng.randrange(0, 4))] for _ in range(n)], keys)


@settings(max_examples=examples(150), deadline=None)
@given(corpus(max_segments=6), st.sampled_from([0, 1, 2, 4, 5]))
def test_the_corpus_strategies_edge_cases(data, order):
    hyps, refs = data
    assert_same(hyps, refs, {Preprocessing(t, lc, drop): order for t in ("none", "13a", "char")
                             for lc in (False, True) for drop in (False, True)})


def test_repeated_ngrams_and_long_lines_are_clipped_alike():
    """Few distinct words: every n-gram repeats, so clipping decides every count."""
    rng = random.Random(3)
    keys = {Preprocessing("none"): 9, Preprocessing("none", False, True): 3}
    for _ in range(60):
        words = ["x", "y", "z"][: rng.randint(1, 3)]

        def line(words=words):
            return " ".join(rng.choice(words) for _ in range(rng.randint(0, 400)))

        n = rng.randint(1, 4)
        assert_same([line() for _ in range(n)],
                    [[line() for _ in range(rng.randint(0, 3))] for _ in range(n)], keys)


def test_references_side_by_side_are_counted_apart():
    """Several references of few words, each order to nine: the C pass numbers the n-grams of
    all references in one array, so an n-gram or a count must not run over from one
    reference into the next (the largest count in *one* reference clips)."""
    rng = random.Random(17)
    for _ in range(3000):
        words = ["a", "b", "c", "d", "e", "f"][: rng.randint(1, 6)]
        longest = rng.choice([3, 8, 20, 60])

        def line(words=words, longest=longest):
            return " ".join(rng.choice(words) for _ in range(rng.randint(0, longest)))

        n = rng.randint(1, 4)
        assert_same([line() for _ in range(n)],
                    [[line() for _ in range(rng.randint(0, 4))] for _ in range(n)],
                    {Preprocessing("none"): rng.randint(1, 9)})


def test_one_preprocessing_is_summed_a_chunk_at_a_time_alike():
    """With one preprocessing the pure-Python pass sums :data:`CHUNK` segments at once, at C
    speed when each has one reference: corpora of several chunks (the longest reference in
    the first, every hypothesis length around the order), with one reference everywhere
    (empty ones dropped or kept), with several, with none or one, and with none to two in
    the first chunk only."""
    rng = random.Random(5)

    def line(longest):
        return " ".join(rng.choice(WORDS[:8]) for _ in range(rng.randrange(longest + 1)))

    for reference_counts in ([1], [1, 2, 3], [0, 1], None):
        n = 2 * CHUNK + rng.randrange(CHUNK)
        hyps = [line(10) for _ in range(n)]
        refs = [[line(40 if i < 10 else 20) for _ in range(rng.choice(
                    reference_counts or ([0, 1, 2] if i < CHUNK else [1])))] for i in range(n)]
        for key in (Preprocessing("none"), Preprocessing("13a", True, True)):
            for order in (1, 4, 9):
                assert_same(hyps, refs, {key: order})


def test_iterators_are_consumed_once_and_lengths_must_agree():
    key = Preprocessing("13a", True)
    hyps, refs = ["The cat .", "a b"], [["the cat", "x"], ["a b c"]]
    assert count_in_c(iter(hyps), iter(refs), {key: 4}) == count_in_python(hyps, refs, {key: 4})
    with pytest.raises(ValueError, match="differ in length"):
        count_in_c(["a", "b"], [["a"]], {Preprocessing(): 4})


def test_a_tokenizer_error_propagates():
    def broken(text):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        native.count_groups(["a"], [["a"]], [("custom", False, [(4, False)], broken)])
    with pytest.raises(TypeError, match="strings"):
        native.count_groups(["a"], [["a"]], [("custom", False, [(4, False)],
                                                lambda text: [1, 2])])


def test_a_tokenizer_alone_derives_its_tokens_as_beside_str_split():
    """13a, mteval's folded 13a or T2T asked alone: the C pass adds a str.split() base of its
    own to derive their tokens from (one convention cost more than two before), and counts
    as the Python pass does."""
    rng = random.Random(11)
    for tokenizer in ("13a", "mteval-13a-lc", "t2t"):
        for lowercase in (False, True):
            for _ in range(40):
                n = rng.randrange(1, 8)
                hyps = [random_text(rng) for _ in range(n)]
                refs = [[random_text(rng) for _ in range(rng.randrange(1, 4))] for _ in range(n)]
                assert_same(hyps, refs, {Preprocessing(tokenizer, lowercase): 4})
