"""Load case files: one safe YAML parse with line numbers, JSON Schema validation, frozen
cases out.

A file that cannot be read or parsed yields one problem and no case; a case that fails the
schema yields its problems and is left out; every other case of every file still loads.
Case files come from pull requests, so nothing in one may make the harness hang, crash or
read outside its corpus (``bleu_harness.cases.yamlsafe``, :func:`data_file`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from bleu_harness.cases.markers import CASE_SUFFIXES, ROOT_MARKER
from bleu_harness.cases.model import Case, Expectation, Problem, Provenance, Segment
from bleu_harness.cases.yamlsafe import YamlProblem, compose_safely, construct
from bleu_harness.compare import is_full_repr
from bleu_harness.errors import InputError
from bleu_harness.schema.validation import Validator
from bleu_harness.text import clean_text

if TYPE_CHECKING:
    import jsonschema
from bleu_harness.textfiles import (
    CASE_DATA_LIMIT,
    check_regular_file,
    decode_utf8,
    is_sgml,
    outside_message,
    read_parallel,
    read_regular_file,
    within,
)

#: A case file is read only if it is a regular file of at most this size.
CASE_FILE_LIMIT = 8 * 2**20
#: Data files (``files:``) bound the memory a load takes by their segments, not their bytes
#: (8 MiB of newlines are 8 million empty segments): at most this many in one file, and in
#: all the distinct files one load reads.
MAX_FILE_SEGMENTS = 100_000
MAX_DATA_SEGMENTS = 1_000_000
#: The schema problems shown for one file (20,000 wrong tags are 20,000 problems: the first
#: few and a count say enough).
MAX_PROBLEMS_PER_FILE = 5


@dataclass(frozen=True)
class LoadResult:
    cases: tuple[Case, ...]
    problems: tuple[Problem, ...]
    files: tuple[Path, ...]
    digests: tuple[str, ...] = ()  # sha256 of each file's bytes, as read

    @property
    def corpus_hash(self) -> str:
        """sha256 over the case files' names and contents, in order."""
        digest = hashlib.sha256()
        for path, content in zip(self.files, self.digests):
            digest.update(os.fsencode(path.name))
            digest.update(content.encode("ascii"))
        return digest.hexdigest()


@lru_cache(maxsize=1)
def case_schema() -> dict[str, Any]:
    text = resources.files("bleu_harness.schema").joinpath("case-file.schema.json").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def case_validator() -> Validator:
    return Validator(case_schema())


@lru_cache(maxsize=1)
def tag_vocabulary() -> frozenset[str]:
    text = resources.files("bleu_harness.schema").joinpath("tags.yaml").read_text("utf-8")
    return frozenset(yaml.safe_load(text))


def bundled_corpus() -> Path:
    """The case corpus shipped in the package (``cases/`` in the source tree)."""
    return Path(str(resources.files("bleu_harness.corpus")))


def corpus_root(case_file: Path, given: Path) -> Path:
    """The nearest directory at or above ``case_file`` that holds :data:`ROOT_MARKER`
    (stopping at a repository's top, the directory with ``.git``); else the directory the
    user named (``given``), or the case file's own directory."""
    start = _resolved(case_file).parent
    for directory in (start, *start.parents):
        if (directory / ROOT_MARKER).is_file():
            return directory
        if (directory / ".git").exists():
            break
    given = _resolved(given)
    return given if given.is_dir() else start


def find_case_files(paths: Sequence[str | Path]) -> tuple[list[tuple[Path, Path]], list[Problem]]:
    """(case file, its corpus root) for every file named or found below a named directory.
    Below a directory, only regular files inside it count (a symlink out of it does not)."""
    files: list[tuple[Path, Path]] = []
    problems: list[Problem] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for found in sorted(p for p in path.rglob("*") if p.suffix in CASE_SUFFIXES
                                and not passed_over(p, path)):
                entry = found_below(found, path)
                (problems if isinstance(entry, Problem) else files).append(entry)
        elif os.path.lexists(path):  # named: read as it is (the reader says if it cannot)
            files.append((path, corpus_root(path, path)))
        else:
            problems.append(Problem(str(path), 0, "", "no such file or directory"))
    return files, problems


#: Directories a walk below a named directory does not enter, as pytest's ``norecursedirs``
#: does not: virtual environments and tool caches hold other projects' YAML (a new user's
#: ``bleu-harness run .`` read the installed corpus and ``markdown_it``'s YAML from .venv).
PASSED_OVER = frozenset({"node_modules", "site-packages", "__pycache__", "venv", "build",
                         "dist"})


