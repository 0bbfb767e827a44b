"""The engine benchmark runs: on three segments, one run, it produces its rows.

Not a timing test (speed is measured by ``benchmarks/bench_engine.py`` itself); this keeps the
script working -- it once crashed on its first line of work, clearing a tokenizer cache
that had moved, and nothing noticed. Each row also checks that the engine's score equals
SacreBLEU's, NLTK's and bleuscore's on that input.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

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
    assert any("all 8 conventions" in label for label in labels)
    for _, _, theirs, _, python in rows:
        assert python > 0 and (theirs > 0 if not isinstance(theirs, tuple) else theirs[1] > 0)
