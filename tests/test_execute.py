"""Execution: every backend isolated in worker processes, timed, each distinct request once;
whatever an implementation does becomes an outcome, never a hang or a harness traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from xml.etree import ElementTree

import pytest
from rich.console import Console
from runs import (
    CORPUS,
    FAKE,
    NLTK_CHECKS,
    TESTS,
    alive,
    case_file,
    checks,
    cli,
    end,
    marked,
    one_case,
    run,
)
from tiers import sampled

import bleu_harness.backends.registry as registry
from bleu_harness.backends.base import LIBRARY, Backend
from bleu_harness.checkplan import distinct_requests, plan_cases
from bleu_harness.execute import Executor
from bleu_harness.records import ERROR, FAIL, PASS, BackendRequest, Timeout, Value
from bleu_harness.report.junit import render_junit
from bleu_harness.report.markdown import render_markdown
from bleu_harness.report.terminal import render_terminal

TIES = str(CORPUS / "families" / "ref-length.yaml")
EMPTY = str(CORPUS / "families" / "empty-inputs.yaml")


@pytest.fixture(autouse=True)
def importable_miniatures(monkeypatch):
    monkeypatch.chdir(TESTS)


def no_process_left(pattern: str) -> bool:
    """No process of this module's own making is left (each pattern here is unique to it)."""
    time.sleep(0.2)
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout
    return not found.strip()


@pytest.mark.parametrize("function, kind, verdict", sampled([
    ("raises", "raised", FAIL), ("returns_nan", "value", FAIL),
    ("wrong_type", "harness-error", ERROR), ("hangs", "timeout", ERROR),
    ("crashes_the_interpreter", "harness-error", ERROR), ("huge_integer", "harness-error", ERROR),
], quick=3))
def test_misbehaving_callables_become_outcomes(function, kind, verdict):
    result, _ = run(implementation=f"miniatures:{function}", claims="nltk", paths=(TIES,),
                    select="tie-two-refs-longer-first", timeout=2.0, backends=NLTK_CHECKS)
    assert result.exit_code == 1
    mine = checks(result, "expectation")
    assert mine and all(r.actual.kind == kind and r.verdict == verdict for r in mine)


@pytest.mark.parametrize("mode, kind, error", sampled([
    ("garbage", "harness-error", "garbage"), ("crash", "harness-error", "crash"),
    ("error", "raised", None), ("stray-line", "harness-error", "protocol"),
    ("hang", "timeout", None),  # the quick tier's hanging program: tests/test_fuzz_workers.py
    ("wrong-key", "harness-error", "garbage"),
    ("wrong-id", "harness-error", "protocol"), ("no-id", "harness-error", "protocol"),
    ("float-id", "harness-error", "protocol"),
    ("not-utf8", "harness-error", "garbage"), ("close-stdout", "harness-error", "protocol"),
    ("big-int", "harness-error", "garbage"),
], quick=4))
def test_misbehaving_programs_become_outcomes(mode, kind, error):
    """Issue #10 fuzzing: a stray line or an answer with another id no longer shifts the
    answers onto other requests (false passes); stdout closed, bytes that are not UTF-8 and
    megabyte integers are outcomes, and none of them hangs the run."""
    started = time.monotonic()
    result, _ = run(implementation_cmd=f"{FAKE} {mode}", claims="nltk", paths=(TIES,),
                    select="tie-t*", timeout=1.0, backends=NLTK_CHECKS)
    mine = checks(result, "expectation")
    assert len(mine) == 3 and all(r.actual.kind == kind for r in mine)
    if error:
        assert all(r.actual.error == error for r in mine)
    assert not checks(result, verdict=PASS) or all(r.check == "drift" for r in
                                                    checks(result, verdict=PASS))
    assert result.exit_code == 1
    assert time.monotonic() - started < 30


