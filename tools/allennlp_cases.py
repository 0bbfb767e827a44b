"""Record what allennlp's ``BLEU`` metric gives on its quirks, as cases.

    python tools/allennlp_cases.py [--python /work/venvs/torch/bin/python]

The interpreter (default ``$BLEU_HARNESS_TORCH_PYTHON``) must have torch (and NLTK, whose
values are recorded beside for contrast). allennlp itself does not install (it pins an old
torch): its ``BLEU``, ``Metric`` and ``training/util.py`` are the vendored, unmodified files of
``tests/oracles/allennlp/`` (allenai/allennlp@80fb6061 = v2.10.1), run by
tests/allennlp_oracle.py with allennlp's other imports stubbed, one ``__call__`` per segment
(each row its own batch; padding written out as ``@@PADDING@@``). Writes
``cases/families/allennlp.yaml``. Nothing comes from the engine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from family_file import write_family

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
OUT = ROOT / "cases" / "families" / "allennlp.yaml"
PAD, UNK, START, END = "@@PADDING@@", "@@UNKNOWN@@", "@start@", "@end@"
SOURCE = ("allennlp.training.metrics.BLEU(**options): __call__ per segment, get_metric "
          "(allenai/allennlp@80fb6061 allennlp/training/metrics/bleu.py:99-166, vendored in "
          "tests/oracles/allennlp; torch {torch}, CPU)")
EXCLUDED = {"exclude_indices": [0, START, END]}

#: (id, description, tags, level, segments, [(convention, options)]).
CASES = [
    ("anlp-own-test-case", "allennlp's test_bleu_computed_correctly: ids 1 and 2 as words a "
     "and b, 0 the padding, ngram_weights (0.5, 0.5), exclude_indices {0}; its check exp(0.5 * "
     "(log 3 - log 6) + 0.5 * (log 1 - log 3)) holds to the 1e-13 it adds. Without the "
     "exclusion the padding counts as words.", ["weights"], "corpus",
     [(f"a {PAD} {PAD}", f"b {PAD} {PAD}"), (f"a a {PAD}", f"a {PAD} {PAD}"),
      ("a a a", "a a b")],
     [("allennlp", {"ngram_weights": [0.5, 0.5], "exclude_indices": [0]}),
      ("allennlp", {"ngram_weights": [0.5, 0.5]})]),
    ("anlp-padding-in-lengths", "A row padded to its batch's longest: without exclude_indices "
     "the padding is in the lengths (no brevity penalty) and the n-grams; excluded, the "
     "2-word row is shorter than its reference.", ["bp-boundary"], "corpus",
     [(f"the cat {PAD}", "the cat sat")],
     [("allennlp", {}), ("allennlp", {"exclude_indices": [0]})]),
    ("anlp-batch-padded-or-not", "Two rows of one batch padded to the longer (written out), "
     "and the same rows in two calls (no padding, next case): the running sums differ only "
     "by the padding.", [], "corpus",
     [(f"a b {PAD} {PAD}", "a b c d"), ("a b c d", "a b c d")],
     [("allennlp", {}), ("allennlp", {"exclude_indices": [0]})]),
    ("anlp-batch-unpadded", "The rows of the previous case in two calls: equal to it with the "
     "padding excluded.", [], "corpus", [("a b", "a b c d"), ("a b c d", "a b c d")],
     [("allennlp", {})]),
    ("anlp-start-end-symbols", "A seq2seq row with @start@, @end@ and padding: allennlp-models' "
     "models exclude the padding, start and end indices; without that they are words that "
     "match.", ["tokenization"], "corpus",
     [(f"{START} the cat sat {END} {PAD} {PAD} {PAD}", f"{START} the cat sat on the mat {END}")],
     [("allennlp", EXCLUDED), ("allennlp", {})]),
    ("anlp-zero-match-order-is-tiny", "No 3- or 4-gram match: log(0 + 1e-13) - log(t + 1e-13) "
     "makes the order about 1e-13 / t, a small positive score; NLTK gives 0 (sys.float_info.min "
     "in the log) and, smoothed, another number.", ["zero-overlap", "tiny-float"], "corpus",
     [("a b x c d y", "a b z c d w")],
     [("allennlp", {}), ("allennlp", {"ngram_weights": [0.5, 0.5]}), ("nltk", {}),
      ("nltk", {"smoothing": "method1"})]),
    ("anlp-short-hypothesis-order-is-one", "Two words, identical: orders 3 and 4 have no "
     "n-grams, 1e-13 / 1e-13 = 1, so 1.0; NLTK has no such order either and gives 0.",
     ["short-hypothesis", "identical"], "sentence", [("a b", "a b")],
     [("allennlp", {}), ("nltk", {})]),
    ("anlp-summed-counts", "A 4-word and a 2-word segment, both identical: the summed 4-gram "
     "count is 1 (no per-segment floor), so 1.0; NLTK floors each segment's count at one.",
     ["short-hypothesis", "corpus-denominator-floor", "identical"], "corpus",
     [("a b c d", "a b c d"), ("x y", "x y")], [("allennlp", {}), ("nltk", {})]),
    ("anlp-both-empty", "An empty row against an empty row: lengths 0 == 0 give the brevity "
     "penalty 0.0, so 0.0 (every order 1e-13 / 1e-13).", ["empty-hypothesis", "empty-reference",
                                                           "identical"], "sentence",
     [("", "")], [("allennlp", {})]),
    ("anlp-empty-hypothesis", "An empty row: a prediction length of 0 gives the brevity "
     "penalty 0.0.", ["empty-hypothesis"], "sentence", [("", "the cat sat")],
     [("allennlp", {})]),
    ("anlp-empty-reference", "An empty reference: the prediction is longer (BP 1.0) and no "
     "order matches, each about 1e-13 / t.", ["empty-reference", "zero-overlap", "tiny-float"],
     "sentence", [("the cat", "")], [("allennlp", {})]),
    ("anlp-all-padding-excluded", "A row of padding only, excluded: an empty prediction "
     "(BP 0.0); not excluded, the padding matches the reference's.", ["empty-hypothesis"],
     "sentence", [(f"{PAD} {PAD}", f"the cat {PAD}")],
     [("allennlp", {"exclude_indices": [0]}), ("allennlp", {})]),
    ("anlp-weights-as-given", "ngram_weights (0.5, 0.5, 0.5, 0.5) are used as given: the "
     "square of the uniform score.", ["weights"], "sentence",
     [("the cat sat on the mat today", "the cat sat on the mat")],
     [("allennlp", {"ngram_weights": [0.5, 0.5, 0.5, 0.5]}), ("allennlp", {})]),
    ("anlp-brevity-penalty", "A shorter prediction: exp(1.0 - r / c).", [], "sentence",
     [("the cat sat on the", "the cat sat on the mat today")], [("allennlp", {})]),
    ("anlp-clipping", "A repeated word is clipped by its count in the reference.", [],
     "sentence", [("the the the the the the", "the cat is on the mat")],
     [("allennlp", {}), ("allennlp", {"ngram_weights": [1.0]})]),
    ("anlp-unknown-excluded", "exclude_indices {1} leaves out @@UNKNOWN@@ (the OOV index) at "
     "the end of a row.", ["tokenization"], "sentence",
     [(f"the cat sat on the mat {UNK}", f"the cat sat on the mat {UNK}")],
     [("allennlp", {"exclude_indices": [1]}), ("allennlp", {})]),
]

INSIDE = """
import json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import allennlp_oracle
import library_worker
requests = json.load(sys.stdin)
out = []
for request in requests:
    if request["convention"] == "allennlp":
        out.append(allennlp_oracle.answer(request))
        continue
    try:
        out.append({"score": float(library_worker.nltk_score(request))})
    except Exception as error:
        out.append({"error": type(error).__name__, "message": str(error)})
