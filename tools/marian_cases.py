"""Record what Marian's BLEU validators give on their quirks, as cases.

    python tools/marian_cases.py      # writes cases/families/marian.yaml

Compiles Marian's own ``BleuValidator`` (``src/training/validator.h`` at
marian-nmt/marian-dev@46c94a58, v1.7.8, vendored unmodified in ``tests/oracles/marian/``) with
``g++`` over the stubs of ``tests/marian_stubs/`` in a temporary directory, and runs its
``updateStats`` and ``calcBLEU`` through ``tests/marian_bleu_driver.cc``
(``tests/marian_oracle.py``): the float32 score on the 0-100 scale, for ``--valid-metrics
bleu`` and ``bleu-detok``; those expectations say ``version: "1.7"`` (the convention follows
the current release by default). The current validator, ``SacreBleuValidator`` of Marian
v1.12.0 (``validator.h`` and ``validator.cpp`` at marian-nmt/marian-dev@65bf82ff, vendored in
``tests/oracles/marian/1.12.0/``, compiled over ``tests/marian_stubs/1.12.0/`` and driven by
``tests/marian_sacrebleu_driver.cc``), gives the cases of ``SACREBLEU_CASES``, at the
convention's default release. Nothing comes from the engine. The values are compared bit for
bit: the engine calls the C library's ``logf``/``expf`` as the compiled validator does.

Marian's own tests and documentation were searched for BLEU cases (:data:`UPSTREAM`, which the
family's description repeats): the one regression test that asserts a BLEU of the validator
scores a trained model's output that is not stored, so no upstream value can be run here; the
case ``marian-upstream-empty-lines`` scores a Marian output the regression tests do keep.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import marian_oracle as oracle
from family_file import write_family  # noqa: E402  (tools/ is on a script's path)

OUT = ROOT / "cases" / "families" / "marian.yaml"
SOURCE = (f"{oracle.COMMIT} src/training/validator.h BleuValidator::updateStats and calcBLEU "
          "(vendored, compiled with g++ over tests/marian_stubs, driven by "
          "tests/marian_bleu_driver.cc)")
BOTH = ["bleu", "bleu-detok"]
RAW, WORDS = "raw", "words"

REGRESSION_TESTS = "marian-nmt/marian-regression-tests@84844f7c1acf10fe6f28e5de73d94e83fd78f0bb"

#: Where Marian's own tests and documented examples were searched for a BLEU case.
UPSTREAM = (
    "Marian's own tests and documentation give no BLEU value that can be run here (searched "
    "marian-nmt/marian-dev@c9f287db75b4ed27979717ff0cf543000e2e5b2e, "
    "marian-nmt/marian@65bf82ffce52f4854295d8b98482534f176d494e (v1.12.0) and "
    f"{REGRESSION_TESTS}). marian-dev's unit tests (src/tests/units) and pymarian's tests never "
    "score BLEU with a value (src/python/tests/regression/test_train.py:124 only names it a "
    "validation metric); the CHANGELOG describes it without an example. In the regression "
    "tests, only tests/sentencepiece/test_bleu.sh asserts the validator's BLEU (--valid-metrics "
    "bleu: 28.1443 in bleu.score.expected; SacreBLEU's 28.1 beside it, hyp_len 612, ref_len "
    "540), on the translation of tests/sentencepiece/dev.de by the downloaded model "
    "models/rnn-spm, which is not stored; the other BLEU numbers there are SacreBLEU's or "
    "multi-bleu.perl's of decoder outputs (tests/decoder/intgemm, tests/models, "
    "tests/_self-adaptive). marian-upstream-empty-lines scores a Marian output the regression "
    "tests keep (tests/training/validation/trans_empty_lines.expected), with values from the "
    "validator here: that test asserts no BLEU.")

#: tests/training/validation/trans_empty_lines.expected (a Marian translation output with empty
#: lines) and trans_empty_lines.en (its references), line for line, at REGRESSION_TESTS.
EMPTY_LINES = [
    (", ladies and gentlemen , Parliament has completed the agenda .",
     "having said that , Parliament has reached the end of the agenda ."),
    ("The Minutes of this sitting will be submitted to plenary at the beginning of the next "
     "part-session .",
     "the Minutes of the present sitting will be subject to Parliament &apos; s approval at "
     "the beginning of the next part @-@ session ."),
    ("Mr Manders has the floor for a point of order .",
     "Mr Manders has the floor for a procedural motion ."),
    ("Mr President , I would like to take this opportunity to wish you , the Bureau and all "
     "Members well for the new year .",
     "Mr President , I would like to take this opportunity to wish you , the Bureau and all "
     "Members , a good transition into the new year ."),
    ("", ""),
    ("I would even allow me to name the Commission and the Council , even if they are not "
     "present .",
     "I would also like , although they are absent , to mention the Commission and the "
     "Council ."),
    ("", ""),
    ("", ""),
    ("I declare the session of the European Parliament adjourned.",
     "I declare the session of the European Parliament adjourned ."),
    ("(The sitting was closed at 10.50 p.m.)", "( the sitting was closed at 10.50 a.m. )"),
]

#: (id, description, tags, level, text, segments [(hyp, ref)], metrics).
CASES = [
    ("marian-basic", "Six words, one substituted: float32 statistics and arithmetic, times "
     "100 in float32.", [], "sentence", WORDS,
     [("the cat sat on the mat", "the cat sat on a mat")], BOTH),
    ("marian-detok-splits-a-final-period", "bleu-detok pads the line with spaces before "
     "SacreBLEU's rules, so a final '5.' splits like the reference's '5 .'; bleu counts the "
     "vocabulary's words as they are.", ["tokenization"], "sentence", RAW,
     [("The price rose to 5.", "The price rose to 5 .")], BOTH),
    ("marian-short-hypothesis-is-zero", "Three words: no 4-gram, so calcBLEU returns 0 (no "
     "smoothing, even for one sentence).", ["short-hypothesis"], "sentence", WORDS,
     [("a b c", "a b c d")], BOTH),
    ("marian-zero-4gram-match", "Every order but the fourth matches: 0.", ["zero-overlap"],
     "sentence", WORDS, [("a b c x b c d", "a b c d")],
     BOTH),
    ("marian-brevity-in-the-exponent", "Five words against seven: 1 - max(r/c, 1) is added "
     "to the mean log precision before a float32 exp.", ["short-hypothesis"], "sentence",
     WORDS, [("the cat sat on the", "the cat sat on the mat today")], BOTH),
    ("marian-eos-ends-the-reference", "A '</s>' word in the reference is the end-of-sentence "
     "id: the reference's words end there (bleu); bleu-detok decodes text, in which '</s>' "
     "is punctuation and letters.", ["tokenization"], "sentence", WORDS,
     [("a b c d e f", "a b c d </s> e f")], BOTH),
    ("marian-empty-hypothesis", "An empty hypothesis in a corpus adds nothing but reference "
     "length.", ["empty-hypothesis"], "corpus", WORDS,
     [("the cat sat on the mat", "the cat sat on the mat"), ("", "a dog ran")], BOTH),
    ("marian-all-empty", "Empty hypothesis and reference: no unigram match, 0.",
     ["empty-hypothesis", "empty-reference"], "sentence", WORDS, [("", "")], BOTH),
    ("marian-empty-reference", "An empty reference: its hypothesis n-grams count, none "
     "match, and the reference length only shrinks.", ["empty-reference"], "corpus", WORDS,
     [("a b c d e f", "a b c d e f"), ("x y", "")], BOTH),
    ("marian-tab-inside-a-word", "bleu splits on single spaces only (a tab is part of a "
     "word); bleu-detok's \\s is the C locale's, tabs included.", ["tokenization"],
     "sentence", RAW, [("the\tcat sat on the mat", "the cat sat on the mat")], BOTH),
    ("marian-no-break-space-joins", "std::regex's \\s in the C locale has no U+00A0: it "
     "joins two words into one token (SacreBLEU's Python \\s would part them).",
     ["tokenization"], "sentence", RAW,
     [("the\u00a0cat sat on the mat", "the cat sat on the mat")], BOTH),
    ("marian-entities-and-skipped", "&amp; and &quot; unescaped and <skipped> removed before "
     "the punctuation is split off (bleu-detok).", ["tokenization"], "sentence", RAW,
     [("fish &amp; chips <skipped>are &quot;great&quot; today",
       'fish & chips are "great" today')], BOTH),
    ("marian-corpus", "Three lines summed into float32 statistics first.", [], "corpus",
     WORDS, [("the cat sat on the mat", "the cat sat on the mat"),
             ("a dog ran in the park", "the dog ran in the park"),
             ("it is raining again", "it rains today again")], BOTH),
    ("marian-upstream-empty-lines", "Marian's regression-test data: the translation output "
     f"{REGRESSION_TESTS} tests/training/validation/test_translation_metric_with_empty_lines.sh "
     "keeps (trans_empty_lines.expected) against its references (trans_empty_lines.en): three "
     "empty lines on both sides, Moses-escaped references (&apos;, @-@) against plain text. "
     "The test compares the translation only and asserts no BLEU: the values are the "
     "validator's here.", ["empty-hypothesis", "empty-reference", "tokenization"], "corpus",
     RAW, EMPTY_LINES, BOTH),
]


def expectation(metric: str, value: float) -> dict:
    """An expectation of the v1.7.8 validator: ``version: "1.7"`` pinned."""
    options = {"valid_metrics": metric} if metric != "bleu" else {}
    return {"convention": "marian", "options": {**options, "version": "1.7"},
            "value": repr(value),
            "provenance": {"kind": "computed", "source": SOURCE, "library": "marian",
                           "version": oracle.VERSION}}


SACREBLEU_SOURCE = (f"{oracle.SACREBLEU_COMMIT} src/training/validator.cpp "
                    "SacreBleuValidator::updateStats and calcBLEU (Marian 1.10.0 to master; "
                    "vendored, compiled with g++ over tests/marian_stubs/1.12.0, driven by "
                    "tests/marian_sacrebleu_driver.cc)")
SPM, YML = "SentencePieceVocab", "DefaultVocab"

#: Cases of the current validator (Marian 1.10.0 on, the convention's default release):
#: (id, description, tags, level, text, segments [(hyp, ref)], [(metric, vocab_type)]).
SACREBLEU_CASES = [
    ("marian-1.12-cjk-characters", "Marian 1.10 on: bleu with a SentencePiece vocabulary "
     "detokenizes and splits Han and Kana characters into tokens of their own "
     "(tokenizeContinuousScript); with a default vocabulary the words are kept.",
     ["tokenization", "version-change"], "sentence", RAW,
     [("東京タワーへ行きました。", "東京タワーに行った。")], [("bleu", SPM), ("bleu", YML)]),
    ("marian-1.12-thai-split-hangul-kept", "Thai is continuous script to Marian, Hangul is "
     "not: Thai characters are tokens, Korean words stay whole.", ["tokenization", "version-change"],
     "corpus", RAW, [("ภาษาไทยง่าย", "ภาษาไทยยาก"), ("한국어 문장 입니다", "한국어 문장 이다")],
     [("bleu", SPM)]),
    ("marian-1.12-bleu-is-bleu-detok", "Marian 1.10 on: bleu and bleu-detok are one metric, "
     "the SacreBLEU-style tokens of the decoded text.", ["tokenization"], "sentence", RAW,
     [("The price rose to 5.", "The price rose to 5 .")], [("bleu", SPM), ("bleu-detok", SPM)]),
    ("marian-1.12-logs-subtracted", "Marian 1.10 on: each order adds logf(m) - logf(t), "
     "which ends in another last float32 bit than v1.7.8's logf(m / t) here.",
     ["version-change"], "sentence", WORDS,
     [("w0 x w2 w3 w4 w5 x w7", "w0 w1 w2 w3 w4 w5 w6 w7")], [("bleu", YML)]),
    ("marian-1.12-segmented-counts-eos", "bleu-segmented counts word ids, and the "
     "hypothesis's end-of-sentence id counts as a word that never matches: one more n-gram "
     "of each order and one more word of length.", ["tokenization", "version-change"], "sentence",
     WORDS, [("the cat sat on the mat", "the cat sat on the mat")],
     [("bleu-segmented", SPM), ("bleu", YML)]),
    ("marian-1.12-segmented-empty-hypothesis", "bleu-segmented: an empty hypothesis is one "
     "word long (its </s>), which changes the brevity penalty of the corpus.",
     ["empty-hypothesis", "version-change"], "corpus", WORDS,
     [("a b c d e f g h", "a b c d e f g h i j"), ("", "x y")],
     [("bleu-segmented", SPM), ("bleu", YML)]),
    ("marian-1.12-eos-ends-the-reference", "A '</s>' in a reference ends it (the EOS id) "
     "with a default vocabulary; decoded SentencePiece text has no ids, and '</s>' is "
     "punctuation and letters.", ["tokenization"], "sentence", RAW,
     [("a b c d e f", "a b c d </s> e f")], [("bleu", YML), ("bleu", SPM)]),
]


def sacrebleu_expectation(metric: str, vocab_type: str, value: float) -> dict:
    """An expectation of the v1.12.0 validator, at the convention's default release."""
    options = {k: v for k, v in (("valid_metrics", metric), ("vocab_type", vocab_type))
               if v not in ("bleu", SPM)}
    return {"convention": "marian", **({"options": options} if options else {}),
            "value": repr(value),
            "provenance": {"kind": "computed", "source": SACREBLEU_SOURCE, "library": "marian",
                           "version": oracle.SACREBLEU_VERSION}}


