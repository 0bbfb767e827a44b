"""Report paths a pull request or a typo can point anywhere, thrown at every command that
writes one (issue 41.5, 41.6): a symbolic link to a file, to a directory or to nothing, a
linked directory on the way, the very file the command reads (by name, by a hard link, a
case file's name inside a case folder it reads, its known list, its stored run), another
report of the same command. Each is exit 2 with one line, before anything is written, and
every file is left as it was."""

from __future__ import annotations

import os

import pytest
from runs import CORPUS, ONE_LIBRARY

from bleu_harness.cli import main

MATLAB = str(CORPUS / "seeds" / "matlab.yaml")


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


@pytest.mark.parametrize("step", ["probe", "report"])
def test_a_signal_while_a_temporary_file_exists_leaves_none(tmp_path, step):
    """A signal that came while a report's temporary file existed (the probe that checks a
    path can be written, or the report written beside its target) left the file behind:
    ``.end1.jsonl.XXXXXXXX.tmp`` after a run signalled as it started. SIGINT is sent right
    after the file is made; it is raised once the file is gone (or in place)."""
    import subprocess
    import sys

    code = (
        "import os, signal, sys\n"
        "from bleu_harness import signals\n"
        "import bleu_harness.report.output as output\n"
        "signals.install()\n"
        "real = os.fchmod\n"
        "def fchmod(fd, mode):\n"
        "    real(fd, mode)\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    for _ in range(1000): pass  # the handler runs here, after the file is made\n"
        "output.os.fchmod = fchmod\n"
        "target = sys.argv[2]\n"
        "try:\n"
        "    if sys.argv[1] == 'probe':\n"
        "        output._try_writing(output.Path(target))\n"
        "    else:\n"
        "        output.write_report(target, 'text')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n")
    target = tmp_path / "end1.jsonl"
    done = subprocess.run([sys.executable, "-c", code, step, str(target)], capture_output=True,
                          text=True, timeout=60)
    assert done.stdout == "interrupted\n", done.stdout + done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == (
        ["end1.jsonl"] if step == "report" else [])
