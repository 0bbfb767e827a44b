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


@pytest.mark.parametrize("flag", ["--output", "--junit-xml", "--html"])
def test_no_report_is_written_through_a_symbolic_link(tmp_path, capsys, monkeypatch, flag):
    """Issue 41.5: ``--output reports/run.jsonl``, that path a link committed in a pull
    request, wrote through the link; so would a linked ``reports`` directory."""
    victim = tmp_path / "victim"
    victim.write_text("keep")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports").mkdir()
    (tmp_path / "reports" / "run.out").symlink_to(victim)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "linked").symlink_to(tmp_path / "elsewhere")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    for path in ("reports/run.out", "linked/run.out", "dangling"):
        assert main(["run", MATLAB, *ONE_LIBRARY, flag, path]) == 2
        assert "symbolic link" in capsys.readouterr().err
    assert victim.read_text() == "keep" and not any((tmp_path / "elsewhere").iterdir())
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("command", [
    lambda d: ["run", str(d / "ok.yaml"), *ONE_LIBRARY, "--output", str(d / "ok.yaml")],
    lambda d: ["run", str(d / "ok.yaml"), *ONE_LIBRARY, "--output", str(d / "x"),
               "--html", str(d / "x")],
    lambda d: ["run", str(d / "ok.yaml"), *ONE_LIBRARY, "--junit-xml", str(d / "x"),
               "--output", str(d / "hard-link-to-x")],
    lambda d: ["run", str(d), *ONE_LIBRARY, "--format", "markdown", "--output",
               str(d / "new.yaml")],
    lambda d: ["run", str(d / "ok.yaml"), *ONE_LIBRARY, "--known", str(d / "known.yaml"),
               "--output", str(d / "known.yaml")],
    lambda d: ["diff", str(d / "x"), str(d / "x"), "--output", str(d / "x")],
    lambda d: ["report", str(d / "x"), "-o", str(d / "x")],
    lambda d: ["atlas", str(d / "x"), "--output", str(d / "y"), "--html", str(d / "y")],
])
def test_a_report_never_overwrites_what_the_command_reads_or_another_report(
        tmp_path, capsys, command):
    """Issue 41.6: ``run ok.yaml --output ok.yaml`` and ``--output x --html x`` exited 0, the
    case file or the stream overwritten."""
    ok, stored = tmp_path / "ok.yaml", tmp_path / "x"
    ok.write_bytes(open(MATLAB, "rb").read())
    stored.write_text("stored")
    os.link(stored, tmp_path / "hard-link-to-x")
    (tmp_path / "known.yaml").write_text("[]\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert main(command(tmp_path)) == 2
    err = capsys.readouterr().err
    assert "reads that file" in err or "writes that file too" in err or "case folder" in err, err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before


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
