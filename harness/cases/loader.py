"""Load case files: safe YAML with line numbers, JSON Schema validation, frozen cases out.

A file that cannot be read or parsed yields one problem and no case; a case that fails the
schema yields its problems and is left out; every other case of every file still loads.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from harness.cases.model import Case, Expectation, Problem, Provenance, Segment
from harness.compare import is_full_repr
from harness.textfiles import InputError, read_parallel

CASE_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class LoadResult:
    cases: tuple[Case, ...]
    problems: tuple[Problem, ...]
    files: tuple[Path, ...]

    @property
    def corpus_hash(self) -> str:
        """sha256 over the case files' paths and bytes, in order."""
        digest = hashlib.sha256()
        for path in self.files:
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
        return digest.hexdigest()


@lru_cache(maxsize=1)
def case_schema() -> dict[str, Any]:
    text = resources.files("harness.schema").joinpath("case-file.schema.json").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def tag_vocabulary() -> frozenset[str]:
    text = resources.files("harness.schema").joinpath("tags.yaml").read_text("utf-8")
    return frozenset(yaml.safe_load(text))


def bundled_corpus() -> Path:
    """The case corpus shipped in the package (``cases/`` in the source tree)."""
    return Path(str(resources.files("harness.corpus")))


def find_case_files(paths: Sequence[str | Path]) -> tuple[list[Path], list[Problem]]:
    files: list[Path] = []
    problems: list[Problem] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix in CASE_SUFFIXES))
        elif path.is_file():
            files.append(path)
        else:
            problems.append(Problem(str(path), 0, "", "no such file or directory"))
    return files, problems


def load(paths: Sequence[str | Path] | None = None) -> LoadResult:
    """Every case under ``paths`` (files or directories; default: the bundled corpus)."""
    files, problems = find_case_files(paths or [bundled_corpus()])
    cases: list[Case] = []
    for path in files:
        file_cases, file_problems = load_file(path)
        cases.extend(file_cases)
        problems.extend(file_problems)
    return LoadResult(tuple(cases), tuple(problems), tuple(files))


def load_file(path: Path) -> tuple[list[Case], list[Problem]]:
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        return [], [Problem(name, 1, "", f"not UTF-8 ({error.reason} at byte {error.start})")]
    except OSError as error:
        return [], [Problem(name, 0, "", f"cannot read: {error.strerror or error}")]
    try:
        document = yaml.safe_load(text)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = mark.line + 1 if mark else 1
        what = getattr(error, "problem", None) or str(error).splitlines()[0]
        return [], [Problem(name, line, "", f"YAML syntax error: {what}")]

    validator = jsonschema.Draft202012Validator(case_schema())
    problems: list[Problem] = []
    broken_cases: set[int] = set()
    for error in validator.iter_errors(document):
        where = list(error.absolute_path)
        index = where[1] if len(where) >= 2 and where[0] == "cases" else None
        if index is not None:
            broken_cases.add(index)
        problems.append(Problem(name, _line(root, where), _case_id(document, index),
                                _message(error)))
    if not isinstance(document, dict) or not isinstance(document.get("cases"), list):
        return [], problems
    cases = []
    for index, raw in enumerate(document["cases"]):
        if index not in broken_cases:
            try:
                cases.append(_build_case(raw, name, root, index))
            except InputError as error:  # a case's data files: that case is lost, not the rest
                problems.append(Problem(name, _line(root, ["cases", index, "files"]),
                                        _case_id(document, index), str(error)))
    return cases, problems


def _message(error: jsonschema.ValidationError) -> str:
    where = "/".join(str(p) for p in error.absolute_path)
    if error.validator == "oneOf" and "segments" in str(error.validator_value):
        return f"{where}: a case needs exactly one of 'segments' or 'files'"
    if error.validator == "oneOf" and error.validator_value and "required" in str(
            error.validator_value):
        return f"{where}: an expectation needs exactly one of 'value' or 'raises'"
    if error.validator == "type" and error.validator_value == "string" and isinstance(
            error.instance, (int, float)):
        return (f"{where}: write the value as a quoted string, as its source printed it "
                f"(got the number {error.instance!r})")
    return f"{where}: {error.message}" if where else error.message


def _case_id(document: Any, index: int | None) -> str:
    try:
        return str(document["cases"][index]["id"])
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


def _build_case(raw: dict[str, Any], file: str, root: yaml.Node, index: int) -> Case:
    expectations = []
    for position, item in enumerate(raw["expect"]):
        compare = item.get("compare", _default_compare(item))
        if isinstance(compare, dict):
            compare = float(compare["tolerance"])
        expectations.append(Expectation(
            convention=item["convention"],
            options=_tuples(item.get("options") or {}),
            provenance=Provenance(**item["provenance"]),
            value=item.get("value"),
            raises=item.get("raises"),
            compare=compare,
            versions=item.get("versions") or {},
            note=item.get("note", ""),
            line=_line(root, ["cases", index, "expect", position]),
            figure=item.get("figure", "score"),
        ))
    tokenizer = case_tokenizer(raw)
    return Case(
        id=raw["id"], description=raw["description"], tags=tuple(raw["tags"]),
        level=raw["level"],
        segments=_segments(raw, file),
        expectations=tuple(expectations), file=file,
        line=_line(root, ["cases", index]), tokenizer=tokenizer,
    )


def _segments(raw: dict[str, Any], file: str) -> tuple[Segment, ...]:
    """Inline ``segments``, or ``files`` read relative to the case file."""
    if "segments" in raw:
        return tuple(Segment(s["hyp"], tuple(s["refs"])) for s in raw["segments"])
    spec, base = raw["files"], Path(file).parent
    hyps, refs = read_parallel(str(base / spec["hypotheses"]),
                               [str(base / r) for r in spec["references"]])
    remove = spec.get("remove_from_references")
    if remove:
        refs = [[r.replace(remove, "") for r in rs] for rs in refs]
    return tuple(Segment(h, tuple(rs)) for h, rs in zip(hyps, refs))


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
