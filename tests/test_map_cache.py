"""The divergence map kept between runs (``bleu_harness.report.map_cache``): a run that
reads the map from the cache writes the stream, the reports and the exit code of a run that
computes it, byte for byte; a damaged entry is computed again; a changed case only is
computed again; runs at the same time share the cache; ``off`` keeps nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from runs import CORPUS
from tiers import exhaustive_only, sampled

import bleu_harness.map_pool as map_pool
import bleu_harness.report.map_cache as map_cache
from bleu_harness.cli import main

SEEDS = CORPUS / "seeds"


def _run(tmp_path: Path, cache: str, name: str, *paths: str,
         markdown: bool = False) -> tuple[int, dict[str, bytes]]:
    """A run of ``paths`` against the engine with the cache ``cache``: its exit code and
    the bytes of its stream and JUnit report (and, with ``markdown``, of a second run's
    Markdown report)."""
    folder = tmp_path / name
    folder.mkdir()
    os.environ[map_cache.CACHE_ENV] = cache
    code = main(["run", *paths, "--backend", "own", "--format", "json", "--output",
                 str(folder / "run.jsonl"), "--junit-xml", str(folder / "run.xml"), "-q"])
    if markdown:
        assert main(["run", *paths, "--backend", "own", "--format", "markdown", "--output",
                     str(folder / "run.md"), "-q"]) == code
    return code, {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.rglob("*.jsonl.z"))


@pytest.fixture
def restore_cache_variable():
    before = os.environ.get(map_cache.CACHE_ENV)
    yield
    if before is None:
        os.environ.pop(map_cache.CACHE_ENV, None)
    else:
        os.environ[map_cache.CACHE_ENV] = before


def test_a_run_from_the_cache_writes_what_a_run_that_computes_the_map_writes(
        tmp_path, restore_cache_variable):
    cache = tmp_path / "cache"
    paths = (str(SEEDS / "blog.yaml"), str(SEEDS / "matlab.yaml"))
    computed = _run(tmp_path, "off", "computed", *paths, markdown=True)
    cold = _run(tmp_path, str(cache), "cold", *paths, markdown=True)
    entries = _entries(cache)
    assert entries and all(p.parent.parent.name == map_cache.engine_fingerprint()
                           for p in entries)
    stamps = {p: p.stat().st_mtime_ns for p in entries}
    warm = _run(tmp_path, str(cache), "warm", *paths, markdown=True)
    assert computed == cold == warm
    assert {p: p.stat().st_mtime_ns for p in _entries(cache)} == stamps  # read, not written


def test_a_damaged_entry_is_computed_again_and_a_changed_case_alone(tmp_path,
                                                                    restore_cache_variable):
    cache = tmp_path / "cache"
    case_file = tmp_path / "corpus" / "blog.yaml"
    case_file.parent.mkdir()
    case_file.write_bytes((SEEDS / "blog.yaml").read_bytes())
    (tmp_path / "corpus" / "CORPUS_ROOT").write_text("")
    first = _run(tmp_path, str(cache), "first", str(case_file.parent))
    entries = _entries(cache)
    kept = [entry.read_bytes() for entry in entries]
    entries[0].write_bytes(b"not zlib at all")
    entries[1].write_bytes(kept[1][:20])
    # whole zlib, its content not the case's map: another case's lines, a line no record
    # is made of; found only when the case is judged (the engine then computes it here)
    entries[2].write_bytes(kept[3])
    entries[3].write_bytes(zlib.compress(b'{"check": "divergence"}\n[1, 2]\n'))
    again = _run(tmp_path, str(cache), "again", str(case_file.parent))
    assert again == first
    assert _entries(cache) == entries
    assert [entry.read_bytes() for entry in entries] == kept
    # compressed anew: nothing at all (an empty map is a map), a line lost, a line changed
    bodies = [zlib.decompress(entry) for entry in kept]
    entries[0].write_bytes(zlib.compress(b""))
    lines = bodies[1].split(b"\n")
    entries[1].write_bytes(zlib.compress(b"\n".join(lines[:2] + lines[3:])))
    entries[2].write_bytes(zlib.compress(bodies[2].replace(b'"line": ', b'"line":  ', 1)))
    assert _run(tmp_path, str(cache), "once-more", str(case_file.parent)) == first
    assert [entry.read_bytes() for entry in entries] == kept
    text = case_file.read_text(encoding="utf-8")
    case_file.write_text(text.replace('hyp: "the cat the cat on the mat"',
                                      'hyp: "the cat on a mat"', 1), encoding="utf-8")
    _run(tmp_path, str(cache), "changed", str(case_file.parent))
    assert len(_entries(cache)) == len(entries) + 1


def test_off_keeps_nothing_and_another_engine_replaces_the_old_map(tmp_path, monkeypatch,
                                                                   restore_cache_variable):
    cache = tmp_path / "cache"
    _run(tmp_path, "off", "off", str(SEEDS / "matlab.yaml"))
    assert not cache.exists()
    monkeypatch.setattr(map_cache, "engine_fingerprint", lambda: "an-older-engine")
    _run(tmp_path, str(cache), "old", str(SEEDS / "matlab.yaml"))
    assert (cache / "an-older-engine").is_dir()
    monkeypatch.setattr(map_cache, "engine_fingerprint", lambda: "this-engine")
    _run(tmp_path, str(cache), "new", str(SEEDS / "matlab.yaml"))
    assert [p.name for p in cache.iterdir()] == ["this-engine"]


@exhaustive_only
def test_runs_at_the_same_time_share_the_cache(tmp_path):
    """Two runs started together on one cold cache: each writes the stream of a run that
    computes the map, and the cache holds whole entries a third run reads."""
    cache = tmp_path / "cache"
    environment = {**os.environ, map_cache.CACHE_ENV: str(cache)}
    command = [sys.executable, "-m", "bleu_harness", "run", str(SEEDS / "blog.yaml"),
               str(SEEDS / "matlab.yaml"), "--backend", "own",
               "--format", "json", "-q", "--output"]
    runs = [subprocess.Popen([*command, str(tmp_path / f"{i}.jsonl")], env=environment,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            for i in range(2)]
    assert all(run.wait(timeout=300) == 0 for run in runs)
    third = subprocess.run([*command, str(tmp_path / "2.jsonl")], env=environment,
                           capture_output=True, timeout=300)
    assert third.returncode == 0
    off = subprocess.run([*command, str(tmp_path / "off.jsonl")], capture_output=True,
                         env={**environment, map_cache.CACHE_ENV: "off"}, timeout=300)
    assert off.returncode == 0
    streams = {(tmp_path / f"{name}.jsonl").read_bytes() for name in ("0", "1", "2", "off")}
    assert len(streams) == 1
    assert not list(cache.rglob(".*"))  # no temporary file left behind


def test_a_map_missing_an_answer_is_not_kept(tmp_path):
    """A convention the engine timed out or crashed on drops out of every pair of the map:
    that map is the run's only, never read back as the case's whole map."""
    from bleu_harness.bleu import CONVENTIONS
    from bleu_harness.backends.base import BackendInfo
    from bleu_harness.cases.loader import load
    from bleu_harness.checkplan import plan_cases, roles_of
    from bleu_harness.records import Timeout, Value

    engine = BackendInfo("own", "0", tuple(CONVENTIONS), "engine")
    roles = roles_of([engine], engine, tuple(CONVENTIONS), True, True)
    [plan] = plan_cases(load([str(SEEDS / "matlab.yaml")]).cases[:1], roles)
    answers = {request: Value(0.5) for _, request in plan.divergence}
    cache = map_cache.MapCache(tmp_path)
    timed_out = {**answers, plan.divergence[0][1]: Timeout(1.0)}
    cache.put(plan, map_cache.KeptMap.of([]), timed_out)
    assert cache.get(plan) is None and not _entries(tmp_path)
    cache.put(plan, map_cache.KeptMap.of([]), answers)
    assert cache.get(plan).lines(plan) == [] and len(_entries(tmp_path)) == 1


@pytest.mark.parametrize("named", sampled([".", "mine"], one_argument=True))
def test_a_cache_directory_the_user_names_loses_nothing_but_old_maps(tmp_path, monkeypatch,
                                                                     restore_cache_variable,
                                                                     named):
    """``BLEU_HARNESS_CACHE=.`` (or a folder of the user's) removed every other folder in it
    when a new engine's first entry was written (a new user's trial: ``src/`` and ``.git/``
    gone). Only the folders of older maps -- holding the marker this cache writes -- go."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path if named == "." else tmp_path / named
    (root / "src").mkdir(parents=True)
    (root / "src" / "code.py").write_text("keep = True\n")
    (root / ".git").mkdir()
    (root / "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6").mkdir()  # named like an engine: not ours
    monkeypatch.setattr(map_cache, "engine_fingerprint", lambda: "an-older-engine")
    _run(tmp_path, named, "old", str(SEEDS / "matlab.yaml"))
    monkeypatch.setattr(map_cache, "engine_fingerprint", lambda: "this-engine")
    _run(tmp_path, named, "new", str(SEEDS / "matlab.yaml"))
    assert (root / "src" / "code.py").read_text() == "keep = True\n"
    assert (root / ".git").is_dir() and (root / "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6").is_dir()
    assert not (root / "an-older-engine").exists() and (root / "this-engine").is_dir()


