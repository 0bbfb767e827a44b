import fcntl
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))

from ci_oracles import pytest_runtest_makereport  # noqa: E402,F401  (a hook: CI=true)
from runs import TIE_CORPUS  # noqa: E402


def _run_to_files(folder: Path, name: str, *arguments: str) -> int:
    """One run, its stream and HTML report written into ``folder``: its exit code."""
    from bleu_harness.cli import main

    here = os.getcwd()
    os.chdir(TESTS)  # --implementation imports the miniatures from here
    try:
        return main(["run", *arguments, "--format", "json", "--output",
                     str(folder / f"{name}.jsonl"), "--html", str(folder / f"{name}.html"),
                     "--quiet"])
    finally:
        os.chdir(here)


def once_per_session(tmp_path_factory, name: str, build: Callable[[Path], dict]) -> dict:
    """``build(folder)``'s JSON answer, computed once per test session: with pytest-xdist the
    first worker to ask builds it under a lock in the session's shared temporary directory
    and the others wait for it and read it (the pattern of the pytest-xdist documentation,
    "Making session-scoped fixtures execute only once", with ``fcntl.flock`` for its
    ``filelock``). Without xdist it is built in a fresh directory."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return build(tmp_path_factory.mktemp(name))
    shared = tmp_path_factory.getbasetemp().parent / f"once-{name}"
    shared.mkdir(exist_ok=True)
    answer = shared / "answer.json"
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not answer.is_file():
            answer.write_text(json.dumps(build(shared)), encoding="utf-8")
        return json.loads(answer.read_text(encoding="utf-8"))


def _shared_run(tmp_path_factory, name: str, *arguments: str) -> dict:
    """A run built once per session (:func:`once_per_session`), read back by each worker."""
    from bleu_harness.report.stream import read_run

    def build(folder: Path) -> dict:
        return {"exit_code": _run_to_files(folder, name, *arguments),
                "stream": str(folder / f"{name}.jsonl"), "html": str(folder / f"{name}.html")}

    built = once_per_session(tmp_path_factory, name, build)
    stream, html = Path(built["stream"]), Path(built["html"])
    return {"exit_code": built["exit_code"], "stream": stream, "html": html,
            "run": read_run(stream)}


@pytest.fixture(scope="session")
def corpus_run(tmp_path_factory) -> dict:
    """The engine on the bundled corpus (the one whole-corpus run of the session with every
    reference backend)."""
    return _shared_run(tmp_path_factory, "clean")


@pytest.fixture(scope="session")
def tie_bug_run(tmp_path_factory) -> dict:
    """An NLTK implementation whose only bug is breaking length ties toward the first
    reference (torchmetrics' rule), on :data:`TIE_CORPUS`."""
    return _shared_run(tmp_path_factory, "failing", *TIE_CORPUS,
                       "--implementation", "miniatures:first_reference_wins_ties",
                       "--claims", "nltk")


@pytest.fixture(scope="session")
def tie_corpus_run(tmp_path_factory) -> dict:
    """The engine on :data:`TIE_CORPUS`: what :func:`tie_bug_run` is compared with."""
    return _shared_run(tmp_path_factory, "clean-ties", *TIE_CORPUS)
