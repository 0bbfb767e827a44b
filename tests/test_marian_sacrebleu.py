"""The marian convention's current releases against Marian's own ``SacreBleuValidator``:
``src/training/validator.h`` and ``validator.cpp`` of Marian v1.12.0
(marian-nmt/marian-dev@65bf82ff; its BLEU is the same from 1.10.0 to master), unmodified in
``tests/oracles/marian/1.12.0/``, compiled with ``g++`` over stubs of the rest of Marian and
driven by ``tests/marian_sacrebleu_driver.cc`` (``tests/marian_oracle.py``). On generated
corpora -- CJK, Thai and Kana next to Latin words and punctuation, empty and short lines,
repeated words -- the engine's statistics are the validator's float32 ones exactly and its
score is ``calcBLEU``'s bit for bit, for ``bleu``, ``bleu-detok`` and ``bleu-segmented`` with
a SentencePiece or a default vocabulary. Skipped without ``g++``."""

from __future__ import annotations

import hashlib
import math
import random
from pathlib import Path

import marian_oracle as oracle
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies import SEPARATORS, WORDS, segment_text
from tiers import examples

from bleu_harness.bleu import ConventionError, libm, score
from bleu_harness.bleu.arithmetic import float32
from bleu_harness.bleu.tokenizers.marian import tokenize_marian_13a_cjk

HERE = Path(__file__).parent
NAME = "marian"
pytestmark = pytest.mark.skipif(oracle.why_no_compiler() is not None,
                                reason=oracle.why_no_compiler() or "")

#: ``git rev-parse 65bf82ff:PATH`` of the vendored files (``src/`` but for the licence;
#: ``3rd_party/CLI/StringTools.hpp`` is v1.7.8's, the same blob: ``tests/test_marian.py``).
GIT_BLOBS = {"training/validator.h": "16bfd2457fcb364218d305a79e2437da650c51bc",
             "training/validator.cpp": "ef1bac3dbe7eefaf2c3f465117f2f8d46f551fef",
             "common/regex.h": "f2ef95c1ae091664dfe5d1ea39c754253d3c4321",
             "common/utils.h": "fbcf672d75c5178dacd71879125a790d988fb0ce",
             "common/utils.cpp": "1f3fd6c07c81d32cf588a38c336ff461848ae96b",
             "data/types.h": "05cdf96cfe328a6b7c3d7b9f2e974d53536e240b",
             "LICENSE.md": "878908214b517318c946a7d97b2239397c739181"}

#: Words around the current validator's rules: continuous script (Han, Kana, Thai, an
#: iteration mark, a Han character past U+FFFF) beside scripts it leaves whole (Hangul,
#: full-width Latin), '</s>', a final '5.', entities, whitespace C's isspace does not know.
CJK_WORDS = WORDS + ["日本", "の", "東京タワー", "ภาษาไทย", "々", "\U00020000", "한국어", "ＡＢ",
                     "x日y", "5.", "</s>", "<unk>", "a\tb", "x\u00a0y", "1,000", "。", "「a」"]
METRICS = ("bleu", "bleu-detok", "bleu-segmented")
VOCABS = ("SentencePieceVocab", "DefaultVocab")


@pytest.fixture(scope="module")
def validator():
    running = oracle.SacreBleuValidator(oracle.kept_sacrebleu())
    yield running
    running.close()


def test_the_vendored_files_are_the_release():
    for name, blob in GIT_BLOBS.items():
        data = (oracle.SACREBLEU_ORACLES / name).read_bytes()
        assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == blob, name


def ours(hyps, refs, metric, vocab_type, version="1.12"):
    try:
        result = score(hyps, [[r] for r in refs], NAME, "corpus", valid_metrics=metric,
                       vocab_type=vocab_type, version=version)
    except ConventionError as error:
        return f"raises {error.library_exception}", None
    return result.score, result


def statistics(result) -> list[int]:
    """The validator's 13 statistics as the engine has them (reference n-grams: 0)."""
    return [*(x for pair in zip(result.counts, result.totals) for x in (*pair, 0)),
            result.ref_len]


SEGMENT = segment_text(max_words=8, words=CJK_WORDS, separators=SEPARATORS + ["\v"])


@settings(max_examples=examples(150, 40), deadline=None)
@given(pairs=st.lists(st.tuples(SEGMENT, SEGMENT), min_size=1, max_size=5),
       metric=st.sampled_from(METRICS), vocab_type=st.sampled_from(VOCABS),
       version=st.sampled_from(["1.10", "1.11", "1.12"]), same=st.lists(st.booleans(), max_size=5))
@example(pairs=[("日本語の文です", "日本語の文だ")], metric="bleu", vocab_type="SentencePieceVocab",
         version="1.12", same=[])
@example(pairs=[("", ""), ("a b c d", "a b </s> c d")], metric="bleu-segmented",
         vocab_type="DefaultVocab", version="1.12", same=[])
@example(pairs=[("a a a a a", "a a a a a")], metric="bleu-segmented",
         vocab_type="SentencePieceVocab", version="1.10", same=[])
@example(pairs=[("The price rose to 5.", "The price rose to 5 .")], metric="bleu-detok",
         vocab_type="SentencePieceVocab", version="1.11", same=[])
def test_the_validator(validator, pairs, metric, vocab_type, version, same):
    """Statistics equal; the score bit for bit."""
    hyps = [h for h, _ in pairs]
    refs = [h if i < len(same) and same[i] else r for i, (h, r) in enumerate(pairs)]
    theirs, stats = validator.bleu(hyps, refs, metric, vocab_type)
    mine, result = ours(hyps, refs, metric, vocab_type, version)
    assert result is not None, mine
    assert [int(v) for v in stats] == statistics(result)
    assert mine.hex() == theirs.hex(), (hyps, refs, metric, vocab_type, mine, theirs)


