"""Start-up: ``bleu-harness`` against the ``sacrebleu`` command on a one-line corpus, as ratios.

    python benchmarks/bench_startup.py [--runs 10]

A command's start-up is what a user waits for on a small input, and what every worker
process and shell loop pays again. Two workloads, each command started ``--runs`` times in
turn (one of each, then the next round, so that a slow spell of the machine falls on both):

* **score one line**: ``bleu-harness score HYP REF -c sacrebleu --format json`` against
  ``sacrebleu REF -i HYP -w 10`` (SacreBLEU's JSON); the two scores are checked equal to the
  10 decimals SacreBLEU prints;
* **--help**: ``bleu-harness --help`` against ``sacrebleu --help``.

The median wall time of each is kept. Prints Markdown: seconds, the ratio (bleu-harness over
SacreBLEU), and whether the goal -- at most 1.5x SacreBLEU's start-up -- is met in this run.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from data import arguments, machine

#: The goal: bleu-harness's start-up at most this many times SacreBLEU's.
GOAL = 1.5
HYPOTHESIS = "The cat sat on the mat .\n"
REFERENCE = "The cat is on the mat .\n"


def command(name: str) -> str:
    """The command beside this interpreter (a virtual environment's ``bin``), else on PATH."""
    beside = Path(sys.executable).parent / name
    found = str(beside) if beside.is_file() else shutil.which(name)
    if found is None:
        raise SystemExit(f"bench_startup: no {name} command beside {sys.executable} or on PATH")
    return found


def timed(arguments: list[str]) -> tuple[float, str]:
    """Wall seconds of one run of ``arguments`` and its standard output (it must exit 0)."""
    started = time.perf_counter()
    done = subprocess.run(arguments, capture_output=True, text=True, check=False,
                          env={**os.environ, "COLUMNS": "100"})
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"bench_startup: {' '.join(arguments)} exited {done.returncode}: "
                         f"{done.stderr[-500:]}")
    return seconds, done.stdout


def workloads(folder: Path) -> dict[str, dict[str, list[str]]]:
    hyp, ref = folder / "hyp.txt", folder / "ref.txt"
    hyp.write_text(HYPOTHESIS, encoding="utf-8")
    ref.write_text(REFERENCE, encoding="utf-8")
    ours, theirs = command("bleu-harness"), command("sacrebleu")
    return {
        "score one line": {"ours": [ours, "score", str(hyp), str(ref), "-c", "sacrebleu",
                                    "--format", "json"],
                           "theirs": [theirs, str(ref), "-i", str(hyp), "-w", "10"]},
        "--help": {"ours": [ours, "--help"], "theirs": [theirs, "--help"]},
    }


def same_score(ours: str, theirs: str) -> None:
    """bleu-harness's score, rounded as SacreBLEU prints it (``-w 10``), is SacreBLEU's."""
    mine = json.loads(ours)["results"][0]["score"]
    assert f"{mine:.10f}" == f"{json.loads(theirs)['score']:.10f}", (mine, theirs)


def measure(runs: int) -> list[tuple[str, float, float]]:
    """(workload, bleu-harness's median seconds, SacreBLEU's) for each workload."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        for name, pair in workloads(Path(folder)).items():
            times: dict[str, list[float]] = {"ours": [], "theirs": []}
            for _ in range(runs):
                outputs = {}
                for who, arguments in pair.items():
                    seconds, outputs[who] = timed(arguments)
                    times[who].append(seconds)
                if name == "score one line":
                    same_score(outputs["ours"], outputs["theirs"])
            rows.append((name, statistics.median(times["ours"]),
                         statistics.median(times["theirs"])))
    return rows


def table(rows: list[tuple[str, float, float]]) -> list[str]:
    lines = ["| workload | bleu-harness (s) | sacrebleu (s) | ratio | goal ≤ 1.5× met |",
             "|---|---:|---:|---:|---|"]
    for name, ours, theirs in rows:
        ratio = ours / theirs
        lines.append(f"| {name} | {ours:.3f} | {theirs:.3f} | {ratio:.2f}× | "
                     f"{'yes' if ratio <= GOAL else 'no'} |")
    return lines


def main() -> None:
    args = arguments(__doc__, runs=10)
    from importlib.metadata import version

    print(f"{machine()}, sacrebleu {version('sacrebleu')}; median of {args.runs} starts of "
          "each, taken in turn\n")
    print("\n".join(table(measure(args.runs))))


if __name__ == "__main__":
    main()