def passed_over(found: Path, below: Path) -> bool:
    """Whether ``found`` lies in a hidden directory (``.venv``, ``.git``, ``.tox``) or one
    of :data:`PASSED_OVER` below ``below``."""
    parts = found.relative_to(below).parts[:-1]
    return any(part.startswith(".") or part in PASSED_OVER for part in parts)


def found_below(found: Path, below: Path) -> tuple[Path, Path] | Problem:
    """A ``*.yaml`` found below the directory ``below`` (named by the user, or walked by
    pytest): (the file, its corpus root) if it is a regular file inside ``below`` once links
    are followed; else the problem -- a FIFO, a socket or a directory named ``*.yaml`` is
    reported, never skipped."""
    if not found.is_file():
        return Problem(str(found), 0, "", "not a regular file")
    if not _within(_resolved(found), _resolved(below)):
        return Problem(str(found), 0, "", f"a link out of {below}")
    return found, corpus_root(found, below)


def _within(path: Path, directory: Path) -> bool:
    return path == directory or directory in path.parents


def _resolved(path: Path) -> Path:
    """``path`` with its links followed as far as they lead (``Path.resolve`` raises
    RuntimeError on a link loop before Python 3.13)."""
    return Path(os.path.realpath(path))


@dataclass
class DataFiles:
    """The data files (``files:``) of one load: each read once, inside its case file's corpus
    root (:func:`read_regular_file`), and its segments shared by every case that names the
    same files; at most :data:`MAX_FILE_SEGMENTS` segments a file and
    :data:`MAX_DATA_SEGMENTS` in all."""

    texts: dict[tuple[str, str], str] = field(default_factory=dict)
    segments: dict[tuple[str, ...], tuple[Segment, ...]] = field(default_factory=dict)
    total: int = 0

    def segments_of(self, spec: dict[str, Any], file: str, root: Path) -> tuple[Segment, ...]:
        hyp = data_file(file, spec["hypotheses"], root)
        refs = [data_file(file, r, root) for r in spec["references"]]
        remove = spec.get("remove_from_references") or ""
        key = (str(root), remove, *(os.path.realpath(p) for p in [hyp, *refs]))
        if key not in self.segments:
            hyps, columns = read_parallel(hyp, refs, read=lambda path: self.text(path, root))
            if remove:
                columns = [[r.replace(remove, "") for r in rs] for rs in columns]
            self.segments[key] = tuple(Segment(h, tuple(rs)) for h, rs in zip(hyps, columns))
        return self.segments[key]

    def text(self, path: str, root: Path) -> str:
        key = (str(root), os.path.realpath(path))
        if key not in self.texts:
            text = decode_utf8(read_regular_file(path, CASE_DATA_LIMIT, inside=root), path)
            count = _segment_count(text, is_sgml(path))
            if count > MAX_FILE_SEGMENTS:
                raise InputError(f"{path}: more than {MAX_FILE_SEGMENTS:,} segments (the limit "
                                 "on one data file)")
            if self.total + count > MAX_DATA_SEGMENTS:
                raise InputError(f"{path}: the data files of these case files hold more than "
                                 f"{MAX_DATA_SEGMENTS:,} segments (the limit on one run)")
            self.total += count
            self.texts[key] = text
        return self.texts[key]


def _segment_count(text: str, sgml: bool) -> int:
    """How many segments ``text`` holds at most (before it is split into them)."""
    if sgml:
        return text.lower().count("<seg")
    return text.count("\n") + (not text.endswith("\n"))


def load(paths: Sequence[str | Path] | None = None,
         mentioning: Collection[str] = ()) -> LoadResult:
    """Every case under ``paths`` (files or directories; default: the bundled corpus). With
    ``mentioning`` (case ids, say), only the files whose text holds one of those words are
    parsed: a command that needs a few cases of the corpus reads the rest's bytes alone."""
    found, problems = find_case_files(paths or [bundled_corpus()])
    if mentioning:
        found = [(path, root) for path, root in found if _mentions(path, mentioning)]
    cases: list[Case] = []
    digests: list[str] = []
    data = DataFiles()
    for path, root in found:
        file_cases, file_problems, digest, _ = _load(path, root, data)
        cases.extend(file_cases)
        problems.extend(file_problems)
        digests.append(digest)
    return LoadResult(tuple(cases), tuple(problems), tuple(p for p, _ in found), tuple(digests))


def _mentions(path: Path, words: Collection[str]) -> bool:
    """Whether the case file's text holds one of ``words`` (a file that cannot be read is
    loaded, to report why)."""
    try:
        content = read_regular_file(path, CASE_FILE_LIMIT)
    except InputError:
        return True
    return any(word.encode("utf-8") in content for word in words)


