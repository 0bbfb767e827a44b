"""Fuzzing the executor with misbehaving implementations (issue 26): programs and callables
that exit, print, close their output, hang, answer garbage, nest deep, answer huge, answer
NaN, raise exotic exceptions or start processes in sessions of their own -- before their
first answer and during the run.

Each runs ``python -m bleu_harness run`` in its own process (as CI does) on two small cases, and
must: print no traceback; exit as documented (2 when the implementation cannot start, 1 when
it fails checks, never 0 for garbage); end within its timeouts plus a margin; leave no
process behind (every process a fake program starts is marked on its command line); and
never let garbage pass a ``raises:`` expectation.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass

import pytest
from runs import FAKE, case_file, cli, end, marked, one_case
from tiers import exhaustive_only

STARTUP_TIMEOUT, TIMEOUT = 5.0, 2.0
#: For the implementations that hang (they cost these seconds, per request).
SHORT_STARTUP_TIMEOUT, SHORT_TIMEOUT = 1.5, 0.5
#: On top of the timeouts: interpreter and worker start-up on a busy machine.
MARGIN = 15.0
RAISES = ("{convention: nltk, raises: ZeroDivisionError, provenance: {kind: documented, "
          "source: s, where: w}}")


def program(source: str) -> str:
    return f"{sys.executable} -c {source!r}"


@dataclass(frozen=True)
class Hostile:
    """One misbehaving implementation and what the run must do with it."""

    name: str
    flags: tuple[str, ...]
    codes: frozenset[int]  # the exit codes it may give
    says: str = ""  # in the one line of a run that cannot start
    #: the verdicts the ``raises:`` expectation may get (garbage must not pass it)
    raises_verdicts: frozenset[str] = frozenset({"error"})
    hangs: bool = False  # then the short timeouts apply

    @property
    def timeouts(self) -> tuple[float, float]:
        return (SHORT_STARTUP_TIMEOUT, SHORT_TIMEOUT) if self.hangs else (STARTUP_TIMEOUT,
                                                                          TIMEOUT)


def command(name: str, line: str, codes, says: str = "", verdicts=("error",),
            hangs: bool = False) -> Hostile:
    return Hostile(name, ("--implementation-cmd", line), frozenset(codes), says,
                   frozenset(verdicts), hangs)


def callable_(name: str, target: str, codes, says: str = "", verdicts=("error",),
              hangs: bool = False) -> Hostile:
    return Hostile(name, ("--implementation", f"misbehaving:{target}"), frozenset(codes),
                   says, frozenset(verdicts), hangs)


CANNOT_START = {2}
FAILS = {1}
HOSTILE = [
    # before the first answer: exit 2, one line (issue 26.1: the first five ran until killed)
    command("exits", program("import sys; sys.exit(1)"), CANNOT_START, "exited with code 1"),
    command("true", "true", CANNOT_START, "exited with code 0"),
    command("banner", program("print('My BLEU 1.0'); import time; time.sleep(60)"),
            CANNOT_START, "My BLEU 1.0"),
    command("import-fails", program("import no_such_module_at_all"), CANNOT_START,
            "No module named"),
    command("closes-stdout", program("import os, time; os.close(1); time.sleep(3600)"),
            CANNOT_START, "closed its standard output"),
    command("hangs", f"{FAKE} hang-always", CANNOT_START, "did not answer within 1.5 s",
            hangs=True),
    command("not-json", f"{FAKE} garbage-always", CANNOT_START, "not JSON"),
    command("nan", f"{FAKE} nan-always", CANNOT_START, "not a finite score"),
    command("deep", f"{FAKE} deep-always", CANNOT_START, "nested too deep"),
    callable_("unprintable", "unprintable_always", CANNOT_START, "not a number"),
    Hostile("no-module", ("--implementation", "no_such_module_at_all:fn"),
            frozenset(CANNOT_START), "No module named"),
    # during the run: exit 1, and garbage never passes `raises:`
    command("crash", f"{FAKE} crash", FAILS),
    command("close-stdout", f"{FAKE} close-stdout", FAILS),
    command("hang", f"{FAKE} hang", FAILS, hangs=True),
    command("garbage", f"{FAKE} garbage", FAILS),
    command("not-utf8", f"{FAKE} not-utf8", FAILS),
    command("wrong-id", f"{FAKE} wrong-id", FAILS),
    command("deep-mid-run", f"{FAKE} deep", FAILS),
    command("huge", f"{FAKE} huge", FAILS),
    command("nan-mid-run", f"{FAKE} nan", FAILS, verdicts=("fail",)),
    command("error-type-list", f"{FAKE} error-type-list", FAILS),
    command("exit-after-answer", f"{FAKE} exit-after-answer", FAILS, verdicts=("error", "fail")),
    callable_("unprintable-mid-run", "unprintable", FAILS),
    callable_("deeply-nested", "deeply_nested", FAILS),
    callable_("huge-list", "huge_list", FAILS),
    # their own exception types, not the ZeroDivisionError a case expects (one rule for
    # every subject, issue 41.2): a failure, with the type they raised
    callable_("raises-unspeakable", "raises_unspeakable", FAILS, verdicts=("fail",)),
    callable_("raises-base-exception", "raises_base_exception", FAILS, verdicts=("fail",)),
    callable_("system-exit", "exits", FAILS),
    callable_("prints-and-closes-stdout", "prints_and_closes_stdout", FAILS,
              verdicts=("pass", "fail")),  # its second write raises OSError: its own
    callable_("setsid-child", "spawns_a_setsid_child", FAILS, verdicts=("fail",)),
    callable_("escapee", "spawns_an_escapee", FAILS, verdicts=("fail",)),
    callable_("setsid-child-and-hang", "spawns_and_hangs", FAILS, hangs=True),
]


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    """A case that answers 1.0 and one that raises under NLTK's convention (neither is
    the startup request, so the fake programs misbehave on both)."""
    folder = tmp_path_factory.mktemp("fuzz")
    return str(case_file(folder, "fuzz.yaml",
                         one_case("value", hyp="a b c d e", refs="[a b c d e]")
                         + one_case("raises", RAISES, hyp="x y", refs="[a b]")))


#: One of each way to misbehave, for the quick tier (the rest are the exhaustive tier's):
#: not starting, a banner before the protocol, crashing, hanging, garbage, a huge answer,
#: and processes that escape into sessions of their own.
QUICK = frozenset({"exits", "banner", "crash", "hang", "garbage", "huge", "escapee",
                   "setsid-child-and-hang"})


@pytest.mark.parametrize("hostile", [h if h.name in QUICK else
                                     pytest.param(h, marks=exhaustive_only) for h in HOSTILE],
                         ids=[h.name for h in HOSTILE])
def test_a_hostile_implementation_never_hangs_crashes_or_passes(hostile, cases):
    marker = f"bleu-harness-fuzz-{hostile.name}-{time.monotonic_ns()}"
    spawn = "orphan" if len(hostile.name) % 2 else "child"  # both kinds of escape
    startup_timeout, timeout = hostile.timeouts
    try:
        done = cli("run", *hostile.flags, "--claims", "nltk", cases, "--backend", "own",
                   "--format", "json", "--startup-timeout", str(startup_timeout),
                   "--timeout", str(timeout), timeout=60,
                   env={"FAKE_SPAWN": f"{spawn}:{marker}", "FUZZ_MARKER": marker})
        assert "Traceback" not in done.out + done.err, done
        assert done.code in hostile.codes, done
        # the startup request, then at most two requests (one per case) a worker each
        assert done.seconds < startup_timeout + 2 * timeout + MARGIN, done
        if done.code == 2:
            assert hostile.says in done.err and done.err.count("\n") == 1, done
            assert not done.out
        else:
            lines = [json.loads(line) for line in done.out.splitlines()]
            assert lines[-1]["type"] == "footer" and lines[-1]["status"] == "complete"
            raises = [line["verdict"] for line in lines if line.get("case") == "raises"
                      and line.get("check") == "expectation"]
            assert raises and set(raises) <= hostile.raises_verdicts, raises
    finally:
        deadline = time.monotonic() + 2
        while marked(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = marked(marker)
        end(left)
    assert not left, f"{len(left)} process(es) outlived the run"
