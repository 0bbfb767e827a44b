"""The version atlas: what each release of a library answers to every question of the case
corpus, where the answers change (grouped by the release boundaries they change at, with the
cited reason from ``bleu_harness.bleu.history``), and whether each recorded expectation's version
range is what the releases give.

Built from the streams of ``tools/atlas.py run`` (one ``bleu-harness run`` per release, the
release as the live library): their drift lines hold the library's answer to every
expectation, inside its range or not.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from bleu_harness.text import count_of
from bleu_harness.bleu.history import HISTORIES
from bleu_harness.compare import matches
from bleu_harness.records import DRIFT_CHECK, Raised, Value, shown
from bleu_harness.report.stream import Run

Key = tuple[str, str, str]  # case, options (JSON), figure


@dataclass
class Expected:
    """One recorded expectation of a question."""

    value: str
    compare: Any
    spec: str  # the library's version range ('' for every release)
    where: str  # file:line


@dataclass
class Question:
    case: str
    options: str
    figure: str
    answers: dict[str, str] = field(default_factory=dict)  # release -> the answer, shown
    holds: dict[tuple[str, str], bool] = field(default_factory=dict)  # (value, release)
    expected: dict[str, Expected] = field(default_factory=dict)  # value -> expectation


@dataclass
class LibraryAtlas:
    library: str
    releases: list[str]
    questions: dict[Key, Question]

    def eras(self, question: Question) -> list[tuple[list[str], str]]:
        """Consecutive releases with the same answer: ([releases], answer)."""
        out: list[tuple[list[str], str]] = []
        for release in self.releases:
            answer = question.answers.get(release)
            if answer is None:
                continue
            if out and out[-1][1] == answer:
                out[-1][0].append(release)
            else:
                out.append(([release], answer))
        return out


def _holds(answer: Any, expected: str, compare: Any) -> bool:
    if expected.startswith("raises "):
        return isinstance(answer, Raised) and answer.error_type == expected[len("raises "):]
    if not isinstance(answer, Value):
        return False
    try:
        return matches(answer.score, expected, compare if compare is not None else "printed")
    except (ValueError, ArithmeticError):
        return False


def build(runs: Iterable[Run]) -> dict[str, LibraryAtlas]:
    """One atlas per library, from runs that each had one release of it as the live library."""
    atlases: dict[str, LibraryAtlas] = {}
    for run in runs:
        for backend in run.header.backends:
            if backend.role != "library" or not backend.ready or backend.name not in HISTORIES:
                continue
            atlas = atlases.setdefault(backend.name, LibraryAtlas(backend.name, [], {}))
            atlas.releases.append(backend.version)
            for record in run.checks:
                if record.check != DRIFT_CHECK or record.backend != backend.name:
                    continue
                options = {k: v for k, v in record.options.items() if k != "version"}
                key = (record.case, repr(sorted(options.items())), record.figure)
                question = atlas.questions.setdefault(
                    key, Question(record.case, _options_text(options), record.figure))
                answer = record.actual
                if isinstance(answer, Value) and record.figure != "score":
                    figure = answer.figure(record.figure)
                    answer = Value(figure) if figure is not None else answer
                question.answers[backend.version] = shown(answer)
                value = str(record.expected)
                spec = (record.versions or {}).get(backend.name, "")
                question.expected.setdefault(value, Expected(value, record.compare, spec,
                                                             f"{record.file}:{record.line}"))
                question.holds[(value, backend.version)] = _holds(answer, value,
                                                                  record.compare)
    for atlas in atlases.values():
        atlas.releases = sorted(set(atlas.releases), key=Version)
    return atlases


def _options_text(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items() if k != "tokenize") or "defaults"


def _span(releases: Sequence[str]) -> str:
    return releases[0] if len(releases) == 1 else f"{releases[0]}–{releases[-1]}"


def changes_between(library: str, after: str, upto: str) -> list[Any]:
    """The history's changes that came after release ``after`` and by release ``upto``."""
    history = HISTORIES[library]
    return [c for c in history.changes
            if Version(after) < Version(c.since) <= Version(upto)]


