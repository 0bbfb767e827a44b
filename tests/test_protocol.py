"""The worker protocol (issue 27.7): its JSON Schema holds every message the harness and its
own workers really exchange -- recorded on the pipes of a run of real workers, not written
down from the code -- and refuses malformed ones; the version handshake keeps an
implementation that names no version working, and stops one that names another."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest
from runs import FAKE, TESTS

import bleu_harness.execute.loop as loop
from bleu_harness import protocol
from bleu_harness.adapters import library_worker
from bleu_harness.backends.base import ADAPTER, FAILED, LIBRARY, READY, Backend
from bleu_harness.backends.external import callable_backend, command_backend
from bleu_harness.backends.libraries import nltk_backend, sacrebleu_backend
from bleu_harness.backends.own import engine_backend
from bleu_harness.cli import main
from bleu_harness.execute import Executor
from bleu_harness.records import (
    BackendRequest,
    HarnessError,
    Raised,
    Unsupported,
    Value,
)

TIES = str(TESTS.parent / "cases" / "families" / "ref-length.yaml")


def valid(message, direction: str) -> bool:
    return protocol.validator(direction).is_valid(message)


def ask(backend: str, convention: str, hypotheses, references, options=None, version="",
        level="corpus") -> BackendRequest:
    return BackendRequest.make(backend, convention, level, hypotheses, references,
                               options or {}, version)


@pytest.fixture
def wire(monkeypatch):
    """Every request line the executor writes and every answer line it reads, as sent."""
    sent: list[bytes] = []
    read: list[bytes] = []

    def encoded(body, ident):
        data = protocol.encoded(body, ident)
        sent.append(data)
        return data

    def decoded(raw):
        read.append(raw)
        return protocol.decoded(raw)

    monkeypatch.setattr(loop, "encoded", encoded)
    monkeypatch.setattr(loop, "decoded", decoded)
    monkeypatch.chdir(TESTS)  # miniatures is importable
    return sent, read


def test_the_schema_holds_every_message_of_a_run_of_the_harness_own_workers(wire):
    """Each kind of answer from each kind of worker: the engine (a score with figures, a
    refusal, unsupported, a release to follow), NLTK and SacreBLEU (score, error,
    unsupported), a Python callable (score, error, garbage) and a program (score)."""
    sent, read = wire
    backends = [engine_backend(), nltk_backend(), sacrebleu_backend(),
                callable_backend("miniatures:wrong_type", "nltk"),
                command_backend(f"{FAKE} error", "nltk")]
    requests = [
        ask("own", "nltk", ["a b c d"], [["a b c d", "a b"]], {"smoothing": "method1"}),
        ask("own", "nltk", ["a b c d e"], [["a b c d"]], version="3.6.5", level="sentence"),
        ask("own", "nltk", ["a b"], [[]]),
        ask("own", "t2t", ["a b"], [["a b", "a c"]]),
        ask("nltk", "nltk", ["a b c d"], [["a b c d"]], {"weights": [[0.5, 0.5], [1]]}),
        ask("nltk", "nltk", ["a b"], [[]]),
        ask("sacrebleu", "sacrebleu", ["a b c d"], [["a b c d"]], level="sentence"),
        ask("sacrebleu", "sacrebleu", ["a b c d"], [["a b c d"]], {"spm_model": "m"}),
        ask("miniatures:wrong_type", "nltk", ["a b c"], [["a b c"]]),
        ask(f"{FAKE} error", "nltk", ["a b c"], [["a b c"]]),
    ]
    with Executor(timeout=30, startup_timeout=60) as executor:
        infos = executor.start_all(backends)
        assert all(info.status == READY for info in infos), infos
        outcomes = dict(executor.run(requests))
    kinds = {type(outcome) for outcome in outcomes.values()}
    assert {Value, Raised, Unsupported, HarnessError} <= kinds
    requests_sent = [json.loads(line) for line in sent]
    answers = [json.loads(line) for line in read]
    assert {"info", "convention", "version"} <= {k for r in requests_sent for k in r}
    assert {"score", "figures", "error", "unsupported", "garbage", "info"} <= {
        k for a in answers for k in a}
    for message in requests_sent:
        protocol.validator("request").validate(message)
    for message in answers:
        protocol.validator("answer").validate(message)
    assert all(valid(m, "request") != valid(m, "answer") for m in requests_sent + answers)


def test_a_worker_whose_library_does_not_import_answers_fatal_as_the_schema_says(tmp_path):
    shadow = tmp_path / "nltk"
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise ImportError('no nltk here')\n")
    done = subprocess.run([sys.executable, str(ADAPTER), "nltk"],
                          input='{"id": 0, "info": true, "protocol": 1}\n', capture_output=True,
                          text=True, env={"PYTHONPATH": str(tmp_path)}, timeout=60)
    answer = json.loads(done.stdout)
    assert answer["fatal"].startswith("ImportError") and valid(answer, "answer")


@pytest.mark.parametrize("message", [
    {"score": 0.5},  # no id
    {"id": 7, "bleu": 0.5},  # no answer in it
    {"id": "7", "score": 0.5},
    {"id": 7.5, "score": 0.5},
    {"id": 7, "score": "0.5"},
    {"id": 7, "score": []},
    {"id": 7, "score": [[0.5]]},
    {"id": 7, "score": True},
    {"id": 7, "score": 0.5, "figures": {"bp": "one"}},
    {"id": 7, "error": "division by zero"},  # no type
    {"id": 7, "error": "x", "type": ["ZeroDivisionError"]},
    {"id": 7, "error": "x", "type": ""},
    {"id": 7, "error": "x", "type": " "},
    {"id": 7, "error": "x", "type": "Zero\nDivisionError"},
    {"id": 7, "error": 3, "type": "ValueError"},
    {"id": 7, "score": 0.5, "error": "x", "type": "ValueError"},  # two answers in one
    {"id": 7, "unsupported": None},
    {"id": 0, "info": "nltk 3.10.4"},
    {"id": 0, "info": {"version": 3}},
    {"id": 0, "info": {"version": "3.10.4"}, "protocol": 2},
    {"id": 7, "score": 0.5, "protocol": "1"},
    [7, 0.5],
    "0.5",
])
def test_the_schema_refuses_a_malformed_answer(message):
    assert not valid(message, "answer")


@pytest.mark.parametrize("message", [
    {"hypotheses": ["a"], "references": [["a"]], "level": "corpus", "options": {}},  # no id
    {"id": 1, "hypotheses": "a", "references": [["a"]], "level": "corpus", "options": {}},
    {"id": 1, "hypotheses": ["a"], "references": ["a"], "level": "corpus", "options": {}},
    {"id": 1, "hypotheses": ["a"], "references": [["a"]], "level": "paragraph",
     "options": {}},
    {"id": 1, "hypotheses": ["a"], "references": [["a"]], "level": "corpus"},
    {"id": 1, "hypotheses": ["a"], "references": [["a"]], "level": "corpus", "options": [],
     "convention": "nltk"},
    {"id": 1, "hypotheses": ["a"], "references": [["a"]], "level": "corpus", "options": {},
     "weights": [1]},  # an option outside "options"
    {"id": 1, "info": False},
    {"id": 1, "info": True, "protocol": 0},
])
def test_the_schema_refuses_a_malformed_request(message):
    assert not valid(message, "request")


def test_one_version_number_in_the_module_the_schema_and_the_stand_alone_worker():
    version = protocol.schema()["$defs"]["version"]["const"]
    assert protocol.VERSION == version == library_worker.PROTOCOL_VERSION
    assert protocol.VERSION in protocol.SPOKEN and protocol.UNVERSIONED in protocol.SPOKEN


def program(answer: dict) -> str:
    """A program that answers every request with ``answer`` (and the request's id)."""
    source = ("import json, sys\n"
              "for line in sys.stdin:\n"
              "    print(json.dumps({**%r, 'id': json.loads(line)['id']}), flush=True)\n"
              % answer)
    return f"{sys.executable} -c {shlex.quote(source)}"


RUN = ["run", "--claims", "nltk", TIES, "--select", "tie-two-refs-longer-first", "--backend",
       "own", "--format", "json"]


@pytest.mark.parametrize("answer", [{"score": 1.0}, {"score": 1.0, "protocol": 1}])
def test_an_implementation_that_names_no_version_or_version_1_runs(answer, capsys):
    """1.0 is that case's expected NLTK score: the run passes."""
    assert main([*RUN, "--implementation-cmd", program(answer)]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("version", [2, "1", None])
def test_an_implementation_that_names_another_version_stops_the_run_at_start(version, capsys):
    command = program({"score": 1.0, "protocol": version})
    assert main([*RUN, "--implementation-cmd", command]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bleu-harness run: error: --implementation-cmd")
    assert f"speaks worker protocol version {json.dumps(version)}; this harness speaks 1" in err


def test_a_library_worker_that_names_another_version_is_not_used():
    source = ("import json, sys\n"
              "for line in sys.stdin:\n"
              "    print(json.dumps({'id': json.loads(line)['id'], 'protocol': 9, "
              "'info': {'library': 'nltk', 'version': '3.10.4'}}), flush=True)\n")
    backend = Backend(name="nltk", role=LIBRARY, conventions=("nltk",),
                      command=(sys.executable, "-c", source))
    with Executor(timeout=10, startup_timeout=30) as executor:
        info = executor.start(backend)
    assert info.status == FAILED and "worker protocol version 9" in info.note


def test_the_harness_own_workers_say_their_version_and_the_harness_says_its_own(wire):
    sent, read = wire
    with Executor(timeout=10, startup_timeout=60) as executor:
        assert executor.start(engine_backend()).ready
    assert json.loads(sent[0]) == {"info": True, "protocol": protocol.VERSION, "id": 1}
    assert json.loads(read[0])["protocol"] == protocol.VERSION
