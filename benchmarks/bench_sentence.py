"""Sentence BLEU and MBR: the engine's batch API, reusable scorer and pairwise API against
SacreBLEU, NLTK and bleuscore, in one run, as ratios.

    python benchmarks/bench_sentence.py [--runs 3] [--quick]

Workloads (de-en, the bundled 3000 segments; ``--quick``: 500):

* **per pair**, 1 and 4 references: a sentence score for every (hypothesis, references) pair.
  The engine three ways -- one ``score(..., level="sentence")`` call per pair, a loop of
  ``Scorer.score`` calls, one ``sentence_scores`` call -- against SacreBLEU's
  ``sentence_bleu`` per pair and its reusable ``BLEU(effective_order=True).sentence_score``,
  NLTK's ``sentence_bleu`` with ``method1`` per pair (the engine's ``nltk`` with
  ``smoothing="method1"``) and ``bleuscore.compute`` per pair (Rust; the engine's ``tf-nmt``
  with ``tokenize="13a"``).
* **MBR**: groups of candidates (the hypotheses in groups of ``--group``), every candidate
  against every other: the engine's ``pairwise`` against SacreBLEU's reusable ``BLEU`` object
  and bleuscore per pair.

Each contender is timed ``--runs`` times in turn (one of each, then the next round) and its
best time kept; every contender's answers are checked equal to the engine's on every timed
input (bit for bit). Prints Markdown: microseconds a pair and the engine's speed-up, then
where each goal of the sentence-level work stands in this run (:data:`GOALS`).
"""

from __future__ import annotations

import argparse
import gc
import logging
import math
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
from sacrebleu.metrics import BLEU

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from data import deen_3000

from bleu_harness.bleu import Scorer, native, pairwise, score, sentence_scores

try:
    import bleuscore
except ImportError:
    bleuscore = None

logging.getLogger("sacrebleu").setLevel(logging.ERROR)


#: The goals (the engine's speed-up at least this much), by the ratio each is read from.
GOALS = {
    "batch / bleuscore, 1 reference": 5.0, "batch / bleuscore, 4 references": 5.0,
    "batch / SacreBLEU sentence_bleu, 1 reference": 20.0,
    "batch / SacreBLEU sentence_bleu, 4 references": 20.0,
    "MBR pairwise / bleuscore": 5.0, "MBR pairwise / SacreBLEU reusable BLEU": 10.0,
    "Scorer.score / bleuscore (calls a second), 1 reference": 1.0,
}


def goals_table(ratios: dict[str, float]) -> list[str]:
    """Each goal, the figure this run gives, and whether it is met."""
    lines = ["### Goals (this run)", "", "| goal | at least | this run | met |",
             "|---|---:|---:|---|"]
    for goal, wanted in GOALS.items():
        if goal not in ratios:
            lines.append(f"| {goal} | {wanted:g}× | – | not measured (library missing) |")
            continue
        lines.append(f"| {goal} | {wanted:g}× | {ratios[goal]:.2f}× | "
                     f"{'yes' if ratios[goal] >= wanted else 'no'} |")
    return lines + [""]


def best_of(calls: dict[str, Callable[[], list]], runs: int) -> dict[str, tuple[float, list]]:
    """Each call ``runs`` times in turn; its least time and its answers."""
    best = {name: (math.inf, []) for name in calls}
    for _ in range(runs):
        for name, call in calls.items():
            start = time.perf_counter()
            value = call()
            seconds = time.perf_counter() - start
            if seconds < best[name][0]:
                best[name] = (seconds, value)
    return best


def table(title: str, pairs: int, best: dict[str, tuple[float, list]],
          engine: str, groups: dict[str, str]) -> list[str]:
    """A Markdown table: each contender's microseconds a pair, and the engine's ratio."""
    ours = best[engine][0]
    lines = [f"### {title} ({pairs:,} pairs)", "",
             "| contender | µs a pair | engine's batch is |", "|---|---:|---:|"]
    for name, (seconds, _) in best.items():
        lines.append(f"| {groups.get(name, name)} | {seconds / pairs * 1e6:.1f} | "
                     f"{seconds / ours:.2f}× faster |")
    return lines + [""]


