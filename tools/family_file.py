"""Writing a recorded case family: ``cases/families/<name>.yaml`` as the recording tools write
it (a header naming the tool, then the YAML of the schema, description and cases)."""

from __future__ import annotations

from pathlib import Path

import yaml


class _NoAliases(yaml.SafeDumper):
    """A value met twice is written twice, never as an anchor and an alias."""

    def ignore_aliases(self, data) -> bool:
        return True


def write_family(path: Path, tool: str, description: str, cases: list[dict]) -> None:
    """``cases`` with ``description`` into ``path``, marked as written by ``tool``."""
    text = yaml.dump({"schema": 1, "description": description, "cases": cases},
                     Dumper=_NoAliases, allow_unicode=True, sort_keys=False, width=100,
                     default_flow_style=None)
    path.write_text(f"# Written by {tool}: do not edit by hand.\n" + text, encoding="utf-8")
