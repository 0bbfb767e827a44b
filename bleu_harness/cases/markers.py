"""What marks a case file and a case corpus: names only, so that the pytest plugin can tell
another project's files from ours without importing the loader."""

from __future__ import annotations

CASE_SUFFIXES = (".yaml", ".yml")
#: A directory holding this file is the root of a case corpus: ``files:`` paths of the case
#: files below it must stay inside it (``cases/CORPUS_ROOT`` in this repository).
ROOT_MARKER = "CORPUS_ROOT"
