"""The divergence map's share of ``bleu-harness run``, as ratios: the main job computing the
map (an empty cache: a new machine, a changed engine), reading it back (the cache of an
earlier run: ``bleu_harness.report.map_cache``), and leaving it out (``--no-map``).

    python benchmarks/bench_map.py [--runs 3] [PATH ...]

Each run writes its stream (``--format json``); the computing and the reading run's streams
are checked equal byte for byte. PATH: case files or directories (default: the bundled
corpus). Prints Markdown: the median seconds of each, the map's cost over the run without
it, and whether the goal -- the map costs at most half of the rest of a run -- is met by the
run that reads it back.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The goal: a run that reads the map back takes at most this many times one without it.
GOAL = 1.5


def timed(paths: list[str], stream: Path, cache: str, *flags: str) -> float:
    """Wall seconds of one ``bleu-harness run`` (exit 0 or 1: a failing case is a result)."""
    command = [sys.executable, "-m", "bleu_harness", "run", *paths, "--format", "json",
               "--output", str(stream), "-q", *flags]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          env={**os.environ, "BLEU_HARNESS_CACHE": cache})
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"bench_map: {' '.join(command)} exited {done.returncode}: "
                         f"{done.stderr[-500:]}")
    return seconds


def measure(paths: list[str], runs: int) -> dict[str, float]:
    """Median seconds of the run computing the map, reading it back, and without it."""
    times: dict[str, list[float]] = {"computing the map": [], "reading it back": [],
                                     "--no-map": []}
    with tempfile.TemporaryDirectory(prefix="bench-map-") as folder:
        here = Path(folder)
        for round_ in range(runs):
            cache = str(here / f"cache-{round_}")
            times["computing the map"].append(timed(paths, here / "computed.jsonl", cache))
            times["reading it back"].append(timed(paths, here / "read.jsonl", cache))
            assert (here / "computed.jsonl").read_bytes() == (here / "read.jsonl").read_bytes()
            times["--no-map"].append(timed(paths, here / "none.jsonl", "off", "--no-map"))
    return {name: statistics.median(seconds) for name, seconds in times.items()}


def table(medians: dict[str, float]) -> list[str]:
    rest = medians["--no-map"]
    lines = ["| bleu-harness run | seconds | ratio to --no-map | goal ≤ 1.5× met |",
             "|---|---:|---:|---|"]
    for name, seconds in medians.items():
        goal = ("yes" if seconds / rest <= GOAL else "no") if name == "reading it back" else ""
        lines.append(f"| {name} | {seconds:.1f} | {seconds / rest:.2f}× | {goal} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("paths", nargs="*", metavar="PATH")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} "
          f"cores; {args.paths or 'the bundled corpus'}; median of {args.runs} of each\n")
    print("\n".join(table(measure(args.paths, args.runs))))


if __name__ == "__main__":
    main()
