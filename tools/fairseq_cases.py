"""Record what fairseq's ``bleu`` scorer gives on its divergence families, as cases.

    python tools/fairseq_cases.py      # writes cases/families/fairseq.yaml

Builds fairseq 0.12.2's C ``libbleu`` (``bleu_harness/adapters/vendored/fairseq/libbleu.cpp``, with ``g++``) in
a temporary directory and runs fairseq's own ``Scorer``, ``Dictionary`` and ``fairseq-score``
loop on it (tests/fairseq_oracle.py, torch stubbed): ``fairseq-score`` (``zero_init``) for
corpus cases, ``reset(one_init=True)`` for sentence cases. It writes the score
(``Scorer.score(order)``) or the exception's name, and the figures ``result_string`` prints
(precisions in percent, BP, ratio, syslen, reflen). Nothing comes from the engine.

fairseq's own tests and documentation give no BLEU case that runs here (:data:`UPSTREAM`, the
family's description says it): every documented BLEU line is of a trained model's output.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from fairseq_oracle import VERSION, build_libbleu, load, run_scorer  # noqa: E402
from family_file import write_family  # noqa: E402  (tools/ is on a script's path)

OUT = ROOT / "cases" / "families" / "fairseq.yaml"
COMMIT = "facebookresearch/fairseq@4a388e64cd646ed7d7ad8de8fae55df2b8eea91d"
SOURCE = {"corpus": f"{COMMIT} fairseq_cli/score.py:79-92 (Dictionary.encode_line, Scorer.add), "
                    "fairseq/scoring/bleu.py:132-136 Scorer.score(order)",
          "sentence": f"{COMMIT} fairseq_cli/score.py:65-75 as --sentence-bleu means it "
                      "(Scorer.reset(one_init=True), encode_line, add), "
                      "fairseq/scoring/bleu.py:132-136 Scorer.score(order)"}

#: Where fairseq's own tests and documented examples were searched for a BLEU case, and why
#: none is here (facebookresearch/fairseq@3d262bb25690, main of 2025-09-30, and tag v0.12.2).
UPSTREAM = (
    "No case comes from fairseq's own tests or documented examples: none scores BLEU on an "
    "input that can run here (searched facebookresearch/fairseq@"
    "3d262bb25690e4eb2e7d3c1309b1e9c406ca4b99, main of 2025-09-30, and v0.12.2). tests/ has "
    "no test of fairseq.scoring.bleu.Scorer or libbleu: tests/test_binaries.py:167 "
    "test_eval_bleu only trains with --eval-bleu and asserts no value, and tests/speech/ "
    "asserts SacrebleuScorer BLEU of downloaded trained models' outputs (e.g. "
    "test_dualinput_s2t_transformer.py:102-106, 27.3 within 0.3). The documented fairseq-score "
    "and fairseq-generate lines (examples/translation/README.md:91-97, BLEU4 = 40.83; "
    "docs/tutorial_simple_lstm.rst:377, 8.18; examples/scaling_nmt/README.md:96, 29.29; "
    "examples/backtranslation/README.md:102,275) score trained models' translations of WMT "
    "and IWSLT test sets that are not in the repository.")

#: (id, description, tags, level, segments, option sets).
CASES = [
    ("fsq-basic", "Six words, one substituted: clipped matches against one reference, BLEU4 "
     "on the 0-100 scale.", [], "corpus",
     [("the cat sat on the mat", "the cat sat on a mat")], [{}, {"order": 2}]),
    ("fsq-basic-sentence", "The same line with --sentence-bleu's one_init: match and n-gram "
     "counts of orders 2-4 start at 1.", ["smoothing"], "sentence",
     [("the cat sat on the mat", "the cat sat on a mat")], [{}]),
    ("fsq-empty-line-is-eos", "An empty hypothesis line is one token, the </s> encode_line "
     "appends (bleu_rtrim keeps the first token): a hypothesis length of 1.",
     ["empty-hypothesis"], "corpus",
     [("the cat sat on the mat", "the cat sat on the mat"), ("", "a mat")], [{}]),
    ("fsq-both-empty", "Empty hypothesis and reference: both are </s>, a unigram match; no "
     "bigram makes BLEU4 0, BLEU1 is 100.", ["empty-hypothesis", "empty-reference"], "corpus",
     [("", "")], [{}, {"order": 1}]),
    ("fsq-both-empty-sentence", "The same at sentence level: the one_init seeds make orders "
     "2-4 1/1, so 100.", ["empty-hypothesis", "empty-reference", "smoothing"], "sentence",
     [("", "")], [{}]),
    ("fsq-unk-never-matches", "A reference <unk> becomes -999 and matches nothing, so an "
     "identical line with <unk> scores below 100.", ["tokenization", "identical"], "corpus",
     [("a <unk> b c d", "a <unk> b c d")], [{}, {"order": 1}]),
    ("fsq-special-words-trimmed", "Leading <pad> and trailing </s>/<pad> words are the "
     "special ids libbleu trims: the lines are then identical.", ["tokenization"], "corpus",
     [("<pad> the cat sat on the mat </s> <pad>", "the cat sat on the mat </s>")], [{}]),
    ("fsq-inner-eos-kept", "An inner </s> stays a token (only the end is trimmed).",
     ["tokenization"], "corpus", [("the cat </s> sat on the mat", "the cat sat on the mat")],
     [{}]),
    ("fsq-no-4gram-match", "No 3- or 4-gram match: a zero precision is log 0 = -inf, BLEU4 "
     "0.0; BLEU2 is positive.", ["zero-overlap"], "corpus",
     [("a b x c d y", "a b z c d w")], [{}, {"order": 2}]),
    ("fsq-no-4gram-match-sentence", "The same at sentence level: one_init's seeds keep every "
     "order above 0.", ["zero-overlap", "smoothing"], "sentence",
     [("a b x c d y", "a b z c d w")], [{}]),
    ("fsq-no-unigram-match-sentence", "No word matches: the unigram precision is not seeded, "
     "0 even at sentence level.", ["zero-overlap"], "sentence", [("p q r s", "a b c d")],
     [{}]),
    ("fsq-short-hypothesis", "Two words against four: no trigram, so BLEU4 is 0; the brevity "
     "penalty exp(1 - 4/2).", ["short-hypothesis"], "corpus", [("a b", "a b c d")],
     [{}, {"order": 2}]),
    ("fsq-short-hypothesis-sentence", "The same at sentence level: orders 3 and 4 are the "
     "seeds alone, 1/1.", ["short-hypothesis", "smoothing"], "sentence",
     [("a b", "a b c d")], [{}]),
    ("fsq-brevity", "A short hypothesis: min(1, exp(1 - r/c)).", ["bp-boundary"], "corpus",
     [("the cat sat on the", "the cat sat on the mat today")], [{}]),
    ("fsq-ignore-case", "--ignore-case lowercases the line (str.lower) before the dictionary.",
     ["case"], "corpus", [("The Cat sat on the Mat", "the cat sat on the mat")],
     [{}, {"ignore_case": True}]),
    ("fsq-ignore-case-makes-eos", "--ignore-case turns the word </S> into </s>, which is then "
     "trimmed.", ["case", "tokenization"], "corpus",
     [("A cat sat on the mat </S>", "a cat sat on the mat")], [{}, {"ignore_case": True}]),
    ("fsq-unicode-whitespace", "Words split at Unicode whitespace (tokenize_line's \\s+): "
     "NO-BREAK SPACE, LINE SEPARATOR, U+001C.", ["tokenization"], "corpus",
     [("the\u00a0cat sat\u2028on the\x1cmat", "the cat sat on the mat")], [{}]),
    ("fsq-corpus-mixed", "Three lines: sums of lengths, matches and n-gram counts.",
     ["short-hypothesis"], "corpus",
     [("a man riding a horse on the beach", "a man rides a horse on the beach"),
      ("two dogs", "two dogs play in the grass"), ("a red bus", "a red bus")],
     [{}, {"order": 1}, {"order": 3}]),
    ("fsq-hash-collision", "The words w4..w250 take the ids 4-250, so that the reference "
     "bigram 'w126 w250' and the hypothesis bigram 'w128 w4' are the ids (126, 250) and "
     "(128, 4), whose bleu_hash is one (libbleu.cpp:59-71, FNV-1a over the ids' bytes, signed "
     "char on x86): libbleu counts a bigram match where no bigram is equal.",
     ["tokenization"], "corpus", [(" ".join(f"w{i}" for i in range(4, 251)) + " w128 w4",
                                   "w126 w250")], [{}]),
]

#: The cases that also record what ``result_string`` prints beside the score.
WITH_FIGURES = {"fsq-basic", "fsq-basic-sentence", "fsq-empty-line-is-eos",
                "fsq-short-hypothesis-sentence", "fsq-brevity", "fsq-corpus-mixed"}


def expectation(level: str, options: dict, extra: dict) -> dict:
    return {"convention": "fairseq", **({"options": dict(options)} if options else {}),
            **extra, "provenance": {
                "kind": "computed",
                "source": f"{SOURCE[level]}, over libbleu.cpp built with g++ (PyPI sdist "
                          f"fairseq-{VERSION}.tar.gz)",
                "library": "fairseq", "version": VERSION}}


def figures(scored, order: int) -> dict[str, str]:
    """What ``result_string`` prints beside the score, at full precision."""
    stat = scored.stat
    out = {f"precision.{n}": repr(p * 100) for n, p in enumerate(scored.precision[:order], 1)}
    out["bp"] = repr(float(scored.brevity))  # min(1, ...) may be the int 1
    out["ratio"] = repr(stat["predlen"] / stat["reflen"])
    out["hyp_len"], out["ref_len"] = str(stat["predlen"]), str(stat["reflen"])
    return out


def cases(fairseq) -> list[dict]:
    out = []
    for case_id, description, tags, level, segments, option_sets in CASES:
        hyps = [h for h, _ in segments]
        refs = [r for _, r in segments]
        expect = []
        for options in option_sets:
            order = options.get("order", 4)
            scored, = run_scorer(fairseq, hyps, refs, order, options.get("ignore_case", False),
                                 sentence=level == "sentence")
            if isinstance(scored.score, str):
                expect.append(expectation(level, options,
                                          {"raises": scored.score.removeprefix("raises ")}))
                continue
            expect.append(expectation(level, options, {"value": repr(scored.score)}))
            if not options and case_id in WITH_FIGURES:
                for figure, value in figures(scored, order).items():
                    expect.append(expectation(level, options,
                                              {"figure": figure, "value": value}))
        out.append({"id": case_id, "description": description, "tags": tags, "level": level,
                    "segments": [{"hyp": h, "refs": [r]} for h, r in segments],
                    "expect": expect})
    return out


def main() -> int:
    with tempfile.TemporaryDirectory() as directory:
        fairseq = load(build_libbleu(Path(directory)))
        recorded = cases(fairseq)
    write_family(OUT, "tools/fairseq_cases.py", (
            f"fairseq's default BLEU (fairseq {VERSION}: fairseq.scoring.bleu.Scorer over the C "
            "libbleu, as fairseq-score runs it): whitespace words as dictionary ids with </s> "
            "appended, libbleu's trimming of <pad> and </s>, a reference <unk> that never "
            "matches, 0 for an order without a match, one_init's seeds at sentence level. "
            "Values from the real libbleu.cpp (PyPI sdist fairseq-0.12.2.tar.gz, built with "
            "g++) driven by fairseq's own Scorer, Dictionary and fairseq-score loop, written by "
            "tools/fairseq_cases.py; the figures are what result_string prints, unrounded. "
            + UPSTREAM),
                 recorded)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
