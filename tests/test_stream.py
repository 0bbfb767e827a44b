"""The canonical stream and the report files: written as the run goes, read back with
validation into typed records; report paths checked before the run and never a device
replaced by a file."""

from __future__ import annotations

import json
import os
import stat

import pytest
from runs import CORPUS, ONE_LIBRARY, ONE_LIBRARY_BACKENDS, run

from bleu_harness.cli import main
from bleu_harness.errors import StreamError
from bleu_harness.records import CheckRecord, Value
from bleu_harness.report.stream import dumps, parse_run, read_run

MATLAB = str(CORPUS / "seeds" / "matlab.yaml")


@pytest.fixture(scope="module")
def stream_lines() -> list[str]:
    _, lines = run(paths=(MATLAB,), backends=ONE_LIBRARY_BACKENDS)
    return [dumps(line) for line in lines]


def test_a_run_reads_back_as_typed_records(stream_lines):
    read = parse_run(stream_lines)
    assert read.header.under_test == "own" and read.header.backend("nltk").version
    assert read.checks and all(isinstance(c, CheckRecord) for c in read.checks)
    assert any(isinstance(c.actual, Value) for c in read.checks)
    assert read.footer.status == "complete" and read.footer.checks == len(read.checks)


@pytest.mark.parametrize("mangle, says", [
    (lambda lines: lines[:-1], "truncated: no footer"),
    (lambda lines: lines[:3] + [lines[2]] + lines[3:], "the same check as line"),
    (lambda lines: lines[:2] + ['{"type": "mystery"}\n'] + lines[2:], "not a valid stream line"),
    (lambda lines: lines[1:], "does not start with a header"),
    (lambda lines: lines + [lines[1]], "a line after the footer"),
    (lambda lines: [lines[0].replace('"corpus_hash"', '"hash"')] + lines[1:], "corpus_hash"),
    (lambda lines: lines[:1] + [json.dumps({**json.loads(lines[1]), "actual": {"kind": "value"}})
                                + "\n"] + lines[2:], "value"),
    (lambda lines: ["not json\n"] + lines, "not JSON"),
])
def test_the_reader_rejects_what_is_not_a_whole_stream(stream_lines, mangle, says):
    """Issue #10.8: missing footer, duplicate or unknown lines, missing fields are errors."""
    with pytest.raises(StreamError, match=says):
        parse_run(mangle(list(stream_lines)))


def test_a_second_run_gives_a_byte_identical_stream(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (first, second):
        assert main(["run", MATLAB, *ONE_LIBRARY, "--format", "json", "--output", str(path)]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert stat.S_IMODE(first.stat().st_mode) == 0o666 & ~current_umask()
    assert not list(tmp_path.glob("*.partial")) and not list(tmp_path.glob(".*.tmp"))


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_an_output_directory_is_refused_before_the_run(tmp_path, capsys):
    assert main(["run", MATLAB, *ONE_LIBRARY, "--output", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err


def test_a_fifo_or_a_device_is_written_to_not_replaced(tmp_path):
    """Issue #10 fuzzing: as root, --output /dev/null replaced the device node."""
    assert main(["run", MATLAB, *ONE_LIBRARY, "--format", "json", "--output", os.devnull]) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert main(["run", MATLAB, *ONE_LIBRARY, "--select", "matlab-evaluate-summary", "--junit-xml",
                     str(fifo)]) == 0
        assert b"<testsuite" in os.read(reader, 1 << 20)
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_output_still_prints_the_summary_line(tmp_path, capsys):
    assert main(["run", MATLAB, *ONE_LIBRARY, "--output", str(tmp_path / "report.txt")]) == 0
    assert capsys.readouterr().out.strip().endswith("→ exit 0")


def test_a_stream_file_is_valid_json_lines_and_reads_back(tmp_path):
    path = tmp_path / "run.jsonl"
    assert main(["run", MATLAB, *ONE_LIBRARY, "--format", "json", "--output", str(path)]) == 0
    assert read_run(path).footer.exit_code == 0
    with pytest.raises(StreamError, match="cannot read"):
        read_run(tmp_path / "missing.jsonl")