def test_a_request_bigger_than_the_pipe_to_a_program_that_stops_reading_times_out():
    result, _ = run(implementation_cmd=f"{FAKE} never-read", claims="tf-nmt",
                    paths=(str(CORPUS / "real" / "nmt-deen-3000.yaml"),), timeout=1.0,
                    backends=("bleuscore",))  # what a tf-nmt implementation is checked against
    mine = checks(result, "expectation")
    assert mine and all(isinstance(r.actual, Timeout) for r in mine)
    assert "did not read its request" in mine[0].actual.message


def test_output_the_implementation_prints_is_not_taken_for_an_answer():
    result, _ = run(implementation="miniatures:prints_to_stdout", claims="nltk", paths=(TIES,),
                    select="tie-*", backends=NLTK_CHECKS)
    assert result.exit_code == 0 and checks(result, "expectation", PASS)


@pytest.mark.parametrize("implementation", [
    {"implementation_cmd": f"{FAKE} child"}, {"implementation": "miniatures:spawns_a_child"}])
def test_children_of_the_implementation_do_not_outlive_the_run(implementation):
    """Issue #10 fuzzing: 19 ``sleep`` processes survived a run; a child that inherits
    stdout hung ``close()``."""
    started = time.monotonic()
    run(**implementation, claims="nltk", paths=(TIES,), select="tie-t*", backends=NLTK_CHECKS)
    assert time.monotonic() - started < 20
    assert no_process_left("sleep 1000")  # only this module's tests start one


def test_each_distinct_request_runs_once(tmp_path):
    """Issue #10.6: the expectation and the differential check share one answer."""
    log = tmp_path / "requests.log"
    result, _ = run(implementation_cmd=f"{FAKE} log {log}", claims="nltk",
                    paths=(str(CORPUS / "seeds" / "nltk-docs.yaml"),), backends=NLTK_CHECKS)
    sent = log.read_text(encoding="utf-8").splitlines()[1:]  # after the startup request
    assert sent and len(sent) == len(set(sent))
    assert len(checks(result, "expectation")) + len(checks(result, "differential")) > len(sent)


def test_the_bundled_corpus_plans_each_request_once():
    from bleu_harness.backends.base import BackendInfo
    from bleu_harness.cases.loader import load
    from bleu_harness.checkplan import roles_of

    engine = BackendInfo("own", "0", ("nltk",), "engine")
    library = BackendInfo("nltk", "3.10.4", ("nltk",), "library")
    roles = roles_of([engine, library], engine, ("nltk", "sacrebleu"), True, True)
    plans = plan_cases(load().cases, roles)
    planned = [r for p in plans for c in p.checks for r in (c.subject, c.reference) if r]
    planned += [r for p in plans for _, r in p.divergence]
    distinct = distinct_requests(plans)
    assert len(distinct) == len(set(distinct)) < len(planned)


def test_a_library_of_two_conventions_is_the_live_library_of_both():
    """torchmetrics implements ``torchmetrics`` and ``torchmetrics-sacrebleu``: the recorded
    values of both are checked against it (drift), and an implementation of either with it."""
    from bleu_harness.backends.base import BackendInfo
    from bleu_harness.checkplan import roles_of

    engine = BackendInfo("own", "0", ("torchmetrics", "torchmetrics-sacrebleu"), "engine")
    library = BackendInfo("torchmetrics", "1.9.0", ("torchmetrics", "torchmetrics-sacrebleu"),
                          "library")
    roles = roles_of([engine, library], engine, engine.conventions, True, False)
    assert roles.libraries == {"torchmetrics": library, "torchmetrics-sacrebleu": library}


def fake_nltk(mode: str, version: str = "3.10.4"):
    return lambda python=None: Backend(
        name="nltk", role=LIBRARY, conventions=("nltk",), module="nltk",
        command=(sys.executable, str(TESTS / "fake_library.py"), mode, version))


