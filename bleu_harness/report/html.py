"""The HTML report: one self-contained file (no network, no CDN) that opens from disk and
as a CI artifact.

* the run header (versions, corpus hash, baseline) and the exit status;
* the conformance matrix -- cases × who was checked (the implementation under test per
  convention, each live library's drift), coloured by verdict, filterable by family, tag,
  convention and verdict; a cell opens the case: its inputs with invisible characters
  shown, expected vs actual, the cause, the provenance;
* the divergence map as pictures: how often conventions disagree (conventions ×
  conventions) and why (conventions × divergence family), drawn by Plotly, whose JavaScript
  is inlined;
* for two runs (before/after, two library versions), the cells that changed first: a
  cell changed when its verdict or any of its answers changed (``0.36788`` → ``raises
  ValueError`` under a "skipped" verdict too); it is outlined and marked Δ, says both
  answers, and the header counts the changes and names a changed setup (library versions).

Everything from a case file or an implementation is inserted with ``textContent``, never
as HTML.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bleu_harness.cases.model import Case
from bleu_harness.errors import UsageError
from bleu_harness.records import (
    DIVERGENCE,
    DIVERGENCE_CHECK,
    DRIFT,
    DRIFT_CHECK,
    ERROR,
    FAIL,
    PASS,
    SKIPPED,
    UNSUPPORTED,
    CheckRecord,
    shown,
)
from bleu_harness.report.diff import setup_changes
from bleu_harness.report.presentation import comparison, origin, origin_url
from bleu_harness.report.stream import Run
from bleu_harness.report.summary import (
    cause_knobs,
    cause_of,
    counts_line,
    options_shown,
    status_word,
    title,
)
from bleu_harness.text import visible

#: The worst verdict of a cell decides its colour.
SEVERITY = (FAIL, ERROR, DRIFT, PASS, UNSUPPORTED, SKIPPED)
SEGMENTS_SHOWN = 20
ANSWERS_SHOWN = 5  # changed answers named in a cell's tooltip


def require_plotly() -> None:
    """A :class:`UsageError` now where the HTML report could not be drawn later (``run
    --html`` checks it before the run: it was found only after a whole run)."""
    _plotly()


def _plotly():
    try:
        import plotly.graph_objects as go
        import plotly.offline
    except ImportError:
        raise UsageError("the HTML report draws with plotly: pip install 'bleu-harness[html]' "
                         "(or pip install plotly)") from None
    return go, plotly.offline


def column_of(record: CheckRecord) -> str:
    """Who was checked: the implementation under test as each convention it claims
    (``as nltk``), or a live library against its recorded values (``nltk drift``)."""
    if record.check == DRIFT_CHECK:
        return f"{record.backend} drift"
    return f"as {record.convention}"


def worst(verdicts: Sequence[str]) -> str:
    return min(verdicts, key=lambda v: SEVERITY.index(v) if v in SEVERITY else len(SEVERITY))


def _cells(run: Run) -> dict[str, dict[str, str]]:
    cells: dict[str, dict[str, list[str]]] = {}
    for record in run.checks:
        if record.check != DIVERGENCE_CHECK:
            cells.setdefault(record.case, {}).setdefault(column_of(record), []).append(
                record.verdict)
    return {case: {column: worst(v) for column, v in columns.items()}
            for case, columns in cells.items()}


def _families(records: Sequence[CheckRecord]) -> list[str]:
    return sorted({t.split("@")[0] for r in records for t in r.tags})


def answer_key(record: CheckRecord) -> tuple:
    """What aligns one check across two runs when only its answer is compared: the check
    without its expected value (another release of a library has other recorded values)."""
    case, check, who, convention, options, _, figure = record.key()
    return (case, check, who, convention, options, figure, record.other, record.backend)


def _was(record: CheckRecord, before: Mapping[tuple, CheckRecord]) -> dict[str, str] | None:
    """The previous run's answer and verdict of this check, where either differs."""
    old = before.get(answer_key(record))
    if old is None:
        return None
    if shown(old.actual) == shown(record.actual) and old.verdict == record.verdict:
        return None
    return {"actual": shown(old.actual), "verdict": old.verdict}


