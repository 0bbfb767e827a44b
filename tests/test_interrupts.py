"""SIGINT and SIGTERM at any moment of a run: one line, 130 / 143 (or the run's own code when
it had finished), a stream whose footer agrees with the exit code, and no process left.

Each run is a subprocess of ``python -m bleu_harness run`` signalled after a chosen delay, so the
signal falls while the command line imports, while the cases load and the backends start,
while requests are out, while the workers close and while the reports render; some runs
get a second signal shortly after the first. The delays are fixed (the runs are
deterministic in what they check, if not in where each signal falls)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from runs import CORPUS, ONE_LIBRARY, alive
from tiers import sampled

from bleu_harness.map_pool import cores
from bleu_harness.report.stream import read_run

TESTS = Path(__file__).parent

#: The file of the b0* cases the runs select (the bundled corpus would be loaded whole).
B_TABLE = str(CORPUS / "documented" / "conventions-b-table.yaml")



def marked_processes(marker: str) -> set[int]:
    """The live processes whose environment holds ``marker`` (a run's workers inherit it)."""
    needle = f"BLEU_HARNESS_TEST_MARK={marker}".encode()
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if needle in (entry / "environ").read_bytes():
                    found.add(int(entry.name))
            except OSError:
                continue
    return alive(found)


def start(tmp_path: Path, name: str, *arguments: str) -> tuple[subprocess.Popen, str, Path]:
    marker = uuid.uuid4().hex
    output = tmp_path / f"{name}.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "bleu_harness", "run", "--format", "json", "--output", str(output),
         B_TABLE, *ONE_LIBRARY, *arguments], cwd=TESTS, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "BLEU_HARNESS_TEST_MARK": marker},
        # a child of pytest-xdist may inherit SIGINT ignored: give it the default back
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    return process, marker, output


def assert_consistent(process: subprocess.Popen, marker: str, output: Path,
                      signums: tuple[int, ...], label: str) -> None:
    out, err = process.communicate(timeout=60)
    code = process.returncode
    codes = {signal.SIGINT: 130, signal.SIGTERM: 143}
    assert "Traceback" not in err and "Traceback" not in out, f"{label}: {err[-2000:]}"
    # two signals pending at once are handled in the order of their numbers (SIGINT first)
    signalled = {codes[signum] for signum in signums}
    assert code in {0, 1} | signalled, f"{label}: exit {code}: {err[-500:]}"
    deadline = time.monotonic() + 5
    while marked_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not marked_processes(marker), f"{label}: processes left behind"
    assert not list(output.parent.glob(f".{output.name}.*")), f"{label}: a partial file left"
    if output.exists():
        run = read_run(output)  # raises on an empty or cut stream
        assert run.footer is not None, f"{label}: no footer"
        assert run.footer.exit_code == code, f"{label}: footer {run.footer.exit_code}, exit {code}"
        assert run.footer.interrupted == (code in (130, 143)), label
    else:  # stopped before the header: nothing was written, and the exit code says so
        assert code in signalled, f"{label}: exit {code} without a stream"


SCHEDULE = [  # (delay before the first signal, the signals, the second one's delay)
    (0.08, (signal.SIGINT,), 0.0),  # in the imports
    (0.25, (signal.SIGTERM,), 0.0),
    (0.6, (signal.SIGINT, signal.SIGINT), 0.05),
    (1.0, (signal.SIGTERM, signal.SIGINT), 0.02),
    (1.6, (signal.SIGINT,), 0.0),
    (2.4, (signal.SIGTERM, signal.SIGTERM), 0.1),
]