def behaviours(atlas: LibraryAtlas) -> list[dict[str, Any]]:
    """The questions whose answer changes between releases, grouped by the releases they
    change at, each group with the changes of the history that explain it."""
    groups: dict[tuple[str, ...], list[Question]] = {}
    for question in atlas.questions.values():
        eras = atlas.eras(question)
        if len(eras) > 1:
            boundaries = tuple(releases[0] for releases, _ in eras[1:])
            groups.setdefault(boundaries, []).append(question)
    out = []
    for boundaries, questions in sorted(groups.items(), key=lambda item: (
            [Version(v) for v in item[0]], -len(item[1]))):
        reasons = []
        for boundary in boundaries:
            before = atlas.releases[atlas.releases.index(boundary) - 1]
            for change in changes_between(atlas.library, before, boundary):
                reasons.append({"since": change.since, "what": change.what,
                                "cite": change.cite})
        out.append({"at": list(boundaries), "reasons": reasons, "questions": [
            {"case": q.case, "options": q.options, "figure": q.figure,
             "eras": [{"releases": r, "answer": a} for r, a in atlas.eras(q)]}
            for q in sorted(questions, key=lambda q: (q.case, q.options))]})
    return out


def _admits(spec: str, release: str) -> bool:
    try:
        return not spec or Version(release) in SpecifierSet(spec)
    except (InvalidVersion, InvalidSpecifier):
        return True


def suggested_range(atlas: LibraryAtlas, holding: list[str]) -> str:
    """A PEP 440 range for the releases an answer holds for, its ends put at the history's
    change where one lies between the atlas's releases (``>=3.6``, not ``>=3.6.2``)."""
    releases = atlas.releases
    first, last = releases.index(holding[0]), releases.index(holding[-1])
    if holding != releases[first:last + 1]:
        return _excluding(releases, holding)
    parts = []
    if first > 0:
        since = [c.since for c in changes_between(atlas.library, releases[first - 1],
                                                  releases[first])]
        parts.append(f">={min(since, key=Version) if since else releases[first]}")
    if last < len(releases) - 1:
        since = [c.since for c in changes_between(atlas.library, releases[last],
                                                  releases[last + 1])]
        parts.append(f"<{min(since, key=Version) if since else releases[last + 1]}")
    return ",".join(parts)


def _excluding(releases: list[str], holding: list[str]) -> str:
    """Holds, stops, holds again: the series in between excluded (``!=1.5.*,!=2.0.*``),
    if that admits exactly the releases it holds for."""
    first, last = releases.index(holding[0]), releases.index(holding[-1])
    gaps = [r for r in releases[first:last + 1] if r not in holding]
    series = list(dict.fromkeys(".".join(r.split(".")[:2]) for r in gaps))
    parts = [f"!={s}.*" for s in series]
    if first > 0:
        parts.insert(0, f">={releases[first]}")
    if last < len(releases) - 1:
        parts.append(f"<{releases[last + 1]}")
    spec = ",".join(parts)
    return spec if [r for r in releases if _admits(spec, r)] == holding else ""


def range_findings(atlas: LibraryAtlas) -> list[dict[str, Any]]:
    """Every expectation whose version range is not what the releases give: too narrow
    (it holds outside the range too) or too wide (a release in the range gives something
    else), with the range the releases support."""
    findings = []
    for question in atlas.questions.values():
        for value, expected in question.expected.items():
            recorded = [r for r in atlas.releases if (value, r) in question.holds]
            holding = [r for r in recorded if question.holds[(value, r)]]
            in_range = [r for r in recorded if _admits(expected.spec, r)]
            narrow = [r for r in holding if r not in in_range]
            wide = [r for r in in_range if r not in holding]
            if not narrow and not wide:
                continue
            findings.append({
                "case": question.case, "options": question.options,
                "figure": question.figure, "value": value, "where": expected.where,
                "recorded_range": expected.spec or "every release",
                "holds_for": [_span(r) for r, _ in _runs(atlas.releases, holding)],
                "too_narrow": narrow, "too_wide": wide,
                "suggested": suggested_range(atlas, holding) if holding else "",
            })
    return sorted(findings, key=lambda f: (f["case"], f["options"], f["value"]))


def _runs(releases: list[str], chosen: list[str]) -> list[tuple[list[str], bool]]:
    out: list[tuple[list[str], bool]] = []
    for release in releases:
        if release not in chosen:
            continue
        index = releases.index(release)
        if out and releases.index(out[-1][0][-1]) == index - 1:
            out[-1][0].append(release)
        else:
            out.append(([release], True))
    return out


def atlas_document(runs: Iterable[Run]) -> dict[str, Any]:
    runs = list(runs)
    atlases = build(runs)
    return {"corpus": sorted({run.header.corpus_hash for run in runs}),
            "libraries": {library: {"releases": atlas.releases,
                                    "questions": len(atlas.questions),
                                    "behaviours": behaviours(atlas),
                                    "ranges": range_findings(atlas)}
                          for library, atlas in sorted(atlases.items())}}