def _check(record: CheckRecord, was: dict[str, str] | None = None) -> dict[str, Any]:
    return {"was": was, "column": column_of(record), "check": record.check,
            "verdict": record.verdict, "figure": record.figure,
            "options": options_shown(record.options), "comparison": comparison(record),
            "actual": shown(record.actual),
            "cause": cause_of(record) if record.verdict not in (PASS, DIVERGENCE) else "",
            "known": record.known, "origin": origin(record.provenance),
            "url": origin_url(record.provenance), "line": record.line,
            "message": record.message}


def _detail(case_id: str, records: Sequence[CheckRecord], case: Case | None,
            before: Mapping[tuple, CheckRecord]) -> dict[str, Any]:
    detail: dict[str, Any] = {"checks": [_check(r, _was(r, before)) for r in records
                                         if r.check != DIVERGENCE_CHECK]}
    divergences = [r for r in records if r.check == DIVERGENCE_CHECK]
    detail["divergences"] = [f"{r.convention} ≠ {r.other}: {r.message}" for r in divergences]
    if case is not None:
        detail.update(description=case.description, level=case.level,
                      tokens=case.tokenizer or "whitespace",
                      segments=[{"hyp": visible(s.hyp), "refs": [visible(r) for r in s.refs]}
                                for s in case.segments[:SEGMENTS_SHOWN]],
                      more=max(0, len(case.segments) - SEGMENTS_SHOWN))
    return detail


def matrix_data(run: Run, cases: Mapping[str, Case], previous: Run | None) -> dict[str, Any]:
    by_case: dict[str, list[CheckRecord]] = {}
    for record in run.checks:
        by_case.setdefault(record.case, []).append(record)
    cells = _cells(run)
    before = _cells(previous) if previous is not None else {}
    old_checks: dict[tuple, CheckRecord] = {}
    for record in (previous.checks if previous is not None else ()):
        old_checks.setdefault(answer_key(record), record)
    columns = sorted({c for row in cells.values() for c in row},
                     key=lambda c: (c.endswith(" drift"), c))
    rows = []
    for case_id, records in by_case.items():
        case = cases.get(case_id)
        row_cells = {}
        changed = False
        for column, verdict in cells.get(case_id, {}).items():
            cell: dict[str, Any] = {"verdict": verdict}
            old = before.get(case_id, {}).get(column) if previous is not None else None
            if previous is not None and old != verdict:
                cell["was"] = old or "absent"
                changed = True
            answers = [_answer_change(r, was) for r in records
                       if column_of(r) == column and r.check != DIVERGENCE_CHECK
                       for was in [_was(r, old_checks)] if was is not None
                       and was["actual"] != shown(r.actual)]
            if answers:
                cell["answers"] = answers[:ANSWERS_SHOWN]
                cell["answers_changed"] = len(answers)
                changed = True
            row_cells[column] = cell
        input_families = _families([r for r in records if r.check == DIVERGENCE_CHECK]
                                   or records)
        rows.append({"case": case_id, "file": f"{records[0].file}",
                     "tags": list(case.tags) if case else [], "families": input_families,
                     "conventions": sorted({r.convention for r in records}),
                     "cells": row_cells, "changed": changed})
    if previous is not None:
        rows.sort(key=lambda row: not row["changed"])
    return {"columns": columns, "rows": rows,
            "changes": _changes(rows) if previous is not None else None,
            "details": {case_id: _detail(case_id, records, cases.get(case_id), old_checks)
                        for case_id, records in by_case.items()},
            "filters": {"family": sorted({f for r in rows for f in r["families"]}),
                        "tag": sorted({t for r in rows for t in r["tags"]}),
                        "convention": sorted({c for r in rows for c in r["conventions"]}),
                        "verdict": [v for v in SEVERITY
                                    if any(c["verdict"] == v for r in rows
                                           for c in r["cells"].values())]}}


