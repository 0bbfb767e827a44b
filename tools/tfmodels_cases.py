"""Record what the TensorFlow Model Garden's ``bleu_on_list`` gives on its quirks, as cases.

    python tools/tfmodels_cases.py      # writes cases/families/tf-models.yaml

Runs the Model Garden's own ``official/nlp/metrics/bleu.py`` (tf-models-official 2.20.0,
vendored unmodified in ``tests/oracles/tf_models/``) with its TensorFlow imports stubbed
(``tests/t2t_oracle.py``; ``bleu_on_list`` needs nothing of TensorFlow):
``bleu_on_list(ref_lines, hyp_lines, case_sensitive)``, one reference per line, raw text
through its ``bleu_tokenize``. It writes the float32 score times 100 as a float, or the
exception's name. Nothing comes from the engine.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from family_file import write_family  # noqa: E402  (tools/ is on a script's path)
from t2t_oracle import tf_models_bleu  # noqa: E402

OUT = ROOT / "cases" / "families" / "tf-models.yaml"
VERSION = "2.20.0"
SOURCE = (f"tf-models-official {VERSION} official/nlp/metrics/bleu.py bleu_on_list(ref_lines, "
          "hyp_lines, case_sensitive) (vendored unmodified, its TensorFlow imports stubbed by "
          f"tests/t2t_oracle.py; NumPy {np.__version__})")

#: (id, description, tags, segments [(hyp, ref)], option sets).
CASES = [
    ("tfm-identical", "A line equal to its reference scores 100 (float32 1.0 times 100).",
     ["identical"], [("the cat sat on the mat .", "the cat sat on the mat .")],
     [{}, {"case_sensitive": True}]),
    ("tfm-lowercased-unless-case-sensitive", "Both sides are lower-cased unless "
     "case_sensitive=True.", ["case"],
     [("The Cat sat on The Mat", "the cat sat on the mat")], [{}, {"case_sensitive": True}]),
    ("tfm-zero-overlap-is-smoothed", "No 3-gram or 4-gram matches: T2T's always-on NIST "
     "smoothing gives those orders 1/(2^k n), so the score is positive.",
     ["zero-overlap", "smoothing"], [("a b c d e", "a b x y z")], [{}]),
    ("tfm-short-hypothesis", "Two words against four: no trigram at all, an order without "
     "n-grams left out of the sum but still dividing it; the BP exp(1 - 1/ratio).",
     ["short-hypothesis"], [("a b", "a b c d")], [{}]),
    ("tfm-empty-hypothesis", "An empty hypothesis: the ratio is 0, below 1e-6, so the BP is "
     "0 and so is the score.", ["empty-hypothesis"], [("", "a b c")], [{}]),
    ("tfm-empty-reference-raises", "Every reference empty: compute_bleu divides by the "
     "reference length before anything else (T2T guards it).",
     ["empty-reference", "raises"], [("a b c", "")], [{}]),
    ("tfm-punctuation-tokens", "bleu_tokenize splits punctuation off unless a digit is on "
     "both sides: 3.5 stays one token, the comma and full stop do not.", ["tokenization"],
     [("Hello, world! It is 3.5 km.", "Hello , world ! It is 3.5 km .")], [{}]),
    ("tfm-symbols-are-tokens", "Symbols (Unicode class S) are split off like punctuation.",
     ["tokenization"], [("5€ and £3 +2", "5 € and £ 3 + 2")], [{}]),
    ("tfm-backslash-is-no-punctuation", "The punctuation class is pasted between [ and ] "
     "from raw characters, so a backslash escapes the next one and is itself no "
     "punctuation: 'cat\\' stays one token.", ["tokenization"],
     [("the cat\\ sat", "the cat \\ sat")], [{}]),
    ("tfm-corpus-of-three-lines", "A corpus: the counts of its lines summed, one reference "
     "each, the score a float32 times 100.", ["scale"],
     [("the cat sat on the mat", "the cat sat on the mat"),
      ("a dog ran in the park", "the dog ran in the park"),
      ("it is raining", "it rains today")], [{}, {"case_sensitive": True}]),
]


def expectation(options: dict, outcome: dict) -> dict:
    return {"convention": "tf-models", **({"options": dict(options)} if options else {}),
            **outcome, "provenance": {"kind": "computed", "source": SOURCE,
                                      "library": "tf-models-official", "version": VERSION}}


def run(segments, options: dict) -> dict:
    hypotheses = [h for h, _ in segments]
    references = [r for _, r in segments]
    try:
        value = tf_models_bleu().bleu_on_list(references, hypotheses,
                                              options.get("case_sensitive", False))
    except ZeroDivisionError:
        return {"raises": "ZeroDivisionError"}
    return {"value": repr(float(value))}


def cases() -> list[dict]:
    out = []
    for case_id, description, tags, segments, option_sets in CASES:
        out.append({"id": case_id, "description": description, "tags": tags,
                    "level": "corpus", "tokenizer": "13a",
                    "segments": [{"hyp": h, "refs": [r]} for h, r in segments],
                    "expect": [expectation(o, run(segments, o)) for o in option_sets]})
    return out


def main() -> int:
    write_family(OUT, "tools/tfmodels_cases.py", (
        f"The TensorFlow Model Garden's bleu_on_list (tf-models-official {VERSION}, "
        "official/nlp/metrics/bleu.py): Tensor2Tensor's BLEU -- one reference, always-on NIST "
        "smoothing, bleu_tokenize, lower-cased unless case_sensitive -- without T2T's guard "
        "for a zero reference length, the float32 score times 100. Values from the Model "
        "Garden's own bleu.py run by tools/tfmodels_cases.py with its TensorFlow imports "
        "stubbed (tests/t2t_oracle.py)."), cases())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
