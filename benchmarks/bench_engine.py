"""The engine against SacreBLEU, NLTK and bleuscore on corpus BLEU, in one run, as ratios.

    python benchmarks/bench_engine.py [--runs 5] [--quick] [--scaling]

For each corpus it times (the best of ``--runs``, taken in turn: one run of each contender,
then the next round, so that a slow spell of the machine falls on all alike; tokenizer caches
cleared before each run, as every run reads new text) the engine -- with its C kernel and
with the pure-Python pass (``bleu_harness.bleu.native``) -- against: the 13a tokenizer alone
(SacreBLEU's ``Tokenizer13a`` and the engine's Python one, on every line; the C kernel's is
inside its pass); ``sacrebleu.corpus_bleu`` with ``tokenize="none"``
and ``"13a"`` (the engine's ``sacrebleu`` convention); NLTK ``corpus_bleu`` given pre-split
tokens (so NLTK's time has no tokenization in it while the engine's has); ``bleuscore``
(Rust, HF-evaluate semantics: the engine's ``tf-nmt`` with ``tokenize=13a``) where it is
installed. Then all conventions at once (``score_many``) against one: "their time" is the
one convention's, and the ratio is one's time over all's (the goal: at least 1/1.5 = 0.67).
``--scaling`` adds 30k x 4 and 300k x 4 generated segments for the engine alone (time per
segment should stay flat). Every row checks that the scores are equal. One untimed call of
every convention comes first (``warm_up``). Prints Markdown.
"""

from __future__ import annotations

import argparse
import logging
import math
import platform
import sys
import time
import warnings
from collections.abc import Callable
from itertools import chain
from pathlib import Path

import nltk
import sacrebleu
from nltk.translate.bleu_score import corpus_bleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from data import deen_3000, generated

from bleu_harness.bleu import CONVENTIONS, Request, native, score, score_many
from bleu_harness.bleu.tokenizers import get_tokenizer
from bleu_harness.bleu.tokenizers import sacrebleu as sacrebleu_tokenizers

try:
    import bleuscore
except ImportError:
    bleuscore = None

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def clear_caches() -> None:
    Tokenizer13a.__call__.cache_clear()
    TokenizerRegexp.__call__.cache_clear()
    sacrebleu_tokenizers._v14_intl_string.cache_clear()


def best_seconds(calls: dict[str, Callable[[], object]], runs: int):
    """Each call ``runs`` times, in turn, and its least time with its value: the minimum, as
    ``timeit`` advises (higher times come from other processes on a shared machine, not from
    the code timed); taking turns puts a slow spell of the machine on every contender."""
    best = {name: (math.inf, None) for name in calls}
    for _ in range(runs):
        for name, call in calls.items():
            clear_caches()
            start = time.perf_counter()
            value = call()
            seconds = time.perf_counter() - start
            if seconds < best[name][0]:
                best[name] = (seconds, value)
    return best


def with_kernel(call: Callable[[], object], available: bool) -> Callable[[], object]:
    """``call`` with the C kernel on or off (``bleu_harness.bleu.native.AVAILABLE``)."""
    def run():
        built = native.AVAILABLE
        native.AVAILABLE = available
        try:
            return call()
        finally:
            native.AVAILABLE = built
    return run


#: The eight conventions the "all at once" goal names (NLTK, SacreBLEU, MATLAB, multi-bleu.perl,
#: mteval-v13a.pl, TF-NMT, torchmetrics, T2T); the row after it scores every convention.
FIRST_EIGHT = ("nltk", "sacrebleu", "matlab", "multi-bleu", "mteval-v13a", "tf-nmt",
               "torchmetrics", "t2t")


def engine_calls(call: Callable[[], object], prefix: str = "") -> dict[str, Callable[[], object]]:
    """The engine both ways: with the C kernel where it is built (``c``), and in pure Python."""
    calls = {prefix + "c": with_kernel(call, True)} if native.AVAILABLE else {}
    calls[prefix + "py"] = with_kernel(call, False)
    return calls


def engine_times(best, prefix: str = ""):
    """(seconds with the C kernel or None when it is not built, seconds in pure Python), the
    two checked to give the same scores."""
    c, py = best.get(prefix + "c"), best[prefix + "py"]
    if c is not None:
        assert_same(c[1], py[1])
    return (c[0] if c else None), py[0]


def assert_same(a, b) -> None:
    """Equal scores, and the same error where a convention cannot score the input."""
    def values(x):
        return [getattr(o, "score", str(o)) for o in (x if isinstance(x, list) else [x])]

    assert values(a) == values(b), (values(a), values(b))


def warm_up(hyps, refs) -> None:
    """One untimed call of every convention, with and without the C kernel, so that what is
    built once per process (T2T's Unicode class table, about 0.3 s; compiled regexes) is not
    in the first run's time."""
    for call in engine_calls(lambda: score_many(hyps[:20], refs[:20],
                                                [Request(n) for n in CONVENTIONS])).values():
        call()


