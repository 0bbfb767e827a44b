"""The pytest plugin's cost to a project that has not opted in, as a ratio.

    python benchmarks/bench_plugin.py [--runs 10]

bleu-harness registers its pytest plugin (the ``pytest11`` entry point) in every environment
it is installed in, so another project's ``pytest`` loads it whether or not it has case
files. This makes such a project -- ten small tests and a YAML file of its own -- and starts
its ``pytest -q`` ``--runs`` times with the plugin and as many with ``-p no:bleu_harness``, in
turn (one of each, then the next round, so that a slow spell of the machine falls on both).
Both must pass the same ten tests. Prints Markdown: the median seconds, the ratio and
whether the goal -- at most 1.15x the session without the plugin -- is met in this run.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from data import arguments, machine

#: The goal: a session with the plugin at most this many times one without it.
GOAL = 1.15
TESTS = "".join(f"def test_{i}():\n    assert {i} + 1 == {i + 1}\n\n\n" for i in range(10))


def project(folder: Path) -> Path:
    """Another project: its tests, its own YAML (a compose file with ``schema:``-like keys)."""
    (folder / "tests").mkdir()
    (folder / "tests" / "test_things.py").write_text(TESTS, encoding="utf-8")
    (folder / "docker-compose.yml").write_text("services:\n  db:\n    image: postgres\n",
                                               encoding="utf-8")
    (folder / "pytest.ini").write_text("[pytest]\ntestpaths = tests\n", encoding="utf-8")
    return folder


def timed(arguments: list[str], cwd: Path) -> tuple[float, str]:
    """Wall seconds of one session and its last line (it must pass)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    started = time.perf_counter()
    done = subprocess.run(arguments, capture_output=True, text=True, check=False, cwd=cwd,
                          env=environment)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"bench_plugin: {' '.join(arguments)} exited {done.returncode}: "
                         f"{(done.stdout + done.stderr)[-500:]}")
    return seconds, done.stdout.strip().splitlines()[-1]


def measure(runs: int) -> tuple[float, float]:
    """(median seconds with the plugin, without it)."""
    base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    times: dict[str, list[float]] = {"with": [], "without": []}
    with tempfile.TemporaryDirectory(prefix="bench-plugin-") as folder:
        here = project(Path(folder))
        for _ in range(runs):
            lasts = {}
            for who, extra in (("with", []), ("without", ["-p", "no:bleu_harness"])):
                seconds, lasts[who] = timed(base + extra, here)
                times[who].append(seconds)
            assert all(line.startswith("10 passed") for line in lasts.values()), lasts
    return statistics.median(times["with"]), statistics.median(times["without"])


def table(with_plugin: float, without: float) -> list[str]:
    ratio = with_plugin / without
    return ["| pytest of a project with no case file | with the plugin (s) | without (s) | "
            "ratio | goal ≤ 1.15× met |",
            "|---|---:|---:|---:|---|",
            f"| 10 tests, one YAML file | {with_plugin:.3f} | {without:.3f} | {ratio:.2f}× | "
            f"{'yes' if ratio <= GOAL else 'no'} |"]


def main() -> None:
    args = arguments(__doc__, runs=10)
    import pytest

    print(f"{machine()}, pytest {pytest.__version__}; median of {args.runs} sessions of each, "
          "taken in turn\n")
    print("\n".join(table(*measure(args.runs))))


if __name__ == "__main__":
    main()
