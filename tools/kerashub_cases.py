"""Record what keras-hub's ``Bleu`` metric gives on its quirks, as cases.

    python tools/kerashub_cases.py      # writes cases/families/keras-hub.yaml

Runs keras-hub's own ``keras_hub/src/metrics/bleu.py`` (keras-team/keras-hub@71453d08f59e,
vendored unmodified in ``tests/oracles/keras_hub/``) with TensorFlow and Keras stubbed
(``tests/keras_hub_oracle.py``: RE2's ``GlobalReplace`` for ``tf.strings.regex_replace``,
float32 Keras variables) on NumPy: ``Bleu(...)``, ``update_state`` once per segment (the
float32 state accumulates, so this is the corpus BLEU of all segments), ``result()``. It
writes the float32 score as a float, NaN as ``NaN``, or the exception's name. An option set
with ``numpy: 1`` runs the same on NumPy 1.26.4 (``tests/keras_hub_numpy1_driver.py`` on the
interpreter ``python tools/tool_envs.py numpy1`` prepares). Nothing comes from the engine.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import keras_hub_oracle as oracle
from family_file import write_family  # noqa: E402  (tools/ is on a script's path)

OUT = ROOT / "cases" / "families" / "keras-hub.yaml"
SOURCE = (f"{oracle.COMMIT} keras_hub/src/metrics/bleu.py Bleu(...).update_state once per "
          "segment, result() (vendored, TensorFlow and Keras stubbed by "
          f"tests/keras_hub_oracle.py; NumPy {np.__version__})")
VERSION = "71453d08f59e"

RAW, TOKENIZED = "13a", None
#: (id, description, tags, level, text, segments [(hyp, [refs])], option sets).
CASES = [
    ("khub-documented-example", "keras-hub's own test (bleu_test.py test_1d_list_input: "
     "0.243 within 1e-3): the corpus BLEU of two lines, a float32 score.", ["documented"],
     "corpus", RAW,
     [("He He He eats sweet apple which is a fruit.", ["He eats a sweet apple."]),
      ("I love Silicon Valley, it's one of my favourite shows.",
       ["Silicon Valley is one of my favourite shows!"])], [{}, {"max_order": 5}]),
    ("khub-smooth-every-order", "keras-hub's test_scalar_input (0.212 within 1e-3): smooth "
     "adds 1 to the matches and n-grams of every order, the unigram included.",
     ["documented", "smoothing"], "sentence", RAW,
     [("He He He eats sweet apple which is a fruit.",
       ["He eats a sweet apple.", "He is eating a tasty apple, isn't he?"])],
     [{"smooth": True}, {}]),
    ("khub-final-number-keeps-its-period", "No space padding around the line and a dead "
     "[.,]$ rule: a final '5.' stays one token, so the hypothesis does not match the "
     "reference's '5 .' (SacreBLEU's 13a splits both alike).", ["tokenization"], "sentence",
     RAW, [("The price rose to 5.", ["The price rose to 5 ."])], [{}, {"smooth": True}]),
    ("khub-final-word-period-split", "A final period after a letter is split off ([^0-9] "
     "before it): the same line ending in a word scores 1.", ["tokenization", "identical"],
     "sentence", RAW, [("The price rose again.", ["The price rose again ."])], [{}]),
    ("khub-leading-period-number", "'.5' at the very start has no character before it, so "
     "it stays one token; inside the line it splits.", ["tokenization"], "sentence", RAW,
     [(".5 of them and .5 more", [". 5 of them and . 5 more"])], [{}]),
    ("khub-no-break-space-joins", "tf.strings.split splits on ASCII whitespace only: "
     "U+00A0 joins two words into one token (str.split would part them).", ["tokenization"],
     "sentence", RAW, [("the\u00a0cat sat on the mat", ["the cat sat on the mat"])], [{}]),
    ("khub-vertical-tab-separates", "RE2's \\s has no vertical tab, but the split's isspace "
     "does: U+000B separates words.", ["tokenization", "identical"], "sentence", RAW,
     [("the\x0bcat sat on the mat", ["the cat sat on the mat"])], [{}]),
    ("khub-entities-and-skipped", "&amp; and &quot; unescaped, <skipped> removed, before "
     "the punctuation is split off.", ["tokenization"], "sentence", RAW,
     [("fish &amp; chips <skipped>are &quot;great&quot; today",
       ['fish & chips are "great" today'])], [{}]),
    ("khub-shortest-reference", "The shortest reference length ('Bye'), not the closest: "
     "the brevity penalty is 1.", ["closest-vs-shortest"], "sentence", TOKENIZED,
     [("I ate an apple", ["Bye", "I ate an apple here"])], [{}]),
    ("khub-short-hypothesis", "Two words against four: no trigram, so 0 without smoothing; "
     "with smoothing every order is (m+1)/(n+1) and the BP is a float32 exp(1 - 1/ratio).",
     ["short-hypothesis", "smoothing"], "sentence", TOKENIZED,
     [("a b", ["a b c d"])], [{}, {"smooth": True}, {"max_order": 2}]),
    ("khub-zero-overlap", "No 4-gram matches: the geometric mean is 0 without smoothing.",
     ["zero-overlap", "smoothing"], "corpus", TOKENIZED,
     [("the cat sat on a mat today", ["the cat sat on the mat today"])],
     [{}, {"smooth": True}, {"max_order": 3}]),
    ("khub-empty-hypothesis", "An empty hypothesis side: 1.0 / ratio divides by a float32 0 "
     "(inf, no exception), so the BP is exp(-inf) = 0 (TF-NMT raises ZeroDivisionError).",
     ["empty-hypothesis"], "sentence", TOKENIZED, [("", ["a b c"])], [{}, {"smooth": True}]),
    ("khub-empty-reference", "An empty reference side: the float32 ratio is inf, the BP 1; "
     "without smoothing no precision is positive, with it every order is 1/(n+1).",
     ["empty-reference"], "sentence", TOKENIZED, [("a b c", [""])], [{}, {"smooth": True}]),
    ("khub-all-empty-is-nan", "Empty hypothesis and reference: the ratio is a float32 0/0, "
     "NaN, and so is the score, smoothed or not.", ["empty-hypothesis", "empty-reference",
                                                    "nan"],
     "sentence", TOKENIZED, [("", [""])], [{}, {"smooth": True}]),
    ("khub-empty-segment-in-corpus", "One empty line in a corpus changes nothing but the "
     "lengths: the corpus lengths are positive.", ["empty-hypothesis", "empty-reference"],
     "corpus", TOKENIZED, [("a b c d", ["a b c d"]), ("", [""])], [{}]),
    ("khub-no-reference-raises", "A segment without references: min() of no lengths "
     "raises ValueError.", ["empty-reference", "raises"], "corpus", TOKENIZED,
     [("a b", ["a b"]), ("c d", [])], [{}]),
    ("khub-max-order-zero-raises", "max_order=0: min() of no precisions raises ValueError.",
     ["raises"], "sentence", TOKENIZED, [("a b", ["a b"])], [{"max_order": 0}]),
    ("khub-clipped-union", "Matches are clipped to the largest count in any one reference "
     "(TF-NMT's union of the references' counters).", [], "sentence",
     TOKENIZED, [("the the the the", ["the cat", "the the mat"])], [{}, {"max_order": 1}]),
    ("khub-corpus-streaming", "Three lines, each given to update_state alone: the float32 "
     "counts accumulate into one corpus BLEU.", [], "corpus", TOKENIZED,
     [("the cat sat on the mat", ["the cat sat on the mat"]),
      ("a dog ran in the park", ["the dog ran in the park"]),
      ("it is raining", ["it rains today"])], [{}, {"smooth": True}]),
    ("khub-numpy-1-float64-precisions", "Under NumPy 1 (value-based casting) float(m) / l and "
     "the ratio are float64, and only the score is rounded to float32: its last bits differ "
     "from NumPy 2's float32 precisions (numpy: 1 is the NumPy keras-hub runs on, NumPy "
     "1.26.4 here).", ["version-change"], "corpus", RAW,
     [("the cat sat on the mat", ["the cat sat on a mat"]), ("a b c", ["a b d"])],
     [{}, {"numpy": 1}, {"smooth": True}, {"smooth": True, "numpy": 1}]),
]


def expectation(options: dict, outcome: dict) -> dict:
    return {"convention": "keras-hub", **({"options": dict(options)} if options else {}),
            **outcome, "provenance": {"kind": "computed", "source": SOURCE,
                                      "library": "keras-hub", "version": VERSION}}


#: NumPy 1's interpreter (``tools/tool_envs.py numpy1``) and the driver run on it.
NUMPY1_PYTHON = ROOT / ".atlas" / "numpy1" / "bin" / "python"
NUMPY1_DRIVER = ROOT / "tests" / "keras_hub_numpy1_driver.py"


def run_on_numpy1(segments, options: dict, text) -> dict:
    """The same on NumPy 1 (one driver process a case)."""
    request = {"batches": [[[h], [refs]] for h, refs in segments],
               "max_order": options.get("max_order", 4), "smooth": options.get("smooth", False),
               "tokenize": "13a" if text == RAW else "none"}
    done = subprocess.run([str(NUMPY1_PYTHON), str(NUMPY1_DRIVER)], input=json.dumps(request),
                          capture_output=True, text=True, check=True)
    version, answer = (json.loads(line) for line in done.stdout.splitlines())
    assert version["numpy"] == "1.26.4", version
    if "raises" in answer:
        return answer
    return {"value": "NaN" if answer["value"] == "nan" else repr(float.fromhex(answer["value"]))}


def run(segments, options: dict, text) -> dict:
    if options.get("numpy") == 1:
        return run_on_numpy1(segments, options, text)
    tokenizer = None if text == RAW else oracle.tf_split
    batches = [([h], [refs]) for h, refs in segments]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's 1/0 and 0/0
            value = oracle.corpus_bleu(batches, tokenizer=tokenizer, **options)
    except ValueError:
        return {"raises": "ValueError"}
    return {"value": "NaN" if math.isnan(value) else repr(value)}


def cases() -> list[dict]:
    out = []
    for case_id, description, tags, level, text, segments, option_sets in CASES:
        case = {"id": case_id, "description": description, "tags": tags, "level": level}
        case.update({"tokenizer": "13a"} if text == RAW else {"tokenized": True})
        case["segments"] = [{"hyp": h, "refs": refs} for h, refs in segments]
        case["expect"] = [expectation(o, run(segments, o, text)) for o in option_sets]
        out.append(case)
    return out


def main() -> int:
    write_family(OUT, "tools/kerashub_cases.py", (
            "keras-hub's Bleu metric (keras_hub.metrics.Bleu at "
            f"{oracle.COMMIT}): TF-NMT's formula (the shortest reference, add-one smoothing of "
            "every order) over float32 Keras state, float32 precisions and length ratio under "
            "NumPy 2 (float64 ones under NumPy 1: numpy: 1), its own unpadded RE2 port of 13a "
            "and tf.strings.split. Values from "
            "keras-hub's own bleu.py run by tools/kerashub_cases.py over stubs of TensorFlow "
            "and Keras (tests/keras_hub_oracle.py), one update_state per segment."),
                 cases())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