def rows_for(name: str, hyps, refs, runs: int):
    streams = [list(column) for column in zip(*refs)]
    hyp_tokens = [h.split() for h in hyps]
    ref_tokens = [[r.split() for r in rs] for rs in refs]
    rows = []
    lines = [*hyps, *chain.from_iterable(refs)]
    theirs_13a, v13a = Tokenizer13a(), get_tokenizer("13a")
    best = best_seconds({"theirs": lambda: [theirs_13a(line).split() for line in lines],
                         "py": lambda: list(map(v13a, lines))}, runs)
    assert best["py"][1] == best["theirs"][1], name
    rows.append((name, ("13a tokenizer alone (SacreBLEU's Tokenizer13a; the engine's Python "
                        "tokenizer, every line)"), best["theirs"][0], None, best["py"][0]))
    # The tokens of every line, twice: millions of objects that the cyclic collector would
    # walk through the next rows' timings (they made the next row a quarter slower).
    del best
    for tokenize in ("none", "13a"):
        best = best_seconds({"theirs": lambda t=tokenize: sacrebleu.corpus_bleu(hyps, streams,
                                                                                tokenize=t),
                             **engine_calls(lambda t=tokenize: score(hyps, refs, "sacrebleu",
                                                                     tokenize=t))}, runs)
        assert best["py"][1].score == best["theirs"][1].score, (name, tokenize)
        rows.append((name, f"sacrebleu tokenize={tokenize}", best["theirs"][0],
                     *engine_times(best)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        best = best_seconds({"theirs": lambda: corpus_bleu(ref_tokens, hyp_tokens),
                             **engine_calls(lambda: score(hyps, refs, "nltk"))}, runs)
    assert best["py"][1].score == best["theirs"][1], name
    rows.append((name, "nltk corpus_bleu", best["theirs"][0], *engine_times(best)))
    if bleuscore is not None:
        best = best_seconds({"theirs": lambda: bleuscore.compute(
                                 predictions=hyps, references=refs, max_order=4, smooth=False),
                             **engine_calls(lambda: score(hyps, refs, "tf-nmt",
                                                          tokenize="13a"))}, runs)
        assert best["py"][1].score == best["theirs"][1]["bleu"], name
        rows.append((name, "bleuscore (tf-nmt, 13a)", best["theirs"][0], *engine_times(best)))
    shared = [Request("nltk"), Request("sacrebleu", {"tokenize": "none"}), Request("matlab")]
    for label, one, together in (
            ("nltk alone vs nltk + sacrebleu(none) + matlab at once", Request("nltk"), shared),
            ("sacrebleu (13a) alone vs nltk + sacrebleu (13a) at once (two tokenizations)",
             Request("sacrebleu"), [Request("nltk"), Request("sacrebleu")]),
            (("sacrebleu (13a) alone vs the first 8 conventions at once (defaults: 6 "
              "tokenizations, orders to 9)"), Request("sacrebleu"),
             [Request(n) for n in FIRST_EIGHT]),
            (f"sacrebleu (13a) alone vs all {len(CONVENTIONS)} conventions at once (defaults)",
             Request("sacrebleu"), [Request(n) for n in CONVENTIONS])):
        best = best_seconds(
            {**engine_calls(lambda one=one: score_many(hyps, refs, [one]), "one "),
             **engine_calls(lambda all_=together: score_many(hyps, refs, all_), "all ")}, runs)
        rows.append((name, label, engine_times(best, "one "), *engine_times(best, "all ")))
    return rows


def scaling(runs: int) -> None:
    print("\n| corpus | engine, C (s) | µs per segment | engine, Python (s) | µs per segment |")
    print("|---|---:|---:|---:|---:|")
    for segments in (30_000, 300_000):
        hyps, refs = generated(segments, 4)
        c, py = engine_times(best_seconds(
            engine_calls(lambda h=hyps, r=refs: score(h, r, "sacrebleu", tokenize="13a")), runs))
        cells = [f"{c:.3f} | {c / segments * 1e6:.1f}" if c is not None else "not built | ",
                 f"{py:.3f} | {py / segments * 1e6:.1f}"]
        print(f"| generated {segments // 1000}k × 4, sacrebleu 13a | {cells[0]} | {cells[1]} |",
              flush=True)


def ratio(theirs: float, ours: float | None) -> str:
    return "– | –" if ours is None else f"{ours:.3f} | {theirs / ours:.2f}×"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="3000-segment corpus only")
    parser.add_argument("--scaling", action="store_true", help="add 30k×4 and 300k×4, engine only")
    args = parser.parse_args()
    corpora = [("nmt-deen-3000 (1 ref)", *deen_3000())]
    if not args.quick:
        corpora += [("generated 30k, 1 ref", *generated(30_000, 1)),
                    ("generated 30k, 4 refs", *generated(30_000, 4))]
    peers = f"sacrebleu {sacrebleu.__version__}, nltk {nltk.__version__}"
    if bleuscore is not None:
        peers += ", bleuscore " + getattr(bleuscore, "__version__", "?")
    kernel = native.why_unavailable() or "C kernel built"
    print(f"Python {sys.version.split()[0]} on {platform.machine()}, {peers}; {kernel}; "
          f"best of {args.runs} runs, taken in turn\n")
    print("| corpus | compared with | their time (s) | engine, C (s) | ratio | "
          "engine, Python (s) | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|")
    warm_up(*corpora[0][1:])
    for name, hyps, refs in corpora:
        for corpus, what, theirs, c, py in rows_for(name, hyps, refs, args.runs):
            if isinstance(theirs, tuple):  # one convention vs all at once: theirs per engine
                one_c, one_py = theirs
                print(f"| {corpus} | {what} | {one_c or one_py:.3f} | {ratio(one_c, c)} | "
                      f"{ratio(one_py, py)} |", flush=True)
            else:
                print(f"| {corpus} | {what} | {theirs:.3f} | {ratio(theirs, c)} | "
                      f"{ratio(theirs, py)} |", flush=True)
    if args.scaling:
        scaling(args.runs)


if __name__ == "__main__":
    main()
