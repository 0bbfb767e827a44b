"""SacreBLEU's own signature for the ``sacrebleu`` convention (issue 29): what
``BLEU.get_signature()`` prints for the same options and references, so a researcher can
paste it beside SacreBLEU's. Checked against the installed SacreBLEU, option by option."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU  # noqa: E402
from tiers import examples

from bleu_harness.bleu import score  # noqa: E402
from bleu_harness.cli import main  # noqa: E402

SMOOTHING = st.sampled_from([("exp", None), ("none", None), ("floor", None), ("floor", 0.05),
                             ("add-k", None), ("add-k", 2)])
TOKENIZERS = st.sampled_from(["13a", "intl", "char", "none", "zh"])
SENTENCE = st.lists(st.sampled_from(["a", "b", "c", "Das", "Haus", "."]), min_size=0,
                    max_size=6).map(" ".join)


@settings(max_examples=examples(150), deadline=None)
@given(smoothing=SMOOTHING, tokenize=TOKENIZERS, lowercase=st.booleans(),
       effective=st.booleans(),
       segments=st.lists(st.tuples(SENTENCE, st.lists(SENTENCE, min_size=1, max_size=3)),
                         min_size=1, max_size=4))
def test_the_corpus_signature_is_sacrebleus(smoothing, tokenize, lowercase, effective,
                                            segments):
    method, value = smoothing
    hypotheses = [h for h, _ in segments]
    references = [refs for _, refs in segments]
    width = max(len(refs) for refs in references)
    streams = [[refs[i] if i < len(refs) else None for refs in references]
               for i in range(width)]  # SacreBLEU's missing references are None
    bleu = BLEU(smooth_method=method, smooth_value=value, tokenize=tokenize,
                lowercase=lowercase, effective_order=effective)
    try:
        bleu.corpus_score(hypotheses, streams)
    except Exception:  # SacreBLEU refuses this input (an empty reference): no signature
        return
    ours = score(hypotheses, references, "sacrebleu", smooth_method=method,
                 smooth_value=value, tokenize=tokenize, lowercase=lowercase,
                 effective_order=effective)
    assert ours.library_signature == str(bleu.get_signature())


@pytest.mark.parametrize("references", [["a b c"], ["a b c", "a b"], ["a", "b", "c"]])
def test_the_sentence_signature_is_sacrebleus(references):
    bleu = BLEU(effective_order=True)
    bleu.sentence_score("a b c d", references)
    ours = score(["a b c d"], [references], "sacrebleu", level="sentence")
    assert ours.library_signature == str(bleu.get_signature())


def test_a_release_before_2_has_none_and_the_full_signature_stays():
    old = score(["a b"], [["a b"]], "sacrebleu", version="1.5.1")
    assert old.library_signature == "" and old.signature.startswith("sacrebleu|")
    assert "library_signature" not in old.to_dict()


def test_score_prints_sacrebleus_signature_and_the_full_one_on_request(tmp_path, capsys):
    hyp, ref = tmp_path / "hyp", tmp_path / "ref"
    hyp.write_text("the cat sat\n", encoding="utf-8")
    ref.write_text("the cat sat down\n", encoding="utf-8")
    bleu = BLEU()
    bleu.corpus_score(["the cat sat"], [["the cat sat down"]])
    assert main(["score", str(hyp), str(ref), "-c", "sacrebleu"]) == 0
    out = capsys.readouterr().out
    assert str(bleu.get_signature()) in out and "sacrebleu|ref:" not in out
    assert main(["score", str(hyp), str(ref), "-c", "sacrebleu", "--signature", "full"]) == 0
    assert "sacrebleu|ref:" in capsys.readouterr().out
    assert main(["score", str(hyp), str(ref), "-c", "sacrebleu", "--format", "json"]) == 0
    [answer] = json.loads(capsys.readouterr().out)["results"]
    assert answer["library_signature"] == str(bleu.get_signature())
