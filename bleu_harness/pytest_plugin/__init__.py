"""pytest plugin: ``pytest cases/`` collects each case of a case file as a test item.

Registered through the ``pytest11`` entry point (pytest's "Working with non-python tests"
pattern), so it is active wherever bleu-harness is installed -- and collects nothing it was not
asked for. A YAML file is a case file only when

* it lies in a case corpus: a directory with the marker file ``CORPUS_ROOT`` above it (a
  file no other project's YAML comes with);
* or it lies in a path named by the ini option ``bleu_harness_cases`` (paths relative to the
  rootdir) or the command-line option ``--bleu-harness-cases PATH``;
* or it is named on the command line itself and declares the case-file format (a top-level
  ``schema: 1``, the version the case-file schema requires).

Any other YAML (a ``db.yaml`` with ``schema: public``, a ``fixtures.yaml`` with ``cases:``)
is never read. A case file is checked and
read by the loader ``bleu-harness run`` uses (``bleu_harness.cases.loader.load_found``: a regular
file inside its corpus, at most 8 MiB, read once), so a file that ``run`` reports -- one that
fails the schema or the lint rules, a link out of the corpus, a FIFO, socket or directory
named ``*.yaml`` -- is reported as failing items (file, line, case), never silently skipped
or waited on, and never stops the session. A case id used twice across files fails.

An item runs the same plan -> execute -> judge path as ``bleu-harness run``, with the engine
under test and the backends started once per session, each in its own worker process. It
fails when the engine diverges from an expectation or from the live library of its
convention; the failure shows the case's own YAML lines with their numbers, expected vs
actual, the difference and the tags, not a traceback. Expected, actual and provenance go
into ``--junitxml`` as properties.

The hooks live here and import nothing of the harness: the collectors and items, with the
loader, the executor and the judge, are :mod:`bleu_harness.pytest_plugin.items`, imported
when a case file is seen, so that another project's session that never names one starts as
fast as without the plugin.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bleu_harness.cases.markers import (
    CASE_SUFFIXES,
    HEAD_BYTES,
    ROOT_MARKER,
    declares_case_format,
)

_STASH_IDS = pytest.StashKey[dict]()
_STASH_RUNNER = pytest.StashKey[object]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("bleu-harness")
    group.addoption("--bleu-strict-references", action="store_true",
                    help="a reference library drifting from a recorded value fails the case")
    group.addoption("--bleu-harness-cases", action="append", default=[], metavar="PATH",
                    help="collect the YAML files under PATH as bleu-harness case files "
                    "(besides case corpora, marked by a CORPUS_ROOT file)")
    group.addoption("--bleu-backend", action="append", default=[], metavar="NAME",
                    help="a reference backend to check the cases against (repeatable; "
                    "the engine always runs; default: every installed library, as "
                    "'bleu-harness run' without --backend)")
    for name, (metavar, what) in UNDER_TEST.items():
        group.addoption(f"--{name.replace('_', '-')}", metavar=metavar, help=what)
    parser.addini("bleu_harness_cases", type="paths", default=[],
                  help="paths whose YAML files are bleu-harness case files")
    parser.addini("bleu_harness_backends", type="linelist", default=[],
                  help="the reference backends --bleu-backend names, for every session")
    for name, (_, what) in UNDER_TEST.items():
        parser.addini(name, default="", help=what)


#: The ini keys of the implementation under test and what is known of it, each also an
#: option (``--bleu-harness-...``, which wins): its metavar and what it says.
UNDER_TEST = {
    "bleu_harness_implementation": (
        "MODULE:CALLABLE", "your BLEU function under test, fn(hypotheses, references, level, "
        "**options): the cases check it (the bundled corpus unless case paths are named)"),
    "bleu_harness_implementation_cmd": (
        "COMMAND", "your BLEU implementation under test as a command speaking bleu-harness's "
        "worker protocol"),
    "bleu_harness_claims": (
        "CONVENTION", "the convention the implementation under test claims to follow"),
    "bleu_harness_known": (
        "FILE", "a YAML list of known failures of the implementation under test (a path "
        "from the rootdir)"),
    "bleu_harness_baseline": (
        "RUN", "a stored run (bleu-harness run --format json) whose failures, each for its "
        "cause, are known (a path from the rootdir)"),
}


def under_test(config: pytest.Config) -> dict[str, str]:
    """The implementation under test and what is known of it, as the session gives them
    (the option, else the ini key); empty where none is named: the engine is under test."""
    given = {}
    for name in UNDER_TEST:
        value = (config.getoption(name, default=None) or config.getini(name) or "").strip()
        if value and name in ("bleu_harness_known", "bleu_harness_baseline"):
            value = str(config.rootpath / value) if not os.path.isabs(value) else value
        if value:
            given[name.removeprefix("bleu_harness_")] = value
    return given


def _opted_in(config: pytest.Config, path: Path) -> bool:
    """Whether ``path`` lies under a path the user named as holding case files."""
    named = [Path(p) for p in config.getini("bleu_harness_cases")]
    named += [Path(os.path.abspath(p)) for p in config.getoption("bleu_harness_cases")]
    here = Path(os.path.abspath(path))
    return any(here == root or root in here.parents for root in named)


def _corpus_of(path: Path) -> Path | None:
    """The corpus the file lies in where pytest found it (links not followed: a link from a
    corpus to a file outside is still found in the corpus, and refused)."""
    for directory in Path(os.path.abspath(path)).parents:
        if (directory / ROOT_MARKER).is_file():
            return directory
    return None


def _looks_like_case_file(path: Path) -> bool:
    """The case-file format declared in its first 64 KiB (``schema: 1``); a file that cannot
    be read as a regular file is collected too, so that the loader says why."""
    from bleu_harness.errors import InputError
    from bleu_harness.textfiles import read_head

    try:
        head = read_head(path, HEAD_BYTES)
    except InputError:
        return True
    return declares_case_format(head)


def _is_case_file(parent: pytest.Collector, path: Path) -> bool:
    if path.suffix not in CASE_SUFFIXES:
        return False
    if _corpus_of(path) is not None or _opted_in(parent.config, path):
        return True
    return parent.session.isinitpath(path) and _looks_like_case_file(path)


def pytest_collect_file(parent: pytest.Collector, file_path: Path):
    if _is_case_file(parent, file_path):
        return _case_file(parent, file_path)
    return None


if hasattr(pytest, "Dir"):  # pytest 8+: the hooks below exist
    def pytest_collect_directory(path: Path, parent: pytest.Collector):
        """A directory named ``*.yaml`` where case files are is a case file ``run`` reports:
        so is it here."""
        if _is_case_file(parent, path):
            return _case_file(parent, path)
        return None

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(collector: pytest.Collector):
        """pytest offers only regular files and directories to the hooks: the other
        ``*.yaml`` of a directory (FIFOs, sockets, dangling links) are added here, as ``run``
        reports them -- and so is any such file named on the command line, whatever its
        name (``pytest ok.yaml /dev/null``: pytest alone would stop the session, exit 4,
        and ``ok.yaml`` would never run; ``run`` reports the bad path and runs the rest)."""
        report = yield
        if isinstance(collector, pytest.Directory) and report.passed:
            report.result.extend(_case_file(collector, path)
                                 for path in _special_files(collector.path)
                                 if _is_case_file(collector, path)
                                 or _named_on_the_command_line(collector, path))
        return report


def _named_on_the_command_line(collector: pytest.Collector, path: Path) -> bool:
    """Whether ``path`` is named on the command line of a session that names case files
    (``pytest ok.yaml /dev/null``): a session that names none is another project's, whose
    ``pytest tests/ /dev/null`` is pytest's to answer."""
    named = [arg.split("::")[0] for arg in collector.config.args]
    if not any(Path(arg).suffix in CASE_SUFFIXES for arg in named):
        return False
    try:
        return collector.session.isinitpath(path)
    except (OSError, RuntimeError):  # a link loop cannot be resolved: not named as such
        return False


