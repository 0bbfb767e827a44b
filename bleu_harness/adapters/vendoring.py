"""Loading a tool's vendored, unmodified source files: each file imported as the module its
tool names it, over stub modules that stand in for what is not installed, with
``sys.modules`` given back as it was afterwards -- fairseq's scorer for the live ``fairseq``
backend (:mod:`bleu_harness.adapters.fairseq_scorer`), and the tests' oracles of allennlp,
jury, keras-hub, T2T and torchtext."""

from __future__ import annotations

import contextlib
import importlib.util
import sys
import types
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path


def stub(name: str, **attributes) -> types.ModuleType:
    """A module ``name`` holding ``attributes`` (not put in ``sys.modules``)."""
    module = types.ModuleType(name)
    module.__dict__.update(attributes)
    return module


def package(name: str, **attributes) -> types.ModuleType:
    """A :func:`stub` that submodules can be imported from."""
    module = stub(name, **attributes)
    module.__path__ = []
    return module


def load(name: str, path: Path) -> types.ModuleType:
    """The file ``path`` imported as the module ``name`` (in ``sys.modules`` from before it
    runs, as an import puts it: its own imports may name it)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def swapped(modules: Mapping[str, types.ModuleType | None],
            also: Iterable[str] = ()) -> Iterator[None]:
    """``modules`` in ``sys.modules`` for the block (``None``: an import of it fails); they
    and the names ``also`` (what the block loads) are as before once it ends."""
    saved = {name: sys.modules.get(name) for name in (*modules, *also)}
    sys.modules.update(modules)
    try:
        yield
    finally:
        for name, previous in saved.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous
