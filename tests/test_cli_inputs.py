"""Inputs a user can give ``score`` that once hung it, filled the memory or gave a traceback:
an endless line (``/dev/zero``), a FIFO nobody writes to, a directory, a deeply nested or
non-plain ``--option``, an absurd ``--jobs``. Each is one line and exit 2, in bounded time;
``--sentence`` prints each line as it is scored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bleu_harness import textfiles
from bleu_harness.cli import main
from bleu_harness.errors import InputError

EXAMPLES = Path(__file__).parents[1] / "bleu_harness" / "data" / "examples"
HYP, REF = str(EXAMPLES / "hyp.txt"), str(EXAMPLES / "ref1.txt")
#: The file of the bundled corpus that holds its b0* cases.
B_TABLE = str(Path(__file__).parents[1] / "cases" / "documented" / "conventions-b-table.yaml")


def harness(*args: str, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bleu_harness", *args], capture_output=True,
                          text=True, timeout=timeout, **kwargs)


def one_line_error(done: subprocess.CompletedProcess, says: str) -> None:
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr + done.stdout
    assert done.stderr.strip().count("\n") == 0 or "usage:" in done.stderr


@pytest.mark.parametrize("order", ["hyp", "ref"])
def test_an_endless_line_is_an_error_not_a_memory_blowup(order):
    files = ["/dev/zero", REF] if order == "hyp" else [HYP, "/dev/zero"]
    for mode in ([], ["--sentence"]):
        done = harness("score", *files, "-c", "sacrebleu", *mode, timeout=30)
        if order == "hyp":
            one_line_error(done, "/dev/zero:1: a line longer than 1 MiB")
        else:  # the hypotheses end first: /dev/zero's lines are counted within a budget
            one_line_error(done, "/dev/zero")


def test_a_directory_is_an_error(tmp_path):
    one_line_error(harness("score", HYP, str(tmp_path)), "is a directory")


def test_a_fifo_without_a_writer_does_not_block(tmp_path, monkeypatch):
    fifo = tmp_path / "refs"
    os.mkfifo(fifo)
    monkeypatch.setattr(textfiles, "FIFO_WRITER_WAIT", 0.5)
    with pytest.raises(InputError, match="no program wrote to"):
        textfiles.read_segments(fifo)


def test_a_fifo_with_a_late_writer_is_read(tmp_path):
    fifo = tmp_path / "refs"
    os.mkfifo(fifo)
    lines = Path(REF).read_bytes()

    def write_later() -> None:
        threading.Event().wait(0.5)
        with open(fifo, "wb") as writer:
            writer.write(lines)

    thread = threading.Thread(target=write_later)
    thread.start()
    assert textfiles.read_segments(fifo) == textfiles.read_segments(REF)
    thread.join()


@pytest.mark.parametrize("option, says", [
    ("weights=" + "[" * 5000 + "]" * 5000, "nested more than 8 levels"),
    ("weights=!!set {0.5, 0.25}", "not a plain value"),
    ("weights=!!python/object:os.system ls", "not a plain value"),
])
def test_an_option_value_that_is_not_plain_data_is_one_line(capsys, option, says):
    assert main(["score", HYP, REF, "-c", "nltk", "--option", option]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and err.count("\n") == 1


@pytest.mark.parametrize("command", [["score", HYP, REF], ["run", "--select", "b01*"]])
def test_an_absurd_number_of_jobs_is_refused(command):
    one_line_error(harness(*command, "--jobs", "99999999999"), "give 1 to 64 workers")


def test_sentence_mode_prints_each_line_as_it_is_scored(tmp_path):
    """The first rows come out while the input is still being written: nothing is held."""
    hyp, ref = tmp_path / "hyp", tmp_path / "ref"
    os.mkfifo(hyp)
    os.mkfifo(ref)
    process = subprocess.Popen([sys.executable, "-m", "bleu_harness", "score", "--sentence",
                                str(hyp), str(ref), "-c", "sacrebleu"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        with open(hyp, "w") as hyps, open(ref, "w") as refs:
            for handle in (hyps, refs):
                handle.write("the cat sat on the mat\n")
                handle.flush()
            assert "Sentence BLEU" in process.stdout.readline()
            process.stdout.readline()  # the column names
            assert process.stdout.readline().split()[:2] == ["1", "100.0000"]
            for handle in (hyps, refs):
                handle.write("a dog\n")
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert out.split("\n")[0].split()[0] == "2"


def test_subword_text_is_warned_about_and_its_joiners_can_be_removed(capsys):
    """The bundled de-en references are BPE pieces ("Republic@@ an"): scoring them as they
    are gives a number about half the real one, so score says so, and
    --remove-from-references '@@ ' gives SacreBLEU's own score of the joined words."""
    import sacrebleu

    data = Path(__file__).parents[1] / "cases" / "data" / "nmt-deen-3000"
    hyp, ref = str(data / "deen_output"), str(data / "deen_ref_bpe")
    assert main(["score", hyp, ref, "-c", "sacrebleu", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "deen_ref_bpe looks split into subword pieces" in captured.err
    assert "deen_output looks" not in captured.err
    assert main(["score", hyp, ref, "-c", "sacrebleu", "--format", "json",
                 "--remove-from-references", "@@ "]) == 0
    captured = capsys.readouterr()
    assert "warning" not in captured.err
    got = json.loads(captured.out)["results"][0]["score"]
    hyps = Path(hyp).read_text(encoding="utf-8").split("\n")[:-1]
    refs = Path(ref).read_text(encoding="utf-8").replace("@@ ", "").split("\n")[:-1]
    assert got == sacrebleu.corpus_bleu(hyps, [refs]).score


@pytest.mark.parametrize("arguments, code", [
    (["score", HYP, REF], 0),
    (["run", B_TABLE, "--select", "b0*", "--implementation",
      "miniatures:first_reference_wins_ties", "--claims", "nltk", "--backend", "own",
      "--backend", "nltk"], 1),
])
def test_a_reader_that_leaves_does_not_change_the_exit_code(arguments, code):
    """``bleu-harness run | head -1`` exited 1 whatever the run found (rich's broken-pipe
    exit), and so did ``score | head``: now the rest of the output is discarded and the
    command exits with its own code."""
    process = subprocess.Popen([sys.executable, "-m", "bleu_harness", *arguments],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=Path(__file__).parent)
    process.stdout.readline()
    process.stdout.close()  # the reader leaves
    _, err = process.communicate(timeout=120)
    assert process.returncode == code and b"Traceback" not in err, err[-500:]


@pytest.mark.parametrize("command, offered", [
    ("explain", "give an input: a CASE_ID, or --hyp"),
    ("identify", "give an input: HYP_FILE REF_FILE..., or --hyp"),
])
def test_a_missing_input_names_only_the_forms_the_command_takes(capsys, command, offered):
    """explain offered HYP_FILE REF_FILE, which it refuses as 'unrecognized arguments'."""
    extra = ["--score", "3"] if command == "identify" else []
    assert main([command, *extra]) == 2
    assert offered in capsys.readouterr().err


def test_a_case_path_that_does_not_exist_is_a_usage_error(capsys):
    """``run nosuchdir/`` started every backend, then reported a case-file problem."""
    assert main(["run", "nosuchdir/"]) == 2
    err = capsys.readouterr().err
    assert "nosuchdir/: no such file or directory" in err and err.count("\n") == 1
