"""The engine benchmark runs: on three segments, one run, it produces its rows.

Not a timing test (speed is measured by ``benchmarks/bench_engine.py`` itself); this keeps the
script working -- it once crashed on its first line of work, clearing a tokenizer cache
that had moved, and nothing noticed. Each row also checks that the engine's score equals
SacreBLEU's, NLTK's and bleuscore's on that input. The benchmarks that time whole
``bleu-harness`` processes (the map, identify, the plugin, ``--jobs``, the batch's memory) are
kept working by the exhaustive tier.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from tiers import exhaustive_only

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def test_the_engine_benchmark_produces_its_rows(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("bench_engine", BENCHMARKS / "bench_engine.py")
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_engine", bench)
    spec.loader.exec_module(bench)
    hyps = ["The cat sat on the mat .", "It is 3.5 km , &quot; he said .", "a b c d e"]
    refs = [["The cat is on the mat ."], ["It is 3.5 km , he said ."], ["a b c d f"]]
    rows = bench.rows_for("three segments", hyps, refs, runs=1)
    labels = [label for _, label, *_ in rows]
    assert "sacrebleu tokenize=13a" in labels and "nltk corpus_bleu" in labels
    assert any(label.startswith("13a tokenizer alone") for label in labels)
    assert any("the first 8 conventions" in label for label in labels)
    assert any(f"all {len(bench.CONVENTIONS)} conventions" in label for label in labels)
    for _, _, theirs, _, python in rows:
        assert python > 0 and (theirs > 0 if not isinstance(theirs, tuple) else theirs[1] > 0)


def test_the_sentence_benchmark_says_where_each_goal_stands(monkeypatch):
    """``bench_sentence`` on a few de-en segments, one run: every table, with the answers of
    every contender checked equal to the engine's, and the goals table naming each goal with
    this run's figure and whether it is met."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("bench_sentence",
                                                  BENCHMARKS / "bench_sentence.py")
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_sentence", bench)
    spec.loader.exec_module(bench)
    hyps, refs = bench.deen_3000()
    hyps, refs = hyps[:40], refs[:40]
    ratios: dict[str, float] = {}
    lines = bench.per_pair(hyps, refs, 1, "1 reference", ratios)
    four = [r + [h, r[0].lower(), r[0].upper()] for h, r in zip(hyps, refs)]
    lines += bench.per_pair(hyps, four, 1, "4 references", ratios)
    lines += bench.mbr(hyps, 8, 1, ratios)
    goals = bench.goals_table(ratios)
    assert set(ratios) == set(bench.GOALS) and all(r > 0 for r in ratios.values()), ratios
    rows = [line for line in goals if line.startswith("| ") and "goal" not in line]
    assert len(rows) == len(bench.GOALS)
    assert all(row.rstrip(" |").endswith(("yes", "no")) for row in rows), rows


def test_the_startup_benchmark_checks_the_score_and_says_where_the_goal_stands(monkeypatch):
    """``bench_startup`` with one start of each command: both workloads, the score checked
    equal to SacreBLEU's, and each row saying whether the goal is met."""
    bench = _load("bench_startup", monkeypatch)
    rows = bench.measure(1)
    assert [name for name, *_ in rows] == ["score one line", "--help"]
    assert all(ours > 0 and theirs > 0 for _, ours, theirs in rows)
    lines = bench.table(rows)
    assert len(lines) == 4 and all(line.endswith(("yes |", "no |")) for line in lines[2:])


def _load(name: str, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, bench)
    spec.loader.exec_module(bench)
    return bench


@exhaustive_only  # each times whole processes: the quick tier's budget
def test_the_sentence_benchmark_measures_the_batchs_memory(monkeypatch):
    bench = _load("bench_sentence", monkeypatch)
    hyps, refs = bench.deen_3000()
    lines = bench.memory(hyps[:30], refs[:30])
    rows = [line for line in lines if line.startswith("| ") and "pairs" not in line]
    assert [row.split("|")[1].strip() for row in rows] == ["30", "300", "3,000"]
    assert lines[-2].endswith(("yes.", "no."))


@exhaustive_only
def test_the_jobs_benchmark_checks_the_json_and_says_where_the_goal_stands(monkeypatch):
    bench = _load("bench_jobs", monkeypatch)
    lines = bench.table(segments=60, refs=2, runs=1)
    assert len(lines) == 4 and all(line.rstrip(" |").endswith(("yes", "no"))
                                   for line in lines[2:])


@exhaustive_only  # each times whole processes: the quick tier's budget
def test_the_plugin_benchmark_times_both_sessions_and_says_where_the_goal_stands(monkeypatch):
    bench = _load("bench_plugin", monkeypatch)
    with_plugin, without = bench.measure(1)
    assert with_plugin > 0 and without > 0
    lines = bench.table(with_plugin, without)
    assert len(lines) == 3 and lines[2].endswith(("yes |", "no |"))


@exhaustive_only  # each times whole processes: the quick tier's budget
def test_the_map_benchmark_checks_the_streams_and_says_where_the_goal_stands(monkeypatch):
    bench = _load("bench_map", monkeypatch)
    medians = bench.measure([str(Path(__file__).parents[1] / "cases" / "seeds" / "matlab.yaml"),
                             "--backend", "own"], 1)
    assert list(medians) == ["computing the map", "reading it back", "--no-map"]
    lines = bench.table(medians)
    assert len(lines) == 5 and lines[3].endswith(("yes |", "no |"))


@exhaustive_only  # each times whole processes: the quick tier's budget
def test_the_identify_benchmark_finds_sacrebleu_and_says_where_the_goal_stands(monkeypatch):
    bench = _load("bench_identify", monkeypatch)
    identify, score = bench.measure(1, 20)
    assert identify > 0 and score > 0
    lines = bench.table(identify, score, 20)
    assert len(lines) == 3 and lines[2].endswith(("yes |", "no |"))


@exhaustive_only  # each times whole processes: the quick tier's budget
def test_the_fingerprint_benchmark_finds_sacrebleu_and_says_where_the_goal_stands(monkeypatch):
    bench = _load("bench_fingerprint", monkeypatch)
    seconds = bench.measure(1)
    assert seconds > 0
    lines = bench.table(seconds)
    assert len(lines) == 3 and lines[2].endswith(("yes |", "no |"))


@exhaustive_only  # each times whole processes: the quick tier's budget
def test_the_dask_benchmark_checks_the_statistics_and_times_the_cluster(monkeypatch):
    pytest.importorskip("distributed")
    bench = _load("bench_dask", monkeypatch)
    seconds = bench.measure(600, 2, 1)
    assert list(seconds) == ["the cluster's start", "one process", "LocalCluster, 2 workers"]
    assert all(value > 0 for value in seconds.values())
    assert len(bench.table(seconds, 600, 2)) == 7
