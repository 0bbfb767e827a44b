"""What a backend is: a worker process that speaks the worker protocol
(:mod:`bleu_harness.protocol`), and what the harness knows about it before and after it
answers.

Every implementation -- the engine, each reference library, the implementation under test --
runs as its own worker process (``bleu_harness.execute`` starts, times and restarts them), so a
library that hangs, crashes or prints garbage costs one request, never the run. A backend
never sees expected values.

``decline`` answers ``unsupported`` before a request is sent, where the backend is known not
to implement the convention (fast-bleu has no corpus level); ``settle`` turns an answer that
is a known difference of kind into ``unsupported`` (fast-bleu's method0 underflows to 0.0
where NLTK keeps a tiny float). Both cite their reason.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from bleu_harness.protocol import HARNESS
from bleu_harness.records import BackendOutcome, BackendRequest, HarnessError, Unsupported

ENGINE, LIBRARY, UNDER_TEST = "engine", "library", "under-test"
READY, NOT_INSTALLED, UNSUPPORTED_VERSION, FAILED = (
    "ready", "not installed", "unsupported version", "failed to start")
ADAPTER = Path(__file__).resolve().parents[1] / "adapters" / "library_worker.py"


def not_installed(name: str) -> str:
    """The note of a library whose package is simply missing (the run header lists those on
    one line; a backend not installed for a reason of its own says that reason)."""
    return f"{name} is not installed"


@dataclass(frozen=True)
class BackendInfo:
    """A backend as a run knows it after starting it: name, exact version, status."""

    name: str
    version: str
    conventions: tuple[str, ...]
    role: str
    tolerance: float = 0.0
    python: str = ""
    status: str = READY
    note: str = ""  # why it is not ready

    @property
    def ready(self) -> bool:
        return self.status == READY

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "version": self.version,
                                "conventions": list(self.conventions), "role": self.role,
                                "status": self.status}
        for key in ("tolerance", "python", "note"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BackendInfo:
        return cls(data["name"], data.get("version") or "", tuple(data.get("conventions", ())),
                   data.get("role", ""), float(data.get("tolerance", 0.0)),
                   data.get("python", ""), data.get("status", READY), data.get("note", ""))


def no_decline(request: BackendRequest) -> str:
    return ""


def as_answered(request: BackendRequest, outcome: BackendOutcome) -> BackendOutcome:
    return outcome


@dataclass(frozen=True)
class Backend:
    """How to run one implementation, and what is known about it in advance.

    ``supported`` is the PEP 440 range of library releases this backend can drive; outside
    it every request is ``unsupported`` with that reason, said once in the run header.
    """

    name: str
    role: str
    conventions: tuple[str, ...]
    command: tuple[str, ...]
    #: Its dialect of the worker protocol (``bleu_harness.protocol``: HARNESS, CALLABLE, USER).
    protocol: str = HARNESS
    tolerance: float = 0.0
    supported: str = ""
    env: Mapping[str, str] | None = None
    cwd: str | None = None
    decline: Callable[[BackendRequest], str] = no_decline
    settle: Callable[[BackendRequest, BackendOutcome], BackendOutcome] = as_answered
    #: Whether the worker answers ``figures`` beside the score (the engine; pycocoevalcap's
    #: library worker its BLEU-1..n list as ``cumulative.k``).
    reports_figures: bool = False
    #: The library's import name, to tell "not installed" without starting a worker.
    module: str = ""
    #: The interpreter the worker runs on (the harness's own unless ``--library-python``).
    python: str = field(default=sys.executable)

    def unsupported_version(self, version: str) -> str:
        """Why this backend cannot drive ``version`` of its library ('' if it can)."""
        if not self.supported or not version:
            return ""
        try:
            if Version(version) in SpecifierSet(self.supported):
                return ""
        except (InvalidVersion, InvalidSpecifier):
            return ""
        return (f"{self.name} {version} is outside what the {self.name} backend drives "
                f"({self.supported})")

    def declined(self, request: BackendRequest) -> BackendOutcome | None:
        """``Unsupported`` with the reason where the backend declines ``request``. A decline
        check that fails on an input nobody foresaw is this request's ``internal`` error,
        never the end of the run (the other requests, and files, still run)."""
        try:
            reason = self.decline(request)
        except Exception as error:  # noqa: BLE001 -- any failure: one request's outcome
            return HarnessError("internal", f"{self.name}'s check of the request failed: "
                                            f"{type(error).__name__}: {error}")
        return Unsupported(reason) if reason else None


def library_worker_command(library: str, python: str = sys.executable) -> tuple[str, ...]:
    """The stand-alone adapter for ``library`` (``bleu_harness/adapters/library_worker.py``)."""
    return (python, str(ADAPTER), library)
