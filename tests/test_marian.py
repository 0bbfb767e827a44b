"""The marian convention against Marian's own ``BleuValidator``: ``src/training/validator.h`` at
marian-nmt/marian-dev@46c94a58 (Marian v1.7.8), unmodified in ``tests/oracles/marian/``,
compiled with ``g++`` over stubs of the rest of Marian and driven by
``tests/marian_bleu_driver.cc`` (``tests/marian_oracle.py``). On generated corpora the
engine's statistics are the validator's float32 ones exactly, and its score is ``calcBLEU``'s
bit for bit -- the engine calls the C library's ``logf``/``expf`` as the compiled validator
does (:mod:`bleu_harness.bleu.libm`; neither is correctly rounded, so the double logarithm
rounded to float32 would miss a few bits). Skipped without ``g++``. The compiled 1.7.8 validator
runs in the exhaustive tier; the quick one holds its recorded cases (``cases/families/marian.yaml``)
and runs Marian 1.12.0's (``tests/test_marian_sacrebleu.py``), the same C library's ``logf``."""

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
from tiers import examples, exhaustive_only

from bleu_harness.bleu import ConventionError, libm, score
from bleu_harness.bleu.arithmetic import float32
from bleu_harness.bleu.tokenizers.marian import tokenize_marian_13a
from bleu_harness.cases.loader import load

HERE = Path(__file__).parent
NAME = "marian"
pytestmark = pytest.mark.skipif(oracle.why_no_compiler() is not None,
                                reason=oracle.why_no_compiler() or "")

#: ``git rev-parse 46c94a58:src/PATH`` of the vendored files.
GIT_BLOBS = {"training/validator.h": "0428a9c86600200c21f4f7430a928493f22de62d",
             "common/regex.h": "eb7482a8fbbaa09f9f90661cd67d9691c8b9ca3d",
             "common/utils.h": "7778a9d78f8f7fee503197e0fbe79f4f6867ad79",
             "common/utils.cpp": "8a726fe57df749351025299ebd1e1a4fd148621d",
             "3rd_party/CLI/StringTools.hpp": "24e01bcd7190ca3393fbc148e964b8e280f3d3dc",
             "data/types.h": "2bda6eceae6ee37395a6740a2ebfb08cf22a90ce"}

#: Words and pieces around Marian's rules: a final '5.' (split: the line is padded), '</s>'
#: inside a line, tabs and other whitespace inside words, entities, non-ASCII.
MARIAN_WORDS = WORDS + ["5.", ".5", "1,000", "</s>", "<unk>", "a\tb", "x\u00a0y", "p\vq",
                        "<skipped>", "1-2", "日本", "(c)"]


@pytest.fixture(scope="module")
def validator(tmp_path_factory):
    running = oracle.Validator(oracle.build(tmp_path_factory.mktemp("marian")))
    yield running
    running.close()


def test_the_vendored_files_are_the_commits():
    for name, blob in GIT_BLOBS.items():
        data = (HERE / "oracles" / "marian" / name).read_bytes()
        assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == blob, name


def ours(hyps, refs, metric):
    try:
        result = score(hyps, [[r] for r in refs], NAME, "corpus", valid_metrics=metric,
                       version="1.7")
    except ConventionError as error:
        return f"raises {error.library_exception}", None
    return result.score, result


def agree(mine: float, theirs: float) -> bool:
    return mine.hex() == theirs.hex()


SEGMENT = segment_text(max_words=8, words=MARIAN_WORDS, separators=SEPARATORS + ["\v"])


@exhaustive_only  # the quick tier: Marian 1.12.0's validator, and these cases recorded
@settings(max_examples=examples(150), deadline=None)
@given(pairs=st.lists(st.tuples(SEGMENT, SEGMENT), min_size=1, max_size=5),
       metric=st.sampled_from(["bleu", "bleu-detok"]), same=st.lists(st.booleans(), max_size=5))
@example(pairs=[("The price rose to 5.", "The price rose to 5 .")], metric="bleu-detok",
         same=[])
