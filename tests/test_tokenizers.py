"""Tokenizers on their own: documented examples, and SacreBLEU's tokenizers as the oracle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh
from tiers import examples, exhaustive

from bleu_harness.bleu.tokenizers import get_tokenizer, tokenize_13a, tokenize_intl

ORACLES = {"13a": Tokenizer13a(), "intl": TokenizerV14International(), "char": TokenizerChar(),
           "zh": TokenizerZh()}

PIECES = list("aZé日中。，「 .,-'\"&;:!?()[]{}$%0123456789\n\t€«»\u2014\u2026\u2192") + [
    "&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-\n"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@settings(max_examples=examples(500), deadline=None)
@given(text=TEXT, name=st.sampled_from(sorted(ORACLES)))
def test_tokenizers_agree_with_sacrebleu(text, name):
    # SacreBLEU rstrips the segment before it tokenizes (BLEU._preprocess_segment).
    assert get_tokenizer(name)(text) == ORACLES[name](text.rstrip()).split()


def test_13a_single_pass_equals_sacrebleu_four_passes_on_generated_text():
    """The translate path and the four-pass path against SacreBLEU 13a on 20,000 lines made
    of the characters that decide 13a (digits next to runs of periods, commas and dashes,
    entities, tags, Unicode whitespace), with the live SacreBLEU as the oracle."""
    import random

    rng = random.Random(13)
    pieces = list("aZé .,-'\"&;:!?()[]{}$%09\n\t€«»\x1c\u2028\u00a0") + [
        "&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-\n", "&amp;quot;", "..", ",,", "5"]
    oracle = ORACLES["13a"]
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 16)))
        assert tokenize_13a(text) == oracle(text.rstrip()).split(), repr(text)
    assert tokenize_13a("a.,5 x,,5 5.,.5") == ["a", ".", ",5", "x", ",", ",5", "5", ".", ",",
                                                ".5"]


def test_13a_documented_behaviour():
    # SacreBLEU's tokenizer_13a.py (mteval-v13a's tokenization without lowercasing): entities
    # unescaped, year-final dot split, dash after a digit split.
    assert tokenize_13a("He said &quot;1990.&quot;") == ["He", "said", '"', "1990", ".", '"']
    assert tokenize_13a("3.5-4 km, e-mail") == ["3.5", "-", "4", "km", ",", "e-mail"]
    assert tokenize_13a("a<skipped>b hyphen-\nated") == ["ab", "hyphenated"]


def test_intl_documented_behaviour():
    # "It's" -> "It ' s"; a year followed by a final dot keeps the dot (mteval-v14 quirk).
    assert tokenize_intl("It's 1990.") == ["It", "'", "s", "1990."]
    assert tokenize_intl("3,5 $ €") == ["3,5", "$", "€"]


def test_unknown_tokenizer_is_a_value_error():
    with pytest.raises(ValueError, match="unknown tokenizer 'zz'"):
        get_tokenizer("zz")


def test_zh_chinese_ranges_are_sacrebleus_for_every_code_point():
    """SacreBLEU compares strings, and two of its bounds are two characters long
    ('\\u20000' is U+2000 then '0'): the engine's ranges must accept exactly what
    ``TokenizerZh._is_chinese_char`` accepts."""
    from bleu_harness.bleu.tokenizers.chinese import CHINESE_RANGES

    def ours(code: int) -> bool:
        return any(a <= code <= b for a, b in CHINESE_RANGES)

    # The quick tier: either side of each of the engine's bounds (a range that ends one
    # code point off is wrong there) and every 16th code point (a range missing whole);
    # the exhaustive tier: every code point.
    codes = range(0x110000) if exhaustive() else sorted(
        {c for a, b in CHINESE_RANGES for bound in (a, b) for c in range(bound - 2, bound + 3)}
        | set(range(0, 0x110000, 16)))
    wrong = [hex(c) for c in codes if 0 <= c < 0x110000 and not 0xD800 <= c <= 0xDFFF
             and ours(c) != TokenizerZh._is_chinese_char(chr(c))]
    assert wrong == []
    assert ours(0x2192) and not ours(0x20000)  # an arrow is "Chinese", Extension B is not


def test_hugging_face_13a_keeps_the_trailing_line_break():
    """evaluate's Tokenizer13a (vendored, tests/oracles/hf_evaluate) is called on the string
    as it is: 'a-\\n' joins to 'a', where SacreBLEU strips first and keeps 'a-'."""
    import importlib.util
    import random
    from pathlib import Path

    path = Path(__file__).parent / "oracles" / "hf_evaluate" / "tokenizer_13a.py"
    spec = importlib.util.spec_from_file_location("hf_tokenizer_13a", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    oracle = module.Tokenizer13a()
    ours = get_tokenizer("13a-unstripped")
    assert ours("a-\n") == oracle("a-\n") == ["a"]
    assert get_tokenizer("13a")("a-\n") == ["a-"]
    rng = random.Random(14)
    pieces = list("a .,-&;09\n\t ") + ["-\n", "&amp;", "<skipped>", "\n\n"]
    for _ in range(5_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 12)))
        assert ours(text) == oracle(text), repr(text)


def test_t2t_character_classes_match_bleu_hook_enumeration():
    """``bleu_hook.UnicodeRegex`` lists every character of category P* and S*; the engine
    writes the same classes as ranges. Same tokens on random text over the whole range."""
    import random
    import re
    import sys
    import unicodedata

    from bleu_harness.bleu.tokenizers import tokenize_t2t

    def chars(prefix):  # tensor2tensor/utils/bleu_hook.py, UnicodeRegex.property_chars
        return "".join(chr(x) for x in range(sys.maxunicode)
                       if unicodedata.category(chr(x)).startswith(prefix))

    punctuation, symbols = re.escape(chars("P")), re.escape(chars("S"))
    rules = ((re.compile(r"([^\d])([" + punctuation + r"])"), r"\1 \2 "),
             (re.compile(r"([" + punctuation + r"])([^\d])"), r" \1 \2"),
             (re.compile("([" + symbols + "])"), r" \1 "))
    rng = random.Random(2024)
    for _ in range(3000):
        text = "".join(chr(rng.randrange(0x20, 0x30000)) if rng.random() < 0.4
                       else rng.choice("ab .,!?-'1€") for _ in range(rng.randrange(1, 16)))
        expected = text
        for pattern, replacement in rules:
            expected = pattern.sub(replacement, expected)
        assert tokenize_t2t(text) == expected.split(), text
