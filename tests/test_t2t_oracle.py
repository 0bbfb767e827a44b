"""The T2T and tf-models conventions against the tools' own code. T2T: ``bleu_hook.py`` (unmodified, in
``tests/oracles/t2t/``, from the ``tensor2tensor`` 1.15.7 wheel on PyPI; its TensorFlow
imports stubbed by ``tests/t2t_oracle.py``): ``bleu_tokenize`` token for token, and
``compute_bleu`` on its tokens bit for bit, on generated text with the characters T2T's
character classes treat specially (a backslash escapes the character after it inside the
``[...]`` that T2T pastes its punctuation into, so ``\\`` is no punctuation there)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from t2t_oracle import bleu_hook, tf_models_bleu
from tiers import examples

from bleu_harness.bleu import ConventionError, score
from bleu_harness.bleu.convention import Preprocessing
from bleu_harness.bleu.counting import count
from bleu_harness.bleu.tokenizers import tokenize_t2t

#: Characters around T2T's classes: ASCII punctuation and symbols (``\\``, ``]``, ``[``,
#: ``-``, ``^``), digits, Unicode punctuation, symbols, spaces and format characters, and
#: characters above U+FFFF of each kind (the engine looks those up apart from the BMP's).
SPECIAL = "\\][-^.,:;!?'\"$%&*+/<=>@_`{|}~()#0123456789 \t\u00a0\u2019\u201c\u2014\u00a7" \
          "\u20ac\u00b0\ufeff\u3001\u300c\uff0c\u2e3a\U0001f600\U00010100\U00016e97" \
          "\U0001e95e\U0001d7ce\U00020000\U0001f3fb\U000e0001"
TEXT = st.text(st.sampled_from(list(SPECIAL) + list("abcxyzé")), max_size=24)


@settings(max_examples=examples(400), deadline=None)
@given(text=TEXT)
@example(text="cat\ufeff\\")
@example(text="a\\b")
@example(text="\\]")
def test_bleu_tokenize(text):
    assert tokenize_t2t(text) == bleu_hook().bleu_tokenize(text)


@settings(max_examples=examples(200), deadline=None)
@given(text=TEXT)
@example(text="cat\ufeff\\ x\\y")
def test_the_counting_pass_tokenizes_as_bleu_tokenize(text):
    """The C pass (where built) and the Python pass count T2T's tokens alike."""
    stats = count([text], [[text]], {Preprocessing("t2t"): 1})[Preprocessing("t2t")]
    assert stats.hyp_len == len(bleu_hook().bleu_tokenize(text))


@settings(max_examples=examples(300), deadline=None)
@given(hypotheses=st.lists(TEXT, min_size=1, max_size=3), data=st.data(),
       max_order=st.integers(1, 5), use_bp=st.booleans())
@example(hypotheses=["cat\ufeff\\"], data=None, max_order=4, use_bp=True)
def test_compute_bleu(hypotheses, data, max_order, use_bp):
    references = [data.draw(TEXT) for _ in hypotheses] if data else ["cat\ufeff \\"]
    hook = bleu_hook()
    expected = hook.compute_bleu([hook.bleu_tokenize(r) for r in references],
                                 [hook.bleu_tokenize(h) for h in hypotheses],
                                 max_order=max_order, use_bp=use_bp)
    ours = score(hypotheses, [[r] for r in references], "t2t", "corpus",
                 max_order=max_order, use_bp=use_bp, case_sensitive=True).score
    assert float(expected).hex() == float(ours).hex(), (expected, ours)


@settings(max_examples=examples(300), deadline=None)
@given(pairs=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=4),
       case_sensitive=st.booleans())
@example(pairs=[("The cat sat on the mat.", "the cat is on the mat .")], case_sensitive=False)
@example(pairs=[("a", "")], case_sensitive=False)
@example(pairs=[("", "a b")], case_sensitive=True)
@example(pairs=[("w", " ".join(["w"] * 800))], case_sensitive=True)  # exp(1 - 1/ratio) = 0
def test_tf_models_bleu_on_list(pairs, case_sensitive):
    """The tf-models convention against the Model Garden's ``bleu_on_list`` (the same
    float32, or the same exception)."""
    hypotheses, references = [h for h, _ in pairs], [r for _, r in pairs]
    try:
        expected = tf_models_bleu().bleu_on_list(references, hypotheses, case_sensitive)
    except ZeroDivisionError:
        with pytest.raises(ConventionError) as raised:
            score(hypotheses, [[r] for r in references], "tf-models",
                  case_sensitive=case_sensitive)
        assert raised.value.library_exception == "ZeroDivisionError"
        return
    ours = score(hypotheses, [[r] for r in references], "tf-models",
                 case_sensitive=case_sensitive).score
    assert float(expected).hex() == float(ours).hex(), (expected, ours)
