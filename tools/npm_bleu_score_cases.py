"""Record what npm ``bleu-score`` gives on its quirks, as cases.

    python tools/npm_bleu_score_cases.py      # writes cases/families/npm-bleu-score.yaml

Runs ``bleu(reference, candidate, maxN)`` of bleu-score 1.0.4 (``tests/oracles/bleu_score/
bleu.js``, the npm tarball's file, unmodified) with ``node``, through the line server the tests
use (``tests/bleu_score_oracle.js``), and writes each float as JavaScript gives it (``repr``
of the same double; ``NaN`` as ``NaN``). Nothing comes from the engine.
"""

from __future__ import annotations

import json
import math
import shutil
import struct
import subprocess
from pathlib import Path

from family_file import write_family  # tools/ is on the path of a script run from it

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "cases" / "families" / "npm-bleu-score.yaml"
SERVER = ROOT / "tests" / "bleu_score_oracle.js"
SOURCE = ("bleu(reference, candidate, maxN), js/bleu.js of the npm tarball bleu-score-1.0.4.tgz "
          "(vendored in tests/oracles/bleu_score), run by node {node}")

#: (id, description, tags, (candidate, reference), the maxN values).
CASES = [
    ("nbs-readme-example", "The README's sentences (maxN 4): five of six words match, no "
     "smoothing, equal lengths.", [], ("This is a sample candidate sentence.",
                                       "This is a sample reference sentence."), [4, 2, 1]),
    ("nbs-double-space-is-an-empty-token", "split(' '): a double space makes an empty token, "
     "so the candidate has 7 tokens, one of them ''.", ["tokenization"],
     ("the cat  sat on the mat", "the cat sat on the mat"), [4, 1]),
    ("nbs-trailing-space", "A trailing space is one more (empty) token: longer than the "
     "reference, no n-gram with '' matches.", ["tokenization"], ("a b c d ", "a b c d"),
     [4, 1]),
    ("nbs-tab-stays-in-the-token", "Only the space splits: 'a\\tb' is one token.",
     ["tokenization"], ("a\tb c d", "a b c d"), [1]),
    ("nbs-punctuation-stays-attached", "No tokenizer: 'mat.' is not 'mat'.",
     ["tokenization"], ("the cat sat on the mat.", "the cat sat on the mat ."), [4, 1]),
    ("nbs-case-sensitive", "No case folding.", ["case"],
     ("The Cat sat on the mat", "the cat sat on the mat"), [4, 1]),
    ("nbs-empty-strings", "'' against '': one empty token each. The unigram '' matches (maxN "
     "1 is 1); with maxN 4 the orders without n-grams are 0, and so the product.",
     ["empty-hypothesis", "empty-reference", "short-hypothesis"], ("", ""), [1, 4]),
    ("nbs-empty-candidate", "An empty candidate is one token '': BP exp(1 - 6/1), no match.",
     ["empty-hypothesis"], ("", "the cat sat on the mat"), [4, 1]),
    ("nbs-no-4gram-match", "No 4-gram matches and there is no smoothing: the product is 0.",
     ["zero-overlap"], ("a b x c d y", "a b z c d w"), [4, 2]),
    ("nbs-short-candidate", "Two tokens: no trigram, so maxN 4 is 0; maxN 2 is the BP "
     "exp(1 - 4/2) alone.", ["short-hypothesis"], ("a b", "a b c d"), [4, 2]),
    ("nbs-equal-lengths", "c == r: Math.exp(1 - 1) is 1.", ["bp-boundary"],
     ("a b c e", "a b c d"), [4, 2]),
    ("nbs-repeated-words-clipped", "Math.min of the counts clips a repeated word.", [],
     ("the the the the the the the", "the cat is on the mat"), [1, 2]),
    ("nbs-v8-exp", "One word against eleven: the BP is Math.exp(-10), whose last bit V8 "
     "(fdlibm) rounds otherwise than the C library's exp (4.5399929762484854e-05).", [],
     ("a", "a b c d e f g h i j k"), [1]),
    ("nbs-v8-pow", "The 4th root of the precisions' product by Math.pow, V8's (fdlibm), not "
     "the C library's pow: they differ in the last bit here.", [],
     ("x b c d e f g", "a b c d e f g"), [4]),
    ("nbs-constructor-is-nan", "'constructor' is a name of Object.prototype: its count is the "
     "inherited function + 1, a string, and Math.min of it NaN (bleu('a b', 'constructor b', "
     "1)).", ["nan", "tokenization"], ("constructor b", "a b"), [1, 4]),
    ("nbs-identical-tostring-is-nan", "An identical sentence with 'toString' is NaN too: the "
     "reference's count is a string as well.", ["nan", "identical"],
     ("print toString of it", "print toString of it"), [4]),
    ("nbs-proto-never-matches", "A candidate '__proto__' is never an own key (the write is "
     "ignored): the unigram counts as a candidate n-gram but never matches.",
     ["tokenization"], ("__proto__ a", "a __proto__"), [1, 2]),
    ("nbs-proto-bigrams-match", "Its bigrams are ordinary keys ('the __proto__'): an "
     "identical sentence has unigram precision 2/3 and bigram precision 1.",
     ["identical", "tokenization"], ("the __proto__ key", "the __proto__ key"), [2, 1]),
    ("nbs-non-ascii", "Non-ASCII words are keys like any other.", [],
     ("Straße café 日本語 «ok»", "Straße cafe 日本語 «ok»"), [2, 1]),
    ("nbs-maxn-6", "maxN 6: the 6th root of six precisions.", [],
     ("the quick brown fox jumps over the lazy dog today",
      "the quick brown fox jumps over the lazy dog"), [6, 5]),
]



