"""``bleu-harness explain``: statistics per order, every convention's score, the divergence
tags, and the attribution of each disagreeing pair."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from harness.bleu import CONVENTIONS, ConventionError, Request
from harness.bleu.conventions import scores_agree, unit_score
from harness.bleu.result import UNSUPPORTED_INPUT
from harness.explain.attribution import Attribution, Scorer, attribute
from harness.explain.inputs import Input
from harness.tags import input_tags


def explain(data: Input, conventions: Sequence[str] = ()) -> dict[str, Any]:
    names = list(conventions) or list(CONVENTIONS)
    requests = [Request(n, data.options_for(n)) for n in names]
    outcomes = dict(zip(names, data.score(requests)))
    stats = outcomes_statistics(outcomes)
    scorer = Scorer(data.hypotheses, data.references)
    attributions: list[Attribution] = []
    for a, b in combinations(names, 2):
        x, y = outcomes[a], outcomes[b]
        if isinstance(x, ConventionError) or isinstance(y, ConventionError):
            continue
        if not scores_agree(a, x.score, b, y.score):
            attributions.append(attribute(scorer, a, x.options, unit_score(a, x.score),
                                          b, y.options, unit_score(b, y.score)))
    try:
        tags = input_tags(list(data.hypotheses), [list(r) for r in data.references], data.level,
                          data.tokenizer)
    except ValueError:
        tags = []
    return {
        "case": data.case_id or None, "level": data.level,
        "tokenizer": data.tokenizer or "whitespace",
        "statistics": stats, "tags": tags,
        "results": [_result(n, outcomes[n]) for n in names],
        "disagreements": [a.to_dict() for a in attributions],
    }


def outcomes_statistics(outcomes) -> dict[str, Any] | None:
    """Per-order statistics of the whitespace-tokenized input (from the first convention that
    scored on whitespace tokens; NLTK's if present)."""
    for name in ("nltk", "multi-bleu", "torchmetrics", *outcomes):
        result = outcomes.get(name)
        if result is not None and not isinstance(result, ConventionError):
            return {"from": name, "hyp_len": result.hyp_len, "ref_len": result.ref_len,
                    "matches": list(result.counts), "ngrams": list(result.totals)}
    return None


def _result(name: str, outcome) -> dict[str, Any]:
    if isinstance(outcome, ConventionError):
        kind = "unsupported" if outcome.library_exception == UNSUPPORTED_INPUT else "raises"
        return {"convention": name, kind: outcome.library_exception, "rule": outcome.rule}
    return {"convention": name, "score": outcome.score,
            "score_0_1": unit_score(name, outcome.score),
            "signature": outcome.signature}


def render(document: dict[str, Any]) -> str:
    """The explanation as text a researcher reads (and pastes)."""
    lines = []
    title = f"case {document['case']}" if document["case"] else "input"
    lines.append(f"{title} ({document['level']} level, {document['tokenizer']} tokens)")
    stats = document["statistics"]
    if stats:
        lines.append(f"  hypothesis length {stats['hyp_len']}, reference length {stats['ref_len']}"
                     f" (as {stats['from']} picks it)")
        for n, (m, t) in enumerate(zip(stats["matches"], stats["ngrams"]), start=1):
            lines.append(f"  {n}-grams: {m} of {t} match")
    lines.append(f"  families: {', '.join(document['tags']) or '(none)'}")
    lines.append("")
    width = max(len(r["convention"]) for r in document["results"])
    for r in document["results"]:
        if "score" in r:
            shown = f"{r['score']!r}"
        else:
            shown = f"{'raises ' + r['raises'] if 'raises' in r else 'unsupported'} ({r['rule']})"
        lines.append(f"  {r['convention']:<{width}}  {shown}")
    if document["disagreements"]:
        lines.append("")
        lines.append("Why they disagree:")
        for d in document["disagreements"]:
            lines.append(f"  - {d['sentence']}")
            for step in d["steps"] if len(d["steps"]) > 1 else ():
                lines.append(f"      after {step['knob']}: {step['score']:.6g}")
    return "\n".join(lines)
