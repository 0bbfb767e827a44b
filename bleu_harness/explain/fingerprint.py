"""``bleu-harness fingerprint``: which convention a black-box implementation follows, family
by family.

The probes are cases of the bundled corpus (``PROBES``: a few per divergence family, chosen
so that the conventions split on them). The implementation scores each with its own
defaults; each engine convention scores it with its defaults and the case's tokenization.
A family is attributed to the conventions that agree with the implementation on every probe
of that family; a family where no convention agrees is reported as an inconsistency.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bleu_harness.bleu import CONVENTIONS, ConventionError, score
from bleu_harness.bleu.agreement import FLOAT32_TOLERANCE, percent_scale, same_score
from bleu_harness.bleu.conventions import unit_score
from bleu_harness.bleu.knobs import describe
from bleu_harness.bleu.result import ConventionDeclined
from bleu_harness.cases.loader import load
from bleu_harness.cases.model import Case
from bleu_harness.checkplan import effective_options, request_for
from bleu_harness.divergence.diagnose import MAX_KNOBS, Probe, explain_answers
from bleu_harness.errors import InputError
from bleu_harness.records import BackendOutcome, BackendRequest, Raised, Value

#: family -> (the knob (``bleu_harness.bleu.knobs``) its behaviour shows, probe case ids); for
#: the input checks the behaviour is what the matching conventions answer on the probes.
PROBES: dict[str, tuple[str, tuple[str, ...]]] = {
    "ref-length-tie": ("ref", ("b05-tie-longer-first", "b06-tie-shorter-first",
                               "tie-len8-longer-first")),
    "closest-vs-shortest": ("ref", ("b07-tf-nmt-issue-450", "b08-closest-vs-shortest")),
    "zero-overlap": ("zero", ("b01-zero-overlap", "b02-john-loves-mary-who-loves-mike",
                              "b13-you-are-ready", "zero-order3-long")),
    "short-hypothesis": ("empty_order", ("b03-identical-three-tokens", "b04-one-token",
                                 "b12-let-go-it")),
    "corpus-denominator-floor": ("denominator", ("b16-phantom-denominators",
                                           "b17-short-segment-in-corpus")),
    "empty-hypothesis": ("input_rules", ("b09-empty-hypothesis", "empty-corpus-one-empty-hyp")),
    "empty-reference": ("input_rules", ("b10-empty-reference", "empty-ref-among-others")),
    "case": ("case", ("b24-case",)),
    "weights": ("normalise", ("b20-unnormalised-weights",)),
}


def _scaled(outcome: BackendOutcome, scale: float) -> float | str:
    if isinstance(outcome, Value):
        return outcome.score / scale
    if isinstance(outcome, Raised):
        return "raises"  # any exception: implementations name theirs differently
    return f"({outcome.kind})"


def probe_cases(paths: Sequence[str] = ()) -> dict[str, Case]:
    """The probe cases, from the corpus."""
    wanted = dict.fromkeys(p for _, ids in PROBES.values() for p in ids)
    loaded = load(list(paths) or None, mentioning=wanted)
    cases = {c.id: c for c in loaded.cases}
    missing = [p for p in wanted if p not in cases]
    if missing:
        raise InputError(f"probe cases missing from the corpus: {', '.join(missing)}")
    return {case_id: cases[case_id] for case_id in wanted}


def probe_requests(cases: Mapping[str, Case], backend: str) -> dict[str, BackendRequest]:
    """One request per probe, with the implementation's own defaults (no options)."""
    return {case_id: request_for(case, backend, "", {}) for case_id, case in cases.items()}


def engine_score(case: Case, convention: str) -> float | str:
    """The engine's answer at the convention's defaults, on the 0-1 scale."""
    try:
        result = score(case.hypotheses, case.references, convention, case.level,
                       **effective_options(case, convention, {}))
    except ConventionError as error:
        return "(unsupported)" if isinstance(error, ConventionDeclined) else "raises"
    return unit_score(convention, result.score)


def fingerprint(name: str, cases: Mapping[str, Case],
                answers: Mapping[str, BackendOutcome]) -> dict[str, Any]:
    values = [a.score for a in answers.values() if isinstance(a, Value)]
    scale = percent_scale(values)
    families = []
    for family, (knob, ids) in PROBES.items():
        theirs = {i: _scaled(answers[i], scale) for i in ids}
        like, agreeing = [], {}
        unanswered = all(_no_answer(theirs[i]) for i in ids)
        for convention in () if unanswered else CONVENTIONS:
            ours = {i: engine_score(cases[i], convention) for i in ids}
            if all(same_score(theirs[i], ours[i], FLOAT32_TOLERANCE) for i in ids):
                like.append(convention)
                agreeing = ours
        families.append({
            "family": family, "probes": list(ids), "like": like,
            "behaviour": _behaviour(knob, like, agreeing),
            "answers": dict(theirs),  # exact: tiny versus zero is what some families show
            "unanswered": unanswered,  # a timeout or a crash on every probe: no evidence
        })
    closest = _overall(families)
    explanation = _one_cause(cases, answers, closest, families)
    if explanation is not None:
        closest = [explanation["convention"]]
        for f in families:
            f["explained_by"] = explanation["sentence"] if explanation["convention"] not in (
                f["like"]) else ""
    return {"implementation": name, "scale": "0-100" if scale == 100 else "0-1",
            "families": families, "explanation": explanation,
            "inconsistent": [f["family"] for f in families if not f["like"]
                             and not f.get("explained_by") and not f["unanswered"]],
            "closest_overall": closest}


