import fcntl
import json
import os
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))

from ci_oracles import pytest_runtest_makereport  # noqa: E402,F401  (a hook: CI=true)
from needs import skip_unless_available  # noqa: E402
from runs import ONE_LIBRARY, TIE_CORPUS  # noqa: E402
from tiers import VARIABLE, exhaustive  # noqa: E402

#: The one test file that reads the session's whole-corpus run (:func:`corpus_run`): it is
#: scheduled first, so that the other worker runs the rest meanwhile instead of waiting for
#: the run's lock.
CORPUS_RUN_FILE = "test_corpus_run.py"
#: The bundled corpus, collected by the pytest plugin case by case: the exhaustive tier's.
#: The quick tier judges the same cases in the whole-corpus run (:data:`CORPUS_RUN_FILE`).
CORPUS = TESTS.parent / "cases"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--exhaustive", action="store_true",
                     help="also run the exhaustive tier (tests marked exhaustive, every "
                          "property with its full number of examples; tests/tiers.py)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "exhaustive: runs only with --exhaustive "
                                       "(tests/tiers.py)")
    config.addinivalue_line("markers", "needs(why): skipped at setup with the reason why() "
                                       "gives (tests/needs.py)")
    if config.getoption("--exhaustive"):
        os.environ[VARIABLE] = "1"
    if not exhaustive() and config.args_source == pytest.Config.ArgsSource.TESTPATHS:
        # the bundled corpus case by case is the exhaustive tier's: not even collected
        config.args[:] = [arg for arg in config.args if Path(arg).resolve() != CORPUS]
    if "BLEU_HARNESS_CACHE" not in os.environ:
        # The divergence map's cache (bleu_harness.report.map_cache): the test sessions' own,
        # never the user's, shared by a session's workers and the processes they start, and
        # by the next session (the exhaustive tier after the quick one): its entries are
        # keyed by the package's sources, so a change of the engine computes the map anew.
        import tempfile

        os.environ["BLEU_HARNESS_CACHE"] = os.path.join(
            tempfile.gettempdir(), f"bleu-harness-tests-{os.getuid()}", "divergence-map")
    if sys.dont_write_bytecode:
        if not hasattr(config, "workerinput"):
            _compile_once()
        # pytest keeps its rewrite of each test module (the assertions) beside the byte
        # code only where bytecode may be written: two seconds of each worker's collection
        sys.dont_write_bytecode = False


def _compile_once() -> None:
    """Byte-compile the package and the tests' helpers once, before the session starts its
    processes. Under ``PYTHONDONTWRITEBYTECODE`` (set on CI machines, and in an editable
    install nothing else compiles the package) each of the session's thousand processes --
    the command line, the engine's worker, a callable under test -- compiled every module it
    imported from source: 0.1 s each, a third of the session. Python still reads byte code
    it finds; a directory that cannot be written is left as it is."""
    import compileall

    import bleu_harness

    for folder in (Path(bleu_harness.__file__).parent, TESTS):
        compileall.compile_dir(folder, quiet=2, workers=1)


@pytest.hookimpl(tryfirst=True)  # before pytest's own skip marks are read
def pytest_runtest_setup(item: pytest.Item) -> None:
    skip_unless_available(item)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without ``--exhaustive`` the exhaustive tier is deselected. The files are then put in
    the order xdist hands them out (``--dist loadfile --no-loadscope-reorder``):
    :data:`CORPUS_RUN_FILE` first, then those with the most tests, as xdist's own reordering
    would."""
    if not exhaustive():
        left = [item for item in items if item.get_closest_marker("exhaustive") is not None]
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = [item for item in items if item.get_closest_marker("exhaustive") is None]
    per_file = Counter(item.path for item in items)
    items.sort(key=lambda item: (item.path.name != CORPUS_RUN_FILE, -per_file[item.path]))


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    if not exhaustive():
        terminalreporter.write_line("the exhaustive tier was not run (python -m pytest "
                                    "--exhaustive runs it; CI does)")


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


#: The reference backends of the quick tier's whole-corpus run: the engine and the two
#: libraries every convention's corpus leans on. The optional libraries have their own
#: differential tests, and the exhaustive tier's run (:func:`corpus_map_run`) and the README's
#: first command ask every one of them.
QUICK_CORPUS_BACKENDS = ("--backend", "own", "--backend", "nltk", "--backend", "sacrebleu")


@pytest.fixture(scope="session")
def corpus_run(tmp_path_factory) -> dict:
    """The engine on the bundled corpus, without the divergence map (``--no-map``; the map is
    :func:`corpus_map_run`): with every reference backend in the exhaustive tier, with
    :data:`QUICK_CORPUS_BACKENDS` in the quick one."""
    backends = () if exhaustive() else QUICK_CORPUS_BACKENDS
    return _shared_run(tmp_path_factory, "clean", "--no-map", *backends)


@pytest.fixture(scope="session")
def corpus_map_run(tmp_path_factory) -> dict:
    """The whole run of the bundled corpus, divergence map included: what ``bleu-harness run``
    does by default (the exhaustive tier's: the map is most of its time)."""
    return _shared_run(tmp_path_factory, "clean-map")


@pytest.fixture(scope="session")
def tie_bug_run(tmp_path_factory) -> dict:
    """An NLTK implementation whose only bug is breaking length ties toward the first
    reference (torchmetrics' rule), on :data:`TIE_CORPUS`, without the divergence map (the
    map is the engine's, the same as :func:`tie_corpus_run`'s, and most of a run's time)."""
    return _shared_run(tmp_path_factory, "failing", *TIE_CORPUS,
                       "--implementation", "miniatures:first_reference_wins_ties",
                       "--claims", "nltk", *ONE_LIBRARY, "--no-map")


@pytest.fixture(scope="session")
def tie_corpus_run(tmp_path_factory) -> dict:
    """The engine on :data:`TIE_CORPUS`: what :func:`tie_bug_run` is compared with."""
    return _shared_run(tmp_path_factory, "clean-ties", *TIE_CORPUS, *ONE_LIBRARY)