def per_pair(hyps: list[str], refs: list[list[str]], runs: int, label: str,
             ratios: dict[str, float]) -> list[str]:
    method1 = SmoothingFunction().method1
    reused = BLEU(effective_order=True)
    calls = {
        "batch": lambda: sentence_scores(hyps, refs, "sacrebleu"),
        "scorer": lambda s=Scorer("sacrebleu"): [s.score(h, r) for h, r in zip(hyps, refs)],
        "single": lambda: [score([h], [r], "sacrebleu", level="sentence").score
                           for h, r in zip(hyps, refs)],
        "sacrebleu": lambda: [sacrebleu.sentence_bleu(h, r).score for h, r in zip(hyps, refs)],
        "sacrebleu-reused": lambda: [reused.sentence_score(h, r).score
                                     for h, r in zip(hyps, refs)],
    }
    best = best_of(calls, runs)
    for name in calls:
        assert best[name][1] == best["batch"][1], name
    ratios[f"batch / SacreBLEU sentence_bleu, {label}"] = best["sacrebleu"][0] / best["batch"][0]
    out = table(f"SacreBLEU's sentence BLEU, {label}", len(hyps), best, "batch", {
        "batch": "engine `sentence_scores` (one call)",
        "scorer": "engine `Scorer.score` (a call per pair)",
        "single": "engine `score(level='sentence')` (a call per pair)",
        "sacrebleu": "SacreBLEU `sentence_bleu`", "sacrebleu-reused":
        "SacreBLEU `BLEU(effective_order=True).sentence_score`"})
    split_hyps = [h.split() for h in hyps]
    split_refs = [[r.split() for r in rs] for rs in refs]
    nltk_calls = {
        "batch": lambda: sentence_scores(hyps, refs, "nltk", smoothing="method1"),
        "nltk": lambda: [sentence_bleu(r, h, smoothing_function=method1)
                         for h, r in zip(split_hyps, split_refs)],
    }
    best = best_of(nltk_calls, runs)
    assert best["nltk"][1] == best["batch"][1]
    out += table(f"NLTK's sentence BLEU (method1), {label}", len(hyps), best, "batch", {
        "batch": "engine `sentence_scores` (one call)",
        "nltk": "NLTK `sentence_bleu` (given split tokens)"})
    if bleuscore is not None:
        # TF-NMT (and the engine's tf-nmt) divides by zero on an empty hypothesis
        kept = [(h, r) for h, r in zip(hyps, refs) if h.split()]
        kept_hyps, kept_refs = [h for h, _ in kept], [r for _, r in kept]
        rust_calls = {
            "batch": lambda: sentence_scores(kept_hyps, kept_refs, "tf-nmt", tokenize="13a"),
            "scorer": lambda s=Scorer("tf-nmt", tokenize="13a"): [s.score(h, r)
                                                                 for h, r in kept],
            "bleuscore": lambda: [bleuscore.compute(predictions=[h], references=[r],
                                                    max_order=4, smooth=False)["bleu"]
                                  for h, r in kept],
        }
        best = best_of(rust_calls, runs)
        assert best["bleuscore"][1] == best["batch"][1] == best["scorer"][1]
        ratios[f"batch / bleuscore, {label}"] = best["bleuscore"][0] / best["batch"][0]
        if label == "1 reference":
            ratios[f"Scorer.score / bleuscore (calls a second), {label}"] = (
                best["bleuscore"][0] / best["scorer"][0])
        out += table(f"bleuscore's BLEU (Rust), {label}", len(kept), best, "batch", {
            "batch": "engine `sentence_scores` (one call, tf-nmt with 13a)",
            "scorer": "engine `Scorer.score` (a call per pair, tf-nmt with 13a)",
            "bleuscore": "bleuscore `compute` (a call per pair)"})
    return out


def groups_of(hyps: list[str], group: int) -> list[list[str]]:
    return [hyps[i:i + group] for i in range(0, len(hyps) - group + 1, group)]