@pytest.mark.parametrize("mode, kind", [("hang", "timeout"), ("crash", "harness-error")])
def test_a_hanging_or_crashing_library_costs_one_request(monkeypatch, mode, kind):
    """Issue #10.7: the libraries run isolated and timed, like the implementation."""
    monkeypatch.setitem(registry.REFERENCE_BACKENDS, "nltk", fake_nltk(mode))
    started = time.monotonic()
    # empty-hyp (two requests, each ended at its timeout) and empty-whitespace-hyp (answered)
    result, _ = run(paths=(EMPTY,), select="empty-[!c]*yp", timeout=1.0, backends=("nltk",))
    broken = [r for r in checks(result, "drift") if r.actual.kind == kind]
    assert broken and all(r.verdict == "drift" for r in broken)
    assert checks(result, "drift", PASS)
    assert time.monotonic() - started < 60
    assert no_process_left("fake_library.py")


def test_a_decline_check_that_fails_costs_its_request_not_the_run(monkeypatch):
    """Issue 41.1: fast-bleu's decline check raised TypeError on a request nobody foresaw
    (NaN weights, sent as the string "NaN"): the run died with a traceback, exit 1, and the
    stream held only its header. Such a failure is that request's internal error."""
    def failing(request):
        if request.hypotheses != ("a b c d",):
            raise TypeError("unsupported operand type(s) for +: 'int' and 'str'")
        return ""

    monkeypatch.setitem(registry.REFERENCE_BACKENDS, "nltk", lambda python=None: Backend(
        name="nltk", role=LIBRARY, conventions=("nltk",), module="nltk", decline=failing,
        command=(sys.executable, str(TESTS / "fake_library.py"), "ok", "3.10.4")))
    result, lines = run(paths=(TIES,), backends=("nltk",))
    broken = [r for r in checks(result) if r.backend == "nltk" or r.other == "nltk"]
    assert broken and all(r.actual is None or r.actual.kind in ("harness-error", "value")
                          for r in broken)
    assert any(r.actual is not None and r.actual.kind == "harness-error"
               and "check of the request failed: TypeError" in r.actual.message
               for r in broken)
    assert lines[-1]["status"] == "complete" and checks(result, "expectation", PASS)


def test_a_library_release_the_backend_cannot_drive_is_said_once(monkeypatch):
    """Issue #10.5: no noise of drift and failures, one line in the header."""
    monkeypatch.setitem(registry.REFERENCE_BACKENDS, "nltk", lambda python=None: Backend(
        name="nltk", role=LIBRARY, conventions=("nltk",), supported=">=3.2.2", module="nltk",
        command=(sys.executable, str(TESTS / "fake_library.py"), "ok", "3.0.1")))
    result, _ = run(paths=(TIES,))
    nltk = result.header.backend("nltk")
    assert nltk.status == "unsupported version" and ">=3.2.2" in nltk.note
    assert not [r for r in checks(result) if "nltk" in (r.backend, r.other)]
    assert result.exit_code == 0


def test_hostile_messages_cannot_break_a_report(tmp_path):
    """Issue #10 fuzzing: a lone surrogate in an error message made the report writer raise
    after the run; NUL and ESC broke JUnit and reached the terminal raw."""
    from bleu_harness.report.stream import dumps

    result, lines = run(implementation="miniatures:hostile_message", claims="nltk",
                        paths=(TIES,), select="tie-t*", backends=NLTK_CHECKS)
    text = "".join(dumps(line) for line in lines)
    text.encode("utf-8")
    assert "\x1b" not in text and "\x00" not in text
    ElementTree.fromstring(render_junit(result.run(), False).encode("utf-8"))
    assert "\x1b" not in render_markdown(result.run())
    console = Console(record=True, file=open("/dev/null", "w"), width=200)
    render_terminal(result.run(), console)
    assert "\x1b" not in console.export_text(styles=False)


