"""Statistics are additive: merged chunks, worker processes and a Dask cluster all give the
unsharded statistics bit for bit, and ``score`` streams its files."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import corpus
from tiers import examples

from bleu_harness.bleu import CONVENTIONS, Request
from bleu_harness.bleu import shard as shard_module
from bleu_harness.bleu.api import plan
from bleu_harness.bleu.convention import Preprocessing
from bleu_harness.bleu.counting import count, count_in_python
from bleu_harness.bleu.shard import (
    chunked,
    count_chunks,
    count_loaded_on_dask,
    count_on_dask,
    merge,
)
from bleu_harness.cli import main
from bleu_harness.errors import InputError
from bleu_harness.line_ranges import line_ranges
from bleu_harness.textfiles import read_parallel, stream_parallel

KEYS = {Preprocessing("none"): 4, Preprocessing("13a", True): 4,
        Preprocessing("none", False, True): 2, Preprocessing("split-space"): 3}


def assert_equal_stats(got, expected):
    assert got.keys() == expected.keys()
    for key in expected:
        assert got[key] == expected[key], key
        assert got[key].last == expected[key].last, key


def generated(segments: int, seed: int = 5):
    rng = random.Random(seed)
    words = ["the", "cat", "sat", "on", "mat", ".", ",", "a", "dog", "3.5", "&amp;", ""]

    def line():
        return " ".join(rng.choice(words) for _ in range(rng.randrange(0, 12)))

    hyps = [line() for _ in range(segments)]
    refs = [[line() if rng.random() < 0.9 else "" for _ in range(rng.randrange(0, 4))]
            for _ in range(segments)]
    return hyps, refs


@settings(max_examples=examples(200), deadline=None)
@given(corpus(min_segments=0, max_segments=8), st.data())
def test_the_statistics_of_two_halves_add_up_to_the_whole(data, draw):
    hyps, refs = data
    cut = draw.draw(st.integers(0, len(hyps)))
    whole = count_in_python(hyps, refs, KEYS)
    first = count_in_python(hyps[:cut], refs[:cut], KEYS)
    second = count_in_python(hyps[cut:], refs[cut:], KEYS)
    assert_equal_stats({key: first[key] + second[key] for key in KEYS}, whole)
    assert_equal_stats({key: sum([first[key], second[key]]) for key in KEYS}, whole)


def test_statistics_pickle_and_refuse_to_mix_orders():
    stats = count(*generated(50), KEYS)
    for value in stats.values():
        copy = pickle.loads(pickle.dumps(value))
        assert copy == value and copy.last == value.last
    with pytest.raises(ValueError, match="orders 4 and 2"):
        stats[Preprocessing("none")] + stats[Preprocessing("none", False, True)]


@pytest.mark.parametrize("size", [1, 3, 7, 1000])
def test_chunks_merged_in_order_equal_one_pass(size):
    hyps, refs = generated(200)
    expected = count(hyps, refs, KEYS)
    assert_equal_stats(count_chunks(chunked(zip(hyps, refs), size), KEYS), expected)


def test_worker_processes_give_the_same_statistics():
    hyps, refs = generated(3000)
    expected = count(hyps, refs, KEYS)
    assert_equal_stats(count_chunks(chunked(zip(hyps, refs), 257), KEYS, jobs=2), expected)


def test_an_empty_corpus_is_one_empty_chunk():
    assert list(chunked(iter([]), 5)) == [([], [])]
    assert merge([], KEYS) == count([], [], KEYS)
    with pytest.raises(ValueError, match="at least one segment"):
        list(chunked([], 0))


def test_bad_input_in_a_later_chunk_is_a_value_error():
    pairs = [("a", ["a"])] * 5 + [("b", "not a list")]
    with pytest.raises(ValueError, match=r"references\[5\] must be a list"):
        count_chunks(chunked(pairs, 5), KEYS)


def test_a_dask_local_cluster_gives_the_same_statistics(tmp_path):
    """Lines shipped to the workers, and line ranges the workers read themselves (paths and
    byte offsets travel, not lines): the statistics of one process, bit for bit."""
    distributed = pytest.importorskip("distributed")
    hyps, refs = generated(2000)
    expected = count(hyps, refs, KEYS)
    filed = [(r + ["", ""])[:2] for r in refs]  # in files: two references a line
    paths = write_corpus(tmp_path, hyps, filed)
    ranges = list(line_ranges(paths[0], paths[1:], 300))
    assert len(ranges) == 7
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert_equal_stats(count_on_dask(client, chunked(zip(hyps, refs), 300), KEYS),
                           expected)
        assert_equal_stats(count_loaded_on_dask(client, ranges, KEYS),
                           count(hyps, filed, KEYS))
        assert_equal_stats(count_on_dask(client, [], KEYS), count([], [], KEYS))
        assert_equal_stats(count_loaded_on_dask(client, [], KEYS), count([], [], KEYS))


def write_corpus(tmp_path, hyps, refs):
    paths = [tmp_path / "hyp.txt"] + [tmp_path / f"ref{i}.txt" for i in range(len(refs[0]))]
    paths[0].write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    for i, path in enumerate(paths[1:]):
        path.write_text("".join(r[i] + "\n" for r in refs), encoding="utf-8")
    return [str(p) for p in paths]


def test_score_with_jobs_equals_score_without(tmp_path, capsys, monkeypatch):
    rng = random.Random(1)
    hyps, refs = generated(900)
    refs = [[rng.choice(["the cat", "a dog .", ""]) for _ in range(2)] for _ in hyps]
    paths = write_corpus(tmp_path, hyps, refs)
    monkeypatch.setattr(shard_module, "CHUNK_SEGMENTS", 100)
    outputs = []
    for jobs in ("1", "2"):
        assert main(["score", *paths, "--jobs", jobs, "--format", "json"]) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    scoring = plan([Request(name) for name in CONVENTIONS])
    unsharded = scoring.finish(count(hyps, refs, scoring.needed))
    assert [o.score for o in unsharded if hasattr(o, "score")] == [
        r["score"] for r in outputs[0]["results"] if "score" in r]


def test_score_rejects_a_bad_jobs_value(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "a", "b", "--jobs", "0"])
    assert exit_info.value.code == 2
    assert "give 1 to 64 workers, not 0" in capsys.readouterr().err


def test_streamed_lines_equal_the_lines_read_whole(tmp_path):
    hyp = tmp_path / "h.txt"
    ref = tmp_path / "r.txt"
    hyp.write_bytes("a b\r\nc\u2028d\n\nlast".encode())
    ref.write_bytes(b"x\ny\rz\n\nw\n")
    hyps, refs = read_parallel(str(hyp), [str(ref)])
    assert list(stream_parallel(str(hyp), [str(ref)])) == list(zip(hyps, refs))


def test_streamed_files_of_unequal_length_name_both_counts(tmp_path):
    hyp = tmp_path / "h.txt"
    ref = tmp_path / "r.txt"
    hyp.write_text("a\nb\nc\n", encoding="utf-8")
    ref.write_text("a\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"r\.txt has 1 lines but .*h\.txt has 3"):
        list(stream_parallel(str(hyp), [str(ref)]))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\n\xff\xfe\n")
    with pytest.raises(InputError, match=r"bad\.txt:2: not UTF-8"):
        list(stream_parallel(str(bad), [str(bad)]))
