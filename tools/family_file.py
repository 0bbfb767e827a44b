"""Writing a case family recorded by a tool: one YAML file, the tool named in its first line.

Shared by the recording scripts of tools/ (``npm_bleu_score_cases.py``, ``fast_bleu_cases.py``,
``jury_cases.py``, ``nltk_emulate_cases.py``): every case written out in full (no YAML
anchors), keys in the order given, text as it is (``allow_unicode``).
"""

from __future__ import annotations

from pathlib import Path

import yaml


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data) -> bool:
        return True


def write_family(path: Path, tool: str, description: str, cases: list[dict]) -> None:
    """``cases`` under ``description`` to ``path``, headed "Written by ``tool``"."""
    text = yaml.dump({"schema": 1, "description": description, "cases": cases},
                     Dumper=_NoAliases, allow_unicode=True, sort_keys=False, width=100,
                     default_flow_style=None)
    path.write_text(f"# Written by {tool}: do not edit by hand.\n" + text, encoding="utf-8")
