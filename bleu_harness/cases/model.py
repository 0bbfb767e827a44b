"""The case model: frozen dataclasses, built only by the loader from validated YAML."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from bleu_harness.text import one_line


def frozen_mapping(value: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True)
class Segment:
    hyp: str
    refs: tuple[str, ...]


@dataclass(frozen=True)
class Provenance:
    """Where an expected value comes from: a document, or a run of a named library or tool."""

    kind: str  # "documented" | "computed" | "recorded"
    source: str
    where: str = ""
    url: str = ""
    issue: str = ""
    library: str = ""
    version: str = ""

    def to_dict(self) -> dict[str, str]:
        return {k: v for k, v in self.__dict__.items() if v}


@dataclass(frozen=True)
class Expectation:
    """One expected outcome: ``value`` as its source printed it, or the exception ``raises``."""

    convention: str
    options: Mapping[str, Any]
    provenance: Provenance
    value: str | None = None
    raises: str | None = None
    compare: str | float = "printed"  # "exact", "printed", or a tolerance
    versions: Mapping[str, str] = field(default_factory=dict)
    note: str = ""
    line: int = 0
    figure: str = "score"  # or a printed figure beside it: "cumulative.9", "hyp_len", ...

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", frozen_mapping(self.options))
        object.__setattr__(self, "versions", frozen_mapping(self.versions))

    @property
    def shown(self) -> str:
        return f"raises {self.raises}" if self.raises is not None else str(self.value)


@dataclass(frozen=True)
class Case:
    id: str
    description: str
    tags: tuple[str, ...]
    level: str
    segments: tuple[Segment, ...]
    expectations: tuple[Expectation, ...]
    file: str
    line: int
    tokenizer: str | None = None  # None: tokenized text (whitespace split)
    end_line: int = 0  # the last line of the case's YAML
    root: str = ""  # the corpus root the case file belongs to
    #: ``run --tokenizer``: the tokenizer the texts were re-tokenized with (the recorded
    #: values hold for the case's own tokenization, so they are not checked)
    retokenized_by: str = ""

    @property
    def hypotheses(self) -> list[str]:
        return [s.hyp for s in self.segments]

    @property
    def references(self) -> list[list[str]]:
        return [list(s.refs) for s in self.segments]

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def relative_file(self) -> str:
        """The case file's path relative to its corpus root (what reports show)."""
        return relative_to_root(self.file, self.root)


@lru_cache(maxsize=1024)
def relative_to_root(file: str, root: str) -> str:
    """``file`` relative to ``root`` where it lies inside it, else as given (one path
    resolution per case file, not per check)."""
    if root:
        try:
            return Path(file).resolve().relative_to(root).as_posix()
        except ValueError:
            pass
    return file


@dataclass(frozen=True)
class Problem:
    """Something wrong in a case file: ``file:line: case-id: message``."""

    file: str
    line: int
    case_id: str
    message: str
    case_line: int = 0  # the case this problem keeps from running (0: none, or the file)

    def __str__(self) -> str:
        """One line, whatever the file's name, the id or the message hold (a line break in
        either would start a line of its own: a forged ``::error::`` in a CI log)."""
        return one_line(f"{self.file}:{self.line}: {self.case_id or '-'}: {self.message}")
