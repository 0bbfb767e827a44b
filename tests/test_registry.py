"""The backend registry (issue 27.8): run, explain and fingerprint build the implementation
under test in one place, so each mistake in its flags gets one message whichever command it
is given to (run and explain/fingerprint used to say different things)."""

from __future__ import annotations

import pytest

from bleu_harness.backends.base import FAILED, READY, BackendInfo
from bleu_harness.backends.external import callable_backend, command_backend
from bleu_harness.backends.registry import (
    ON_REQUEST,
    REFERENCE_BACKENDS,
    implementation_under_test,
    reference_backends,
    require_started,
)
from bleu_harness.cli import main
from bleu_harness.errors import StartupError, UsageError
from bleu_harness.protocol import CALLABLE, USER

EXPLAIN = ["explain", "--hyp", "a b c", "--ref", "a b d"]
BOTH = ["--implementation", "mod:fn", "--implementation-cmd", "prog"]


def error_line(capsys, command: list[str]) -> str:
    """What the command says, without its ``bleu-harness NAME: error:`` prefix (exit 2)."""
    assert main(command) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err.split(": error: ", 1)[1].strip()


@pytest.mark.parametrize("flags, says", [
    (BOTH + ["--claims", "nltk"], "give exactly one of --implementation MODULE:CALLABLE or "
                                  "--implementation-cmd COMMAND"),
    (["--implementation", "mod:fn"], "--claims CONVENTION is required with an implementation "
                                     "under test"),
    (["--implementation", "mod:fn", "--claims", "moses"], "--claims: unknown convention 'moses'"
                                                          " (known: nltk, sacrebleu, "),
    (["--claims", "nltk"], "--claims needs --implementation or --implementation-cmd"),
])
def test_run_and_explain_say_the_same_of_the_same_mistake(flags, says, capsys):
    run = error_line(capsys, ["run", *flags])
    explain = error_line(capsys, [*EXPLAIN, *flags])
    assert run == explain and run.startswith(says)


@pytest.mark.parametrize("flags", [BOTH, []])
def test_fingerprint_says_it_too(flags, capsys):
    said = error_line(capsys, ["fingerprint", *flags])
    assert said == error_line(capsys, ["run", *BOTH, "--claims", "nltk"])


def test_no_implementation_flag_means_the_engine():
    assert implementation_under_test(None, None, None) is None
    with pytest.raises(UsageError):
        implementation_under_test(None, None, None, required=True)


def test_the_implementation_built_is_the_one_the_flag_names():
    callable_ = implementation_under_test("mod:fn", None, "nltk")
    command = implementation_under_test(None, "perl my-bleu.pl", "sacrebleu")
    assert callable_ == callable_backend("mod:fn", "nltk") and callable_.protocol == CALLABLE
    assert command == command_backend("perl my-bleu.pl", "sacrebleu")
    assert command.protocol == USER and command.command == ("perl", "my-bleu.pl")
    unclaimed = implementation_under_test("mod:fn", None, None, claiming=False, required=True)
    assert unclaimed.conventions == ("",)


@pytest.mark.parametrize("backend, flag", [
    (callable_backend("mod:fn", "nltk"), "--implementation mod:fn"),
    (command_backend("perl my-bleu.pl", "nltk"), "--implementation-cmd perl my-bleu.pl")])
def test_an_implementation_that_did_not_start_is_named_by_its_flag(backend, flag):
    info = BackendInfo(backend.name, "", ("nltk",), "under-test", status=FAILED,
                       note="exited with code 1 before answering")
    with pytest.raises(StartupError, match=f"^{flag}: exited with code 1 before answering$"):
        require_started(backend, info)
    require_started(backend, BackendInfo(backend.name, "", ("nltk",), "under-test",
                                         status=READY))


def test_the_reference_backends_are_the_registered_ones():
    assert [b.name for b in reference_backends((), {})] == [
        name for name in REFERENCE_BACKENDS if name not in ON_REQUEST]
    assert [b.name for b in reference_backends(("nltk",), {})] == ["nltk"]
    with pytest.raises(UsageError, match="--backend 'nosuch': unknown"):
        reference_backends(("nosuch",), {})
    with pytest.raises(UsageError, match="--library-python own=...: not a library backend"):
        reference_backends((), {"own": "python3"})