@pytest.mark.parametrize("value", ["off", "OFF", "0", "no", "false", "None"])
def test_every_word_for_off_keeps_nothing(tmp_path, monkeypatch, value):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(map_cache.CACHE_ENV, value)
    assert map_cache.cache_root() is None


def test_a_run_sets_its_records_apart_from_the_collector_only_while_it_runs(
        tmp_path, restore_cache_variable, monkeypatch):
    """The run's records are kept from Python's cyclic collector while they pile up (each
    full collection walked them all again: a third of the time the kept map took to read),
    and given back to it when the run ends; a process that froze objects of its own (it
    manages the collector itself) is left as it is."""
    import gc

    import bleu_harness.pipeline as pipeline

    frozen_while_judging: list[int] = []
    judge = pipeline._judge_one

    def watched(*args, **kwargs):
        frozen_while_judging.append(gc.get_freeze_count())
        return judge(*args, **kwargs)

    monkeypatch.setattr(pipeline, "_judge_one", watched)
    paths = (str(SEEDS / "matlab.yaml"),)
    assert gc.get_freeze_count() == 0
    cold = _run(tmp_path, str(tmp_path / "cache"), "cold", *paths)
    assert frozen_while_judging[-1] > 0 and gc.get_freeze_count() == 0
    gc.freeze()  # a host process that manages the collector itself
    try:
        held = gc.get_freeze_count()
        frozen_while_judging.clear()
        assert _run(tmp_path, str(tmp_path / "cache"), "warm", *paths) == cold
        assert set(frozen_while_judging) == {held} and gc.get_freeze_count() == held
    finally:
        gc.unfreeze()


