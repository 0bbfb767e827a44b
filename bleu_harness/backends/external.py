"""The implementation under test: a Python callable (``--implementation MODULE:CALLABLE``,
run by ``python -m bleu_harness.worker call``) or any program (``--implementation-cmd``),
both behind the worker protocol (:mod:`bleu_harness.protocol`; the README's "Your
implementation under test" shows an exchange).
"""

from __future__ import annotations

import os
import shlex
import sys

from bleu_harness.backends.base import UNDER_TEST, Backend
from bleu_harness.errors import UsageError
from bleu_harness.protocol import CALLABLE, USER


def callable_backend(target: str, claims: str) -> Backend:
    if ":" not in target or target.startswith(":") or target.endswith(":"):
        raise UsageError(f"--implementation {target!r}: expected MODULE:CALLABLE, e.g. "
                         "mypkg.bleu:score")
    return Backend(name=target, role=UNDER_TEST, conventions=(claims,),
                   command=(sys.executable, "-m", "bleu_harness.worker", "call", target),
                   protocol=CALLABLE, cwd=os.getcwd())


def command_backend(command: str, claims: str) -> Backend:
    try:
        argv = tuple(shlex.split(command))
    except ValueError as error:
        raise UsageError(f"--implementation-cmd {command!r}: {error} (quote it as a shell "
                         "would)") from None
    if not argv:
        raise UsageError("--implementation-cmd: the command is empty")
    return Backend(name=command, role=UNDER_TEST, conventions=(claims,), command=argv,
                   protocol=USER, cwd=os.getcwd())
