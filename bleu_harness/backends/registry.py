"""Which backends exist, and building the ones a command names: the reference backends
(``--backend``, ``--library-python``) and the implementation under test
(``--implementation`` / ``--implementation-cmd``, ``--claims``).

``run``, ``explain`` and ``fingerprint`` all build their backends here, so a mistake in these
flags gets one message whichever command it is given to (``tests/test_registry.py``).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping, Sequence

from bleu_harness.backends.base import FAILED, NOT_INSTALLED, Backend, BackendInfo
from bleu_harness.backends.external import callable_backend, command_backend
from bleu_harness.backends.fairseq import fairseq_backend
from bleu_harness.backends.libraries import nltk_backend, sacrebleu_backend
from bleu_harness.backends.optional import (
    bleuscore_backend,
    compare_mt_backend,
    fast_bleu_backend,
    ignite_backend,
    pycocoevalcap_backend,
    torchmetrics_backend,
)
from bleu_harness.backends.own import engine_backend
from bleu_harness.backends.perl import mteval_perl_backend, multi_bleu_perl_backend
from bleu_harness.bleu import CONVENTIONS
from bleu_harness.bleu.conventions import unknown_convention
from bleu_harness.bleu.options import closest
from bleu_harness.errors import StartupError, UsageError
from bleu_harness.protocol import CALLABLE

__all__ = ["EXTRA_LIBRARIES", "REFERENCE_BACKENDS", "engine_backend", "implementation_under_test",
           "reference_backends", "require_asked_libraries", "require_started"]

#: The reference backends, by name: the engine, the live libraries, the optional ones. Each
#: builder takes the Python interpreter its worker runs on (the libraries' only).
REFERENCE_BACKENDS: dict[str, Callable[..., Backend]] = {
    "own": lambda python=None: engine_backend(),
    "nltk": nltk_backend, "sacrebleu": sacrebleu_backend,
    "torchmetrics": torchmetrics_backend, "fast-bleu": fast_bleu_backend,
    "bleuscore": bleuscore_backend, "compare-mt": compare_mt_backend,
    "pycocoevalcap": pycocoevalcap_backend, "ignite": ignite_backend,
    "fairseq": fairseq_backend,
    "multi-bleu-perl": multi_bleu_perl_backend, "mteval-perl": mteval_perl_backend,
}
#: Reference backends a run starts only when asked for by name (a process per request).
ON_REQUEST = ("multi-bleu-perl", "mteval-perl")
#: Libraries checked differentially only, beside a convention's primary library.
EXTRA_LIBRARIES = ("fast-bleu", "bleuscore")

#: What each mistake in the implementation-under-test flags is told.
EXACTLY_ONE = ("give exactly one of --implementation MODULE:CALLABLE or --implementation-cmd "
               "COMMAND")
CLAIMS_REQUIRED = "--claims CONVENTION is required with an implementation under test"
CLAIMS_ALONE = "--claims needs --implementation or --implementation-cmd"


def check_backend_names(wanted: Sequence[str], flag: str = "--backend") -> None:
    """A ``UsageError`` for the first name in ``wanted`` that is no reference backend: the
    one probably meant and the known ones."""
    unknown = [b for b in wanted if b not in REFERENCE_BACKENDS]
    if unknown:
        close = closest(unknown[0], REFERENCE_BACKENDS)
        meant = f"did you mean {close!r}? " if close else ""
        raise UsageError(f"{flag} {unknown[0]!r}: unknown ({meant}known: "
                         f"{', '.join(REFERENCE_BACKENDS)})")


def reference_backends(wanted: Sequence[str], library_python: Mapping[str, str]) -> list[Backend]:
    """The reference backends ``--backend`` names (if none, all of them but those started
    only on request, :data:`ON_REQUEST`), each library on the interpreter
    ``--library-python`` gives it."""
    check_backend_names(wanted)
    unknown = [name for name in library_python if name not in REFERENCE_BACKENDS or name == "own"]
    if unknown:
        raise UsageError(f"--library-python {unknown[0]}=...: not a library backend (known: "
                         f"{', '.join(n for n in REFERENCE_BACKENDS if n != 'own')})")
    for name, python in library_python.items():
        if shutil.which(python) is None:
            raise UsageError(f"--library-python {name}={python}: no such program (give the "
                             "path of a Python interpreter with the library installed)")
    chosen = []
    for name in (wanted or [n for n in REFERENCE_BACKENDS if n not in ON_REQUEST]):
        python = library_python.get(name)
        chosen.append(REFERENCE_BACKENDS[name](python) if python else REFERENCE_BACKENDS[name]())
    return chosen


def implementation_under_test(implementation: str | None, implementation_cmd: str | None,
                              claims: str | None, *, claiming: bool = True,
                              required: bool = False) -> Backend | None:
    """The implementation under test that ``--implementation MODULE:CALLABLE`` or
    ``--implementation-cmd COMMAND`` names, or ``None`` where neither is given (and
    ``required`` is false: the engine is then under test).

    ``claiming``: the command checks it on the convention ``--claims`` names, which must be
    one of the engine's (``run``, ``explain``); ``fingerprint`` takes no claim, it finds one.
    """
    if implementation and implementation_cmd:
        raise UsageError(EXACTLY_ONE)
    if not implementation and not implementation_cmd:
        if required:
            raise UsageError(EXACTLY_ONE)
        if claims:
            raise UsageError(CLAIMS_ALONE)
        return None
    if claiming and not claims:
        raise UsageError(CLAIMS_REQUIRED)
    if claiming and claims not in CONVENTIONS:
        raise UsageError(f"--claims: {unknown_convention(claims)}")
    if implementation:
        return callable_backend(implementation, claims or "")
    return command_backend(implementation_cmd, claims or "")


def require_started(backend: Backend, info: BackendInfo) -> None:
    """An implementation under test that did not start stops the command (exit 2), naming
    the flag that gave it and why (the start-up handshake's note)."""
    if not info.ready:
        flag = "--implementation" if backend.protocol == CALLABLE else "--implementation-cmd"
        raise StartupError(f"{flag} {backend.name}: {info.note}")


def require_asked_libraries(infos: Sequence[BackendInfo],
                            library_python: Mapping[str, str]) -> None:
    """A library the user pointed at an interpreter (``--library-python``) must start: one
    that is not installed there or does not start stops the run (exit 2), rather than
    being left out of a run that then passes."""
    for info in infos:
        if info.name in library_python and info.status in (NOT_INSTALLED, FAILED):
            raise StartupError(f"--library-python {info.name}={library_python[info.name]}: "
                               f"{info.note or info.status}")