def test_the_executor_answers_as_it_goes_and_ends_its_workers():
    from bleu_harness.backends.own import engine_backend

    requests = [BackendRequest.make("own", "nltk", "sentence", [f"a b c {i}"], [["a b c d"]], {})
                for i in range(20)]
    with Executor(timeout=5, jobs=2) as executor:
        assert executor.start(engine_backend()).ready
        answers = list(executor.run(requests))
        workers = {w.process.pid for ws in executor.workers.values() for w in ws if w.alive}
    assert sorted(r.hypotheses for r, _ in answers) == sorted(r.hypotheses for r in requests)
    assert all(isinstance(o, Value) for _, o in answers)
    assert workers and not alive(workers)


@pytest.mark.parametrize("version", sampled(["3.6.5", "3.10.4"]))
def test_a_library_that_changed_its_arithmetic_is_drift_not_an_engine_failure(monkeypatch,
                                                                              version):
    """Issue #10.4: under NLTK 3.6.5 every DRIFT came with FAIL differential own as nltk.
    Another release, or the same release off its recorded values while the engine keeps
    them: drift (exit 0; exit 3 with --strict-references)."""
    monkeypatch.setitem(registry.REFERENCE_BACKENDS, "nltk", fake_nltk("halve", version))
    options = dict(paths=(str(CORPUS / "families" / "smoothing.yaml"),), backends=("own", "nltk"))
    result, _ = run(**options)
    moved = [r for r in checks(result, "differential") if r.verdict != PASS]
    assert moved and all(r.verdict == "drift" for r in moved)
    assert checks(result, "drift", "drift") and not checks(result, verdict=FAIL)
    assert result.exit_code == 0
    assert run(**options, strict_references=True)[0].exit_code == 3


# Programs that fail before their first answer (issue 26.1: each ran until killed, the early
# exit having ended the worker while no request was in flight, the startup request then
# waiting on a dead worker forever) and programs that exit, close their output or crash
# between requests are in tests/test_fuzz_workers.py's HOSTILE list, each checked for its
# exit code, its one line, its time and the processes it leaves.

@pytest.mark.parametrize("mode, codes", [("print-after-startup", {0, 1})])
def test_a_program_that_fails_between_requests_costs_requests_not_the_run(mode, codes):
    """Issue 26.1, during the run: a worker that prints while no request is in flight is
    ended and replaced; nothing waits on it. (The line printed after the startup answer is
    garbage for the request in flight when it comes, if one is.)"""
    done = cli("run", "--implementation-cmd", f"{FAKE} {mode}", "--claims", "nltk", TIES,
               "--select", "tie-t*", "--backend", "nltk", "--timeout", "2",
               "--format", "json", timeout=30)
    assert done.code in codes and "Traceback" not in done.err + done.out, done
    lines = [json.loads(line) for line in done.out.splitlines()]
    assert lines[-1]["type"] == "footer" and lines[-1]["status"] == "complete"
    assert [line for line in lines if line.get("check") == "expectation"]


def no_marked_process_left(marker: str) -> bool:
    """Nothing marked ``marker`` runs (what a failing test left is ended, by pid)."""
    deadline = time.monotonic() + 2
    while marked(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = marked(marker)
    end(left)
    return not left


@pytest.mark.parametrize("implementation, spawn", sampled([
    (["--implementation-cmd", f"{FAKE} ok"], "child"),
    (["--implementation-cmd", f"{FAKE} ok"], "orphan"),
    (["--implementation-cmd", f"{FAKE} crash"], "child"),
    (["--implementation", "miniatures:spawns_a_setsid_child"], ""),
], quick=2))
def test_a_process_in_a_session_of_its_own_does_not_outlive_the_run(implementation, spawn):
    """Issue 26.1e: a child started with setsid / start_new_session=True escaped the kill of
    the worker's process group (8 implementations left a sleep behind), and so did one whose
    parent exited (an orphan)."""
    marker = f"bleu-harness-test-{spawn or 'callable'}-{time.monotonic_ns()}"
    done = cli("run", *implementation, "--claims", "nltk", TIES, "--select", "tie-t*",
               "--backend", "nltk", "--timeout", "2", timeout=30,
               env={"FAKE_SPAWN": f"{spawn}:{marker}", "FUZZ_MARKER": marker})
    assert done.code in (0, 1) and "Traceback" not in done.err, done
    assert no_marked_process_left(marker)


def test_a_process_in_a_session_of_its_own_does_not_outlive_an_interrupted_run():
    marker = f"bleu-harness-test-interrupted-{time.monotonic_ns()}"
    harness = subprocess.Popen(
        [sys.executable, "-m", "bleu_harness", "run", "--implementation-cmd", f"{FAKE} hang",
         "--claims", "nltk", TIES, "--backend", "nltk", "--timeout", "30"],
        cwd=TESTS, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "FAKE_SPAWN": f"child:{marker}"})
    try:
        deadline = time.monotonic() + 20
        while not marked(marker) and time.monotonic() < deadline:  # the worker started
            time.sleep(0.05)
        time.sleep(1.0)  # and hangs on its first request of the run
        harness.send_signal(signal.SIGINT)
        assert harness.wait(timeout=20) == 130
    finally:
        if harness.poll() is None:
            harness.kill()
    assert "Traceback" not in harness.stderr.read()
    assert no_marked_process_left(marker)


