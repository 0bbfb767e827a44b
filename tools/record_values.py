"""Fill ``value: COMPUTE`` placeholders in case files by running the live reference library.

    python tools/record_values.py cases/families/ref-length-tie.yaml [...]

For each expectation whose value is ``COMPUTE`` and whose convention has a live library
(the backends of ``bleu_harness.backends.registry``: nltk, sacrebleu, compare-mt; torchmetrics,
and bleuscore for tf-nmt, when installed), the library scores the case and the placeholder
becomes the library's
``repr`` (or ``raises: ExceptionName``); ``version: COMPUTE`` in its provenance becomes the
installed version. Values therefore come from the reference library, never from the engine.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from bleu_harness.backends.registry import EXTRA_LIBRARIES, REFERENCE_BACKENDS
from bleu_harness.cases.loader import DataFiles, _segments, _tuples, case_tokenizer
from bleu_harness.cases.model import Case
from bleu_harness.checkplan import request_for
from bleu_harness.execute import Executor
from bleu_harness.records import Raised, Value

PLACEHOLDER = "COMPUTE"


def library_for(convention: str):
    """The live library that implements ``convention``: its primary library, else one
    checked differentially only (bleuscore for tf-nmt)."""
    names = sorted((n for n in REFERENCE_BACKENDS if n != "own"),
                   key=lambda n: n in EXTRA_LIBRARIES)
    for name in names:
        backend = REFERENCE_BACKENDS[name]()
        if convention in backend.conventions:
            return backend
    raise SystemExit(f"no live library implements the {convention} convention")


def _case(raw: dict, path: Path, data: DataFiles) -> Case:
    return Case(raw["id"], raw["description"], tuple(raw["tags"]), raw["level"],
                _segments(raw, str(path), path.parent, data), (), str(path), 0,
                case_tokenizer(raw))


def _scalar(node: yaml.MappingNode, key: str):
    return next((v for k, v in node.value if k.value == key), None)


def fill(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").split("\n")
    root = yaml.compose("\n".join(lines), Loader=yaml.SafeLoader)
    document = yaml.safe_load("\n".join(lines))
    edits: list[tuple[int, str, str]] = []
    data = DataFiles()
    with Executor(timeout=120) as executor:
        started: dict[str, str] = {}
        for case_node, raw in zip(_scalar(root, "cases").value, document["cases"]):
            case = _case(raw, path, data)
            for e_node, e in zip(_scalar(case_node, "expect").value, raw["expect"]):
                if e.get("value") != PLACEHOLDER:
                    continue
                library = library_for(e["convention"])
                if library.name not in started:
                    info = executor.start_all([library])[0]
                    if not info.ready:
                        raise SystemExit(f"{path}: {library.name}: {info.note or info.status}")
                    started[library.name] = info.version
                request = request_for(case, library.name, e["convention"],
                                      _tuples(e.get("options") or {}))
                outcome = next(iter(executor.run([request])))[1]
                if isinstance(outcome, Value):
                    value = outcome.figure(e.get("figure", "score"))
                    text = f'value: "{"NaN" if value != value else repr(value)}"'
                elif isinstance(outcome, Raised):
                    text = f"raises: {outcome.error_type}"
                else:
                    raise SystemExit(f"{path}: {raw['id']}: {library.name}: {outcome}")
                edits.append((_scalar(e_node, "value").start_mark.line, "value: COMPUTE", text))
                provenance = _scalar(e_node, "provenance")
                version_node = provenance and _scalar(provenance, "version")
                if version_node is not None and version_node.value == PLACEHOLDER:
                    edits.append((version_node.start_mark.line, f"version: {PLACEHOLDER}",
                                  f'version: "{started[library.name]}"'))
    for line, old, new in edits:
        lines[line] = lines[line].replace(old, new)
    path.write_text("\n".join(lines), encoding="utf-8")
    return len(edits)


if __name__ == "__main__":
    if not sys.argv[1:] or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        raise SystemExit(0)
    for name in sys.argv[1:]:
        print(f"{name}: {fill(Path(name))} replacements")
