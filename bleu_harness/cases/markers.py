"""What marks a case file and a case corpus: names and one line, so that the pytest plugin
and the pre-commit hook can tell another project's files from ours without importing the
loader."""

from __future__ import annotations

import re

CASE_SUFFIXES = (".yaml", ".yml")
#: A directory holding this file is the root of a case corpus: ``files:`` paths of the case
#: files below it must stay inside it (``cases/CORPUS_ROOT`` in this repository).
ROOT_MARKER = "CORPUS_ROOT"
#: The line every case file holds: the format version the case-file schema requires
#: (``"schema": {"const": 1}``, ``bleu_harness/schema/case-file.schema.json``), a top-level
#: key. A ``cases:`` key alone is no mark: another project's fixtures have one.
_FORMAT_LINE = re.compile(rb"^(?:\xef\xbb\xbf)?schema[ \t]*:[ \t]*1[ \t]*(?:#[^\n]*)?\r?$",
                          re.MULTILINE)
#: How much of a file is read to find the line.
HEAD_BYTES = 65536


def declares_case_format(head: bytes) -> bool:
    """Whether the first bytes of a YAML file hold the case-file format line (``schema:
    1`` at the top level, where every case file of the schema has it)."""
    return _FORMAT_LINE.search(head) is not None
