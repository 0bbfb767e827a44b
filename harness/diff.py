"""``bleu-harness diff OLD NEW``: two runs aligned check by check (case id, check, backend,
convention, options), reported as what got worse, what got better, and what moved."""

from __future__ import annotations

from dataclasses import dataclass

from harness.judge import DRIFT, ERROR, FAIL
from harness.report.stream import Run, record_key
from harness.report.views import actual_shown

BAD = (FAIL, ERROR, DRIFT)


@dataclass(frozen=True)
class RunDiff:
    new_divergences: tuple[dict, ...]
    fixed: tuple[dict, ...]
    value_drift: tuple[tuple[dict, dict], ...]
    added_cases: tuple[str, ...]
    removed_cases: tuple[str, ...]
    versions_changed: tuple[tuple[str, str, str], ...]

    @property
    def worse(self) -> bool:
        return bool(self.new_divergences)


def diff_runs(old: Run, new: Run) -> RunDiff:
    before = {record_key(c): c for c in old.checks}
    after = {record_key(c): c for c in new.checks}
    new_bad, fixed, moved = [], [], []
    for key, line in after.items():
        previous = before.get(key)
        if line["verdict"] in BAD and (previous is None or previous["verdict"] not in BAD):
            new_bad.append(line)
        if previous is not None and previous["verdict"] in BAD and line["verdict"] not in BAD:
            fixed.append(line)
        if previous is not None and actual_shown(previous) != actual_shown(line):
            moved.append((previous, line))
    old_cases = {c["case"] for c in old.checks}
    new_cases = {c["case"] for c in new.checks}
    old_versions = {b["name"]: b["version"] for b in old.header["backends"]}
    new_versions = {b["name"]: b["version"] for b in new.header["backends"]}
    changed = tuple((name, old_versions[name], version) for name, version in new_versions.items()
                    if name in old_versions and old_versions[name] != version)
    return RunDiff(tuple(new_bad), tuple(fixed), tuple(moved),
                   tuple(sorted(new_cases - old_cases)), tuple(sorted(old_cases - new_cases)),
                   changed)


def render_diff(result: RunDiff, markdown: bool) -> str:
    bullet = "- " if markdown else "  "
    code = (lambda s: f"`{s}`") if markdown else (lambda s: s)
    out = [("## " if markdown else "") + ("Regression: something got worse" if result.worse
                                          else "No new divergence")]
    sections = (
        ("New divergences", [f"{code(c['case'])} {c['check']} · {c['backend']} as "
                             f"{c['convention']}: expected {c['expected']}, actual "
                             f"{actual_shown(c)} ({c['verdict']}; {', '.join(c['tags'])})"
                             for c in result.new_divergences]),
        ("Fixed", [f"{code(c['case'])} {c['check']} · {c['backend']} as {c['convention']}"
                   for c in result.fixed]),
        ("Value drift", [f"{code(a['case'])} {a['check']} · {a['backend']} as "
                         f"{a['convention']}: {actual_shown(a)} → {actual_shown(b)}"
                         for a, b in result.value_drift]),
        ("Added cases", [code(c) for c in result.added_cases]),
        ("Removed cases", [code(c) for c in result.removed_cases]),
        ("Backend versions changed", [f"{name}: {a} → {b}" for name, a, b in
                                      result.versions_changed]),
    )
    for title, items in sections:
        if items:
            out += ["", ("### " if markdown else "") + f"{title} ({len(items)})"]
            out += [bullet + item for item in items]
    return "\n".join(out) + "\n"
