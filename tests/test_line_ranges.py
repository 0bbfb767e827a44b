"""Files read in ranges of lines by the workers that count them (bleu_harness.line_ranges):
the segments and the errors of the streaming reader, whatever the range size."""

from __future__ import annotations

import json
import os
import random

import pytest

from bleu_harness.bleu import native
from bleu_harness.cli import main
from bleu_harness.cli import score as score_module
from bleu_harness.errors import InputError
from bleu_harness.line_ranges import UnequalFiles, line_ranges, line_starts
from bleu_harness.textfiles import MAX_LINE_BYTES, stream_parallel


def write(tmp_path, contents: list[bytes]) -> list[str]:
    paths = []
    for i, content in enumerate(contents):
        path = tmp_path / f"f{i}.txt"
        path.write_bytes(content)
        paths.append(str(path))
    return paths


def read_in_ranges(paths: list[str], every: int) -> list[tuple[str, list[str]]]:
    pairs = []
    for line_range in line_ranges(paths[0], paths[1:], every):
        hyps, refs = line_range()
        pairs += list(zip(hyps, refs))
    return pairs


def outcome(read):
    try:
        return read()
    except InputError as error:
        return ("error", str(error))


SHAPES = [
    [b"", b""],  # empty files: one empty range
    [b"a\nb\nc\n", b"x\ny\nz\n"],
    [b"a\nb\nc", b"x\ny\nz"],  # no final line break
    [b"a\r\nb\r\n\r\n", b"x\r\ny\n\n"],  # \r\n, a final \r dropped
    [b"a\rb\nc\n", b"x\ny\n"],  # a lone \r stays in its segment
    [b"\n\n\n\n", b"1\n2\n3\n4\n", b"p\nq\nr\ns\n"],  # empty lines, two references
    ["é ü 日本\nß\n".encode(), "ü\n語\n".encode()],
]


@pytest.mark.parametrize("contents", SHAPES)
@pytest.mark.parametrize("every", [1, 2, 3, 5000])
def test_ranges_give_the_streaming_readers_segments(tmp_path, contents, every):
    paths = write(tmp_path, contents)
    assert read_in_ranges(paths, every) == list(stream_parallel(paths[0], paths[1:]))


def test_random_files_in_random_ranges(tmp_path):
    rng = random.Random(5)
    for trial in range(40):
        lines = rng.randint(0, 30)
        contents = []
        for _ in range(rng.randint(1, 4)):
            body = b"".join(rng.choice([b"", b"a b", b"x\r", "é".encode(), b"\r"]) + b"\n"
                            for _ in range(lines))
            if body[-2:-1] not in (b"", b"\n") and rng.random() < 0.3:
                body = body[:-1]  # no final line break
            contents.append(body)
        paths = write(tmp_path, contents)
        assert read_in_ranges(paths, rng.randint(1, 7)) == list(
            stream_parallel(paths[0], paths[1:])), (trial, contents)


@pytest.mark.parametrize("contents", [
    [b"a\nb\n\xff\nd\n", b"1\n2\n3\n4\n"],  # not UTF-8 in the hypotheses, line 3
    [b"a\nb\nc\n\xffd\n", b"1\n\xfe\n3\n4\n"],  # the reference's error comes first (line 2)
    [b"a\nb\n\xffc\nd\n", b"1\n2\n\xfe\n4\n"],  # the same line: the hypothesis first
    [b"a\n" + b"x" * (MAX_LINE_BYTES + 1) + b"\n", b"1\n2\n"],  # a line too long
])
def test_an_unreadable_line_is_the_streaming_readers_error(tmp_path, contents):
    paths = write(tmp_path, contents)
    streamed = outcome(lambda: list(stream_parallel(paths[0], paths[1:])))
    assert streamed[0] == "error"
    for every in (1, 2, 3):
        assert outcome(lambda: read_in_ranges(paths, every)) == streamed


def test_files_of_unequal_length_are_left_to_the_streaming_reader(tmp_path):
    paths = write(tmp_path, [b"a\nb\nc\n", b"x\ny\n"])
    with pytest.raises(UnequalFiles):
        read_in_ranges(paths, 1)
    assert line_ranges(paths[0], [os.devnull], 1) is None  # not a regular file


def test_line_starts_in_c_is_the_python_rule(monkeypatch):
    rng = random.Random(9)
    cases = [(bytes(rng.choice(b"ab\n") for _ in range(rng.randint(0, 60))),
              rng.randint(0, 20), rng.randint(1, 7)) for _ in range(500)]
    found = [line_starts(*case) for case in cases]
    monkeypatch.setattr(native, "AVAILABLE", False)
    assert [line_starts(*case) for case in cases] == found


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_score_in_ranges_is_score_streamed(tmp_path, capsys, monkeypatch, jobs):
    rng = random.Random(3)
    words = ["the", "cat", "sat", "on", "a", "mat", "."]
    texts = [b"".join((" ".join(rng.choice(words) for _ in range(rng.randint(0, 9)))
                       + "\n").encode() for _ in range(47)) for _ in range(3)]
    paths = write(tmp_path, texts)
    monkeypatch.setattr(score_module, "LINES_PER_RANGE", 5)
    assert main(["score", *paths, "--jobs", jobs, "--format", "json"]) == 0
    in_ranges = json.loads(capsys.readouterr().out)
    fifo = str(tmp_path / "hyp.fifo")  # a FIFO cannot be cut: streamed
    os.mkfifo(fifo)
    pid = os.fork()
    if pid == 0:  # the writer
        with open(fifo, "wb") as out:
            out.write(texts[0])
        os._exit(0)
    assert main(["score", fifo, *paths[1:], "--jobs", jobs, "--format", "json"]) == 0
    os.waitpid(pid, 0)
    streamed = json.loads(capsys.readouterr().out)
    assert in_ranges["results"] == streamed["results"]


def test_a_dash_is_the_standard_input(tmp_path):
    """(A new user's trial: ``score - ref`` said "-: cannot read".)"""
    import subprocess
    import sys

    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "bleu_harness", "score", "-", str(ref), "-c",
                           "sacrebleu", "--format", "json"], input="the cat sat on the mat\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["results"][0]["score"] == pytest.approx(100.0)
