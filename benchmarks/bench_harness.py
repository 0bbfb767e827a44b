"""What isolation costs: the engine's requests of the bundled corpus (every convention at
the case's options, the divergence map included) answered in-process and through worker
processes (``bleu_harness.execute``), and a whole ``bleu-harness run`` of the corpus.

    python benchmarks/bench_harness.py [--repeat 3]

Medians of ``--repeat`` runs; the worker figures include starting the workers.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import time

from bleu_harness.backends.base import BackendInfo
from bleu_harness.backends.own import engine_backend
from bleu_harness.bleu import CONVENTIONS, ConventionError, score
from bleu_harness.cases.loader import load
from bleu_harness.checkplan import distinct_requests, plan_cases, roles_of
from bleu_harness.execute import Executor


def engine_requests():
    engine = BackendInfo("own", "0", tuple(CONVENTIONS), "engine")
    roles = roles_of([engine], engine, tuple(CONVENTIONS), True, True)
    return distinct_requests(plan_cases(load().cases, roles))


def in_process(requests) -> float:
    started = time.perf_counter()
    for request in requests:
        try:
            score(list(request.hypotheses), [list(r) for r in request.references],
                  request.convention, request.level, **request.options)
        except (ConventionError, ValueError):
            pass
    return time.perf_counter() - started


def through_workers(requests, jobs: int) -> float:
    started = time.perf_counter()
    with Executor(timeout=60, jobs=jobs) as executor:
        executor.start(engine_backend())
        for _ in executor.run(requests):
            pass
    return time.perf_counter() - started


def whole_run() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bleu_harness", "run", "-q"], check=False,
                   capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    requests = engine_requests()
    rows = [("in-process engine", lambda: in_process(requests)),
            ("worker processes, --jobs 1", lambda: through_workers(requests, 1)),
            ("worker processes, --jobs 2", lambda: through_workers(requests, 2)),
            ("bleu-harness run (whole corpus)", whole_run)]
    print(f"{len(requests)} engine requests of the bundled corpus; Python "
          f"{platform.python_version()}, {platform.machine()}, median of {args.repeat}")
    baseline = None
    print("| how | seconds | vs in-process |\n|---|---:|---:|")
    for name, measure in rows:
        seconds = statistics.median(measure() for _ in range(args.repeat))
        baseline = baseline or seconds
        print(f"| {name} | {seconds:.2f} | {seconds / baseline:.2f}× |")


if __name__ == "__main__":
    main()