def test_every_positive_score_is_bit_equal(validator):
    """Generated corpora whose references share most words with their hypotheses, so that
    every order has matches and the logarithms and the exponential are taken."""
    rng = random.Random(12)
    positive = 0
    words = [w for w in CJK_WORDS if w.strip() and w != "</s>"]
    while positive < examples(60, 25):
        hyps = [" ".join(rng.choice(words) for _ in range(rng.randint(3, 12)))
                for _ in range(rng.randint(1, 4))]
        refs = [" ".join(w if rng.random() < 0.7 else rng.choice(words) for w in h.split())
                for h in hyps]
        metric, vocab_type = rng.choice(METRICS), rng.choice(VOCABS)
        theirs, _ = validator.bleu(hyps, refs, metric, vocab_type)
        mine, result = ours(hyps, refs, metric, vocab_type)
        if result is None or theirs <= 0:
            continue
        assert mine.hex() == theirs.hex(), (hyps, refs, metric, vocab_type, mine, theirs)
        positive += 1


def test_the_logs_are_subtracted(validator):
    """Eight words, two replaced: the same statistics as v1.7.8's ``bleu`` counts, and
    ``logf(m) - logf(t)`` (v1.12.0) gives another last bit than ``logf(m / t)`` (v1.7.8):
    the engine follows each (found by search)."""
    words = [f"w{i}" for i in range(8)]
    hyp = " ".join("x" if i in (1, 6) else w for i, w in enumerate(words))
    ref = " ".join(words)
    theirs, _ = validator.bleu([hyp], [ref], "bleu", "DefaultVocab")
    mine, _ = ours([hyp], [ref], "bleu", "DefaultVocab")
    old, _ = ours([hyp], [ref], "bleu", "SentencePieceVocab", version="1.7")
    assert mine.hex() == theirs.hex()
    assert old != theirs


def test_logf_is_the_c_librarys_not_the_rounded_double_log(validator):
    """A hypothesis of 1,579 words, one of them replaced: ``logf(1579)`` (glibc) is not
    ``log(1579)`` rounded to float32, and the validator's score is the engine's bit for bit
    only through the C library's ``logf``/``expf`` (:mod:`bleu_harness.bleu.libm`; found by
    search)."""
    if libm.why_unavailable():
        pytest.skip(libm.why_unavailable())
    words = [f"w{i}" for i in range(1579)]
    hyp, ref = " ".join("x" if i == 7 else w for i, w in enumerate(words)), " ".join(words)
    theirs, _ = validator.bleu([hyp], [ref], "bleu", "DefaultVocab")
    mine, _ = ours([hyp], [ref], "bleu", "DefaultVocab")
    assert mine.hex() == theirs.hex()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(libm, "logf", lambda x: float32(math.log(x)))
        patch.setattr(libm, "expf", lambda x: float32(math.exp(x)))
        rounded, _ = ours([hyp], [ref], "bleu", "DefaultVocab")
    assert rounded != theirs, rounded


@pytest.mark.parametrize("text", ["日本語の文です", "東京タワーへ行く。", "ภาษาไทย ok", "한국어 문장",
                                  "x日y", "々\U00020000", "ＡＢ「a」", "", "It costs 5."])
def test_the_cjk_tokens(validator, text):
    """``bleu``'s tokens with a SentencePiece vocabulary, through the validator's statistics:
    the reference length is the number of tokens ``tokenize``, ``tokenizeContinuousScript``
    and ``splitAny`` make."""
    _, stats = validator.bleu([""], [text], "bleu", "SentencePieceVocab")
    assert stats[12] == len(tokenize_marian_13a_cjk(text))


def test_the_hypothesis_keeps_its_eos_in_bleu_segmented(validator):
    """An empty hypothesis is one word long in ``bleu-segmented``: its EOS."""
    theirs, stats = validator.bleu([""], ["a"], "bleu-segmented")
    _, result = ours([""], ["a"], "bleu-segmented", "SentencePieceVocab")
    assert stats[1] == 1 and result.hyp_len == 1 and result.score == theirs == 0.0


def test_what_marian_aborts_on_is_an_option_error():
    """``bleu-segmented`` before 1.10 and ``bleu-detok`` with a default vocabulary before
    1.10 (Marian aborts before validating); a release the engine does not model."""
    for options in ({"valid_metrics": "bleu-segmented", "version": "1.9"},
                    {"valid_metrics": "bleu-detok", "vocab_type": "DefaultVocab",
                     "version": "1.7"},
                    {"version": "1.6"}, {"version": 1.1}, {"version": "2.0"}):
        with pytest.raises(ValueError, match="marian"):
            score(["a"], [["a"]], NAME, "corpus", **options)
    assert score(["a"], [["a"]], NAME, "corpus", version="v1.12.0").score == 0.0


def test_identify_names_the_current_validator(validator):
    """A number the v1.12.0 validator gave, printed to two decimals as Marian logs it:
    ``identify`` names Marian with its default options (the current validator's ``bleu``)."""
    from bleu_harness.explain.identify import identify
    from bleu_harness.explain.inputs import Input

    hyps = ["東京タワーへ行きました。", "The cat sat on the mat."]
    refs = ["東京タワーに行った。", "The cat sat on a mat."]
    theirs, _ = validator.bleu(hyps, refs)
    found = identify(Input(tuple(hyps), tuple((r,) for r in refs)), f"{theirs:.2f}")
    assert any(m["convention"] == NAME and m["options"] == {"valid_metrics": "bleu"}
               for m in found["matches"]), found