def load_file(path: Path, root: Path | None = None) -> tuple[list[Case], list[Problem]]:
    cases, problems, _, _ = _load(path, root or corpus_root(path, path), DataFiles())
    return cases, problems


@dataclass(frozen=True)
class FileLoad:
    """One case file as the loader read it: its cases, its problems and its text (``''``
    when it was not read)."""

    cases: tuple[Case, ...]
    problems: tuple[Problem, ...]
    text: str = ""


def load_found(found: Path, below: Path) -> FileLoad:
    """A case file found below the directory ``below``, checked and read exactly as
    :func:`load` checks and reads what it finds below a named directory (the pytest
    plugin's loader: the same checks, the same problems, the file read once)."""
    entry = found_below(found, below)
    if isinstance(entry, Problem):
        return FileLoad((), (entry,))
    cases, problems, _, text = _load(*entry, DataFiles())
    return FileLoad(tuple(cases), tuple(problems), text)


def _load(path: Path, root: Path,
          data: DataFiles) -> tuple[list[Case], list[Problem], str, str]:
    """(cases, problems, sha256 of the bytes, text) of one case file."""
    name = str(path)
    try:
        content = read_regular_file(path, CASE_FILE_LIMIT)
    except InputError as error:
        return [], [Problem(name, 0, "", _after_path(str(error), name), 1)], "", ""
    digest = hashlib.sha256(content).hexdigest()
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as error:
        return [], [Problem(name, 1, "", f"not UTF-8 ({error.reason} at byte {error.start})",
                            1)], digest, ""
    parsed = _parsed(digest, text)
    if isinstance(parsed, YamlProblem):
        return [], [Problem(name, parsed.line, "", str(parsed), 1)], digest, text
    if not parsed.self_contained:
        return (*_cases(parsed, name, root, data), digest, text)
    key = (digest, name, str(root))
    built = _BUILT.get(key)
    if built is None:
        cases, problems = _cases(parsed, name, root, data)
        if len(_BUILT) >= _PARSED_LIMIT:
            _BUILT.clear()
        built = _BUILT[key] = (tuple(cases), tuple(problems))
    return list(built[0]), list(built[1]), digest, text


@dataclass(frozen=True)
class _Parsed:
    """A case file's text parsed and held to the schema: its node tree (for line numbers),
    its data, and each schema error as (path, message)."""

    root_node: yaml.Node | None
    document: Any
    errors: tuple[tuple[tuple[Any, ...], str], ...]
    #: whether its cases are made of its text alone: no ``files:``, no ``spm_model`` (what
    #: those name is read, and checked, on every load)
    self_contained: bool = False


#: The texts parsed in this process, by the SHA-256 of their bytes: a file read again
#: unchanged (every command of a session reads the bundled corpus) is not parsed and
#: validated again. Nothing downstream changes the parsed data.
_PARSED: dict[str, _Parsed | YamlProblem] = {}
_PARSED_LIMIT = 512
#: The cases and problems of a self-contained file (:attr:`_Parsed.self_contained`), by its
#: digest, its name and its corpus root: built once per process, as a file is parsed once.
#: Cases are frozen; nothing downstream changes them.
_BUILT: dict[tuple[str, str, str], tuple[tuple[Case, ...], tuple[Problem, ...]]] = {}


def _self_contained(document: Any) -> bool:
    """Whether no case of ``document`` names a file: ``files:`` or an ``spm_model`` (any
    shape the schema rejects counts as naming one: such a file is built on every load)."""
    cases = document.get("cases") if isinstance(document, dict) else None
    for case in cases if isinstance(cases, list) else ():
        expect = case.get("expect") if isinstance(case, dict) else None
        if not isinstance(expect, list) or "files" in case:
            return False
        for item in expect:
            options = item.get("options") if isinstance(item, dict) else None
            if not isinstance(options, (dict, type(None))) or "spm_model" in (options or {}):
                return False
    return True


def _parsed(digest: str, text: str) -> _Parsed | YamlProblem:
    known = _PARSED.get(digest)
    if known is None:
        try:
            root_node = compose_safely(text)
            document = construct(root_node) if root_node is not None else None
            validator = case_validator()
            known = _Parsed(root_node, document, tuple(
                (tuple(where), message) for where, message in _schema_errors(validator,
                                                                             document)),
                _self_contained(document))
        except YamlProblem as problem:
            known = problem
        if len(_PARSED) >= _PARSED_LIMIT:
            _PARSED.clear()
        _PARSED[digest] = known
    return known