def _os_exit(*_):
    os._exit(3)


def _raises(*_):
    raise RuntimeError("a bug in the map")


@pytest.mark.skipif(map_pool.cores() < 2, reason="one core: the run computes its maps itself")
@pytest.mark.parametrize("failing", sampled([_os_exit, _raises], one_argument=True))
def test_maps_computed_by_worker_processes_are_those_the_run_computes(
        tmp_path, monkeypatch, restore_cache_variable, failing):
    """Where a run has many maps to compute, worker processes compute them: the stream and
    the JUnit report are byte for byte those of maps the run computes itself, and so is the
    map they keep. A worker that fails -- killed, or an error -- costs nothing but time: the
    run computes those maps itself."""
    paths = (str(SEEDS / "blog.yaml"), str(SEEDS / "matlab.yaml"))
    monkeypatch.setattr(map_pool, "FEW_MAPS", 10**9)
    itself = _run(tmp_path, "off", "itself", *paths)
    monkeypatch.setattr(map_pool, "FEW_MAPS", 2)
    handed: list[bool] = []
    take = map_pool.MapPool.take
    monkeypatch.setattr(map_pool.MapPool, "take",
                        lambda pool, index: handed.append(r := take(pool, index)) or r)
    assert _run(tmp_path, str(tmp_path / "cache"), "workers", *paths) == itself
    assert handed and all(handed)  # every map came from a worker
    assert _run(tmp_path, str(tmp_path / "cache"), "kept", *paths) == itself
    handed.clear()
    monkeypatch.setattr(map_pool, "computed_map", failing)  # what the workers are given
    assert _run(tmp_path, "off", failing.__name__, *paths) == itself
    assert handed and not any(handed)  # no map came from a worker


def test_the_progress_counts_every_case_judged_after_the_last_answer(
        tmp_path, monkeypatch, restore_cache_variable):
    """Cases judged after the last answer is in -- their maps still being computed by the
    workers -- are counted in the progress as they are judged: a CI log does not stop at the
    last answer for the minute the maps take."""
    from bleu_harness.pipeline import RunOptions, execute_run

    os.environ[map_cache.CACHE_ENV] = "off"
    monkeypatch.setattr(map_pool, "FEW_MAPS", 2)
    seen: list[tuple[int, int, int, int]] = []
    result = execute_run(RunOptions(paths=(str(SEEDS / "matlab.yaml"),), backends=("own",)),
                         lambda line: None, lambda *counts: seen.append(counts))
    cases = len(result.cases)
    assert cases > 1 and seen[-1][2:] == (cases, cases)
