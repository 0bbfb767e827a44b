"""When a Dask cluster pays: SacreBLEU's statistics of generated files counted in one
process against a ``distributed.LocalCluster`` of two worker processes, each worker reading
its own line ranges of the files (paths and byte offsets travel, not lines).

    python benchmarks/bench_dask.py [--segments 300000] [--refs 4] [--runs 3]

Writes the corpus (benchmarks/data.py) to a temporary directory; times the cluster's start,
then ``count_loaded`` in this process and ``count_loaded_on_dask`` on the cluster over the same
ranges (``bleu_harness.line_ranges``), ``--runs`` times each in turn, the least of each;
checks that the statistics are equal; prints Markdown.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from data import arguments, machine, write_corpus

from bleu_harness.bleu import Request
from bleu_harness.bleu.api import plan
from bleu_harness.bleu.shard import count_loaded, count_loaded_on_dask
from bleu_harness.line_ranges import LINES_PER_RANGE, line_ranges


def measure(segments: int, refs: int, runs: int) -> dict[str, float]:
    """Seconds: the cluster's start, one process, the cluster (the least of ``runs``)."""
    import distributed

    needed = plan([Request("sacrebleu", {})]).needed
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as folder:
        paths = write_corpus(Path(folder), segments, refs)
        ranges = list(line_ranges(paths[0], paths[1:], LINES_PER_RANGE))
        started = time.perf_counter()
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, \
                distributed.Client(cluster) as client:
            client.wait_for_workers(2)
            start = time.perf_counter() - started
            best = {"one process": float("inf"), "LocalCluster, 2 workers": float("inf")}
            for _ in range(runs):
                began = time.perf_counter()
                alone = count_loaded(ranges, needed, 1)
                best["one process"] = min(best["one process"], time.perf_counter() - began)
                began = time.perf_counter()
                spread = count_loaded_on_dask(client, ranges, needed)
                best["LocalCluster, 2 workers"] = min(best["LocalCluster, 2 workers"],
                                                      time.perf_counter() - began)
                assert {k: v.value for k, v in alone.items()} == \
                    {k: v.value for k, v in spread.items()}, "the cluster counted otherwise"
    return {"the cluster's start": start, **best}


def table(seconds: dict[str, float], segments: int, refs: int) -> list[str]:
    alone = seconds["one process"]
    rows = ["| sacrebleu statistics | seconds | speed-up over one process |", "|---|---:|---:|"]
    for name, value in seconds.items():
        ratio = f"{alone / value:.2f}×" if name != "the cluster's start" else ""
        rows.append(f"| {name} | {value:.2f} | {ratio} |")
    return [f"{segments:,} segments × {refs} references", "", *rows]


def main() -> None:
    args = arguments(__doc__, runs=3, segments=300_000, refs=4)
    print(f"{machine()}; the least of {args.runs} runs of each, taken in turn\n")
    print("\n".join(table(measure(args.segments, args.refs, args.runs), args.segments,
                          args.refs)))


if __name__ == "__main__":
    main()