def _after_path(message: str, path: str) -> str:
    return message[len(path) + 2:] if message.startswith(path + ": ") else message


def _cases(parsed: _Parsed, name: str, root: Path,
           data: DataFiles) -> tuple[list[Case], list[Problem]]:
    document, root_node = parsed.document, parsed.root_node
    problems: list[Problem] = []
    broken_cases: set[int] = set()
    broken_file = False
    for where, message in parsed.errors:
        index = where[1] if len(where) >= 2 and where[0] == "cases" else None
        if index is not None:
            broken_cases.add(index)
        else:  # the file itself (no schema: 1, an unknown key): none of its cases is trusted
            broken_file = True
        line = _line(root_node, where)
        problems.append(Problem(name, line, _case_id(document, index), message,
                                _line(root_node, ["cases", index]) if index is not None else 1))
    problems = _at_most(problems, MAX_PROBLEMS_PER_FILE)
    if broken_file or not isinstance(document, dict) or not isinstance(
            document.get("cases"), list):
        if not problems:
            problems.append(Problem(name, 1, "", "not a case file (no 'cases' list)", 1))
        return [], problems
    cases = []
    for index, raw in enumerate(document["cases"]):
        if index in broken_cases:
            continue
        try:
            cases.append(_build_case(raw, name, root_node, index, root, data))
        except CaseInputError as error:
            problems.append(Problem(name, _line(root_node, error.where),
                                    _case_id(document, index), str(error),
                                    _line(root_node, ["cases", index])))
        except InputError as error:  # a case's data files: that case is lost, not the rest
            problems.append(Problem(name, _line(root_node, ["cases", index, "files"]),
                                    _case_id(document, index), str(error),
                                    _line(root_node, ["cases", index])))
    return cases, problems


def _schema_errors(validator: Validator,
                   document: Any) -> Iterable[tuple[list[Any], str]]:
    """(path, message) of each schema error, then of each tag a case gives twice (checked
    here in linear time: jsonschema's ``uniqueItems`` compares every pair of a list that
    mixes types, minutes for 20,000 tags)."""
    for error in validator.iter_errors(document):
        yield list(error.absolute_path), _message(error)
    cases = document.get("cases") if isinstance(document, dict) else None
    for index, case in enumerate(cases if isinstance(cases, list) else ()):
        tags = case.get("tags") if isinstance(case, dict) else None
        seen: set[str] = set()
        for position, tag in enumerate(tags if isinstance(tags, list) else ()):
            if isinstance(tag, str) and tag in seen:
                yield (["cases", index, "tags", position],
                       f"cases/{index}/tags/{position}: the tag {clean_text(tag, 80)!r} "
                       "appears twice")
                break
            seen.add(tag if isinstance(tag, str) else "")


def _at_most(problems: list[Problem], limit: int) -> list[Problem]:
    """The first ``limit`` problems of a file, and one line for the rest."""
    if len(problems) <= limit:
        return problems
    rest = problems[limit:]
    return [*problems[:limit], Problem(rest[0].file, rest[0].line, "",
                                       f"and {len(rest):,} more schema problems in this file "
                                       f"(only the first {limit} are shown)", 1)]


def _message(error: jsonschema.ValidationError) -> str:
    where = "/".join(str(p) for p in error.absolute_path)
    prefix = f"{where}: " if where else ""
    if error.absolute_path and error.absolute_path[-1] in ("compare", "tolerance"):
        return (f"{prefix}compare is 'exact', 'printed' or {{tolerance: x}} with "
                f"0 < x <= 100; got {clean_text(repr(error.instance), 80)}")
    if error.validator == "oneOf" and "segments" in str(error.validator_value):
        return f"{prefix}a case needs exactly one of 'segments' or 'files'"
    if error.validator == "oneOf" and error.validator_value and "required" in str(
            error.validator_value):
        return f"{prefix}an expectation needs exactly one of 'value' or 'raises'"
    if error.validator == "type" and error.validator_value == "string" and isinstance(
            error.instance, (int, float)):
        return (f"{prefix}write the value as a quoted string, as its source printed it "
                f"(got the number {clean_text(repr(error.instance), 80)})")
    return prefix + clean_text(error.message, 300)


def _case_id(document: Any, index: int | None) -> str:
    try:
        return clean_text(document["cases"][index]["id"], 120)
    except (TypeError, KeyError, IndexError):
        return f"cases[{index}]" if index is not None else ""


def _node_at(node: yaml.Node | None, path: Iterable[Any]) -> yaml.Node | None:
    for key in path:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == key), node)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            break
    return node


