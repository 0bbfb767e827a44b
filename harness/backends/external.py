"""The implementation under test, run as a separate process that speaks JSON lines.

Request (one line on its stdin): ``{"hypotheses": [...], "references": [[...], ...],
"level": "corpus", "options": {...}}``. Answer (one line on its stdout): ``{"score": x}`` or
``{"error": "...", "type": "ExceptionName"}``. Anything else is garbage (``invalid``); no
answer within the timeout is ``timeout`` (the process is killed and restarted); a process
that exits is a ``raised`` outcome of type ``crash`` (and is restarted for the next request).

``--implementation MODULE:CALLABLE`` runs through the same protocol (``harness.worker``), so
a Python callable that hangs or crashes the interpreter is isolated in the same way.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import subprocess
import sys
import threading


from harness.backends.base import (INVALID, RAISED, TIMEOUT, BackendInfo, Outcome,
                                   ScoreRequest, declined)

DEFAULT_TIMEOUT = 10.0


class ExternalBackend:
    def __init__(self, command: list[str] | str, claims: str, name: str,
                 timeout: float = DEFAULT_TIMEOUT, env: dict[str, str] | None = None) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.claims = claims
        self.name = name
        self.timeout = timeout
        self.env = env
        self._process: subprocess.Popen | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: list[str] = []

    @classmethod
    def for_callable(cls, target: str, claims: str, timeout: float = DEFAULT_TIMEOUT):
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [os.getcwd()] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        return cls([sys.executable, "-m", "harness.worker", target], claims, target, timeout, env)

    def info(self) -> BackendInfo:
        return BackendInfo(self.name, "under test", (self.claims,), "under-test")

    def score(self, request: ScoreRequest) -> Outcome:
        refused = declined(request, "an implementation under test", None)
        if refused:
            return refused
        message = json.dumps({"hypotheses": list(request.hypotheses),
                              "references": [list(r) for r in request.references],
                              "level": request.level, "options": dict(request.options)})
        try:
            process = self._ensure_started()
            process.stdin.write(message + "\n")
            process.stdin.flush()
        except (OSError, ValueError) as error:
            self._stop()
            return Outcome(RAISED, error_type="crash", message=f"cannot start or write: {error}")
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._stop()
            return Outcome(TIMEOUT, message=f"no answer within {self.timeout:g} s")
        if line is None:
            code = process.wait()
            tail = " | ".join(self._stderr[-3:])
            self._stop()
            return Outcome(RAISED, error_type="crash",
                           message=f"process exited with code {code}: {tail}"[:500])
        return parse_answer(line)

    def _ensure_started(self) -> subprocess.Popen:
        if self._process is None or self._process.poll() is not None:
            self._lines = queue.Queue()
            self._stderr = []
            self._process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, encoding="utf-8", env=self.env, bufsize=1)
            threading.Thread(target=_pump, args=(self._process.stdout, self._lines),
                             daemon=True).start()
            threading.Thread(target=_collect, args=(self._process.stderr, self._stderr),
                             daemon=True).start()
        return self._process

    def _stop(self) -> None:
        if self._process is not None:
            if self._process.poll() is None:
                self._process.kill()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            for stream in (self._process.stdin, self._process.stdout, self._process.stderr):
                try:
                    stream.close()
                except OSError:
                    pass
            self._process = None

    def close(self) -> None:
        self._stop()


def _pump(stream, lines: queue.Queue) -> None:
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


def _collect(stream, sink: list[str]) -> None:
    try:
        for line in stream:
            sink.append(line.rstrip())
            del sink[:-20]
    except (OSError, ValueError):
        pass


def parse_answer(line: str) -> Outcome:
    try:
        answer = json.loads(line)
    except json.JSONDecodeError:
        return Outcome(INVALID, message=f"not JSON: {line.strip()[:80]!r}")
    if not isinstance(answer, dict):
        return Outcome(INVALID, message=f"not a JSON object: {line.strip()[:80]!r}")
    if "error" in answer:
        return Outcome(RAISED, error_type=str(answer.get("type") or "error"),
                       message=str(answer["error"])[:500])
    if "score" in answer:
        return Outcome.of_value(answer["score"])
    return Outcome(INVALID, message=f"neither 'score' nor 'error': {line.strip()[:80]!r}")
