"""``bleu-harness diff OLD NEW``: two runs aligned check by check (case, check, who was
checked, convention, options, figure), reported as what got worse, what got better, and
what moved."""

from __future__ import annotations

from dataclasses import dataclass

from harness.records import ATTENTION, CheckRecord, shown
from harness.report.stream import Run


@dataclass(frozen=True)
class RunDiff:
    new_failures: tuple[CheckRecord, ...]
    fixed: tuple[CheckRecord, ...]
    value_drift: tuple[tuple[CheckRecord, CheckRecord], ...]
    added_cases: tuple[str, ...]
    removed_cases: tuple[str, ...]
    versions_changed: tuple[tuple[str, str, str], ...]
    corpus_changed: bool = False

    @property
    def worse(self) -> bool:
        return bool(self.new_failures)


def diff_runs(old: Run, new: Run) -> RunDiff:
    before = {c.key(): c for c in old.checks}
    after = {c.key(): c for c in new.checks}
    new_bad, fixed, moved = [], [], []
    for key, record in after.items():
        previous = before.get(key)
        if record.verdict in ATTENTION and (previous is None
                                            or previous.verdict not in ATTENTION):
            new_bad.append(record)
        if previous is not None and previous.verdict in ATTENTION and (
                record.verdict not in ATTENTION):
            fixed.append(record)
        if previous is not None and shown(previous.actual) != shown(record.actual):
            moved.append((previous, record))
    old_cases = {c.case for c in old.checks}
    new_cases = {c.case for c in new.checks}
    old_versions = {b.name: b.version for b in old.header.backends}
    new_versions = {b.name: b.version for b in new.header.backends}
    changed = tuple((name, old_versions[name], version) for name, version in new_versions.items()
                    if name in old_versions and old_versions[name] != version)
    return RunDiff(tuple(new_bad), tuple(fixed), tuple(moved),
                   tuple(sorted(new_cases - old_cases)), tuple(sorted(old_cases - new_cases)),
                   changed, old.header.corpus_hash != new.header.corpus_hash)