def _special_files(directory: Path) -> list[Path]:
    """The entries of ``directory`` that are neither a directory nor a regular file."""
    try:
        entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
    except OSError:
        return []
    return [Path(entry.path) for entry in entries if _special(entry)]


def _special(entry: os.DirEntry) -> bool:
    try:
        return not entry.is_dir() and not entry.is_file()
    except OSError:  # a link loop: no regular file, no directory
        return True




def _case_file(parent: pytest.Collector, path: Path):
    """The collector of a case file: the items' module is imported only now, when a case
    file is seen (a project that never names one pays nothing for the plugin)."""
    from bleu_harness.pytest_plugin.items import CaseFile

    return CaseFile.collected(parent, path)


def chosen_backends(config: pytest.Config) -> tuple[str, ...]:
    """The backends ``--bleu-backend`` (or the ini option ``bleu_harness_backends``) names,
    the engine's first; empty for all of them. An unknown name stops the session with a
    usage error that names the one probably meant and the known ones."""
    named = config.getoption("bleu_backend") or config.getini("bleu_harness_backends")
    if not named:
        return ()
    from bleu_harness.backends.registry import check_backend_names
    from bleu_harness.errors import UsageError

    try:
        check_backend_names(named, "--bleu-backend")
    except UsageError as error:
        raise pytest.UsageError(str(error)) from None
    return tuple(dict.fromkeys(("own", *named)))


def pytest_configure(config: pytest.Config) -> None:
    chosen_backends(config)  # a typo is said before anything is collected
    given = under_test(config)
    if given:
        from bleu_harness.backends.registry import implementation_under_test
        from bleu_harness.errors import UsageError

        try:
            implementation_under_test(given.get("implementation"),
                                      given.get("implementation_cmd"), given.get("claims"))
        except UsageError as error:
            raise pytest.UsageError(f"bleu-harness: {error}") from None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list) -> None:
    """With an implementation under test and no case paths of the project's own, the
    bundled corpus's cases are the session's too (before ``-k`` and the others select)."""
    if not under_test(config) or config.getini("bleu_harness_cases") or config.getoption(
            "bleu_harness_cases"):
        return
    if any(type(item).__name__ == "CaseItem" for item in items):
        return  # case files named on the command line
    from bleu_harness.pytest_plugin.items import bundled_items

    items.extend(bundled_items(session))


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    """One line naming what the session's cases were checked with: the engine and each
    library's exact version, and the libraries that were not available, with why."""
    runner = config.stash.get(_STASH_RUNNER, None)
    if runner is not None:
        from bleu_harness.pytest_plugin.items import backends_line

        terminalreporter.write_line(backends_line(runner.infos))


def pytest_unconfigure(config: pytest.Config) -> None:
    runner = config.stash.get(_STASH_RUNNER, None)
    if runner is not None:
        runner.close()


