"""``bleu-harness explain``: statistics per order, every convention's score, the divergence
tags, and the attribution of each disagreeing pair."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bleu_harness.bleu import CONVENTIONS, ConventionError, Request
from bleu_harness.bleu.conventions import scores_agree, unit_score
from bleu_harness.bleu.result import ConventionDeclined
from bleu_harness.bleu.tokenizers import tokenizer_name
from bleu_harness.divergence.agreement import attribute_disagreement, disagreements
from bleu_harness.divergence.detectors import DEFAULT_ORDER, Evidence, input_tags
from bleu_harness.divergence.scorer import Scorer
from bleu_harness.explain.inputs import Input


def explain(data: Input, conventions: Sequence[str] = ()) -> dict[str, Any]:
    names = list(conventions) or list(CONVENTIONS)
    requests = [Request(n, data.options_for(n)) for n in names]
    outcomes = dict(zip(names, data.score(requests)))
    scorer = Scorer(list(data.hypotheses), [list(r) for r in data.references], data.level)
    stats = input_statistics(data, scorer)
    answers = {name: _answer(outcome) for name, outcome in outcomes.items()}
    attributions = [attribute_disagreement(scorer, a, data.options_for(a), answers[a],
                                           b, data.options_for(b), answers[b])
                    for a, b in disagreements(answers)]
    try:
        tags = input_tags(scorer, data.tokenizer)
    except ValueError:
        tags = []
    return {
        "case": data.case_id or None, "level": data.level,
        "tokenizer": tokenizer_name(data.tokenizer or "whitespace"),
        "statistics": stats, "tags": tags,
        "results": [_result(n, outcomes[n]) for n in names],
        "disagreements": [a.to_dict() for a in attributions],
    }


def input_statistics(data: Input, scorer: Scorer) -> dict[str, Any] | None:
    """Per-order statistics of the input in its own tokens (whitespace, or the tokenizer it
    names): lengths, clipped matches and n-grams, the closest reference length (the shorter
    on a tie). The same statistics the divergence tags read (``Evidence.stats``)."""
    try:
        corpus = Evidence(scorer, data.tokenizer).stats
    except ValueError:
        return None
    if corpus.has_segment_without_references:
        ref_len = None
    else:
        ref_len = corpus.ref_len("closest_shorter")
    return {"tokens": tokenizer_name(data.tokenizer or "whitespace"), "hyp_len": corpus.hyp_len,
            "ref_len": ref_len, "matches": list(corpus.matches[:DEFAULT_ORDER]),
            "ngrams": list(corpus.totals[:DEFAULT_ORDER])}


def _answer(outcome) -> float | str | None:
    """A convention's answer as the knob model gives it: its score (native scale), or
    ``raises X``; ``None`` where it cannot take the input (unsupported)."""
    if isinstance(outcome, ConventionError):
        if isinstance(outcome, ConventionDeclined):
            return None
        return f"raises {outcome.library_exception}"
    return outcome.score


def _result(name: str, outcome) -> dict[str, Any]:
    if isinstance(outcome, ConventionError):
        kind = "unsupported" if isinstance(outcome, ConventionDeclined) else "raises"
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
        ref_len = stats["ref_len"] if stats["ref_len"] is not None else "none (no reference)"
        lines.append(f"  {stats['tokens']} tokens: hypothesis length {stats['hyp_len']}, "
                     f"reference length {ref_len} (the closest, the shorter on a tie)")
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
                score = step["score"]
                lines.append(f"      after {step['knob']}: "
                             f"{score if isinstance(score, str) else format(score, '.6g')}")
    return "\n".join(lines)


def implementation_answers(data: Input, claims: str, answers: Sequence[tuple[dict, Any]]
                           ) -> list[dict[str, Any]]:
    """For each option set: the implementation's answer, the engine's for the convention it
    claims, and -- where they differ -- the knob diagnosis of the difference."""
    from bleu_harness.bleu import score as engine_score
    from bleu_harness.divergence.diagnose import diagnose
    from bleu_harness.records import Value, shown

    rows = []
    for options, answer in answers:
        try:
            ours: Any = engine_score(list(data.hypotheses), [list(r) for r in data.references],
                                     claims, data.level, **options).score
        except ConventionError as error:
            ours = f"raises {error.library_exception}"
        row = {"options": dict(options), "answer": shown(answer), "convention": ours}
        if isinstance(answer, Value) and not isinstance(ours, str):
            row["agrees"] = scores_agree(claims, answer.score, claims, ours)
            if not row["agrees"] and not answer.is_list:
                row["cause"] = diagnose(data.hypotheses, data.references, data.level, claims,
                                        options, answer.score).to_dict()
        else:
            row["agrees"] = isinstance(ours, str) and shown(answer).startswith("raises")
        rows.append(row)
    return rows


def render_implementation(name: str, claims: str, rows: Sequence[dict[str, Any]]) -> str:
    """The implementation's verdict and answers: what ``explain --implementation`` says
    first, before the detail."""
    differ = sum(not row["agrees"] for row in rows)
    verdict = (f"agrees with {claims}" if not differ else f"differs from {claims}"
               + (f" on {differ} of {len(rows)} option sets" if len(rows) > 1 else ""))
    lines = [f"The implementation under test ({name}, claims {claims}): {verdict}"]
    for row in rows:
        options = ", ".join(f"{k}={v}" for k, v in row["options"].items()
                            if k != "tokenize") or "defaults"
        head = f"  {options}: {row['answer']} where {claims} gives {row['convention']}"
        if row["agrees"]:
            lines.append(f"  {options}: {row['answer']}, as {claims}")
        elif "cause" in row:
            lines.append(f"{head}: {row['cause']['sentence']}")
        else:
            lines.append(head)
    return "\n".join(lines)
