"""The engine against SacreBLEU and NLTK on corpus BLEU, in one run, as ratios.

    python benchmarks/bench_engine.py [--runs 5] [--quick]

For each corpus it times (median of ``--runs``): the engine's ``sacrebleu`` convention and
``sacrebleu.corpus_bleu`` with ``tokenize="none"`` and ``"13a"``; the engine's ``nltk``
convention and ``nltk.translate.bleu_score.corpus_bleu`` (given pre-split tokens, so NLTK's
time has no tokenization in it while the engine's has); and all conventions at once
(``score_many``) against one: there the "ratio" is one's time over all's (the goal is
at least 1/1.5 = 0.67). Tokenizer caches are cleared before every run, as every run
reads new text. Prints a Markdown table; each row's scores are checked to be equal.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
import warnings
from pathlib import Path

import sacrebleu
from nltk.translate.bleu_score import corpus_bleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from data import deen_3000, generated  # noqa: E402

from harness.bleu import (  # noqa: E402
    Request,
    score,
    score_many,
    tokenizers,  # noqa: E402
)

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def clear_caches() -> None:
    Tokenizer13a.__call__.cache_clear()
    TokenizerRegexp.__call__.cache_clear()
    tokenizers._v14_intl_string.cache_clear()


def median_seconds(call, runs: int):
    times, value = [], None
    for _ in range(runs):
        clear_caches()
        start = time.perf_counter()
        value = call()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def rows_for(name: str, hyps, refs, runs: int):
    streams = [list(column) for column in zip(*refs)]
    hyp_tokens = [h.split() for h in hyps]
    ref_tokens = [[r.split() for r in rs] for rs in refs]
    rows = []
    for tokenize in ("none", "13a"):
        ours, a = median_seconds(lambda: score(hyps, refs, "sacrebleu", tokenize=tokenize), runs)
        theirs, b = median_seconds(
            lambda: sacrebleu.corpus_bleu(hyps, streams, tokenize=tokenize), runs)
        assert a.score == b.score, (name, tokenize, a.score, b.score)
        rows.append((name, f"sacrebleu tokenize={tokenize}", theirs, ours))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs, b = median_seconds(lambda: corpus_bleu(ref_tokens, hyp_tokens), runs)
    ours, a = median_seconds(lambda: score(hyps, refs, "nltk"), runs)
    assert a.score == b, (name, a.score, b)
    rows.append((name, "nltk corpus_bleu", theirs, ours))
    shared = [Request("nltk"), Request("sacrebleu", {"tokenize": "none"}), Request("matlab")]
    one, _ = median_seconds(lambda: score(hyps, refs, "nltk"), runs)
    at_once, _ = median_seconds(lambda: score_many(hyps, refs, shared), runs)
    rows.append((name, "nltk alone vs nltk + sacrebleu(none) + matlab at once", one, at_once))
    with_13a = shared + [Request("sacrebleu", {"tokenize": "13a"})]
    at_once, _ = median_seconds(lambda: score_many(hyps, refs, with_13a), runs)
    rows.append((name, "nltk alone vs the same + sacrebleu(13a), a second token pass", one,
                 at_once))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="3000-segment corpora only")
    args = parser.parse_args()
    corpora = [("nmt-deen-3000 (1 ref)", *deen_3000())]
    if not args.quick:
        corpora += [("generated 30k, 1 ref", *generated(30_000, 1)),
                    ("generated 30k, 4 refs", *generated(30_000, 4))]
    print(f"Python {sys.version.split()[0]}, sacrebleu {sacrebleu.__version__}, "
          f"median of {args.runs} runs\n")
    print("| corpus | compared with | their time (s) | engine (s) | ratio |")
    print("|---|---|---:|---:|---:|")
    for name, hyps, refs in corpora:
        for corpus, what, theirs, ours in rows_for(name, hyps, refs, args.runs):
            print(f"| {corpus} | {what} | {theirs:.3f} | {ours:.3f} | {theirs / ours:.2f}× |",
                  flush=True)


if __name__ == "__main__":
    main()
