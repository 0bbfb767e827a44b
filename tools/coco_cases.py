"""Record what pycocoevalcap's ``Bleu`` returns on the divergence families, as cases.

    python tools/coco_cases.py      # writes cases/families/pycocoevalcap.yaml

Runs the installed pycocoevalcap (``pip install pycocoevalcap``; its PTB pipeline needs
Java) on the inputs below, one or more per divergence family, through
``tests/libraries.py`` (``Bleu(n).compute_score``, ``BleuScorer.compute_score(option=...)``,
``PTBTokenizer`` first for ``tokenize: ptb``), and writes every value it returns: the score
(BLEU-n, the last of the list), the list as ``cumulative.k``, the ``ratio`` that
``compute_score`` prints (``print("ratio:", ratio)``, bleu_scorer.py:261; Python 3 prints
the repr), or the exception's name. Nothing comes from the engine.
"""

from __future__ import annotations

import io
import re
import sys
from importlib.metadata import version
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from libraries import coco_bleu  # noqa: E402
from family_file import write_family  # noqa: E402  (tools/ is on a script's path)

OUT = ROOT / "cases" / "families" / "pycocoevalcap.yaml"
SOURCE = {"closest": "Bleu(n).compute_score(gts, res)",
          "shortest": "BleuScorer(n=n).compute_score(option='shortest')",
          "average": "BleuScorer(n=n).compute_score(option='average')"}
#: The pycocoevalcap releases that give every recorded value (``versions:``), measured on
#: 2026-11-25. The package index serves 1.2 only: its wheel gives every value, through this
#: tool and through ``bleu-harness run cases/families/pycocoevalcap.yaml --backend
#: pycocoevalcap --library-python pycocoevalcap=PYTHON``. 1.0 and 1.1 are not served, so they
#: were run from their source: 1.2's wheel with bleu/ and tokenizer/ as
#: salaniz/pycocoevalcap@b6e7a050c3e3 (the last commit at version=1.0) and @a6b79b0fbd0f
#: (version=1.1), and this tool wrote the same file but for the version strings (the ratio
#: printed, the exceptions and every BLEU-k alike). bleu_scorer.py and ptbtokenizer.py are
#: the same in the three; bleu.py gained only ``verbose`` in 1.2 (salaniz/pycocoevalcap@68620877f513).
VERSIONS = {"pycocoevalcap": ">=1.0"}

