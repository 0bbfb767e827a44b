"""``bleu-harness identify``: which conventions and options produce a published score.

Every convention is scored with each of its ``variants`` (one statistics pass per
tokenization) and each result is compared to the value as printed, on the 0-1 and on the
0-100 scale: "23.17" matches a score that rounds to 23.17 there.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from typing import Any

from bleu_harness.text import count_of
from bleu_harness.bleu import CONVENTIONS, ConventionError, Request
from bleu_harness.bleu.conventions import unit_score
from bleu_harness.bleu.history import HISTORIES
from bleu_harness.compare import expected_float, matches
from bleu_harness.bleu.tokenizers import tokenizer_name
from bleu_harness.divergence.attribution import plain
from bleu_harness.explain.inputs import Input
from bleu_harness.textfiles import InputError


@dataclass(frozen=True)
class Candidate:
    convention: str
    options: dict[str, Any]
    score: float  # native scale
    shown_as: float  # on the scale the value was given in
    signature: str
    matches: bool

    def to_dict(self) -> dict[str, Any]:
        return {"convention": self.convention,
                "options": {k: shown_option(v) for k, v in self.options.items()},
                "score": self.score, "compared_as": self.shown_as, "signature": self.signature,
                "matches": self.matches}


#: A score as a paper prints it: digits, a point, an exponent, ``...`` where it was cut.
PRINTED = re.compile(r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?(?:\.\.\.)?")


def parse_value(text: str) -> float:
    """``--score``: a number as printed (``float`` alone takes ``1_0``, ``inf`` or spaces)."""
    try:
        if not PRINTED.fullmatch(text):
            raise ValueError(text)
        value = expected_float(text)
    except ValueError:
        raise InputError(f"--score {text!r}: not a number as a paper prints one") from None
    if not math.isfinite(value) or value < 0:
        raise InputError(f"--score {text!r}: a BLEU score is a finite number >= 0")
    if value > 100:
        raise InputError(f"--score {text!r}: BLEU is printed on a 0-1 or a 0-100 scale, "
                         "and this is on neither")
    return value


def published_as(actual: float, text: str) -> bool:
    """Whether a paper could print ``actual`` as ``text``: rounded to its digits (half a unit
    of the last one), or cut there -- published scores are often truncated (the de-en
    TF-NMT score 22.585508457350... is quoted as 22.5855084573)."""
    if matches(actual, text, "printed"):
        return True
    try:
        given = Decimal(text)
        cut = Decimal(repr(actual)).quantize(Decimal(1).scaleb(given.as_tuple().exponent),
                                             rounding=ROUND_DOWN)
    except (ArithmeticError, ValueError):
        return False
    return cut == given


def with_eras(convention: str, variants) -> list[dict[str, Any]]:
    """The variants at the library's latest release, and again as each earlier era of its
    history computed them (``version``: the era's first release)."""
    history = HISTORIES.get(convention)
    out = [dict(v) for v in variants]
    if history is None:
        return out
    for start, end in history.eras():
        if end is not None:
            out += [{**v, "version": start} for v in variants]
    return out


def outcomes_of(data: Input, requests: list[Request]) -> tuple[list, list[str]]:
    """Each request's outcome, and why those left out (``None``) are: scored together in
    one statistics pass per distinct tokenization; where that is an input error -- a
    tokenizer that refuses this input, as pycocoevalcap's PTB pipeline refuses a caption
    whose tokens depend on the caption after it -- each tokenization on its own pass, so
    that only the requests of the one refused are left out. With ``data.jobs`` above 1 the
    tokenizations are shared among worker processes from the start. An error every request
    gives is the input's: raised."""
    if data.jobs == 1:
        try:
            return data.score(requests), []
        except InputError as error:
            together: InputError | None = error
    else:
        together = None
    outcomes: list = []
    reasons: list[str] = []
    for outcome in data.score_each(requests):
        if isinstance(outcome, ValueError):
            outcomes.append(None)
            reasons.append(str(outcome))
        else:
            outcomes.append(outcome)
    if outcomes and all(outcome is None for outcome in outcomes):
        raise together or InputError(reasons[0])
    return outcomes, reasons


def searched_settings(data: Input) -> dict[str, list[dict[str, Any]]]:
    """Each convention's distinct option settings that ``identify`` searches on ``data``."""
    settings: dict[str, list[dict[str, Any]]] = {}
    for name, convention in CONVENTIONS.items():
        if callable(data.tokenizer) and not convention.takes_tokenizer:
            continue  # a convention that takes no tokenizer cannot use the user's
        variants = with_eras(name, convention.variants)
        if callable(data.tokenizer):  # the user's tokens in every setting searched
            variants = [{**v, "tokenize": data.tokenizer} for v in variants]
        options = [data.options_for(name, v) for v in variants]
        settings[name] = list({repr(sorted(o.items())): o for o in options}.values())
    return settings


def outcomes_of_all(data: Input, settings: dict[str, list[dict[str, Any]]],
                    ) -> dict[str, tuple[list, list[str]]]:
    """:func:`outcomes_of` for every convention's settings, scored together in one call --
    one statistics pass per distinct tokenization for all of them, then each setting's
    arithmetic on it -- and told convention by convention: its outcomes, and why each it
    leaves out is left out."""
    requests = [Request(name, o) for name, unique in settings.items() for o in unique]
    outcomes, reasons = outcomes_of(data, requests)
    reasons_of = iter(reasons)
    told: dict[str, tuple[list, list[str]]] = {}
    at = 0
    for name, unique in settings.items():
        mine = outcomes[at:at + len(unique)]
        at += len(unique)
        told[name] = (mine, [next(reasons_of) for outcome in mine if outcome is None])
    return told


def identify(data: Input, value_text: str, closest: int = 5) -> dict[str, Any]:
    value = parse_value(value_text)
    candidates: list[Candidate] = []
    not_searched: list[dict[str, Any]] = []
    settings = searched_settings(data)
    for name, (outcomes, reasons) in outcomes_of_all(data, settings).items():
        unique = settings[name]
        if reasons:
            not_searched.append({"convention": name, "settings": len(reasons),
                                 "reason": reasons[0]})
        for o, outcome in zip(unique, outcomes):
            if outcome is None or isinstance(outcome, ConventionError):
                continue
            unit = unit_score(name, outcome.score)
            for shown in (unit, unit * 100):
                candidates.append(Candidate(name, o, outcome.score, shown, outcome.signature,
                                            published_as(shown, value_text)))
    found = _distinct([c for c in candidates if c.matches])
    near = sorted(candidates, key=lambda c: _distance(c.shown_as, value))
    return {
        "value": value_text, "level": data.level,
        "matches": [c.to_dict() for c in found],
        "closest": [] if found else [c.to_dict() for c in _distinct(near)[:closest * 3]],
        "searched": len({(c.convention, repr(c.options)) for c in candidates}),
        **({"not_searched": not_searched} if not_searched else {}),
    }


def _distance(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-12)


def _distinct(candidates: list[Candidate]) -> list[Candidate]:
    seen, out = set(), []
    for c in candidates:
        key = (c.convention, repr(sorted(c.options.items())))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _changed(convention: str, level: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options that differ from the library's defaults at this level; an earlier release
    as the range of releases that compute as it does (``as nltk >=3.3,<3.4``)."""
    spec = CONVENTIONS[convention]
    defaults = spec.resolve(level, {})
    given = dict(options)
    users = given.pop("tokenize") if ":" in str(given.get("tokenize", "")) else None
    resolved = spec.resolve(level, given)  # the user's tokenizer, by its MODULE:NAME, aside
    if users is not None:
        resolved["tokenize"] = users
    return {k: shown_option(v) for k, v in resolved.items() if defaults.get(k) != v}


def shown_option(value: Any) -> Any:
    """An option value as JSON and the table show it: the user's tokenizer by its name."""
    return tokenizer_name(value) if callable(value) else plain(value)


def releases_text(convention: str, versions: list[str]) -> str:
    """The eras of the releases given (``default``: the latest), merged where adjacent:
    ``as nltk >=3.2.2,<3.5``."""
    history = HISTORIES[convention]
    eras = history.eras()
    chosen = {history.era_of(history.latest if v == "default" else v) for v in versions}
    runs: list[list[tuple[str, str | None]]] = []
    for era in eras:
        if history.era_of(era[0]) in chosen:
            if runs and runs[-1][-1][1] == era[0]:
                runs[-1].append(era)
            else:
                runs.append([era])
    texts = []
    for run in runs:
        start, end = run[0][0], run[-1][1]
        texts.append(f"as {convention} >={start}" + (f",<{end}" if end else ""))
    return " | ".join(texts)


def groups(matches: list[dict[str, Any]], level: str) -> list[dict[str, Any]]:
    """Matches merged: one group per convention and score, with the option settings that
    give it (as changes from the library's defaults), the defaults marked."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for match in matches:
        key = (match["convention"], repr(match["score"]))
        group = merged.setdefault(key, {"convention": match["convention"],
                                        "score": match["score"], "settings": [],
                                        "defaults": False})
        changed = _changed(match["convention"], level, match["options"])
        group["defaults"] = group["defaults"] or not changed
        if changed not in group["settings"]:
            group["settings"].append(changed)
    return list(merged.values())


#: Settings named one by one at most, for a group that is not every combination of values.
MOST_NAMED = 4


def _settings_text(settings: list[dict[str, Any]], convention: str,
                   with_defaults: bool = False) -> str:
    """``smoothing: method0 | method1; auto_reweigh: false | true`` -- each option that
    varies among the settings, with its values (the releases of a library with a history as
    ranges of releases; another's ``version``, Marian's, as it is) -- where the settings are
    every combination of those values (the library's defaults among them, ``| default``,
    when ``with_defaults``). Where they are not, that would name combinations that do not
    give the score: each setting is then named on its own (``the library's defaults; or
    average: micro, smooth: smooth1; or ...``), at most :data:`MOST_NAMED` of them."""
    keys = list(dict.fromkeys(k for s in settings for k in s))
    values = {key: list(dict.fromkeys(json_text(s.get(key, "default")) for s in settings))
              for key in keys}
    present = {tuple(json_text(s.get(key, "default")) for key in keys) for s in settings}
    if with_defaults:
        present.add(tuple("default" for _ in keys))
        values = {key: v if "default" in v else [*v, "default"] for key, v in values.items()}
    combinations = math.prod(len(v) for v in values.values())
    if len(present) != combinations:
        named = [", ".join(f"{key}: {json_text(setting[key])}" for key in setting)
                 for setting in settings]
        if len(named) > MOST_NAMED:
            named = named[:MOST_NAMED] + [f"{len(named) - MOST_NAMED} more settings "
                                          "(--format json lists every one)"]
        return "; or ".join((["the library's defaults"] if with_defaults else []) + named)
    parts = []
    for key in keys:
        if key == "version" and convention in HISTORIES:
            parts.append(f"release: {releases_text(convention, values[key])}")
        else:
            parts.append(f"{key}: {' | '.join(values[key])}")
    return "; ".join(parts)


def _group_text(group: dict[str, Any]) -> str:
    """A group's settings, as :func:`_settings_text` names them (the library's defaults
    among them where they give the score)."""
    varied = [s for s in group["settings"] if s]
    if not varied:
        return "the library's defaults"
    return _settings_text(varied, group["convention"], group["defaults"])


def json_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def render(document: dict[str, Any]) -> str:
    lines = [f"{document['searched']} convention settings searched for {document['value']}."]
    for skipped in document.get("not_searched", ()):
        lines.append(f"  not searched: {skipped['settings']} {skipped['convention']} settings "
                     f"({skipped['reason']})")
    if document["matches"]:
        merged = groups(document["matches"], document["level"])
        lines.append(f"{count_of(len(document['matches']), 'setting')} produce"
                     f"{'s' if len(document['matches']) == 1 else ''} it, in "
                     f"{count_of(len(merged), 'group')} (options as changes from the library's "
                     "defaults):")
        width = max(len(g["convention"]) for g in merged)
        for group in merged:
            lines.append(f"  {group['convention']:<{width}}  {group['score']!r:<22}  "
                         f"{_group_text(group)}")
    else:
        lines.append(f"Nothing produces {document['value']}. Closest:")
        shown_as = {(c["convention"], repr(c["score"])): c["compared_as"]
                    for c in document["closest"]}
        for group in groups(document["closest"], document["level"]):
            value = shown_as[(group["convention"], repr(group["score"]))]
            lines.append(f"  {group['convention']:<13} {value!r:<24} {_group_text(group)}")
    return "\n".join(lines)
