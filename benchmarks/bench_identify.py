"""``identify`` against one score of the same files, as a ratio.

    python benchmarks/bench_identify.py [--runs 3] [--lines 3000] [--jobs 1]

``identify`` searches every setting of every convention (some 1,100 on a corpus) for the
one that produces a published number; it scores them all in one pass per distinct
tokenization. This times ``bleu-harness identify HYP REF --score S`` against
``bleu-harness score HYP REF -c sacrebleu`` on the de-en set (``--lines`` of it), each started
``--runs`` times in turn, where ``S`` is SacreBLEU's score as ``score`` prints it; identify
must name sacrebleu among its matches. Prints Markdown: the median seconds, the ratio and
whether the goal -- identify at most 15x one score -- is met in this run.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from data import arguments, deen_3000, machine

#: The goal: identify at most this many times one score of the same files.
GOAL = 15.0


def timed(arguments: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bleu_harness", *arguments],
                          capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"bench_identify: {' '.join(arguments)} exited {done.returncode}: "
                         f"{done.stderr[-500:]}")
    return seconds, done.stdout


def measure(runs: int, lines: int, jobs: int = 1) -> tuple[float, float]:
    """(identify's median seconds with ``--jobs``, one score's)."""
    hyps, refs = deen_3000()
    with tempfile.TemporaryDirectory(prefix="bench-identify-") as folder:
        hyp, ref = Path(folder) / "hyp.txt", Path(folder) / "ref.txt"
        hyp.write_text("".join(h + "\n" for h in hyps[:lines]), encoding="utf-8")
        ref.write_text("".join(r[0] + "\n" for r in refs[:lines]), encoding="utf-8")
        scoring = ["score", str(hyp), str(ref), "-c", "sacrebleu", "--format", "json"]
        times: dict[str, list[float]] = {"identify": [], "score": []}
        for _ in range(runs):
            seconds, out = timed(scoring)
            times["score"].append(seconds)
            value = f"{json.loads(out)['results'][0]['score']:.2f}"
            seconds, out = timed(["identify", str(hyp), str(ref), "--score", value,
                                  "--format", "json", "--jobs", str(jobs)])
            times["identify"].append(seconds)
            matches = {m["convention"] for m in json.loads(out)["matches"]}
            assert "sacrebleu" in matches, (value, matches)
    return statistics.median(times["identify"]), statistics.median(times["score"])


def table(identify: float, score: float, lines: int, jobs: int = 1) -> list[str]:
    ratio = identify / score
    return ["| de-en | identify (s) | score -c sacrebleu (s) | ratio | goal ≤ 15× met |",
            "|---|---:|---:|---:|---|",
            f"| {lines:,} lines, --jobs {jobs} | {identify:.2f} | {score:.2f} | {ratio:.1f}× | "
            f"{'yes' if ratio <= GOAL else 'no'} |"]


def main() -> None:
    args = arguments(__doc__, runs=3, lines=3000, jobs=1)
    print(f"{machine()}; median of {args.runs} runs of each, taken in turn\n")
    print("\n".join(table(*measure(args.runs, args.lines, args.jobs), args.lines, args.jobs)))


if __name__ == "__main__":
    main()