#: (id, description, tags, level, tokenizer of the case or None, segments, option sets).
CASES = [
    ("coco-identical", "An identical 6-word candidate: just under 1 at every order, as each "
     "precision is (m + 1e-15) / (n + 1e-9) and the brevity penalty's ratio is (c + 1e-15) / "
     "(r + 1e-9) < 1.", ["identical", "bp-boundary"], "sentence", None,
     [("the cat sat on the mat", ["the cat sat on the mat"])], [{}, {"n": 1}]),
    ("coco-identical-corpus", "Two identical segments, one of them with a second, longer "
     "reference.", ["identical"], "corpus", None,
     [("a man rides a horse", ["a man rides a horse", "a man is riding a brown horse"]),
      ("two dogs", ["two dogs"])], [{}, {"option": "shortest"}, {"option": "average"}]),
    ("coco-bp-boundary", "Hypothesis and reference of 6 words, one word apart: the brevity "
     "penalty is exp(1 - 1/ratio) with ratio just under 1.", ["bp-boundary"], "sentence",
     None, [("the cat sat on a mat", ["the cat sat on the mat"])], [{}]),
    ("coco-no-4gram-match", "No 3- or 4-gram matches: the floor 1e-15 / (n + 1e-9) keeps "
     "BLEU-4 positive.", ["zero-overlap@3", "zero-overlap@4"], "sentence", None,
     [("the cat the mat sat on", ["the cat sat on the mat"])], [{}]),
    ("coco-no-match", "No word matches: every order is 1e-15 / (n + 1e-9), a tiny positive "
     "score.", ["zero-overlap@1"], "sentence", None, [("a b c d", ["e f g h"])], [{}]),
    ("coco-short-hypothesis", "Two words: orders 3 and 4 have no n-grams, each counts 1e-15 / "
     "1e-9 = 1e-6.", ["short-hypothesis"], "sentence", None,
     [("the cat", ["the cat sat"])], [{}, {"n": 2}, {"n": 3}]),
    ("coco-one-word", "One word against itself.", ["short-hypothesis", "identical"],
     "sentence", None, [("cat", ["cat"])], [{}, {"n": 1}]),
    ("coco-empty-hypothesis", "An empty candidate: the ratio 1e-15 / (r + 1e-9) makes the "
     "brevity penalty 0.", ["empty-hypothesis"], "sentence", None, [("", ["a b c"])], [{}]),
    ("coco-empty-hypothesis-corpus", "An empty candidate beside a perfect one.",
     ["empty-hypothesis"], "corpus", None, [("", ["x y"]), ("a b c d", ["a b c d"])], [{}]),
    ("coco-empty-reference", "A candidate against an empty reference: no brevity penalty "
     "(ratio (c + 1e-15) / 1e-9 > 1), no match.", ["empty-reference"], "sentence", None,
     [("a b c", [""])], [{}]),
    ("coco-both-empty", "Empty candidate and reference: 0 (the ratio is 1e-6).",
     ["empty-hypothesis", "empty-reference"], "sentence", None, [("", [""])], [{}]),
    ("coco-tie-longer-first", "5 words against references of 6 and 4 (longer first): "
     "equally close, the shorter is taken (min((abs(l - testlen), l))).", ["ref-length-tie"],
     "sentence", None, [("w0 w1 w2 w3 w4", ["w0 w1 w2 w3 w4 w5", "w0 w1 w2 w3"])],
     [{}, {"option": "shortest"}, {"option": "average"}]),
    ("coco-tie-shorter-first", "The same with the shorter reference first.",
     ["ref-length-tie"], "sentence", None,
     [("w0 w1 w2 w3 w4", ["w0 w1 w2 w3", "w0 w1 w2 w3 w4 w5"])], [{}]),
    ("coco-closest-vs-shortest", "'I ate an apple' against ['Bye', 'I ate an apple here'] "
     "(tensorflow/nmt#450): each reference-length option.", ["closest-vs-shortest"],
     "sentence", None, [("I ate an apple", ["Bye", "I ate an apple here"])],
     [{}, {"option": "shortest"}, {"option": "average"}]),
    ("coco-clipping", "A repeated word clipped by its largest count in any one reference.",
     [], "sentence", None, [("the the the the the", ["the cat", "the the mat"])], [{}]),
    ("coco-corpus-mixed", "Three segments with 1-3 references of different lengths.",
     ["ref-length-tie"], "corpus", None,
     [("a man riding a horse on the beach", ["a man rides a horse", "a person on a horse "
                                             "at the beach today"]),
      ("two dogs play", ["two dogs are playing in the grass", "dogs play", "two dogs"]),
      ("a red bus", ["a red bus on the street"])],
     [{}, {"n": 1}, {"n": 2}, {"n": 3}, {"option": "shortest"}, {"option": "average"}]),
    ("coco-average-in-segment-order", "option='average' adds each segment's mean reference "
     "length in float, in segment order (self._reflen += reflen): 8/3 + 17/3 + 16/3 is "
     "another float backwards.", ["closest-vs-shortest", "short-hypothesis"], "corpus", None,
     [("a", ["a b", "a", "a b c d e"]), ("b c", ["a b c d e f", "a b c d e f g", "a b c d"]),
      ("a b", ["a b", "a b c d e", "a b c d e f g h i"])], [{"option": "average"}]),
    ("coco-average-one-reference-each", "option='average' on segments of one reference "
     "each: the mean is the length.", ["closest-vs-shortest"], "corpus", None,
     [("a b c", ["a b c d"]), ("x y", ["x y z w v"])], [{"option": "average"}]),
    ("coco-unreferenced", "A segment without references: Bleu asserts len(ref) >= 1; "
     "BleuScorer's min() and mean of no lengths raise.", ["empty-reference", "raises"],
     "corpus", None, [("a b", ["a b"]), ("c d", [])],
     [{}, {"option": "shortest"}, {"option": "average"}]),
    ("coco-n-5", "Bleu(5): the statistics hold 4 orders (cook_test's n=4), compute_score "
     "reads a fifth.", ["raises"], "sentence", None, [("a b c d e", ["a b c d e"])],
     [{"n": 5}]),
    ("coco-ptb-captions", "Raw captions through the official pipeline's PTBTokenizer "
     "(lower-cased, punctuation dropped, brackets kept as -lrb-/-rrb-) and without it.",
     ["tokenization", "case"], "corpus", "13a",
     [("A man (in red) rides a horse.", ["A man riding a horse!",
                                          "The man rides the brown horse."]),
      ("Two dogs play in the grass, happily.", ["Two dogs are playing in the grass.",
                                                "Dogs playing on a lawn."])],
     [{}, {"tokenize": "ptb"}]),
    ("coco-ptb-contractions", "PTB splits don't, it's and 3 1/2 (one token with U+00A0, two "
     "words for str.split()).", ["tokenization"], "sentence", "13a",
     [("It's 3 1/2 feet tall, don't you think?",
       ["it 's 3 1/2 feet tall do n't you think", "It is three feet tall."])],
     [{}, {"tokenize": "ptb"}]),
]