def _no_answer(answer: float | str) -> bool:
    """Whether a probe's answer is none at all: a timeout, a crash, garbage (``"(kind)"``,
    :func:`_scaled`), not a score or an exception the implementation raised."""
    return isinstance(answer, str) and answer.startswith("(")


def _one_cause(cases: Mapping[str, Case], answers: Mapping[str, BackendOutcome],
               closest: list[str], families) -> dict[str, Any] | None:
    """One knob change of one convention (the closest first) that gives every answer the
    implementation gave -- the cause of all its differences, when there is one. Probes it
    raised on must be ones the convention raises on too."""
    ranked = sorted(CONVENTIONS, key=lambda c: (c not in closest,
                                                -sum(c in f["like"] for f in families)))
    found: list[tuple[int, int, Any]] = []
    for rank, convention in enumerate(ranked):
        # the best so far is (cost, rank): a later convention wins only with fewer changes
        smaller = min(cost for cost, _, _ in found) - 1 if found else MAX_KNOBS
        if smaller < 0:
            break
        probes, consistent = [], True
        for case_id, answer in answers.items():
            case = cases[case_id]
            ours = engine_score(case, convention)
            if isinstance(answer, Value) and not isinstance(ours, str):
                probes.append(Probe(case.hypotheses, case.references, case.level,
                                    effective_options(case, convention, {}), answer.score))
            elif isinstance(answer, Value) or isinstance(ours, str) != isinstance(answer, Raised):
                consistent = False
                break
        if not consistent or not probes:
            continue
        diagnosis = explain_answers(convention, probes, max_knobs=smaller)
        if diagnosis.explained:
            found.append((len(diagnosis.knobs) + (diagnosis.scale != 1), rank, diagnosis))
    if not found:
        return None
    _, _, best = min(found, key=lambda item: item[:2])
    if not best.knobs and best.scale == 1:
        return None  # it is that convention: nothing to explain
    document = best.to_dict()
    document["sentence"] = best.sentence("the implementation")
    return document


def _behaviour(knob: str, like: list[str], answers: Mapping[str, float | str]) -> str:
    """The knob value the matching conventions share, in words (for the input checks: what
    they answer on the probes)."""
    if not like:
        return "matches no known convention"
    if knob == "input_rules":
        return ", ".join(f"{i}: {a if isinstance(a, str) else f'{a:.6g}'}"
                         for i, a in answers.items())
    shown = []
    for name in like:
        convention = CONVENTIONS[name]
        value = getattr(convention.knobs(convention.resolve("corpus", {}), "corpus"), knob)
        if describe(knob, value) not in shown:
            shown.append(describe(knob, value))
    return " / ".join(shown)


def answer_text(answer: float | str) -> str:
    """An answer on 6 significant digits: 6.2e-78 stays 6.2e-78 (never rounded to 0, which
    would hide the zero-overlap family's tiny-versus-zero difference)."""
    return answer if isinstance(answer, str) else f"{answer:.6g}"


def _overall(families: list[dict[str, Any]]) -> list[str]:
    counts = {name: sum(name in f["like"] for f in families) for name in CONVENTIONS}
    best = max(counts.values(), default=0)
    return [name for name, count in counts.items() if count == best and best > 0]


def render(document: dict[str, Any]) -> str:
    shown = ", shown on 0-1" if document["scale"] != "0-1" else ""
    lines = [f"fingerprint of {document['implementation']} (answers on a "
             f"{document['scale']} scale{shown})"]
    width = max(len(f["family"]) for f in document["families"])
    explanation = document.get("explanation")
    if explanation:
        lines.append(f"  one cause explains every probe: {explanation['sentence']}")
    for f in document["families"]:
        also = (f"; {explanation['convention']} with {explanation['group']}"
                if f.get("explained_by") else "")
        if f["like"]:
            lines.append(f"  {f['family']:<{width}}  like {', '.join(f['like'])}"
                         + (f"  [{f['behaviour']}]" if f["behaviour"] else "") + also)
        elif f.get("explained_by"):
            lines.append(f"  {f['family']:<{width}}  like {explanation['convention']} with "
                         f"{explanation['group']}")
        else:
            answers = ", ".join(f"{k}={answer_text(v)}" for k, v in f["answers"].items())
            verdict = ("UNKNOWN: no answer to compare" if f.get("unanswered")
                       else "INCONSISTENT: matches no known convention")
            lines.append(f"  {f['family']:<{width}}  {verdict} ({answers})")
    closest = ", ".join(document["closest_overall"]) or "none"
    if explanation and explanation["convention"] in document["closest_overall"]:
        closest += f" (with {explanation['group']})"
    lines.append(f"closest overall: {closest}")
    return "\n".join(lines)