RAISES = ("{convention: nltk, raises: ZeroDivisionError, provenance: {kind: documented, "
          "source: s, where: w}}")


@pytest.mark.parametrize("implementation", sampled([
    {"implementation": "miniatures:unprintable"},
    {"implementation": "miniatures:deeply_nested"},
    {"implementation_cmd": f"{FAKE} error-type-list"},
    {"implementation_cmd": f"{FAKE} deep"},
], quick=2))
def test_garbage_is_an_error_not_the_exception_a_case_expects(tmp_path, implementation):
    """Issue 26.10: an object whose float() and repr() raise was reported as "raised
    KeyError", a list 900 deep as "raised RecursionError", ``"type": ["KeyError"]`` was taken
    for a raise -- and each passed ``raises:`` (any exception does, for an implementation
    under test); 100,000 nested ``[`` from a command crashed the harness. The worker's own
    failures are garbage, never the implementation's exceptions."""
    path = case_file(tmp_path, "raises.yaml", one_case("r", RAISES, hyp="x y", refs="[a b]"))
    result, lines = run(**implementation, claims="nltk", paths=(str(path),), timeout=5.0,
                        backends=NLTK_CHECKS)
    mine = checks(result, "expectation")
    assert mine and all(r.verdict == ERROR and r.actual.kind == "harness-error"
                        and r.actual.error == "garbage" for r in mine), mine
    assert result.exit_code == 1 and lines[-1]["status"] == "complete"


@pytest.mark.parametrize("implementation, raised", [
    ({"implementation": "miniatures:raises"}, "RuntimeError"),
    ({"implementation_cmd": f"{FAKE} error"}, "ValueError"),
])
def test_an_exception_of_another_type_fails_a_raises_check(tmp_path, implementation, raised):
    """Issue 41.2: any exception satisfied ``raises: ZeroDivisionError`` for an
    implementation under test (only the engine was held to the type), so one that always
    raised passed every such check. One rule holds every subject to the type."""
    path = case_file(tmp_path, "raises.yaml", one_case("r", RAISES, hyp="x y", refs="[a b]"))
    result, _ = run(**implementation, claims="nltk", paths=(str(path),), backends=NLTK_CHECKS)
    mine = checks(result, "expectation")
    assert mine and all(r.verdict == FAIL for r in mine), mine
    assert all(f"raised {raised}, expected ZeroDivisionError" in r.message for r in mine)
    assert result.exit_code == 1


@pytest.mark.parametrize("implementation", [
    {"implementation": "miniatures:scalar_as_list"},
    {"implementation_cmd": f"{FAKE} scalar-as-list"},
])
def test_a_list_of_one_where_the_library_returns_a_number_fails(tmp_path, implementation):
    """Issue 26.10: ``[score]`` passed the expectation check (its first element was taken)."""
    path = case_file(tmp_path, "one.yaml", one_case(hyp="a b c d e", refs="[a b c d e]"))
    result, _ = run(**implementation, claims="nltk", paths=(str(path),), backends=NLTK_CHECKS)
    mine = checks(result, "expectation")
    assert mine and all(r.verdict == FAIL for r in mine)
    assert "a list" in mine[0].message
    assert result.exit_code == 1