def mbr(hyps: list[str], group: int, runs: int, ratios: dict[str, float]) -> list[str]:
    groups = groups_of(hyps, group)
    pairs = sum(len(g) * (len(g) - 1) for g in groups)
    reused = BLEU(effective_order=True)

    def sacrebleu_all_pairs() -> list:
        return [[None if i == j else reused.sentence_score(c, [o]).score
                 for j, o in enumerate(g)] for g in groups for i, c in enumerate(g)]

    calls = {"pairwise": lambda: [row for g in groups for row in pairwise(g, "sacrebleu")],
             "sacrebleu-reused": sacrebleu_all_pairs}
    best = best_of(calls, runs)
    assert best["sacrebleu-reused"][1] == best["pairwise"][1]
    ratios["MBR pairwise / SacreBLEU reusable BLEU"] = (best["sacrebleu-reused"][0]
                                                        / best["pairwise"][0])
    out = table(f"MBR: {len(groups)} groups of {group} candidates, every candidate against "
                "every other (SacreBLEU's sentence BLEU)", pairs, best, "pairwise", {
                    "pairwise": "engine `pairwise` (a call per group)",
                    "sacrebleu-reused": "SacreBLEU `BLEU(effective_order=True).sentence_score`"
                                        " (a call per pair)"})
    if bleuscore is None:
        return out
    # TF-NMT (and the engine's tf-nmt) divides by zero on an empty hypothesis
    kept = groups_of([h for h in hyps if h.split()], group)
    kept_pairs = sum(len(g) * (len(g) - 1) for g in kept)

    def bleuscore_all_pairs() -> list:
        return [[None if i == j else bleuscore.compute(predictions=[c], references=[[o]],
                                                       max_order=4, smooth=False)["bleu"]
                 for j, o in enumerate(g)] for g in kept for i, c in enumerate(g)]

    calls = {"pairwise": lambda: [row for g in kept
                                  for row in pairwise(g, "tf-nmt", tokenize="13a")],
             "bleuscore": bleuscore_all_pairs}
    best = best_of(calls, runs)
    assert best["bleuscore"][1] == best["pairwise"][1]
    ratios["MBR pairwise / bleuscore"] = best["bleuscore"][0] / best["pairwise"][0]
    return out + table(f"MBR: {len(kept)} groups of {group} candidates, every candidate "
                       "against every other (bleuscore, Rust)", kept_pairs, best, "pairwise", {
                           "pairwise": "engine `pairwise` (a call per group, tf-nmt with 13a)",
                           "bleuscore": "bleuscore `compute` (a call per pair)"})


def memory(hyps: list[str], refs: list[list[str]]) -> list[str]:
    """The batch API's peak memory beyond its inputs and its output (``tracemalloc``: the
    peak of the call less the list of scores it returns), at N, 10 N and 100 N pairs after
    one call to warm up: the goal is that it does not grow with N."""
    lines = ["### Memory of the batch API (SacreBLEU's sentence BLEU, 1 reference)", "",
             "| pairs | peak during the call (KiB) | the scores returned (KiB) | "
             "beyond inputs and output (KiB) |", "|---:|---:|---:|---:|"]
    beyond = []
    sentence_scores(hyps, refs, "sacrebleu")
    for times in (1, 10, 100):
        many_hyps, many_refs = hyps * times, refs * times
        gc.collect()
        tracemalloc.start()
        scores = sentence_scores(many_hyps, many_refs, "sacrebleu")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        output = sys.getsizeof(scores) + sum(sys.getsizeof(s) for s in scores)
        beyond.append(peak - output)
        lines.append(f"| {len(many_hyps):,} | {peak / 1024:,.0f} | {output / 1024:,.0f} | "
                     f"{(peak - output) / 1024:,.0f} |")
    flat = beyond[-1] <= 1.25 * beyond[0] + 64 * 1024
    return lines + ["", f"Memory beyond inputs and output flat in N (from N to 100 N at most "
                        f"1.25× and 64 KiB more): {'yes' if flat else 'no'}.", ""]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="500 segments, groups of 20")
    parser.add_argument("--group", type=int, default=50, help="candidates per MBR group")
    args = parser.parse_args()
    hyps, refs = deen_3000()
    if args.quick:
        hyps, refs, args.group = hyps[:500], refs[:500], 20
    four = [r + [h, r[0].lower(), r[0].upper()] for h, r in zip(hyps, refs)]
    print(f"Python {platform.python_version()}, SacreBLEU {sacrebleu.__version__}, "
          f"C kernel: {'built' if native.AVAILABLE else native.why_unavailable()}, "
          f"best of {args.runs} runs\n")
    ratios: dict[str, float] = {}
    out = per_pair(hyps, refs, args.runs, "1 reference", ratios)
    out += per_pair(hyps, four, args.runs, "4 references", ratios)
    out += mbr(hyps, args.group, args.runs, ratios)
    out += goals_table(ratios)
    out += memory(hyps, refs)
    print("\n".join(out))


if __name__ == "__main__":
    main()
