"""Fill ``value: COMPUTE`` placeholders in case files by running the live reference library.

    python tools/record_values.py cases/families/ref-length-tie.yaml [...]

For each expectation whose value is ``COMPUTE`` and whose convention has a live library
(nltk, sacrebleu; torchmetrics, and bleuscore for tf-nmt when installed), the library scores the case and the placeholder becomes the library's
``repr`` (or ``raises: ExceptionName``); ``version: COMPUTE`` in its provenance becomes the
installed version. Values therefore come from the reference library, never from the engine.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from bleu_harness.backends.base import RAISED, VALUE
from bleu_harness.backends.libraries import NltkBackend, SacrebleuBackend
from bleu_harness.backends.optional import BleuscoreBackend, TorchmetricsBackend
from bleu_harness.cases.loader import _segments, _tuples, case_tokenizer
from bleu_harness.cases.model import Case
from bleu_harness.judge import request_for

LIBRARIES = {"nltk": NltkBackend(), "sacrebleu": SacrebleuBackend(),
             "torchmetrics": TorchmetricsBackend(), "tf-nmt": BleuscoreBackend()}
PLACEHOLDER = "COMPUTE"


def _case(raw: dict, path: Path) -> Case:
    return Case(raw["id"], raw["description"], tuple(raw["tags"]), raw["level"],
                _segments(raw, str(path)), (), str(path), 0, case_tokenizer(raw))


def _scalar(node: yaml.MappingNode, key: str):
    return next((v for k, v in node.value if k.value == key), None)


def fill(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").split("\n")
    root = yaml.compose("\n".join(lines), Loader=yaml.SafeLoader)
    document = yaml.safe_load("\n".join(lines))
    edits: list[tuple[int, str, str]] = []
    for case_node, raw in zip(_scalar(root, "cases").value, document["cases"]):
        case = _case(raw, path)
        for e_node, e in zip(_scalar(case_node, "expect").value, raw["expect"]):
            if e.get("value") != PLACEHOLDER:
                continue
            library = LIBRARIES[e["convention"]]
            if not library.info().version:
                raise SystemExit(f"{path}: {raw['id']}: {library.info().name} is not installed")
            outcome = library.score(request_for(case, e["convention"],
                                                _tuples(e.get("options") or {}),
                                                e.get("figure", "score")))
            value_node = _scalar(e_node, "value")
            if outcome.kind == VALUE:
                text = f'value: "{"NaN" if outcome.value != outcome.value else repr(outcome.value)}"'
            elif outcome.kind == RAISED:
                text = f"raises: {outcome.error_type}"
            else:
                raise SystemExit(f"{path}: {raw['id']}: {library.info().name}: {outcome}")
            edits.append((value_node.start_mark.line, "value: COMPUTE", text))
            version_node = _scalar(_scalar(e_node, "provenance"), "version")
            if version_node is not None and version_node.value == PLACEHOLDER:
                edits.append((version_node.start_mark.line, f"version: {PLACEHOLDER}",
                              f'version: "{library.info().version}"'))
    for line, old, new in edits:
        lines[line] = lines[line].replace(old, new)
    path.write_text("\n".join(lines), encoding="utf-8")
    return len(edits)


if __name__ == "__main__":
    for name in sys.argv[1:]:
        print(f"{name}: {fill(Path(name))} replacements")