def run(node: str, calls: list[list]) -> list[float]:
    done = subprocess.run([node, str(SERVER)], input="".join(json.dumps(c) + "\n" for c in calls),
                          capture_output=True, text=True, check=True, encoding="utf-8")
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    for call, answer in zip(calls, answers, strict=True):
        if "bits" not in answer:
            raise SystemExit(f"bleu{tuple(call)} raised {answer}")
    return [struct.unpack(">d", bytes.fromhex(a["bits"]))[0] for a in answers]


def main() -> int:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is not installed")
    version = subprocess.run([node, "--version"], capture_output=True, text=True,
                             check=True).stdout.strip()
    calls = [[reference, candidate, n] for _, _, _, (candidate, reference), ns in CASES
             for n in ns]
    values = iter(run(node, calls))
    cases = []
    for case_id, description, tags, (candidate, reference), ns in CASES:
        expect = []
        for n in ns:
            value = next(values)
            expect.append({"convention": "npm-bleu-score",
                           **({"options": {"maxN": n}} if n != 4 else {}),
                           "value": "NaN" if math.isnan(value) else repr(value),
                           "provenance": {"kind": "computed",
                                          "source": SOURCE.format(node=version),
                                          "library": "npm-bleu-score",
                                          "version": "1.0.4"}})
        cases.append({"id": case_id, "description": description, "tags": tags,
                      "level": "sentence", "segments": [{"hyp": candidate, "refs": [reference]}],
                      "expect": expect})
    write_family(OUT, "tools/npm_bleu_score_cases.py", (
            "npm bleu-score 1.0.4 (bleu(reference, candidate, maxN), JavaScript): one candidate "
            "against one reference, split(' ') tokens, n-grams as keys of object literals (a "
            "name of Object.prototype miscounts: NaN, or __proto__ never matching), no "
            "smoothing, Math.pow(product of the precisions, 1/maxN) times Math.exp(1 - r/c), "
            "both V8's. Values from the npm tarball's js/bleu.js run by node, written by "
            "tools/npm_bleu_score_cases.py."),
                 cases)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