@example(pairs=[("", "a b"), ("a b c d", "a b </s> c d")], metric="bleu", same=[])
@example(pairs=[("", "")], metric="bleu-detok", same=[])
def test_the_validator(validator, pairs, metric, same):
    """Statistics equal; the score bit for bit."""
    hyps = [h for h, _ in pairs]
    refs = [h if i < len(same) and same[i] else r for i, (h, r) in enumerate(pairs)]
    theirs, stats = validator.bleu(hyps, refs, metric == "bleu-detok")
    mine, result = ours(hyps, refs, metric)
    assert result is not None, mine
    assert [int(v) for v in stats] == [
        *(x for pair in zip(result.counts, result.totals) for x in pair), result.ref_len]
    outcome = agree(mine, theirs)
    assert outcome, (hyps, refs, metric, mine, theirs)


@exhaustive_only  # the quick tier: Marian 1.12.0's validator, and these cases recorded
def test_every_positive_score_is_bit_equal(validator):
    """Generated corpora whose references share most words with their hypotheses, so that
    every order has matches and the logarithms and the exponential are taken."""
    rng = random.Random(11)
    positive = 0
    words = [w for w in MARIAN_WORDS if w.strip()]
    while positive < examples(60, 25):
        hyps = [" ".join(rng.choice(words) for _ in range(rng.randint(3, 12)))
                for _ in range(rng.randint(1, 4))]
        refs = [" ".join(w if rng.random() < 0.7 else rng.choice(words) for w in h.split())
                for h in hyps]
        metric = rng.choice(["bleu", "bleu-detok"])
        theirs, _ = validator.bleu(hyps, refs, metric == "bleu-detok")
        mine, result = ours(hyps, refs, metric)
        if result is None or theirs <= 0:
            continue
        assert agree(mine, theirs), (hyps, refs, metric, mine, theirs)
        positive += 1


@exhaustive_only  # the quick tier: Marian 1.12.0's validator, and these cases recorded
def test_logf_is_the_c_librarys_not_the_rounded_double_log(validator):
    """37 words, three of them replaced: the validator's score is the engine's bit for bit,
    and taking ``log``/``exp`` rounded to float32 in place of the C library's ``logf``/``expf``
    (glibc) would miss its last bit (found by search)."""
    if libm.why_unavailable():
        pytest.skip(libm.why_unavailable())
    words = [f"w{i}" for i in range(37)]
    hyp, ref = " ".join("x" if i in (2, 8, 20) else w for i, w in enumerate(words)), " ".join(words)
    theirs, _ = validator.bleu([hyp], [ref], False)
    mine, _ = ours([hyp], [ref], "bleu")
    assert agree(mine, theirs), (mine, theirs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(libm, "logf", lambda x: float32(math.log(x)))
        patch.setattr(libm, "expf", lambda x: float32(math.exp(x)))
        rounded, _ = ours([hyp], [ref], "bleu")
    assert not agree(rounded, theirs), rounded


@exhaustive_only
@pytest.mark.parametrize("text", ["It costs 5.", "Hello, world! (x) e-mail 1990-2000",
                                  "a\vb c\u00a0d\te", "&amp;&quot;<skipped>x", "", " .5 ",
                                  "fish-\nchips", "日本語。", "a\x1cb"])
def test_the_detok_tokens(validator, text):
    """``bleu-detok``'s tokens, through the validator's statistics: the reference length is
    the number of tokens ``tokenize`` and ``splitAny`` make."""
    _, stats = validator.bleu([""], [text], detok=True)
    assert stats[8] == len(tokenize_marian_13a(text))


def test_multiple_references_are_declined():
    with pytest.raises(ConventionError):
        score(["a b"], [["a b", "a c"]], NAME)


# --- identify, and the case family -----------------------------------------------------------

@pytest.fixture(scope="module")
def family():
    return {c.id: c for c in load(None).cases if c.id.startswith("marian-")}


def test_identify_names_marian(family):
    """A number the real validator gave, printed to two decimals as Marian logs it:
    ``identify`` names Marian's ``bleu-detok``."""
    from bleu_harness.explain.identify import identify
    from bleu_harness.explain.inputs import from_case

    case = family["marian-detok-splits-a-final-period"]
    value = next(e.value for e in case.expectations
                 if (e.options or {}).get("valid_metrics") == "bleu-detok")
    found = identify(from_case(case), f"{float(value):.2f}")
    assert any(m["convention"] == NAME and m["options"]["valid_metrics"] == "bleu-detok"
               for m in found["matches"])


def test_the_case_files_values_come_from_the_tool(family):
    assert len(family) >= 10
    for case in family.values():
        for e in case.expectations:
            assert e.convention == NAME
            assert (e.provenance.library, e.provenance.kind) == ("marian", "computed")