def handles_signals(pid: int) -> bool:
    """Whether the process catches SIGTERM (from /proc): the command line's handlers are in
    place (``bleu_harness.signals.install``, its first statement; the interpreter does not
    catch SIGTERM itself). Before that a signal meets the interpreter's own start-up --
    Python's traceback or "Fatal Python error: init_import_site" -- which is not the
    harness's to handle."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True  # it has ended
    caught = next((line.split()[1] for line in status.splitlines()
                   if line.startswith("SigCgt:")), "0")
    return bool(int(caught, 16) & (1 << (signal.SIGTERM - 1)))


def _signal_all(runs, schedule) -> None:
    """Each run's signals at their delays after its command line handles signals: the
    interpreter's start takes 0.03 s on an idle machine and longer than the first delay on
    a busy one, where a fixed clock put that signal before the harness could see it."""
    events = [(delay, i, 0) for i, (delay, _, _) in enumerate(schedule)]
    events += [(delay + second, i, 1) for i, (delay, signums, second) in enumerate(schedule)
               if len(signums) > 1]
    ready: dict[int, float] = {}
    deadline = time.monotonic() + 30
    while events:
        now = time.monotonic()
        for index, (process, _, _) in enumerate(runs):
            if index not in ready and (now > deadline or process.poll() is not None
                                       or handles_signals(process.pid)):
                ready[index] = now
        due = [e for e in events if e[1] in ready and ready[e[1]] + e[0] <= now]
        for event in sorted(due):
            _, index, which = event
            events.remove(event)
            process = runs[index][0]
            if process.poll() is None:
                process.send_signal(schedule[index][1][which])
        if len(ready) < len(runs):
            time.sleep(0.002)  # watching for the runs still starting
        elif events:
            time.sleep(max(0.0, min(ready[i] + at for at, i, _ in events) - time.monotonic()))


def test_a_signal_at_any_moment_of_a_hanging_run(tmp_path):
    """An implementation that hangs on every request but the start-up one: the signal falls
    in the imports, the start-up or while requests are out."""
    runs = [start(tmp_path, f"hang{i}", "--implementation", "miniatures:hangs", "--claims",
                  "nltk", "--select", "b0[1-3]*", "--timeout", "30", "--html",
                  str(tmp_path / f"hang{i}.html"))
            for i in range(len(SCHEDULE))]
    _signal_all(runs, SCHEDULE)
    for (process, marker, output), (delay, signums, _) in zip(runs, SCHEDULE):
        assert_consistent(process, marker, output, signums, f"hanging run, signal at {delay} s")


@pytest.mark.parametrize("delays", sampled([(1.2, 1.6, 2.0), (2.4, 2.8, 3.4)], one_argument=True))
def test_a_signal_while_a_run_ends_and_its_reports_render(tmp_path, delays):
    """A run that completes in a few seconds, signalled around its end: while the workers
    close, the footer is written and the HTML and JUnit reports render."""
    schedule = [(delay, (signal.SIGINT, signal.SIGTERM), 0.05) for delay in delays]
    runs = [start(tmp_path, f"end{i}", "--select", "b0[1-4]*", "--html",
                  str(tmp_path / f"end{i}.html"), "--junit-xml", str(tmp_path / f"end{i}.xml"))
            for i in range(len(schedule))]
    _signal_all(runs, schedule)
    for (process, marker, output), (delay, signums, _) in zip(runs, schedule):
        assert_consistent(process, marker, output, signums, f"ending run, signal at {delay} s")


@pytest.mark.parametrize("signum, code, word, piped", sampled(
    [(signal.SIGINT, 130, "interrupted", True), (signal.SIGTERM, 143, "terminated", True),
     (signal.SIGINT, 130, "interrupted", False), (signal.SIGTERM, 143, "terminated", False)]))
def test_a_signal_to_the_whole_group_of_score_jobs_is_one_line(tmp_path, signum, code, word,
                                                               piped):
    """A terminal's Ctrl-C reaches every process of the group: ``score --jobs 2``'s workers
    leave it to the command, which ends them and prints one line (a worker waiting for work
    printed a traceback once). The hypotheses piped (streamed to the workers) or a file
    (read in ranges by the workers)."""
    line = "the cat sat on the mat , and the dog ran after it .\n"
    paths = [tmp_path / "hyp.txt", tmp_path / "ref.txt"]
    for path in paths:
        path.write_text(line * 1_000_000, encoding="utf-8")
    marker = uuid.uuid4().hex
    command = [sys.executable, "-m", "bleu_harness", "score",
               "/dev/stdin" if piped else str(paths[0]), str(paths[1]), "-c", "sacrebleu",
               "--jobs", "2"]
    environment = {**os.environ, "BLEU_HARNESS_TEST_MARK": marker}
    # a child of pytest-xdist may inherit SIGINT ignored: give it the default back
    default_sigint = lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)  # noqa: E731
    read_end, write_end = os.pipe() if piped else (None, None)
    process = subprocess.Popen(  # a process group of its own, as a shell's job
        command, stdin=read_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=environment, preexec_fn=default_sigint, process_group=0)
    feeder = subprocess.Popen(["cat", str(paths[0])], stdout=write_end,
                              process_group=process.pid) if piped else None
    for end in (read_end, write_end):
        if end is not None:
            os.close(end)
    deadline = time.monotonic() + 30
    while len(marked_processes(marker)) < 3 and process.poll() is None:  # and its two workers
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.01)
    time.sleep(0.2)  # the workers at work, or waiting for it
    os.killpg(process.pid, signum)
    out, err = process.communicate(timeout=60)
    if feeder:
        feeder.wait(timeout=10)
    assert (process.returncode, err) == (code, f"bleu-harness score: {word}\n")
    deadline = time.monotonic() + 5
    while marked_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not marked_processes(marker), "processes left behind"


def test_a_signal_inside_a_weakref_callback_is_not_lost():
    """A SIGINT that falls in a callback the interpreter runs without a place to raise (a
    weakref callback, such as importlib's module-lock ``cb`` during an import) is sent again
    and raised where the main code is; nothing is printed. (A run once hung to its timeouts
    after "Exception ignored in: <function _get_module_lock.<locals>.cb>".)"""
    code = (
        "import os, signal, sys, time, weakref\n"
        "from bleu_harness import signals\n"
        "signals.install()\n"
        "class Thing: pass\n"
        "def callback(ref):\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    for _ in range(1000): pass  # the handler runs here, inside the callback\n"
        "thing = Thing(); ref = weakref.ref(thing, callback); del thing\n"
        "try:\n"
        "    time.sleep(5)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=30, preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                       signal.SIG_DFL))
    assert (done.stdout, done.stderr) == ("interrupted\n", "")


@pytest.mark.skipif(cores() < 2, reason="one core: the run computes its maps itself")
@pytest.mark.parametrize("signum, to_the_group, delay", sampled(
    [(signal.SIGINT, True, 0.0), (signal.SIGINT, True, 0.05), (signal.SIGINT, True, 0.15),
     (signal.SIGINT, True, 0.5), (signal.SIGTERM, False, 0.5)], quick=2))
def test_a_signal_while_worker_processes_compute_the_map(tmp_path, signum, to_the_group,
                                                         delay):
    """A run with many divergence maps to compute hands them to worker processes
    (``bleu_harness.map_pool``); a signal then -- a terminal's Ctrl-C to the whole group, or
    SIGTERM to the run alone -- ends the workers with the run: one line, the exit code, a
    stream whose footer agrees, no process left. Signalled while multiprocessing's helpers
    (its resource tracker, the fork server) start, a Ctrl-C printed the fork server's
    traceback."""
    marker = uuid.uuid4().hex
    output = tmp_path / "run.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "bleu_harness", "run", str(CORPUS / "families"), "--format",
         "json", "--output", str(output), "--backend", "own"], cwd=TESTS, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, process_group=0,
        env={**os.environ, "BLEU_HARNESS_TEST_MARK": marker, "BLEU_HARNESS_CACHE": "off"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while len(marked_processes(marker)) < 3 and process.poll() is None:  # the run, the
        # engine's worker and the first of multiprocessing's: a signal while it starts
        assert time.monotonic() < deadline, "the map's workers never started"
        time.sleep(0.002)
    time.sleep(delay)
    if to_the_group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    assert_consistent(process, marker, output, (signum,), f"map workers, {signum!r}")
    assert process.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[signum]
