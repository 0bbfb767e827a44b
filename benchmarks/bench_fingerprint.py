"""``fingerprint`` of a black-box implementation, in seconds.

    python benchmarks/bench_fingerprint.py [--runs 5]

Times ``bleu-harness fingerprint --implementation MODULE:CALLABLE`` (the probe cases through
the implementation, family by family against every convention, and the search for one cause
of all its differences) where the callable is live SacreBLEU's ``corpus_bleu`` with its
defaults; the document must name sacrebleu as the closest convention. Prints Markdown: the
median seconds and whether the goal -- a few seconds (at most 3) -- is met in this run.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from data import arguments, machine

#: The goal: fingerprint answers in at most this many seconds.
GOAL = 3.0

#: The implementation under test: SacreBLEU's corpus_bleu, its defaults, on each level.
IMPLEMENTATION = '''
import sacrebleu


def bleu(hypotheses, references, level, **options):
    if level == "sentence":
        return sacrebleu.sentence_bleu(hypotheses[0], list(references[0])).score
    return sacrebleu.corpus_bleu(hypotheses, [list(r) for r in zip(*references)]).score
'''


def measure(runs: int) -> float:
    """Median seconds of one fingerprint (the document checked each time)."""
    times = []
    with tempfile.TemporaryDirectory(prefix="bench-fingerprint-") as folder:
        (Path(folder) / "sacrebleu_callable.py").write_text(IMPLEMENTATION, encoding="utf-8")
        for _ in range(runs):
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "bleu_harness", "fingerprint",
                                   "--implementation", "sacrebleu_callable:bleu", "--format",
                                   "json"], capture_output=True, text=True, check=False,
                                  cwd=folder)
            times.append(time.perf_counter() - started)
            if done.returncode != 0:
                raise SystemExit(f"bench_fingerprint: exited {done.returncode}: "
                                 f"{done.stderr[-500:]}")
            closest = json.loads(done.stdout)["closest_overall"]
            assert "sacrebleu" in closest, closest
    return statistics.median(times)


def table(seconds: float) -> list[str]:
    return ["| fingerprint | seconds | goal ≤ 3 s met |",
            "|---|---:|---|",
            f"| live SacreBLEU's corpus_bleu | {seconds:.2f} | "
            f"{'yes' if seconds <= GOAL else 'no'} |"]


def main() -> None:
    args = arguments(__doc__, runs=5)
    print(f"{machine()}; median of {args.runs} runs\n")
    print("\n".join(table(measure(args.runs))))


if __name__ == "__main__":
    main()