from importlib.metadata import version
print(json.dumps({"versions": {**allennlp_oracle.versions(), "nltk": version("nltk")},
                  "answers": out}))
"""


def main(argv: list[str]) -> int:
    python = argv[1] if argv[:1] == ["--python"] and len(argv) > 1 else os.environ.get(
        "BLEU_HARNESS_TORCH_PYTHON", "")
    if not python:
        print("name the interpreter with torch: --python PATH or BLEU_HARNESS_TORCH_PYTHON",
              file=sys.stderr)
        return 2
    requests, where = [], []
    for index, (_, _, _, level, segments, expect) in enumerate(CASES):
        for position, (convention, options) in enumerate(expect):
            requests.append({"convention": convention, "level": level, "options": options,
                             "hypotheses": [h for h, _ in segments],
                             "references": [[r] for _, r in segments]})
            where.append((index, position))
    done = subprocess.run([python, "-c", INSIDE, str(TESTS),
                           str(ROOT / "bleu_harness" / "adapters")],
                          input=json.dumps(requests), capture_output=True, text=True,
                          check=False)
    if done.returncode:
        raise SystemExit(f"{python} failed:\n{done.stderr}")
    ran = json.loads(done.stdout)
    found = ran["versions"]
    answers = dict(zip(where, ran["answers"]))
    cases = []
    for index, (case_id, description, tags, level, segments, expect) in enumerate(CASES):
        expectations = []
        for position, (convention, options) in enumerate(expect):
            answer = answers[index, position]
            entry = {"convention": convention, **({"options": options} if options else {})}
            if "error" in answer:
                entry["raises"] = answer["error"]
            else:
                entry["value"] = repr(answer["score"])
            if convention == "allennlp":
                provenance = {"kind": "computed", "source": SOURCE.format(**found),
                              "library": "allennlp", "version": found["allennlp"]}
            else:
                provenance = {"kind": "computed", "source": "nltk.translate.bleu_score "
                              "(sentence_bleu / corpus_bleu)", "library": "nltk",
                              "version": found["nltk"]}
            entry["provenance"] = provenance
            expectations.append(entry)
        cases.append({"id": case_id, "description": description, "tags": tags, "level": level,
                      "segments": [{"hyp": h, "refs": [r]} for h, r in segments],
                      "expect": expectations})
    description = (
        "allennlp's BLEU metric (allennlp.training.metrics.BLEU, allennlp {allennlp} = "
        "allenai/allennlp@80fb6061): token ids, one reference, running sums over calls, every "
        "order (m + 1e-13) / (t + 1e-13) taken in logs, weights as given, the lengths of every "
        "position of a row -- padding included -- unless exclude_indices leaves them out. "
        "Each segment is a row of ids, one word one id, @@PADDING@@ the padding index 0 and "
        "@@UNKNOWN@@ the OOV index 1. Values from allennlp's own files (vendored in "
        "tests/oracles/allennlp, torch {torch}, CPU) and NLTK {nltk}, written by "
        "tools/allennlp_cases.py.").format(**found)
    write_family(OUT, "tools/allennlp_cases.py", description, cases)
    print(f"{OUT.relative_to(ROOT)}: {len(cases)} cases; {found}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
