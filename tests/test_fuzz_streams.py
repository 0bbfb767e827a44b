"""Fuzzing the stream reader (issue 26.1c, 26.11): a real small run's stream, mutated --
truncated, footer dropped, nested deep, wrong types, nulls, Unicode line separators, huge
numbers, duplicate ids, random bytes -- fed to ``diff``, ``report`` and ``run --baseline``.

Whatever the stream holds, each command returns a documented exit code (diff 0/1/2, report
0/2, run 0/1/2), raises nothing (no traceback), and a refused stream is one line on stderr.
Bounded: a fixed seed, a fixed number of mutations: about 10 s on an idle two-core machine."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from runs import CORPUS
from tiers import examples, exhaustive

from bleu_harness.cli import main

SEED = 26
#: Random mutations beside the fixed ones (a third of them in the quick tier).
RANDOM_MUTATIONS = examples(12, 2)
#: Seconds for the whole fuzz: a bound against a hang, not a speed claim (20 s failed it on a
#: machine busy with other work, the same commands taking twice their time).
BUDGET = 60.0
EXITS = {"diff": {0, 1, 2}, "report": {0, 2}, "run": {0, 1, 2}}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """One small case file in its own corpus (``report`` loads the corpus roots), two of
    its values wrong so that the stream has failures (a baseline's known ones)."""
    folder = tmp_path_factory.mktemp("fuzz-corpus")
    text = (CORPUS / "seeds" / "matlab.yaml").read_text(encoding="utf-8")
    (folder / "matlab.yaml").write_text(text.replace('value: "0.8367"', 'value: "0.9367"'),
                                        encoding="utf-8")
    (folder / "CORPUS_ROOT").write_text("")
    return folder


@pytest.fixture(scope="module")
def good(corpus, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("fuzz-good") / "good.jsonl"
    assert main(["run", str(corpus), "--backend", "own", "--format", "json",
                 "--output", str(path)]) == 1
    return path


def _lines(good: Path) -> list[dict]:
    return [json.loads(line) for line in good.read_text(encoding="utf-8").splitlines()]


def _text(lines: list) -> str:
    return "".join((line if isinstance(line, str) else json.dumps(line, ensure_ascii=False))
                   + "\n" for line in lines)


def _nest(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


def _with(lines: list[dict], index: int, **fields) -> list:
    changed = [dict(line) for line in lines]
    changed[index].update(fields)
    return changed


def _first_check(lines: list[dict], verdict: str | None = None) -> int:
    return next(i for i, line in enumerate(lines) if line["type"] == "check"
                and verdict in (None, line["verdict"]))


WRONG = ["abc", "", -1, 2.5, 1e308, 10**30, True, None, [], {}, ["x"], {"a": [1]},
         "NaN", "\u2028", "0x10", "-inf"]


def fixed_mutations(lines: list[dict]) -> dict[str, bytes]:
    """The mutations every run makes: one of each kind named in the issue."""
    text = _text(lines)
    check = _first_check(lines)
    failing = _first_check(lines, "fail")
    raw_check = json.dumps(lines[check])
    found = {
        "empty": "",
        "whitespace": "\n \n\t\n",
        "truncated-mid-line": text[: len(text) // 2],
        "no-footer": _text(lines[:-1]),
        "only-header": _text(lines[:1]),
        "bom": "\ufeff" + text,
        "deep-list": _text(lines[:check] + [_nest(100_000)] + lines[check:]),
        "deep-options": _text(lines[:check]
                              + [raw_check.replace('"options": {', '"options": {"w": '
                                                   + _nest(900) + ", ", 1)]
                              + lines[check + 1:]),
        "deep-cause": _text(_with(lines, check, cause={"group": "g", "knobs": json.loads(
            _nest(500, '"k"'))})),
        "value-a-word": _text(_with(lines, check, actual={"kind": "value", "value": "abc"})),
        "values-words": _text(_with(lines, check, actual={"kind": "value", "value": 1,
                                                          "values": ["x", "y"]})),
        "figures-word": _text(_with(lines, check, actual={"kind": "value", "value": 1,
                                                          "figures": {"bp": "oops"}})),
        "seconds-huge": _text(_with(lines, check, actual={"kind": "timeout",
                                                          "seconds": 1e308})),
        "expected-null": _text(_with(lines, check, expected=None)),
        "expected-null-beside-a-string": _text(
            lines[:failing + 1] + [{**lines[failing], "expected": None, "figure": "bp"}]
            + lines[failing + 1:]),
        "difference-string": _text(_with(lines, check, difference="abc")),
        "line-huge": _text(_with(lines, check, line=2**70)),
        "line-float": _text(_with(lines, check, line=7.0)),
        "case-separators": _text(_with(lines, check, case="a\u2028b\u0085c\u2029d")),
        "raw-separator-in-json": text.replace('"seeds', '"\u2028seeds', 1),
        "huge-literal": text.replace('"line": ', '"line": 1' + "0" * 5000 + ", \"x\": ", 1),
        "infinity-literal": text.replace('"difference": null', '"difference": 1e999', 1),
        "nan-literal": text.replace('"difference": null', '"difference": NaN', 1),
        "duplicate-check": _text(lines[:check + 1] + [lines[check]] + lines[check + 1:]),
        "duplicate-header": _text(lines[:1] + lines),
        "footer-twice": _text(lines + lines[-1:]),
        "provenance-list": _text(_with(lines, check, provenance={"source": ["x"], "url": 3})),
        "tags-nested": _text(_with(lines, check, tags=[["a"]])),
        "cause-odd": _text(_with(lines, check, cause={"group": 3, "knobs": 5,
                                                      "sentence": ["s"]})),
        "divergence-cause-odd": _text(_with(lines, _first_check(lines, "divergence"),
                                            cause={"explained": True, "knobs": 5})),
        "footer-counts-word": _text(_with(lines, len(lines) - 1, counts={"pass": "x"})),
        "footer-status-truncated": _text(_with(lines, len(lines) - 1, status="truncated")),
        "header-backends-null": _text(_with(lines, 0, backends=None)),
        "header-known-list": _text(_with(lines, 0, known=["x"])),
        "header-roots-deep": _text(_with(lines, 0, corpus_roots=["/nonexistent/\x00"])),
        "not-an-object": _text(lines[:check] + ["[1, 2]", '"check"', "17"] + lines[check:]),
    }
    return {name: value.encode("utf-8", "surrogatepass") for name, value in found.items()}


def random_mutations(lines: list[dict], rng: random.Random, count: int) -> dict[str, bytes]:
    """Seeded random mutations: a field of a line set to a value of the wrong type, or the
    bytes of the stream cut, repeated or overwritten."""
    text = _text(lines).encode("utf-8")
    found: dict[str, bytes] = {}
    for number in range(count):
        kind = rng.choice(("field", "field", "bytes", "cut", "swap"))
        if kind == "field":
            index = rng.randrange(len(lines))
            key = rng.choice(sorted(lines[index]))
            value = rng.choice(WRONG)
            found[f"{number}-field-{index}-{key}"] = _text(_with(lines, index, **{key: value})
                                                           ).encode("utf-8", "surrogatepass")
        elif kind == "bytes":
            start = rng.randrange(len(text))
            noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
            found[f"{number}-bytes-{start}"] = text[:start] + noise + text[start + len(noise):]
        elif kind == "cut":
            start = rng.randrange(len(text))
            found[f"{number}-cut-{start}"] = text[:start] + text[start + rng.randrange(1, 400):]
        else:
            swapped = list(lines)
            i, j = rng.randrange(len(swapped)), rng.randrange(len(swapped))
            swapped[i], swapped[j] = swapped[j], swapped[i]
            found[f"{number}-swap-{i}-{j}"] = _text(swapped).encode("utf-8")
    return found


def _outcome(command: str, arguments: list[str], capsys, name: str) -> str:
    """What is wrong with one command's answer to one mutated stream ("" if nothing)."""
    try:
        code = main(arguments)
    except BaseException as error:  # a traceback would reach the user
        capsys.readouterr()
        return f"{name}: {command} raised {type(error).__name__}: {error}"[:300]
    err = capsys.readouterr().err
    if code not in EXITS[command]:
        return f"{name}: {command} exited {code}: {err[-300:]}"
    lines = err.strip().splitlines()
    if code == 2 and not (len(lines) == 1
                          and lines[0].startswith(f"bleu-harness {command}: error: ")):
        return f"{name}: {command}: not one error line: {err[-300:]}"
    return ""


#: Mutations the reader accepts and the views must then show: the HTML report renders each.
RENDERED = {"cause-odd", "divergence-cause-odd", "provenance-list", "case-separators",
            "expected-null-beside-a-string", "line-huge", "seconds-huge"}


def _sampled(label: str, name: str, number: int, fixed: bool) -> bool:
    """Whether this command reads this mutation. The exhaustive tier: every command every
    fixed one (the HTML report every fourth and the :data:`RENDERED`), a sample of the
    random ones. The quick tier: one of the two diffs every third, a run every sixteenth,
    the HTML report every sixteenth and the :data:`RENDERED` (the reader is the same for
    all)."""
    if label == "report":  # the HTML report costs most: every sixteenth in the quick tier
        return name in RENDERED or number % ((4 if fixed else 5) if exhaustive() else 16) == 0
    if not exhaustive():  # the quick tier: a run every sixteenth, a diff every third
        return number % (16 if label == "run" else 3) == (label == "diff-old")
    return fixed or number % 2 == (label == "diff-old")


def test_mutated_streams_never_crash_diff_report_or_baseline(corpus, good, tmp_path, capsys):
    lines = _lines(good)
    fixed = fixed_mutations(lines)
    mutations = {**fixed, **random_mutations(lines, random.Random(SEED), RANDOM_MUTATIONS)}
    started = time.monotonic()
    commands: dict[str, Callable[[str], list[str]]] = {
        "diff": lambda bad: ["diff", str(good), bad],
        "diff-old": lambda bad: ["diff", bad, str(good), "--format", "json"],
        "report": lambda bad: ["report", str(good), bad, "-o", str(tmp_path / "r.html")],
        "run": lambda bad: ["run", str(corpus), "--backend", "own", "--baseline", bad,
                            "--select", "matlab-ngram-weights-*",
                            "--format", "markdown", "--output", str(tmp_path / "r.md")],
    }
    wrong = []
    for number, (name, content) in enumerate(mutations.items()):
        bad = tmp_path / f"bad-{number}.jsonl"
        bad.write_bytes(content)
        for label, arguments in commands.items():
            if not _sampled(label, name, number, name in fixed):
                continue
            wrong.append(_outcome(label.split("-")[0], arguments(str(bad)), capsys, name))
        assert time.monotonic() - started < BUDGET, f"over {BUDGET} s after {number} streams"
    wrong = [w for w in wrong if w]
    assert not wrong, "\n".join(wrong)


def test_the_good_stream_still_reads(good, capsys):
    assert main(["diff", str(good), str(good)]) == 0


# --- what is no file to read whole (issue 41.10 and 41.11) ----------------------------------

def _endless(tmp_path: Path) -> str:
    """More valid text than any limit (made small here by the test): a stream of its lines."""
    path = tmp_path / "big.jsonl"
    path.write_text("{}\n" * 40_000, encoding="utf-8")
    return str(path)


def _fifo(tmp_path: Path) -> str:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return str(path)


#: Each a file no command may read to its end or wait on forever: a device that never ends,
#: random bytes, a FIFO no program writes to, a directory, a file over the limit.
UNREADABLE: dict[str, Callable[[Path], str]] = {
    "dev-zero": lambda tmp: "/dev/zero",
    "dev-urandom": lambda tmp: "/dev/urandom",
    "fifo-without-writer": _fifo,
    "directory": lambda tmp: str(tmp),
    "over-the-limit": _endless,
}
#: Every place a command reads a file whole: OLD or NEW of diff, a stored run of report and
#: atlas, run's --baseline and --known.
READERS: dict[str, Callable[[str, Path], list[str]]] = {
    "diff-old": lambda bad, good: ["diff", bad, str(good)],
    "diff-new": lambda bad, good: ["diff", str(good), bad],
    "report": lambda bad, good: ["report", bad, "-o", str(good.parent / "r.html")],
    "atlas": lambda bad, good: ["atlas", bad],
    "run-baseline": lambda bad, good: ["run", str(CORPUS / "seeds" / "matlab.yaml"),
                                       "--backend", "own", "--baseline", bad],
    "run-known": lambda bad, good: ["run", str(CORPUS / "seeds" / "matlab.yaml"),
                                    "--backend", "own", "--known", bad],
}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("unreadable", UNREADABLE)
def test_a_file_read_whole_is_bounded_in_size_and_wait(good, tmp_path, capsys, monkeypatch,
                                                       reader, unreadable):
    """``diff /dev/zero s.jsonl`` and ``run --known /dev/zero`` read the whole input without
    a bound; ``run --known FIFO`` waited forever. One reader for every file read whole:
    exit 2 and one line, within its limits (made small here: 0.3 s for a FIFO's writer,
    64 KiB for a file)."""
    from bleu_harness import textfiles

    monkeypatch.setattr(textfiles, "FIFO_WRITER_WAIT", 0.3)
    monkeypatch.setattr(textfiles, "MAX_LIST_BYTES", 2**16)
    monkeypatch.setattr(textfiles, "MAX_STREAM_BYTES", 2**16)
    import bleu_harness.gate as gate
    import bleu_harness.report.stream as stream

    monkeypatch.setattr(gate, "MAX_LIST_BYTES", 2**16)
    monkeypatch.setattr(stream, "MAX_STREAM_BYTES", 2**16)
    started = time.monotonic()
    argv = READERS[reader](UNREADABLE[unreadable](tmp_path), good)
    try:
        code = main(argv)
    except SystemExit as done:
        code = done.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and ": error: " in err, (argv, err)
    assert time.monotonic() - started < 30, argv