def _eras_text(eras: list[dict[str, Any]], total: list[str]) -> str:
    parts = []
    for index, era in enumerate(eras):
        releases = era["releases"]
        if index == 0 and releases[0] == total[0] and len(eras) > 1:
            where = f"≤{releases[-1]}"
        elif index == len(eras) - 1 and releases[-1] == total[-1] and len(eras) > 1:
            where = f"from {releases[0]}"
        else:
            where = f"in {_span(releases)}"
        parts.append(f"{era['answer']} {where}")
    return ", ".join(parts)


def render_markdown(document: dict[str, Any]) -> str:
    out = ["# The version atlas", "",
           "What each release of NLTK and SacreBLEU answers to the questions of the case "
           "corpus (`python tools/atlas.py run`, then `bleu-harness atlas "
           "reports/atlas/*.jsonl`). Answers that change between releases are grouped by "
           "the releases they change at, with the reason from `bleu_harness/bleu/history.py`; "
           "every recorded expectation's version range is checked against what the "
           "releases give.", "",
           f"Corpus: {', '.join(document['corpus'])} (`bleu-harness run --format json` "
           "writes the hash in its header; tests/test_atlas.py checks that this atlas is "
           "the corpus's).", ""]
    for library, data in document["libraries"].items():
        releases = data["releases"]
        out += [f"## {library}", "",
                f"{count_of(len(releases), 'release')}: {', '.join(releases)}; "
                f"{data['questions']} questions, "
                f"{sum(len(b['questions']) for b in data['behaviours'])} of them answered "
                "differently by some release.", ""]
        for behaviour in data["behaviours"]:
            at = ", ".join(behaviour["at"])
            out += [f"### Changes at {at} ({len(behaviour['questions'])} questions)", ""]
            for reason in behaviour["reasons"]:
                out.append(f"- **{reason['since']}**: {reason['what']} ({reason['cite']})")
            if not behaviour["reasons"]:
                out.append("- no change of the history table lies here")
            out += ["", "| case | options | answers |", "|---|---|---|"]
            for q in behaviour["questions"]:
                figure = f" ({q['figure']})" if q["figure"] != "score" else ""
                out.append(f"| `{q['case']}`{figure} | {q['options']} | "
                           f"{_eras_text(q['eras'], releases)} |")
            out.append("")
        out += [f"### Version ranges of the recorded {library} expectations", ""]
        if not data["ranges"]:
            out += ["Every recorded value holds exactly for the releases its range names.", ""]
            continue
        out += ["| case | value | recorded for | holds for | suggested |", "|---|---|---|---|---|"]
        for finding in data["ranges"]:
            out.append(f"| `{finding['case']}` ({finding['where']}) | {finding['value']} | "
                       f"{finding['recorded_range']} | {', '.join(finding['holds_for']) or 'no release'} | "
                       f"{finding['suggested'] or '—'} |")
        out.append("")
    return "\n".join(out)


def render_html(document: dict[str, Any]) -> str:
    """The atlas as one self-contained HTML page (the Markdown's tables)."""
    def esc(text: Any) -> str:
        return html.escape(str(text))

    body = ["<h1>The version atlas</h1>",
            f"<p>Corpus: {esc(', '.join(document['corpus']))}</p>"]
    for library, data in document["libraries"].items():
        body.append(f"<h2>{esc(library)}</h2><p>{count_of(len(data['releases']), 'release')}: "
                    f"{esc(', '.join(data['releases']))}</p>")
        for behaviour in data["behaviours"]:
            body.append(f"<h3>Changes at {esc(', '.join(behaviour['at']))}</h3><ul>")
            body += [f"<li><b>{esc(r['since'])}</b>: {esc(r['what'])} ({esc(r['cite'])})</li>"
                     for r in behaviour["reasons"]]
            body.append("</ul><table><tr><th>case</th><th>options</th><th>answers</th></tr>")
            body += [f"<tr><td>{esc(q['case'])}</td><td>{esc(q['options'])}</td>"
                     f"<td>{esc(_eras_text(q['eras'], data['releases']))}</td></tr>"
                     for q in behaviour["questions"]]
            body.append("</table>")
        body.append("<h3>Version ranges</h3><table><tr><th>case</th><th>value</th>"
                    "<th>recorded for</th><th>holds for</th><th>suggested</th></tr>")
        body += [f"<tr><td>{esc(f['case'])}</td><td>{esc(f['value'])}</td>"
                 f"<td>{esc(f['recorded_range'])}</td><td>{esc(', '.join(f['holds_for']))}</td>"
                 f"<td>{esc(f['suggested'])}</td></tr>" for f in data["ranges"]]
        body.append("</table>")
    style = ("body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em}table{border-collapse:"
             "collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ddd;padding:.2em .5em;"
             "text-align:left;vertical-align:top}")
    return (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>bleu-harness "
            f"atlas</title><style>{style}</style></head><body>{''.join(body)}</body></html>\n")
