"""The engine's modules import one another at the top only (issue 27, item 2): no import of
an engine module inside a function, which is how ``knobs`` and ``conventions`` used to hide
that they imported each other. Optional third-party tokenizers (MeCab, sentencepiece) may
still be imported where they are used."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "bleu_harness" / "bleu"


def _function_level_engine_imports(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            names = ([inner.module or ""] if isinstance(inner, ast.ImportFrom)
                     else [a.name for a in inner.names] if isinstance(inner, ast.Import) else [])
            found += [f"{path.name}:{inner.lineno} {name}" for name in names
                      if name.startswith("bleu_harness")]
    return found


def test_no_function_level_imports_inside_the_engine():
    assert [hit for path in sorted(ENGINE.rglob("*.py"))
            for hit in _function_level_engine_imports(path)] == []