def _answer_change(record: CheckRecord, was: Mapping[str, str]) -> str:
    """``check: old answer → new answer`` for a cell's tooltip."""
    figure = f" {record.figure}" if record.figure != "score" else ""
    return f"{record.check}{figure}: {was['actual']} → {shown(record.actual)}"


def _changes(rows: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How much changed between the two runs: cells, cells whose verdict changed, answers
    that changed, cases."""
    cells = [c for row in rows for c in row["cells"].values()]
    return {"cases": sum(1 for row in rows if row["changed"]),
            "cells": sum(1 for c in cells if "was" in c or c.get("answers_changed")),
            "verdicts": sum(1 for c in cells if "was" in c),
            "answers": sum(c.get("answers_changed", 0) for c in cells)}


def changes_phrase(changes: Mapping[str, int] | None) -> str:
    if changes is None:
        return ""
    if not changes["cells"]:
        return "nothing changed"
    return (f"{changes['cells']} cells changed in {changes['cases']} cases: "
            f"{changes['verdicts']} verdicts, {changes['answers']} answers")


def divergence_figures(run: Run) -> list[dict[str, Any]]:
    """The divergence map as two Plotly figures (JSON): conventions × conventions (cases
    where they disagree) and conventions × knob (the divergences it takes part in that
    switching this knob explains, from the knob model's attribution)."""
    go, _ = _plotly()
    pairs: Counter = Counter()
    causes: dict[str, Counter] = {}
    conventions: list[str] = []
    for record in run.checks:
        if record.verdict != DIVERGENCE:
            continue
        a, b = record.convention, record.other
        for name in (a, b):
            if name not in conventions:
                conventions.append(name)
        pairs[(a, b)] += 1
        pairs[(b, a)] += 1
        for knob in cause_knobs(record):
            for name in (a, b):
                causes.setdefault(name, Counter())[knob] += 1
    if not conventions:
        return []
    knob_names = sorted({k for counter in causes.values() for k in counter})
    grid = [[pairs[(a, b)] for b in conventions] for a in conventions]
    first = go.Figure(go.Heatmap(z=grid, x=conventions, y=conventions, colorscale="Reds",
                                 hovertemplate="%{y} ≠ %{x}: %{z} cases<extra></extra>"))
    first.update_layout(title="How often conventions disagree (cases)", height=520,
                        margin=dict(l=120, r=20, t=50, b=100),
                        yaxis=dict(autorange="reversed"))
    second = go.Figure(go.Heatmap(
        z=[[causes.get(c, Counter())[k] for k in knob_names] for c in conventions],
        x=knob_names, y=conventions, colorscale="Blues",
        hovertemplate="%{y}, %{x}: %{z} divergences<extra></extra>"))
    second.update_layout(title="Why: divergences per convention and the knob that explains "
                               "them", height=520,
                         margin=dict(l=120, r=20, t=50, b=160),
                         yaxis=dict(autorange="reversed"))
    return [json.loads(first.to_json()), json.loads(second.to_json())]


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element."""
    return (json.dumps(value, ensure_ascii=False, allow_nan=False)
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def render_html(run: Run, cases: Mapping[str, Case], previous: Run | None = None) -> str:
    _, offline = _plotly()
    code = run.footer.exit_code
    status = status_word(run)
    matrix = matrix_data(run, cases, previous)
    changes = changes_phrase(matrix["changes"])
    setup = ([f"{what}: {a} → {b}" for what, a, b in setup_changes(previous, run)]
             if previous is not None else [])
    header = {
        "title": title(run), "summary": counts_line(run), "exit": code,
        "status": status + (f" · {changes}" if changes else ""),
        "changed": bool(matrix["changes"] and matrix["changes"]["cells"]) or bool(setup),
        "setup": setup,
        "corpus_hash": run.header.corpus_hash, "known": dict(run.header.known),
        "backends": [{"name": b.name, "version": b.version, "role": b.role,
                      "status": b.status,
                      "note": b.note if b.status != "not installed" else ""}
                     for b in run.header.backends],
        "previous": previous.path if previous is not None else "",
        "previous_summary": counts_line(previous) if previous is not None else "",
    }
    data = {"header": header, "matrix": matrix,
            "figures": divergence_figures(run)}
    head, _, rest = PAGE.partition("/*PLOTLY*/")
    middle, _, tail = rest.partition("/*DATA*/")
    return head + offline.get_plotlyjs() + middle + _script_json(data) + tail


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>bleu-harness report</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 0 1.5em 2em; color: #222; }
header { position: sticky; top: 0; background: #fff; padding: .6em 0; z-index: 2;
         border-bottom: 1px solid #ddd; }
h1 { font-size: 1.3em; margin: .2em 0; }
.status { display: inline-block; padding: .1em .6em; border-radius: 4px; color: #fff; }
.status.ok { background: #2e7d32; } .status.bad { background: #c62828; }
.status.changed { background: #1565c0; }
#setup { color: #1565c0; font-weight: bold; }
.muted { color: #666; } .mono { font-family: ui-monospace, monospace; }
#filters { margin: .8em 0; display: flex; flex-wrap: wrap; gap: .8em; align-items: center; }
#filters label { display: flex; gap: .3em; align-items: center; }
table.matrix { border-collapse: collapse; font-size: 12px; }
table.matrix th { position: sticky; top: 7.2em; background: #fafafa; writing-mode: vertical-rl;
                  transform: rotate(180deg); padding: .3em; font-weight: normal;
                  border: 1px solid #eee; max-height: 12em; }
table.matrix th.case { writing-mode: horizontal-tb; transform: none; text-align: left; }
table.matrix td { border: 1px solid #eee; padding: 0; text-align: center; }
table.matrix td.case { text-align: left; padding: 0 .5em; white-space: nowrap; cursor: pointer; }
td.cell { width: 1.6em; height: 1.4em; cursor: pointer; }
.v-pass { background: #a5d6a7; } .v-fail { background: #ef5350; } .v-error { background: #8e24aa; }
.v-drift { background: #ffb74d; } .v-unsupported { background: #cfd8dc; }
.v-skipped { background: #eceff1; }
td.cell.changed { outline: 2px solid #1565c0; outline-offset: -2px; color: #0d47a1;
                  font-weight: bold; font-size: 11px; }
#legend span.changed { outline: 2px solid #1565c0; outline-offset: -2px; }
#detail .was { color: #0d47a1; font-weight: bold; }
tr.changed td.case { font-weight: bold; }
#legend span { display: inline-block; padding: 0 .5em; margin-right: .3em; border-radius: 3px; }
#detail { position: fixed; top: 0; right: 0; width: min(46em, 60vw); height: 100vh;
          overflow: auto; background: #fff; border-left: 2px solid #888; padding: 1em;
          box-shadow: -4px 0 12px rgba(0,0,0,.15); z-index: 3; }
#detail[hidden] { display: none; }
#detail .check { border-left: 5px solid #ccc; padding: .3em .6em; margin: .6em 0;
                 background: #fafafa; }
#detail .check-title { margin-bottom: .2em; }
#detail .badge { padding: 0 .4em; border-radius: 3px; }
#detail .cause { margin-top: .2em; }
.v-border-fail { border-left-color: #ef5350 !important; }
.v-border-error { border-left-color: #8e24aa !important; }
.v-border-drift { border-left-color: #ffb74d !important; }
.v-border-pass { border-left-color: #a5d6a7 !important; }
pre.segment { white-space: pre-wrap; background: #f6f6f6; padding: .4em; margin: .2em 0; }
.plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(30em, 1fr)); gap: 1em; }
</style>
</head>
<body>
<header>
  <h1>bleu-harness report <span id="status" class="status"></span></h1>
  <div id="title" class="muted"></div>
  <div id="summary"></div>
  <div id="previous" class="muted"></div>
  <div id="setup"></div>
</header>
<section>
  <h2>Backends</h2>
  <table id="backends" class="mono"></table>
  <p class="muted mono" id="hash"></p>
</section>
<section>
  <h2>Conformance matrix</h2>
  <div id="legend"></div>
  <div id="filters"></div>
  <p id="count" class="muted"></p>
  <table class="matrix" id="matrix"><thead></thead><tbody></tbody></table>
</section>
<section>
  <h2>Divergence map</h2>
  <p class="muted">Where the conventions disagree with each other on the corpus: expected and
  documented differences, not failures.</p>
  <div class="plots"><div id="plot-0"></div><div id="plot-1"></div></div>
</section>
<aside id="detail" hidden></aside>
<script>/*PLOTLY*/</script>
<script id="data" type="application/json">/*DATA*/</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("data").textContent);
const M = DATA.matrix;
function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
function header() {
  const h = DATA.header;
  const status = document.getElementById("status");
  status.textContent = h.status;
  status.className = "status " + (h.exit !== 0 ? "bad" : h.changed ? "changed" : "ok");
  if (h.setup.length) document.getElementById("setup").textContent =
      "setup changed: " + h.setup.join("; ");
  document.getElementById("title").textContent = h.title;
  document.getElementById("summary").textContent = h.summary;
  if (h.previous) document.getElementById("previous").textContent =
      "compared with " + h.previous + ": " + h.previous_summary + " (changed cells first)";
  const table = document.getElementById("backends");
  table.appendChild(el("tr")).append(el("th", {}, "backend"), el("th", {}, "version"),
                                     el("th", {}, "role"), el("th", {}, "status"));
  for (const b of h.backends) {
    const row = table.appendChild(el("tr"));
    row.append(el("td", {}, b.name), el("td", {}, b.version), el("td", {}, b.role),
               el("td", {}, b.status + (b.note ? " (" + b.note + ")" : "")));
  }
  document.getElementById("hash").textContent = "corpus " + h.corpus_hash +
      Object.entries(h.known).map(([k, v]) => " · " + k + ": " + v).join("");
}
const FILTERS = {family: "", tag: "", convention: "", verdict: "", text: ""};
function filters() {
  const box = document.getElementById("filters");
  for (const name of ["family", "tag", "convention", "verdict"]) {
    const label = box.appendChild(el("label", {}, name));
    const select = label.appendChild(el("select", {id: "filter-" + name}));
    select.appendChild(el("option", {value: ""}, "all"));
    for (const value of M.filters[name]) select.appendChild(el("option", {value: value}, value));
    select.addEventListener("change", () => { FILTERS[name] = select.value; draw(); });
  }
  const label = box.appendChild(el("label", {}, "case"));
  const input = label.appendChild(el("input", {id: "filter-text", type: "search",
                                              placeholder: "id contains"}));
  input.addEventListener("input", () => { FILTERS.text = input.value; draw(); });
  const legend = document.getElementById("legend");
  for (const v of ["pass", "fail", "error", "drift", "unsupported", "skipped"])
    legend.appendChild(el("span", {class: "v-" + v}, v));
  if (DATA.header.previous)
    legend.appendChild(el("span", {class: "changed", id: "legend-changed"},
                          "Δ changed since " + DATA.header.previous + " (verdict or answer)"));
}
function visibleColumns() {
  return M.columns.filter(c => !FILTERS.convention || c === "as " + FILTERS.convention
                          || c === FILTERS.convention + " drift");
}
function keep(row, columns) {
  if (FILTERS.family && !row.families.includes(FILTERS.family)) return false;
  if (FILTERS.tag && !row.tags.includes(FILTERS.tag)) return false;
  if (FILTERS.text && !row.case.includes(FILTERS.text)) return false;
  const cells = columns.map(c => row.cells[c]).filter(Boolean);
  if (FILTERS.convention && !cells.length) return false;
  if (FILTERS.verdict && !cells.some(c => c.verdict === FILTERS.verdict)) return false;
  return true;
}
function draw() {
  const columns = visibleColumns();
  const table = document.getElementById("matrix");
  const head = table.tHead; head.textContent = "";
  const top = head.appendChild(el("tr"));
  top.appendChild(el("th", {class: "case"}, "case"));
  for (const c of columns) top.appendChild(el("th", {title: c}, c));
  const body = table.tBodies[0]; body.textContent = "";
  let shown = 0;
  for (const row of M.rows) {
    if (!keep(row, columns)) continue;
    shown += 1;
    const tr = body.appendChild(el("tr", {class: row.changed ? "changed" : "",
                                          "data-case": row.case}));
    const name = tr.appendChild(el("td", {class: "case", title: row.file}, row.case));
    name.addEventListener("click", () => open(row.case, null));
    for (const c of columns) {
      const cell = row.cells[c];
      const changed = cell && (cell.was || cell.answers);
      const td = tr.appendChild(el("td", {class: "cell" + (cell ? " v-" + cell.verdict : "") +
                                           (changed ? " changed" : "")}, changed ? "Δ" : ""));
      if (cell) {
        td.title = c + ": " + cell.verdict + (cell.was ? " (was " + cell.was + ")" : "") +
            (cell.answers ? "\\nanswer changed: " + cell.answers.join("\\n") +
             (cell.answers_changed > cell.answers.length ? "\\n…" : "") : "");
        td.addEventListener("click", () => open(row.case, c));
      }
    }
  }
  document.getElementById("count").textContent = shown + " of " + M.rows.length + " cases";
}
function open(caseId, column) {
  const d = M.details[caseId];
  const panel = document.getElementById("detail");
  panel.textContent = "";
  const close = panel.appendChild(el("button", {id: "close"}, "close"));
  close.addEventListener("click", () => { panel.hidden = true; });
  panel.appendChild(el("h2", {}, caseId));
  if (d.description) panel.appendChild(el("p", {}, d.description));
  if (d.segments) {
    panel.appendChild(el("p", {class: "muted"}, d.level + " level, " + d.tokens + " tokens"));
    for (const s of d.segments) {
      panel.appendChild(el("pre", {class: "segment"}, "hyp: " + s.hyp + "\\n" +
                           s.refs.map((r, i) => "ref " + (i + 1) + ": " + r).join("\\n")));
    }
    if (d.more) panel.appendChild(el("p", {class: "muted"}, "… and " + d.more + " more segments"));
  } else {
    panel.appendChild(el("p", {class: "muted"}, "inputs: the case file was not found"));
  }
  for (const c of d.checks) {
    if (column && c.column !== column) continue;
    const box = panel.appendChild(el("div", {class: "check v-border-" + c.verdict}));
    const title = box.appendChild(el("div", {class: "check-title"}));
    title.appendChild(el("span", {class: "badge v-" + c.verdict},
        c.verdict + (c.known === true ? " (known)" : c.known === false ? " (new)" : "")));
    title.appendChild(el("b", {}, " " + c.column + " · " + c.check +
                         (c.figure !== "score" ? " · " + c.figure : "")));
    title.appendChild(el("span", {class: "muted"}, " · line " + c.line + " · " + c.options));
    box.appendChild(el("div", {class: "mono"}, c.comparison));
    if (c.was) box.appendChild(el("div", {class: "mono was"}, "before: " + c.was.actual +
                                  " (" + c.was.verdict + ")   now: " + c.actual + " (" +
                                  c.verdict + ")"));
    if (c.cause || c.message) box.appendChild(el("div", {class: "cause"}, c.cause || c.message));
    if (c.url) {
      const line = box.appendChild(el("div", {class: "muted"}, "from "));
      line.appendChild(el("a", {href: c.url}, c.origin || c.url));
    } else if (c.origin) box.appendChild(el("div", {class: "muted"}, "from " + c.origin));
  }
  if (d.divergences.length && !column) {
    panel.appendChild(el("h3", {}, "Divergences between conventions"));
    const list = panel.appendChild(el("ul"));
    for (const text of d.divergences) list.appendChild(el("li", {}, text));
  }
  panel.hidden = false;
}
header(); filters(); draw();
DATA.figures.forEach((figure, i) =>
  Plotly.newPlot("plot-" + i, figure.data, figure.layout, {displaylogo: false, responsive: true}));
</script>
</body>
</html>
"""