def test_a_score_as_a_string_float_takes_is_a_score(tmp_path):
    """Issue 26.13: the README says "anything float() takes"; "1.0" was refused."""
    path = case_file(tmp_path, "one.yaml", one_case())
    result, _ = run(implementation="miniatures:returns_a_string", claims="nltk",
                    paths=(str(path),), backends=NLTK_CHECKS)
    assert checks(result, "expectation", PASS) and result.exit_code == 0


@pytest.mark.parametrize("command", [
    ["fingerprint"], ["explain", "--claims", "nltk", "--hyp", "a b c", "--ref", "a b d"]])
def test_an_answer_nested_too_deep_for_json_stops_explain_and_fingerprint_cleanly(command,
                                                                                   capsys):
    """Issue 26.10: 100,000 nested ``[`` raised RecursionError out of json.loads (only
    ValueError was caught): a traceback from explain and fingerprint."""
    from bleu_harness.cli import main

    assert main([*command, "--implementation-cmd", f"{FAKE} deep-always"]) == 2
    err = capsys.readouterr().err
    assert "nested too deep" in err and err.count("\n") == 1


def test_an_implementation_that_keeps_timing_out_gets_no_more_requests():
    """A new user's implementation that hung on most requests took 583 s (10 s a request,
    one after another) with nothing said. After three timeouts in a row its other requests
    are timeouts at once, and a line says so while the run goes."""
    notices: list[str] = []
    started = time.monotonic()
    result, _ = run(implementation="miniatures:hangs", claims="nltk", paths=(TIES,),
                    timeout=0.5, notice=notices.append, backends=NLTK_CHECKS)
    mine = [r for r in checks(result) if r.backend == "miniatures:hangs"]
    assert len(mine) > 6 and all(r.actual.kind == "timeout" for r in mine)
    assert all(r.verdict == ERROR for r in mine if r.other != "fast-bleu")  # it declines some
    waited = {(r.case, json.dumps(dict(r.options), sort_keys=True, default=str)) for r in mine
              if "not sent" not in r.actual.message}
    assert len(waited) <= 3 < len(mine)  # three requests waited for; the others not sent
    assert notices and "timed out on 3 requests in a row" in notices[0]
    assert result.exit_code == 1
    assert time.monotonic() - started < 30


def test_a_deadline_does_not_pass_while_the_harness_itself_is_busy():
    """A new user's gate failed at random: judging one big case held the harness for about
    20 s on two cores, the workers were starved of the processor meanwhile, and answers that
    came late for it were reported as timeouts ('expected 23.17 actual timeout'). Here the
    consumer holds the loop for twice the timeout while the worker, stopped (starved),
    cannot answer; its answers then come at once and none is a timeout. A worker that hangs
    while the harness waits still times out (the other tests of this file)."""
    from bleu_harness.backends.own import engine_backend

    requests = [BackendRequest.make("own", "nltk", "sentence", [f"a b c {i}"], [["a b c d"]], {})
                for i in range(12)]
    outcomes = []
    with Executor(timeout=1.0, jobs=1) as executor:
        assert executor.start(engine_backend()).ready
        [worker] = executor.workers["own"]
        for request, outcome in executor.run(requests):
            outcomes.append(outcome)
            if len(outcomes) == 1:  # the harness busy judging; the worker gets no processor
                os.kill(worker.process.pid, signal.SIGSTOP)
                time.sleep(2.0)
                os.kill(worker.process.pid, signal.SIGCONT)
    assert len(outcomes) == len(requests)
    assert all(isinstance(o, Value) for o in outcomes), [o for o in outcomes
                                                          if not isinstance(o, Value)]
