"""Writing a recorded case family: ``cases/families/<name>.yaml`` as the recording tools write
it (a header naming the tool, then the YAML of the schema, description and cases).

The version ranges that ``tools/fix_ranges.py`` applied from the atlas (``versions:`` of an
expectation) are not the tool's to know: a family written again keeps each one where the
expectation is the same -- the same case, convention and options, and the same recorded
answer. Where the answer changed, the range was measured for another value and is dropped,
with a line saying so (run the atlas and ``tools/fix_ranges.py`` again).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

#: What an expectation records as its answer: a range is kept only where these are the same.
ANSWER_KEYS = ("value", "values", "raises", "figures", "compare")


class _NoAliases(yaml.SafeDumper):
    """A value met twice is written twice, never as an anchor and an alias."""

    def ignore_aliases(self, data) -> bool:
        return True


def _key(case_id: str, expectation: dict[str, Any]) -> str:
    return json.dumps([case_id, expectation.get("convention"), expectation.get("options", {})],
                      sort_keys=True)


def _answer(expectation: dict[str, Any]) -> str:
    return json.dumps({k: expectation.get(k) for k in ANSWER_KEYS}, sort_keys=True)


def measured_ranges(path: Path) -> dict[str, tuple[str, dict[str, str]]]:
    """Each expectation of the family now at ``path`` that gives ``versions``: its key (case,
    convention, options) -> (its answer, the ranges)."""
    if not path.is_file():
        return {}
    document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {_key(case["id"], e): (_answer(e), e["versions"])
            for case in document.get("cases", []) for e in case.get("expect", [])
            if e.get("versions")}


def with_versions(expectation: dict[str, Any], ranges: dict[str, str]) -> dict[str, Any]:
    """``expectation`` with ``versions: ranges`` right after its convention, where
    ``tools/fix_ranges.py`` puts them (a recorder's own table of measured ranges uses it too)."""
    items = [(k, v) for k, v in expectation.items() if k != "versions"]
    at = next((i + 1 for i, (k, _) in enumerate(items) if k == "convention"), 0)
    return dict(items[:at] + [("versions", dict(ranges))] + items[at:])


def keep_measured_ranges(path: Path, cases: list[dict]) -> list[str]:
    """Give each new expectation without ``versions`` the ranges the file at ``path`` gives
    the same expectation with the same answer; returns a line for each range dropped because
    the answer changed."""
    measured, dropped = measured_ranges(path), []
    for case in cases:
        for index, expectation in enumerate(case.get("expect", [])):
            known = measured.get(_key(case["id"], expectation))
            if known is None or "versions" in expectation:
                continue
            answer, ranges = known
            if answer == _answer(expectation):
                case["expect"][index] = with_versions(expectation, ranges)
            else:
                dropped.append(f"{path.name}: {case['id']} ({expectation.get('convention')}): "
                               f"the recorded answer changed, so its measured range {ranges} "
                               "is dropped")
    return dropped


def write_family(path: Path, tool: str, description: str, cases: list[dict]) -> None:
    """``cases`` with ``description`` into ``path``, marked as written by ``tool``, keeping
    the measured version ranges of the unchanged expectations (above)."""
    for line in keep_measured_ranges(path, cases):
        print(line, file=sys.stderr)
    text = yaml.dump({"schema": 1, "description": description, "cases": cases},
                     Dumper=_NoAliases, allow_unicode=True, sort_keys=False, width=100,
                     default_flow_style=None)
    path.write_text(f"# Written by {tool}: do not edit by hand.\n" + text, encoding="utf-8")