def case(case_id: str, description: str, tags: list[str], level: str, text, segments,
         expect: list[dict]) -> dict:
    """A case of ``segments`` (one reference each) with its expectations."""
    entry = {"id": case_id, "description": description, "tags": tags, "level": level}
    entry.update({"tokenizer": "13a"} if text == RAW else {"tokenized": True})
    entry["segments"] = [{"hyp": h, "refs": [r]} for h, r in segments]
    entry["expect"] = expect
    return entry


def sacrebleu_cases(validator: oracle.SacreBleuValidator) -> list[dict]:
    out = []
    for case_id, description, tags, level, text, segments, settings in SACREBLEU_CASES:
        hyps, refs = [h for h, _ in segments], [r for _, r in segments]
        out.append(case(case_id, description, tags, level, text, segments,
                        [sacrebleu_expectation(m, v, validator.bleu(hyps, refs, m, v)[0])
                         for m, v in settings]))
    return out


def cases(validator: oracle.Validator) -> list[dict]:
    out = []
    for case_id, description, tags, level, text, segments, metrics in CASES:
        hyps, refs = [h for h, _ in segments], [r for _, r in segments]
        out.append(case(case_id, description, tags, level, text, segments,
                        [expectation(m, validator.bleu(hyps, refs, m == "bleu-detok")[0])
                         for m in metrics]))
    return out


def main() -> int:
    with tempfile.TemporaryDirectory() as directory:
        validator = oracle.Validator(oracle.build(Path(directory)))
        recorded = cases(validator)
        validator.close()
        current = oracle.SacreBleuValidator(oracle.build_sacrebleu(Path(directory)))
        recorded += sacrebleu_cases(current)
        current.close()
    write_family(OUT, "tools/marian_cases.py", (
            f"Marian's BLEU validators: --valid-metrics bleu and bleu-detok of Marian "
            f"{oracle.VERSION} ({oracle.COMMIT}, version 1.7), and bleu, bleu-detok and "
            f"bleu-segmented of Marian {oracle.SACREBLEU_VERSION} ({oracle.SACREBLEU_COMMIT}, "
            "the same from 1.10.0 on, the default): one reference, float32 statistics and "
            "arithmetic, 0 when an order has no match, the vocabulary's words or a "
            "std::regex port of 13a (from 1.8 with CJK characters split). Values from "
            "Marian's own validator compiled with g++ over stubs of the rest of Marian, "
            "written by tools/marian_cases.py. " + UPSTREAM),
                 recorded)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