RATIO = re.compile(r"^ratio: (\S+)$", re.M)

# --- the COCO demo's printed statistics -----------------------------------------------------
#: tylin/coco-caption's demo notebook runs COCOEvalCap on the fake captions of 1000 val2014
#: images and prints BleuScorer's totals, the ratio (Python 2 ``print``: 12 digits) and
#: ``%0.3f`` of BLEU-1..4 (cell 3). Its annotation file is not at hand here (over 4 MiB), so
#: the case scores a made-up corpus with exactly these totals: the printed values depend on
#: nothing else (bleu_scorer.py:245-257). The real tool must print the same totals on it.
DEMO_URL = ("https://github.com/tylin/coco-caption/blob/"
            "3a9afb2682141a03e1cdc02b0df6770d2c884f6f/cocoEvalCapDemo.ipynb")
DEMO_TOTALS = {"reflen": 9855, "guess": [9893, 8893, 7893, 6893], "testlen": 9893,
               "correct": [5732, 2510, 1043, 423]}
DEMO_PRINTED = {"cumulative.1": "0.579", "cumulative.2": "0.404", "cumulative.3": "0.279",
                "score": "0.191", "ratio": "1.00385591071", "hyp_len": "9893",
                "ref_len": "9855"}
DEMO_DATA = ROOT / "cases" / "data" / "coco-demo-statistics"


def demo_corpus() -> tuple[list[str], list[str]]:
    """1000 segments, one reference each, with the demo's totals. Every word of a segment is
    distinct; the matched words come in runs (blocks) that the reference holds apart, so a run
    of length L matches L, L-1, L-2, L-3 n-grams: 1755 runs of 1, 847 of 2, 197 of 3 and 423
    of 4 give 5732, 2510, 1043 and 423 matches. 4161 unmatched words make 9893; fillers in
    the reference (between runs, and at its end) make 9855."""
    runs = [4] * 423 + [3] * 197 + [2] * 847 + [1] * 1755
    hyps, refs, next_run = [], [], 0
    for i in range(1000):
        count = 4 if i < 222 else 3  # 3222 runs
        mine = runs[next_run:next_run + count]
        next_run += count
        unmatched = 5 if i < 161 else 4  # 4161 words
        extra = 2 if i < 901 else 1  # 1901 fillers beyond the separators
        hyp, ref, word = [], [], 0
        for j, length in enumerate(mine):
            block = [f"w{word + k}" for k in range(length)]
            word += length
            hyp += block
            ref += ([f"f{j}"] if j else []) + block
        hyp += [f"u{k}" for k in range(unmatched)]
        ref += [f"x{k}" for k in range(extra)]
        hyps.append(" ".join(hyp))
        refs.append(" ".join(ref))
    return hyps, refs


