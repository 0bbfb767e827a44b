"""``bleu-harness diff OLD NEW``: two runs aligned check by check (case, check, who was
checked, convention, options, figure), reported as what got worse, what got better, and
what moved.

Only whole runs are compared: a run that was interrupted (or killed) is a usage error
(exit 2, :func:`refuse_incomplete`), since its missing checks would read as removed cases
and "no new failure". A changed setup -- the implementation under test or the conventions
it claims, a backend's version or status, the corpus -- is listed first
(:attr:`RunDiff.setup_changes`): the same checks then compare different things."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bleu_harness.errors import UsageError
from bleu_harness.records import ATTENTION, CheckRecord, shown
from bleu_harness.report.stream import Run


@dataclass(frozen=True)
class RunDiff:
    new_failures: tuple[CheckRecord, ...]
    fixed: tuple[CheckRecord, ...]
    value_drift: tuple[tuple[CheckRecord, CheckRecord], ...]
    added_cases: tuple[str, ...]
    removed_cases: tuple[str, ...]
    versions_changed: tuple[tuple[str, str, str], ...]
    corpus_changed: bool = False
    #: (what, old, new): what ran differs between the two runs
    setup_changes: tuple[tuple[str, str, str], ...] = ()

    @property
    def worse(self) -> bool:
        return bool(self.new_failures)


def refuse_incomplete(run: Run, label: str) -> None:
    """A usage error for a run that did not finish: never a clean regression report."""
    if not run.footer.finished:
        raise UsageError(f"{label} {run.path}: the run was {run.footer.status} (exit "
                         f"{run.footer.exit_code}, {len(run.checks)} checks): compare whole "
                         "runs only; run it again")


def setup_changes(old: Run, new: Run) -> tuple[tuple[str, str, str], ...]:
    """What ran differently: the implementation under test and its claims, each backend's
    version and status (added or dropped ones too), the corpus (hash and files)."""
    changes = []
    a, b = old.header, new.header
    if (a.under_test, a.claims) != (b.under_test, b.claims):
        changes.append(("under test", f"{a.under_test} ({', '.join(a.claims)})",
                        f"{b.under_test} ({', '.join(b.claims)})"))
    before = {x.name: _backend(x.version, x.status) for x in a.backends}
    after = {x.name: _backend(x.version, x.status) for x in b.backends}
    for name in sorted(before.keys() | after.keys()):
        was, now = before.get(name, "absent"), after.get(name, "absent")
        if was != now:
            changes.append((name, was, now))
    if a.corpus_hash != b.corpus_hash:
        changes.append(("corpus", f"{a.corpus_hash[:12]} ({a.case_files} case files)",
                        f"{b.corpus_hash[:12]} ({b.case_files} case files)"))
    return tuple(changes)


def _backend(version: str, status: str) -> str:
    return " ".join(part for part in (version, status) if part) or "-"


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
                record.verdict not in ATTENTION):  # by the cause and families it failed with
            fixed.append(replace(record, cause=previous.cause, tags=previous.tags or record.tags))
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
                   changed, old.header.corpus_hash != new.header.corpus_hash,
                   setup_changes(old, new))
