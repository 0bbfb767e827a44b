"""Peak memory of scoring files: ``bleu-harness score`` against the ``sacrebleu`` CLI.

    python benchmarks/bench_memory.py [--segments 100000 300000] [--refs 4] [--skip-sacrebleu-above N]

Writes generated corpora (benchmarks/data.py) to a temporary directory and runs each command
in its own process, reading the child's peak resident set size (``ru_maxrss``; with
``--jobs`` the largest of the processes). Each command's baseline is the same command on a
one-line corpus (interpreter, libraries, start-up), so "beyond baseline" is what the corpus
costs. Both commands score SacreBLEU's default (13a) and the scores are checked equal.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from data import write_corpus  # noqa: E402

BIN = Path(sys.executable).parent
MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
out = subprocess.run(sys.argv[1:], capture_output=True, text=True)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{peak:.1f} {seconds:.2f}")
sys.stderr.write(out.stdout[-2000:] + out.stderr[-2000:])
sys.exit(out.returncode)
"""


def measure(command: list[str]) -> tuple[float, float, str]:
    done = subprocess.run([sys.executable, "-c", MEASURE, *command], capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(f"{command[0]} failed: {done.stderr[-1000:]}")
    peak, seconds = map(float, done.stdout.split())
    return peak, seconds, done.stderr


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segments", type=int, nargs="+", default=[100_000, 300_000])
    parser.add_argument("--refs", type=int, default=4)
    parser.add_argument("--skip-sacrebleu-above", type=int, default=10**9, metavar="N",
                        help="do not run the sacrebleu CLI on corpora larger than N segments")
    args = parser.parse_args()
    print("| corpus | command | seconds | peak RSS (MiB) | beyond baseline (MiB) |")
    print("|---|---|---:|---:|---:|")
    baselines: dict[str, float] = {}
    for segments in [1, *args.segments]:
        with tempfile.TemporaryDirectory() as folder:
            paths = write_corpus(Path(folder), segments, args.refs)
            name = f"{segments // 1000}k × {args.refs}"
            commands = [("bleu-harness score -c sacrebleu",
                         [str(BIN / "bleu-harness"), "score", *paths, "-c", "sacrebleu",
                          "--format", "json"]),
                        ("bleu-harness score -c sacrebleu --jobs 2",
                         [str(BIN / "bleu-harness"), "score", *paths, "-c", "sacrebleu",
                          "--format", "json", "--jobs", "2"])]
            if segments <= args.skip_sacrebleu_above:
                commands.append(("sacrebleu CLI", [str(BIN / "sacrebleu"), paths[1], *paths[2:],
                                                   "-i", paths[0], "-b"]))
            scores = []
            for label, command in commands:
                peak, seconds, output = measure(command)
                scores.append(output)
                if segments == 1:
                    baselines[label] = peak
                    continue
                baseline = baselines[label]
                print(f"| {name} | {label} | {seconds:.1f} | {peak:.0f} | "
                      f"{peak - baseline:.0f} |", flush=True)
            ours = json.loads(scores[0][: scores[0].rindex("}") + 1])["results"][0]["score"]
            if len(scores) > 2 and segments > 1:
                assert f"{ours:.1f}" == scores[2].strip().split()[0], (ours, scores[2])
        time.sleep(0.1)


if __name__ == "__main__":
    main()
