"""What the tests build once and keep between sessions: under :data:`TEST_CACHE` (the
temporary directory's ``bleu-harness-tests-<uid>``, the divergence map's cache of the test
sessions beside it, tests/conftest.py), each thing in a folder named by the SHA-256 of what
it is built from, so that a changed source is built anew and the quick tier's build serves
the exhaustive tier after it."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

#: The test sessions' own cache, never the user's.
TEST_CACHE = Path(tempfile.gettempdir()) / f"bleu-harness-tests-{os.getuid()}"


def digest_of(paths: Iterable[Path], *words: str) -> str:
    """SHA-256 of ``words`` and of every file under ``paths`` (name and content)."""
    digest = hashlib.sha256("\0".join(words).encode())
    for root in paths:
        for path in sorted(p for p in ([root] if root.is_file() else root.rglob("*"))
                           if p.is_file()):
            digest.update(str(path).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:24]


def kept_build(name: str, digest: str, build: Callable[[Path], Path]) -> Path:
    """The file ``build(folder)`` makes in an empty folder, built once per ``digest``: kept
    as ``TEST_CACHE/name/digest/<file>``, moved into place whole (sessions at the same time
    build it twice at worst, never read half of it)."""
    home = TEST_CACHE / name / digest
    if home.is_dir():
        found = [p for p in home.iterdir() if p.is_file()]
        if len(found) == 1:
            return found[0]
    (TEST_CACHE / name).mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{digest}.", dir=TEST_CACHE / name))
    try:
        (work / "build").mkdir()
        made = build(work / "build")
        (work / "kept").mkdir()
        shutil.move(str(made), work / "kept" / made.name)
        try:
            os.replace(work / "kept", home)
        except OSError:  # another session put it there first
            pass
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return next(p for p in home.iterdir() if p.is_file())