def _line(root: yaml.Node | None, path: Sequence[Any]) -> int:
    node = _node_at(root, path)
    return node.start_mark.line + 1 if node is not None else 1


def _end_line(root: yaml.Node, index: int) -> int:
    """The last line of case ``index`` (a node's end mark is where the next one begins)."""
    node = _node_at(root, ["cases", index])
    mark = node.end_mark
    return mark.line if mark.column == 0 else mark.line + 1


class CaseInputError(InputError):
    """A file a case names outside ``files:``, at ``where`` (a path into the document)."""

    def __init__(self, where: list[Any], message: str) -> None:
        super().__init__(message)
        self.where = where


def _build_case(raw: dict[str, Any], file: str, root_node: yaml.Node, index: int,
                root: Path, data: DataFiles) -> Case:
    expectations = []
    for position, item in enumerate(raw["expect"]):
        where = ["cases", index, "expect", position, "options", "spm_model"]
        compare = item.get("compare", _default_compare(item))
        if isinstance(compare, dict):
            compare = float(compare["tolerance"])
        expectations.append(Expectation(
            convention=item["convention"],
            options=_model_inside(_tuples(item.get("options") or {}), file, root, where),
            provenance=Provenance(**item["provenance"]),
            value=item.get("value"),
            raises=item.get("raises"),
            compare=compare,
            versions=item.get("versions") or {},
            note=item.get("note", ""),
            line=_line(root_node, ["cases", index, "expect", position]),
            figure=item.get("figure", "score"),
        ))
    return Case(
        id=raw["id"], description=raw["description"], tags=tuple(raw["tags"]),
        level=raw["level"],
        segments=_segments(raw, file, root, data),
        expectations=tuple(expectations), file=file,
        line=_line(root_node, ["cases", index]), tokenizer=case_tokenizer(raw),
        end_line=_end_line(root_node, index), root=str(root),
    )


def data_file(case_file: str, named: str, root: Path, what: str = "files") -> str:
    """The path of a file a case names (in ``files:``, or a model in ``options:``): relative
    to the case file, inside its corpus root once links are followed, no NUL byte. Anything
    else is an InputError, in the same words whether or not the file exists. (The file is
    checked again once opened: :func:`read_regular_file`.)"""
    if "\x00" in named:
        raise InputError(f"{what}: {clean_text(named, 80)}: a path with a NUL byte")
    if os.path.isabs(named):
        raise InputError(f"{what}: {clean_text(named, 80)}: an absolute path (give it relative "
                         "to the case file)")
    path = Path(case_file).parent / named
    if not within(os.path.realpath(path), os.path.realpath(root)):
        raise InputError(f"{what}: " + outside_message(clean_text(named, 80), root))
    return str(path)


def _model_inside(options: dict[str, Any], file: str, root: Path,
                  where: list[Any]) -> dict[str, Any]:
    """``spm_model`` as :func:`data_file` checks a data file, then resolved (the engine opens
    it from wherever it runs); a regular file inside the corpus root, or a case-file problem."""
    named = options.get("spm_model")
    if not isinstance(named, str):
        return options  # not a path: the convention's own check says so (BH007)
    try:
        path = data_file(file, named, root, what="options.spm_model")
        return {**options, "spm_model": check_regular_file(path, root)}
    except InputError as error:
        message = str(error)
        if not message.startswith("options.spm_model"):
            message = f"options.spm_model: {message}"
        raise CaseInputError(where, message) from None


def _segments(raw: dict[str, Any], file: str, root: Path,
              data: DataFiles) -> tuple[Segment, ...]:
    """Inline ``segments``, or ``files`` read relative to the case file (once per load)."""
    if "segments" in raw:
        return tuple(Segment(s["hyp"], tuple(s["refs"])) for s in raw["segments"])
    return data.segments_of(raw["files"], file, root)


def case_tokenizer(raw: dict[str, Any]) -> str | None:
    """``None`` for tokenized text (``tokenized: true``, the default without a tokenizer);
    else the case's ``tokenizer`` (``13a`` when only ``tokenized: false`` is given)."""
    if raw.get("tokenized") is True:
        return None
    return raw.get("tokenizer") or ("13a" if raw.get("tokenized") is False else None)


def _default_compare(item: dict[str, Any]) -> str:
    """A value a library computed and printed in full (its repr) compares exactly; anything
    printed with fewer digits compares to half a unit in its last digit."""
    computed = item["provenance"]["kind"] == "computed"
    return "exact" if computed and is_full_repr(str(item.get("value", ""))) else "printed"


def _tuples(value: Any) -> Any:
    """YAML lists become tuples, so options hash and NLTK sees weight tuples."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value
