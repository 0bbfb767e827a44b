"""What ``score --jobs 2`` pays on two cores: ``bleu-harness score`` of generated files with
``--jobs 1`` and ``--jobs 2``, each command a process of its own, taken in turn.

    python benchmarks/bench_jobs.py [--segments 300000] [--refs 4] [--runs 5]

Writes the corpus (benchmarks/data.py) to a temporary directory, runs each command
``--runs`` times in turn and keeps its least wall time, checks that the two print the same
JSON byte for byte, and prints Markdown: seconds, the speed-up, and whether it reaches the
goal of 1.8 times on two cores.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from data import write_corpus  # noqa: E402

GOAL = 1.8
#: The eight conventions the engine started with (all of them run Python tokenizers or a
#: sentence mean too, which take minutes: benchmarks/bench_engine.py times them).
FIRST_EIGHT = ("nltk", "sacrebleu", "matlab", "multi-bleu", "mteval-v13a", "tf-nmt",
               "torchmetrics", "t2t")
COMMAND = [sys.executable, "-m", "bleu_harness", "score"]


def timed(command: list[str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=True)
    return time.perf_counter() - start, done.stdout


def table(segments: int, refs: int, runs: int) -> list[str]:
    """The Markdown table of both rows, from one corpus written to a temporary directory."""
    lines = ["| conventions | --jobs 1 (s) | --jobs 2 (s) | speed-up | goal ≥ 1.8× met |",
             "|---|---:|---:|---:|---|"]
    with tempfile.TemporaryDirectory() as folder:
        paths = write_corpus(Path(folder), segments, refs)
        for conventions in (["sacrebleu"], list(FIRST_EIGHT)):
            chosen = [word for name in conventions for word in ("-c", name)]
            commands = {jobs: COMMAND + paths + chosen + ["--format", "json", "--jobs", str(jobs)]
                        for jobs in (1, 2)}
            best: dict[int, float] = {1: float("inf"), 2: float("inf")}
            outputs: dict[int, bytes] = {}
            for _ in range(runs):
                for jobs, command in commands.items():
                    seconds, outputs[jobs] = timed(command)
                    best[jobs] = min(best[jobs], seconds)
            assert outputs[1] == outputs[2], "--jobs 2 printed other JSON than --jobs 1"
            ratio = best[1] / best[2]
            name = conventions[0] if len(conventions) == 1 else "the first eight"
            lines.append(f"| -c {name} | {best[1]:.2f} | {best[2]:.2f} | {ratio:.2f}× | "
                         f"{'yes' if ratio >= GOAL else 'no'} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=300_000)
    parser.add_argument("--refs", type=int, default=4)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; best of {args.runs} runs "
          f"of each command, taken in turn; {args.segments:,} segments x {args.refs} "
          "references\n")
    print("\n".join(table(args.segments, args.refs, args.runs)))


if __name__ == "__main__":
    main()
