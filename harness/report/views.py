"""Views of a run, each rendered from the stream's lines: terminal, Markdown, JUnit XML."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any
from xml.etree import ElementTree

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from harness.judge import DIVERGENCE, DRIFT, ERROR, FAIL, SKIPPED, UNSUPPORTED_VERDICT
from harness.report.stream import Run

Line = Mapping[str, Any]
ATTENTION = (FAIL, ERROR, DRIFT)


def actual_shown(line: Line) -> str:
    actual = line["actual"]
    if actual["kind"] == "value":
        return str(actual["value"])
    if actual["kind"] == "raised":
        return f"raises {actual.get('error_type', '?')}"
    return actual["kind"]


def options_shown(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) or "defaults"


def _title(run: Run) -> str:
    libraries = ", ".join(f"{b['name']} {b['version']}" for b in run.header["backends"]
                          if b["role"] == "library")
    absent = run.header.get("not_installed") or []
    if absent:
        libraries += f" · not installed, skipped: {', '.join(absent)}"
    return (f"bleu-harness {run.header['harness']} · {run.header['case_files']} case files · "
            f"under test: {run.header['under_test']} ({', '.join(run.header['claims'])}) · "
            f"{libraries}")


def counts_line(run: Run) -> str:
    counts = Counter(c["verdict"] for c in run.checks)
    order = ("pass", FAIL, ERROR, DRIFT, UNSUPPORTED_VERDICT, SKIPPED, DIVERGENCE)
    parts = [f"{counts[v]} {v}" for v in order if counts[v]]
    cases = len({c["case"] for c in run.checks})
    return f"{cases} cases, {len(run.checks)} checks: " + " · ".join(parts)


def divergence_map(run: Run) -> dict[tuple[str, str], Counter]:
    """(convention, other convention) -> how many cases each divergence tag explains."""
    pairs: dict[tuple[str, str], Counter] = {}
    for line in run.checks:
        if line["verdict"] == DIVERGENCE:
            tags = Counter(t.split("@")[0] for t in line["tags"]) or Counter(["(untagged)"])
            pairs.setdefault((line["convention"], line["other"]), Counter()).update(
                {t: 1 for t in tags})
    return pairs


def render_terminal(run: Run, console: Console, exit_code: int) -> None:
    console.print(_title(run), highlight=False)
    for problem in run.problems:
        console.print(f"[bold red]CASE FILE[/] {escape(problem['file'])}:{problem['line']}: "
                      f"{escape(problem['case'] or '-')}: {escape(problem['message'])}")
    for line in run.checks:
        if line["verdict"] in ATTENTION:
            _print_attention(line, console)
    pairs = divergence_map(run)
    if pairs:
        table = Table(title="Divergence map (cases per cause)", title_justify="left")
        table.add_column("conventions")
        table.add_column("cases", justify="right")
        table.add_column("causes")
        for (a, b), tags in sorted(pairs.items()):
            cases = sum(1 for c in run.checks if c["verdict"] == DIVERGENCE
                        and (c["convention"], c["other"]) == (a, b))
            table.add_row(f"{a} ≠ {b}", str(cases),
                          ", ".join(f"{t} {n}" for t, n in tags.most_common()))
        console.print(table)
    style = "green" if exit_code == 0 else "red"
    console.print(f"[{style}]{counts_line(run)} → exit {exit_code}[/]", highlight=False)


def _print_attention(line: Line, console: Console) -> None:
    verdict = line["verdict"].upper()
    console.print(
        f"[bold red]{verdict}[/] [bold]{escape(line['case'])}[/] "
        f"({escape(line['file'])}:{line['line']}) {line['check']} · {escape(line['backend'])} "
        f"as {line['convention']} · {escape(options_shown(line['options']))}", highlight=False)
    expected = line["expected"]
    if line["check"] == "differential":
        expected = f"{expected} ({line['other']})"
    detail = f"    expected {escape(str(expected))}   actual {escape(actual_shown(line))}"
    if line.get("difference") is not None:
        detail += f"   difference {line['difference']:+.3g}"
    console.print(detail, highlight=False)
    if line["tags"]:
        console.print(f"    tags: {', '.join(line['tags'])}", highlight=False)
    if line.get("message"):
        console.print(f"    {escape(line['message'])}", highlight=False)


def render_markdown(run: Run, exit_code: int) -> str:
    out = [f"## bleu-harness run: {'passed' if exit_code == 0 else f'exit {exit_code}'}", "",
           _title(run), "", counts_line(run), ""]
    if run.problems:
        out += ["### Case-file problems", ""]
        out += [f"- `{p['file']}:{p['line']}` {p['case'] or '-'}: {p['message']}"
                for p in run.problems]
        out.append("")
    attention = [c for c in run.checks if c["verdict"] in ATTENTION]
    if attention:
        out += ["### Unexpected divergences", "",
                "| verdict | case | check | implementation | options | expected | actual | "
                "difference | tags |", "|---|---|---|---|---|---|---|---:|---|"]
        for c in attention:
            difference = "" if c.get("difference") is None else f"{c['difference']:+.3g}"
            out.append(f"| {c['verdict']} | `{c['case']}` ({c['file']}:{c['line']}) | "
                       f"{c['check']} | {c['backend']} as {c['convention']} | "
                       f"{_cell(options_shown(c['options']))} | {_cell(str(c['expected']))} | "
                       f"{_cell(actual_shown(c))} | {difference} | {', '.join(c['tags'])} |")
        out.append("")
    pairs = divergence_map(run)
    if pairs:
        out += ["### Divergence map", "", "| conventions | causes (cases) |", "|---|---|"]
        for (a, b), tags in sorted(pairs.items()):
            out.append(f"| {a} ≠ {b} | "
                       + ", ".join(f"{t} ({n})" for t, n in tags.most_common()) + " |")
        out.append("")
    return "\n".join(out)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render_junit(run: Run, strict_references: bool) -> str:
    checks = [c for c in run.checks if c["verdict"] != DIVERGENCE]
    suite = ElementTree.Element("testsuite", name="bleu-harness", tests=str(len(checks)))
    failures = errors = skipped = 0
    for problem in run.problems:
        case = ElementTree.SubElement(suite, "testcase", classname=problem["file"],
                                      name=f"case file: {problem['case'] or problem['file']}")
        ElementTree.SubElement(case, "error", message=f"{problem['file']}:{problem['line']}: "
                                                      f"{problem['message']}")
        errors += 1
    for c in checks:
        name = f"{c['case']} · {c['check']} · {c['backend']} as {c['convention']}"
        if c["options"]:
            name += f" ({options_shown(c['options'])})"
        case = ElementTree.SubElement(suite, "testcase", classname=c["file"], name=name)
        properties = ElementTree.SubElement(case, "properties")
        for key, value in (("expected", c["expected"]), ("actual", actual_shown(c)),
                           ("difference", c.get("difference")), ("tags", ", ".join(c["tags"])),
                           ("provenance", json.dumps(c["provenance"]) if c["provenance"] else None),
                           ("line", c["line"])):
            if value not in (None, ""):
                ElementTree.SubElement(properties, "property", name=key, value=str(value))
        message = f"expected {c['expected']}, actual {actual_shown(c)}; tags: {', '.join(c['tags'])}"
        if c["verdict"] == FAIL or (c["verdict"] == DRIFT and strict_references):
            ElementTree.SubElement(case, "failure", message=message, type=c["verdict"])
            failures += 1
        elif c["verdict"] == ERROR:
            ElementTree.SubElement(case, "error", message=f"{message}; {c['message']}")
            errors += 1
        elif c["verdict"] in (SKIPPED, UNSUPPORTED_VERDICT):
            ElementTree.SubElement(case, "skipped", message=c["message"] or c["verdict"])
            skipped += 1
        elif c["verdict"] == DRIFT:
            out = ElementTree.SubElement(case, "system-out")
            out.text = f"reference library drift: {message}"
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", str(skipped))
    ElementTree.indent(suite)
    return ElementTree.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"