def demo_case() -> dict:
    hyps, refs = demo_corpus()
    printed = io.StringIO()
    coco_bleu(hyps, [[r] for r in refs], "corpus", {}, prints=printed)
    totals = eval(printed.getvalue().splitlines()[0])  # noqa: S307 -- the tool's own dict
    assert {k: totals[k] for k in DEMO_TOTALS} == DEMO_TOTALS, totals
    DEMO_DATA.mkdir(parents=True, exist_ok=True)
    (DEMO_DATA / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (DEMO_DATA / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    provenance = {"kind": "documented", "source": "tylin/coco-caption cocoEvalCapDemo.ipynb, "
                  "cell 3 (COCOEvalCap on captions_val2014_fakecap_results.json)",
                  "url": DEMO_URL}
    expect = [{"convention": "pycocoevalcap",
               **({"figure": figure} if figure != "score" else {}),
               "value": value, "compare": "printed", "provenance": dict(provenance)}
              for figure, value in DEMO_PRINTED.items()]
    return {"id": "coco-demo-statistics",
            "description": "The COCO caption demo's printed BLEU (0.579 / 0.404 / 0.279 / "
            "0.191, ratio 1.00385591071) on a made-up corpus of 1000 one-reference segments "
            "with exactly the totals it prints (reflen 9855, guess 9893/8893/7893/6893, "
            "correct 5732/2510/1043/423): the printed figures depend on the totals alone.",
            "tags": ["documented"], "level": "corpus",
            "files": {"hypotheses": "../data/coco-demo-statistics/hyp.txt",
                      "references": ["../data/coco-demo-statistics/ref.txt"]},
            "expect": expect}


def run(hyps: list[str], refs: list[list[str]], level: str, options: dict):
    """(BLEU-1..n, the ratio compute_score printed) or the exception's name."""
    printed = io.StringIO()
    try:
        corpus, _ = coco_bleu(hyps, refs, "corpus", options, prints=printed)
    except Exception as error:  # the library's own exception
        return type(error).__name__
    match = RATIO.search(printed.getvalue())
    scores = coco_bleu(hyps, refs, "sentence", options) if level == "sentence" else corpus
    return list(scores), match.group(1) if match else None


def expectation(options: dict, extra: dict) -> dict:
    option = options.get("option", "closest")
    return {"convention": "pycocoevalcap", **({"options": dict(options)} if options else {}),
            **extra, "versions": dict(VERSIONS),
            "provenance": {"kind": "computed", "source": SOURCE[option]
                           + (" after PTBTokenizer().tokenize"
                              if options.get("tokenize") == "ptb" else ""),
                           "library": "pycocoevalcap", "version": version("pycocoevalcap")}}


def cases() -> list[dict]:
    out = []
    for case_id, description, tags, level, tokenizer, segments, option_sets in CASES:
        hyps = [h for h, _ in segments]
        refs = [list(r) for _, r in segments]
        expect = []
        for options in option_sets:
            outcome = run(hyps, refs, level, options)
            if isinstance(outcome, str):
                expect.append(expectation(options, {"raises": outcome}))
                continue
            scores, ratio = outcome
            expect.append(expectation(options, {"value": repr(scores[-1])}))
            for k, value in enumerate(scores[:-1], start=1):
                expect.append(expectation(options, {"figure": f"cumulative.{k}",
                                                    "value": repr(value)}))
            if ratio is not None:
                expect.append(expectation(options, {"figure": "ratio", "value": ratio}))
        out.append({"id": case_id, "description": description, "tags": tags, "level": level,
                    **({"tokenizer": tokenizer} if tokenizer else {"tokenized": True}),
                    "segments": [{"hyp": h, "refs": r} for h, r in segments],
                    "expect": expect})
    return out


def main() -> int:
    write_family(OUT, "tools/coco_cases.py", (
            "What pycocoevalcap's Bleu (MS-COCO caption evaluation) returns on each divergence "
            f"family, pycocoevalcap {version('pycocoevalcap')}: BLEU-n as the score, BLEU-1..n-1 "
            "as cumulative.k, the ratio compute_score prints, or the exception it raises; "
            "option 'closest' through Bleu(n).compute_score, 'shortest' and 'average' through "
            "BleuScorer.compute_score(option=...), tokenize 'ptb' after PTBTokenizer().tokenize "
            "(Java). Written by tools/coco_cases.py from the real tool; the first case holds "
            "the figures the COCO caption demo prints (documented)."),
                 [demo_case(), *cases()])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
